// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package testprover is test support: a prover double for the layers above
// porep (the engine, the service, the CLI, libcuseal) that makes their
// prove paths cheap without making them fake. Reference is a
// groth16.ProofBackend that knows the rust-fil-proofs reference vectors
// (testdata/golden, porep/post/testdata, porep/update/testdata): given an
// assignment whose witness digest is a vector partition's and the
// randomness that vector's rs_seed gives that partition, it returns
// bellperson's proof (proof.bin); anything else is an error. Everything
// around it stays real — parsing, synthesis (the witness digest checks it),
// public inputs, parameter loading, and verification with the real .vk —
// so only the Groth16 arithmetic is skipped, which porep's own tests prove
// against the same bytes.
//
// Backend(t) is what a test proves with: the double in the unit tier, the
// real CPU backend in the long tier (testsupport/testenv), so one test body
// checks the same bytes both ways. NameAnyRS (BackendAnyRS) is the double
// for prove paths that draw fresh randomness (`cuseal serve`, the CLI's
// prove commands): it returns the reference proof whatever r, s are. Only
// _test.go files import it (and a test binary's TestMain, RegisterMain).
package testprover
