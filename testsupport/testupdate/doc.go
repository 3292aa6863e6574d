// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package testupdate is test support for the SnapDeals reference vector
// (porep/update/testdata/update-2KiB-s31, made by rust-fil-proofs 19.1.0):
// Load reads it (from any package's test), and ParamsDir makes a parameter
// directory holding its test parameters under their official names, the
// .params made from its toxic seed (cached under
// $CUSEAL_TEST_PARAMS_DIR/update, see testsupport/testparams) and its shipped
// .vk. Only _test.go files import it.
package testupdate
