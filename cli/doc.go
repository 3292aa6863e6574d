// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package cli is the cuseal command line (cli/cuseal is its main package: Main): it produces
// and verifies the Groth16 proofs of Filecoin's PoRep C2, WindowPoSt, WinningPoSt and
// SnapDeals, and serves them to Curio (serve).
//
// It follows the conventions of Lotus and lotus-bench (urfave/cli v2 command trees, human
// sector sizes such as 2KiB and 32GiB, Filecoin environment variables such as
// FIL_PROOFS_PARAMETER_CACHE and BELLMAN_NO_GPU). The binary holds no proving logic of its
// own: it parses flags, reads and writes files, shows progress and reports, and calls the
// porep, seal and groth16 packages.
//
// Exit codes: 0 success, 1 invalid proof, 2 bad usage or input, 3 internal error. Errors are
// printed as one line on stderr, without stack traces.
package cli
