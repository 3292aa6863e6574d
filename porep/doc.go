// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package porep is cuseal's Filecoin-facing Go API: drop-ins for
// filecoin-ffi's (proofs.go v1.36.1) prover and verifier calls of every
// proof family — PoRep C2 (SealCommitPhase2, VerifySeal; NI-PoRep and
// SnarkPack aggregation), WinningPoSt and WindowPoSt
// (Generate*PoStWithVanilla, Verify*PoSt), SnapDeals
// (GenerateUpdateProofWithVanilla, VerifyReplicaUpdate) — with options for
// the parameter directory, the proving backend, deterministic randomness
// for tests, progress and logging.
//
// Every prover call is one Job run by one runner. A family (PoRep C2,
// FallbackPoSt, EmptySectorUpdate: rust-fil-proofs' CompoundProofs) parses
// and checks its inputs strictly first (errors wrap ErrBadInput and name
// the field), then supplies the contract: its partitions, partition k's
// circuit (porep/stacked, porep/post, porep/update), the public inputs the
// verifier derives, the registered proof's configuration as its parameter
// identity (paramfile.Circuit), and a finish step (concatenate the 192-byte
// proofs, or aggregate them for NI-PoRep). The runner does the rest, the
// same for all: the backend (WithBackend), the keys (Keys: loaded through
// porep/paramfile, the .vk checked against the .params, the production
// policy), synthesis of each partition through cs.BufferPool.Synthesize
// (WithSynthesisWorkers), a bounded pipeline (WithMaxPartitionsInFlight),
// blinding (WithDeterministicRandomness), groth16.Prove, verification of
// every proof with the .vk before it counts, cancellation (WithContext)
// and progress (WithProgress). A scheduler with its own workers and
// provers (porep/engine) runs the same steps through the Job's methods
// (PrepareCommit2, PrepareWinningPoSt, PrepareWindowPoStPartition,
// PrepareUpdate), so its bytes equal the calls' for the same r, s.
//
// Interactive and synthetic PoRep (registered proofs 0–14) return the
// partition proofs; NI-PoRep (15–19) returns their SnarkPack V2 aggregate
// (porep/aggregate), as filecoin-proofs does. AggregateSealProofs and
// VerifyAggregateSeals aggregate and verify interactive seals' proofs.
package porep
