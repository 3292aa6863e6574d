// SPDX-License-Identifier: Apache-2.0 OR MIT

// Command vectors writes the binary test vectors that the native CTest suite
// (native/tests) reads from testdata/native/. Expected values come from
// gnark-crypto v0.22.0 (field and group operations, scalar multiplication) or,
// for the NTT, from direct O(n²) evaluation with ω = 7^((r-1)/n).
//
// Every file is "CUSEALV1", a little-endian uint64 record count, a uint64
// record size in bytes, then the records. Field elements and points are
// written in gnark-crypto's in-memory layout (Montgomery form, little-endian
// 64-bit limbs); the native code uses the identical layout.
//
// Usage (from the repository root): go run ./tools/vectors -out testdata/native
// (or go generate ./tools/vectors). Output is deterministic (fixed seed).
package main
