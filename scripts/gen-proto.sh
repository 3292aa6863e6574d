#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# scripts/gen-proto.sh — regenerate service/cuzkv1/proving.pb.go and proving_grpc.pb.go from
# service/cuzkv1/proving.proto (the cuzk.v1 wire contract, docs/service.md).
#
# Needs protoc (Debian: apt-get install protobuf-compiler; PROTOC=/path/to/protoc to use
# another). Installs the pinned generators into a temporary GOBIN, so the output depends only
# on the versions below (they must match google.golang.org/protobuf and grpc in go.mod).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PROTOC_GEN_GO=v1.36.12      # google.golang.org/protobuf/cmd/protoc-gen-go
PROTOC_GEN_GO_GRPC=v1.6.2   # google.golang.org/grpc/cmd/protoc-gen-go-grpc
PROTOC=${PROTOC:-protoc}

command -v "$PROTOC" >/dev/null || { echo "gen-proto.sh: protoc not found (apt-get install protobuf-compiler)" >&2; exit 2; }
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
GOBIN=$bin go install "google.golang.org/protobuf/cmd/protoc-gen-go@$PROTOC_GEN_GO"
GOBIN=$bin go install "google.golang.org/grpc/cmd/protoc-gen-go-grpc@$PROTOC_GEN_GO_GRPC"

PATH="$bin:$PATH" "$PROTOC" -I service/cuzkv1 \
	--go_out=service/cuzkv1 --go_opt=paths=source_relative \
	--go-grpc_out=service/cuzkv1 --go-grpc_opt=paths=source_relative \
	proving.proto
echo "gen-proto.sh: regenerated service/cuzkv1/proving.pb.go, proving_grpc.pb.go ($("$PROTOC" --version))"
