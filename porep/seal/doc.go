// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package seal is a test sealer for Filecoin Stacked-DRG sectors: Fr32
// padding and comm_d, PC1 (SDR labels for every layer), PC2 (tree C, tree
// R_last, comm_r, replica), C1 (vanilla proofs as filecoin-ffi's C1 JSON),
// SnapDeals updates of its sectors (EncodeInto, GenerateUpdateVanillaProofs
// over porep/update), PoSt vanilla proofs of its sectors (PoStVanillaProof,
// filecoin-ffi's GenerateSingleVanillaProof) and vanilla-proof verification
// (correctly shaped but invalid C1 data for benchmarks is
// porep/synthetic's). It exists to produce C1, update and PoSt inputs
// for cuseal's provers and to check them; it is not a production sealer
// (labels are computed on one core, trees are held in memory, no piece
// alignment or sector unsealing).
//
// It mirrors rust-fil-proofs storage-proofs-porep stacked/vanilla
// (create_label/single.rs, proof.rs, params.rs) and filecoin-proofs
// api/seal.rs; the layouts of all outputs are described on Seal.
package seal
