// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package groth16 is cuseal's Groth16 layer over BLS12-381: the Filecoin
// `.params` / `.vk` / proof byte formats, deterministic test-parameter
// generation, the Backend interface with its CPU implementation (and, under
// the build tags cuda and supraseal, the CUDA and supraseal-c2 backends over
// the bridge packages), the one shared proof assembly, and the verifier.
//
// Everything here mirrors bellperson 0.27 (filecoin-project/bellperson
// src/groth16/{params.rs,mapped_params.rs,generator.rs,prover/native.rs,
// prover/mod.rs,verifier.rs,verifying_key.rs,proof.rs}) byte for byte and
// point for point; curve arithmetic, MSMs, FFTs and pairings come from
// gnark-crypto v0.22.0 (ecc/bls12-381, fr/fft).
//
// Data flow of one proof:
//
//	cs.Assignment ──Backend.QuerySums──▶ Sums{ΣH, ΣL, ΣA, ΣB_G1, ΣB_G2}
//	Sums + (r, s) ──Assemble──▶ Proof{A, B, C} ──Bytes──▶ 192 bytes
//
// The CPU and CUDA backends return the same five sums, and Assemble is the
// only place where r and s enter, so their proofs are byte-identical for
// fixed r, s by construction. The supraseal backend (a ProofBackend)
// assembles inside supraseal-c2 and returns whole proofs; they are verified
// like the others, and their byte equality with the CPU's is a test.
//
// Formats (docs/formats.md §1–§3): every point in `.params` and
// `.vk` is uncompressed zcash/IETF encoding (G1 96 bytes, G2 192 bytes),
// every count a big-endian u32; proofs are compressed A‖B‖C (192 bytes).
package groth16
