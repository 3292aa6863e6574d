// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package cs is cuseal's constraint-system layer: variables, merged linear
// combinations and the ConstraintSystem interface that every gadget writes
// into, with the implementations ProvingAssignment (witness + a/b/c +
// densities for the prover), Recorder (sparse matrices, R1CS digest) and
// Counter (shape only); the tests' satisfaction checker is
// testsupport/testcs. Circuit is what
// every partition circuit of every proof family implements, and
// BufferPool.Synthesize the one orchestration that synthesizes one for a
// prover: pre-sized storage from a pool, parts in parallel segments,
// storage back to the pool on failure.
//
// Semantics mirror bellpepper-core 0.2.1 (argumentcomputer/bellpepper
// crates/bellpepper-core/src/{lc.rs,constraint_system.rs}) and bellperson's
// ProvingAssignment (src/groth16/prover/mod.rs): Input(0) is the constant
// ONE, inputs are numbered in AllocInput order, aux in Alloc order; an LC
// is a merged map (a term for a variable already present adds to its
// coefficient) and zero merged coefficients are skipped for density and
// evaluation. Namespaces never change the R1CS.
package cs
