// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package porep is cuseal's Filecoin-facing Go API: a drop-in for
// filecoin-ffi's SealCommitPhase2 and VerifySeal (filecoin-ffi proofs.go
// v1.36.1; rust-fil-proofs filecoin-proofs api/seal.rs seal_commit_phase2
// and verify_seal), with options for the parameter directory, the proving
// backend, deterministic randomness for tests and logging.
//
// SealCommitPhase2 parses the C1 output (filecoin-ffi's serde JSON, or a
// lotus-bench Commit2In wrapper), synthesizes each partition's
// Stacked-DRG circuit (porep/stacked), proves it with a groth16.Backend
// chosen by name (see WithBackend), verifies the proofs against the
// parameters' verifying key and returns the 192-byte partition proofs
// concatenated in partition order. Partitions flow through a bounded
// pipeline, so at most WithMaxPartitionsInFlight assignments are alive.
//
// Interactive and synthetic PoRep (registered proofs 0–14) return the
// partition proofs; NI-PoRep (15–19) returns their SnarkPack V2 aggregate
// (porep/aggregate), as filecoin-proofs does. AggregateSealProofs and
// VerifyAggregateSeals aggregate and verify interactive seals' proofs.
package porep
