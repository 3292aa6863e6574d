// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package post is Filecoin's FallbackPoSt (WindowPoSt and WinningPoSt) as
// the SNARK prover sees it: the registered PoSt proofs and their circuit
// parameters (config.go), leaf and sector challenges (challenges.go), the
// strict parser of the vanilla proofs filecoin-ffi's
// GenerateSingleVanillaProof returns (vanilla.go) and their up-front checks
// (vanilla_check.go), vanilla proofs from a tree R (vanilla_gen.go:
// generate_single_vanilla_proof for test replicas), partitions, slots and
// padding (partition.go), and the FallbackPoStCircuit of one partition
// (circuit.go: sequential and per-sector parallel synthesis) with its public
// inputs.
//
// Everything mirrors rust-fil-proofs 19.1.0 (storage-proofs-post fallback/,
// filecoin-proofs api/post_util.rs, window_post.rs, winning_post.rs) and
// rust-filecoin-proofs-api 19.1.0 bit for bit; each file names the Rust
// source it follows. The specification is the shared post-circuit.md.
// Field elements are gnark-crypto BLS12-381 fr.Element values; 32-byte
// domains are little-endian canonical encodings of them.
package post
