// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package testenv is the one gate of cuseal's test tiers. A run is in one
// tier, chosen by the environment variable CUSEAL_TEST:
//
//   - unit (the default, and always under `go test -short`): what
//     `./build.sh test` runs — every class of regression, in minutes;
//   - long (`./build.sh test --long`, CI): adds every real-proof end to end
//     of every layer, the reference-vector sweeps, toxic-seed setups and the
//     larger shapes;
//   - huge (opt-in): adds the 32 GiB Rust goldens, big counts, large
//     benchmarks and the host emulation of the CUDA prover.
//
// A test that belongs to a higher tier says so first thing, with a one-line
// reason: testenv.Long(t, "why") or testenv.Huge(t, "why"); a part of a test
// asks testenv.Enabled(testenv.TierLong). docs/testing.md lists every such
// test with its tier and reason, and TestTiersDocumented (internal/archtest)
// fails when one is missing there. Build tags stay for what changes
// compilation (cuda, supraseal).
package testenv
