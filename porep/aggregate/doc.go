// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package aggregate implements SnarkPack (version V2) aggregation of Groth16
// proofs, byte-compatible with bellperson 0.27.0's groth16::aggregate:
// the generic SRS file (`v28-fil-inner-product-v1.srs`) and its
// specialization to n proofs, the TIPP/MIPP argument with KZG openings of
// the final commitment keys, the SHA-256 Fiat–Shamir transcript with
// bincode serialization of blstrs values, and the AggregateProof byte
// format. Aggregation uses no randomness: for the same SRS, proofs and
// transcript include, the bytes equal bellperson's.
//
// Written from the description in bellperson src/groth16/aggregate/
// {srs,prove,verify,commit,transcript,proof}.rs and blstrs 0.7.1
// (gt.rs, serde_impl.rs); no code is copied.
package aggregate
