// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package update is Filecoin's SnapDeals sector update (EmptySectorUpdate,
// ProveReplicaUpdate2) as the SNARK prover sees it: the registered update
// proofs and their circuit parameters (config.go), phi, rho and the
// partition challenges (challenges.go), the strict parser and serializer of
// the vanilla partition proofs filecoin-ffi's GenerateUpdateVanillaProofs
// returns (vanilla.go), the public inputs of a partition (inputs.go) and the
// EmptySectorUpdateCircuit of one partition (circuit.go).
//
// Everything mirrors rust-fil-proofs 19.1.0 storage-proofs-update
// (constants.rs, challenges.rs, vanilla.rs, circuit.rs, gadgets.rs,
// compound.rs) bit for bit; each file names the Rust source it follows. The
// specification is the shared update-circuit.md. Field elements are
// gnark-crypto BLS12-381 fr.Element values; 32-byte domains are
// little-endian canonical encodings of them.
package update
