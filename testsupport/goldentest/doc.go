// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package goldentest holds what the Rust-golden tests of porep/gadget,
// porep/poseidon and porep/stacked share: the testdata/rust_golden.json
// case format written by porep/stacked/testdata/refcircuit, its
// deterministic input generator (det_bytes, det_fr, det_bits), the golden
// tool's ChaCha20 sector inputs (NewSectorInputs: ticket, seed, data), the
// comparison of a synthesized circuit's counts and docs/digests.md
// §1–§4 digests with a case, and the constraint dump for mismatches.
//
// It is test support: only _test.go files import it.
package goldentest
