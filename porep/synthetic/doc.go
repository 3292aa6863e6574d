// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package synthetic is benchmark and test support for any sector size (32
// and 64 GiB included) without sealing:
//   - C1: correctly shaped but cryptographically invalid C1 outputs, so that
//     synthesis of PoRep partitions can be measured and tested. Nothing made
//     from them can become a proof (they carry stacked.SyntheticMarkerField,
//     which every prover entry refuses with stacked.ErrSyntheticC1).
//   - ValidC1: valid C1 outputs of interactive-PoRep sectors of any size: a
//     CC sector whose trees C and R_last are sparse — only the challenged
//     nodes are labeled (from their parents' labels), every other node has
//     one fill column — so a 32 GiB C1 costs its challenged paths. Proofs
//     made from them verify.
//   - PoSt: valid WindowPoSt/WinningPoSt vanilla proofs (GenerateSingleVanillaProof
//     bytes) of synthetic sectors whose trees R are sparse — every leaf but
//     the challenged ones holds one fill value, so a sector costs only its
//     challenged paths. Proofs made from them verify.
//   - Update: valid SnapDeals updated sectors (commitments and any partition's
//     GenerateUpdateVanillaProofs bytes) whose trees are sparse — every node
//     but a few seed-chosen ones holds one key label and zero data. Proofs
//     made from them verify.
//
// Only `cuseal bench` commands and tests import it.
package synthetic
