#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# sppark-root.sh — locate sppark's (and blst's) sources for the CUDA build.
#
# Runs `cargo fetch` and `cargo metadata` on native/sppark-dep/Cargo.toml (crates sppark =0.1.16
# and blst =0.3.17, pinned by its Cargo.lock) and prints two lines:
#   SPPARK_ROOT=<directory of the sppark crate in cargo's registry cache>
#   BLST_ROOT=<directory of the blst crate>
# CMakeLists.txt runs it when CUSEAL_SPPARK=ON and SPPARK_ROOT/BLST_ROOT are not given;
# ./build.sh deps --cuda runs it to fetch ahead of the build. Nothing is copied into the
# repository and nothing is compiled by cargo. Only the CUDA build needs this (and cargo).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MANIFEST=$ROOT/native/sppark-dep/Cargo.toml
CARGO=${CARGO:-cargo}

if ! command -v "$CARGO" >/dev/null 2>&1; then
	cat >&2 <<MSG
sppark-root.sh: cargo not found. The CUDA build takes sppark's kernels (crate sppark =0.1.16)
from cargo's registry: install Rust's cargo >= 1.85 (https://rustup.rs), or pass -DSPPARK_ROOT=<sppark crate dir> -DBLST_ROOT=<blst crate dir> to cmake, or
build the reference kernels only with -DCUSEAL_SPPARK=OFF.
MSG
	exit 1
fi

# --locked: the versions in Cargo.lock, or an error (never a silent upgrade).
"$CARGO" fetch --locked --manifest-path "$MANIFEST" >&2
meta=$("$CARGO" metadata --locked --format-version 1 --manifest-path "$MANIFEST")

crate_dir() { # crate_dir NAME: directory of NAME's Cargo.toml in the metadata
	printf '%s' "$meta" | grep -o "\"manifest_path\":\"[^\"]*/$1-[0-9][0-9.]*/Cargo.toml\"" | head -n 1 |
		sed -e 's/^"manifest_path":"//' -e 's|/Cargo.toml"$||'
}
sppark=$(crate_dir sppark)
blst=$(crate_dir blst)
[ -n "$sppark" ] && [ -f "$sppark/sppark/msm/pippenger.cuh" ] ||
	{ echo "sppark-root.sh: sppark's sources not found in cargo metadata (got '${sppark}')" >&2; exit 1; }
[ -n "$blst" ] && [ -f "$blst/blst/src/blst_t.hpp" ] ||
	{ echo "sppark-root.sh: blst's sources not found in cargo metadata (got '${blst}')" >&2; exit 1; }
printf 'SPPARK_ROOT=%s\nBLST_ROOT=%s\n' "$sppark" "$blst"
