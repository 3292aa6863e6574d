// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package stacked is Filecoin's Stacked-DRG proof of replication as the C2
// prover sees it: the one table of published sector sizes and the sector
// configuration of each registered proof (config.go), porep_id /
// replica_id, the SDR graph (DRG bucket parents and the Feistel expander),
// challenge derivation (interactive, synthetic, non-interactive), the
// commit-phase-1 (C1) JSON types with strict validation and the up-front
// Merkle and column checks (c1_*.go), the StackedCircuit of one partition
// with its sequential and parallel synthesis (circuit.go), its public
// inputs, and the Groth16 parameter file identity.
//
// Everything here mirrors rust-fil-proofs 19.1.0 (storage-proofs-core and
// storage-proofs-porep, commit 87348a74) and rust-filecoin-proofs-api
// 19.0.0 bit for bit; each file names the Rust source it follows.
// Field elements are gnark-crypto BLS12-381 fr.Element values; 32-byte
// domains are little-endian canonical encodings of them.
package stacked
