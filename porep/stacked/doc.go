// Package stacked holds the off-circuit parts of Filecoin's Stacked-DRG
// proof of replication: sector configurations per registered proof,
// porep_id / replica_id, the SDR graph (DRG bucket parents and the Feistel
// expander), challenge derivation (interactive, synthetic, non-interactive),
// the commit-phase-1 (C1) JSON types with strict validation, the public
// inputs of one partition circuit and the Groth16 parameter file identity.
//
// Everything here mirrors rust-fil-proofs (storage-proofs-core and
// storage-proofs-porep, commit 87348a74) and rust-filecoin-proofs-api
// 19.0.0 bit for bit; each file names the Rust source it follows.
// Field elements are gnark-crypto BLS12-381 fr.Element values; 32-byte
// domains are little-endian canonical encodings of them.
package stacked
