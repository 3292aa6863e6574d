// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package cuzkv1 is the generated Go code of cuzk.v1, the gRPC protocol of
// Curio's proving daemon (service ProvingEngine), from proving.proto: the
// same package, service, message and field names, numbers and types as
// Curio's extern/cuzk/cuzk-proto/proto/cuzk/v1/proving.proto, so a Curio
// node talks to `cuseal serve` unchanged. Regenerate with
// scripts/gen-proto.sh (pinned protoc-gen-go and protoc-gen-go-grpc);
// TestWireContract checks the descriptor against the field table of the
// wire contract.
package cuzkv1
