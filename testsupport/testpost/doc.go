// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package testpost is test support for the PoSt reference vectors
// (porep/post/testdata, made by rust-fil-proofs 19.1.0): Load reads one
// (from any package's test), and ParamsDir makes a parameter directory
// holding its test parameters under their official names, the .params
// made from its toxic seed (cached under $CUSEAL_TEST_PARAMS_DIR/post, see
// testsupport/testparams) and its shipped .vk. Only _test.go files import it.
package testpost
