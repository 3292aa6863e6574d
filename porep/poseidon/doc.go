// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package poseidon is neptune 11.0.0-compatible Poseidon over the BLS12-381
// scalar field (gnark-crypto fr.Element), as Filecoin uses it for tree_c,
// tree_r_last, column hashes and comm_r (filecoin-hashers PoseidonHasher,
// Strength::Standard, HashType::MerkleTree).
//
// Contents, each mirroring argumentcomputer/neptune tag v11.0.0:
//   - constants.go, grain.go, roundnumbers.go, matrix.go: Grain LFSR round
//     constants (round_constants.rs), round numbers R_F = 8 and R_P per width
//     (round_numbers.rs), the Cauchy MDS matrix and its inverse (mds.rs),
//     compressed round constants (preprocessing.rs) and the sparse-matrix
//     factorisation (mds.rs), computed lazily once per arity;
//   - hash.go: the native hash (poseidon.rs hash_optimized_static), without
//     allocation, and the reference permutation (poseidon_alt.rs
//     hash_correct) kept for tests;
//   - circuit.go: the legacy circuit gadget (circuit.rs poseidon_hash) with
//     neptune's exact allocation order, constraint order and coefficients,
//     replayed from a per-arity template; block.go: the same hash written
//     into a cs.BlockEnforcer (the prover) as one block of known values;
//   - tree.go: rust-fil-proofs' compound Poseidon Merkle trees (merkletree
//     0.23 base/sub/top trees) with inclusion paths.
//
// Orientation: neptune multiplies row vectors by matrices,
// out[j] = Σ_i m[i][j]·v[i]; all matrices here follow that convention.
package poseidon
