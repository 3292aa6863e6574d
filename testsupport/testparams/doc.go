// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package testparams is test support: the one place that knows where the
// 2 KiB test parameters live across packages and runs
// ($CUSEAL_TEST_PARAMS_DIR, else $TMPDIR/cuseal-test-params; ./build.sh
// test fills it once), their toxic-waste seed (the CLI's default --seed),
// and the directory of parameters made from the Rust reference vectors'
// seeds. Generation goes through paramfile.GenerateTestParams, whose stamp
// makes reuse safe. Only _test.go files import it.
package testparams
