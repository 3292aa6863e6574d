// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package testsector is test support: it seals a small sector of fixed
// pseudo-random data with porep/seal and runs commit phase 1, or updates a
// CC sector with such data and makes its SnapDeals vanilla partition proofs
// (SealUpdated), with the test identities (miner, sector number, ticket,
// seed) the end-to-end tests of porep and libcuseal share. Only _test.go
// files import it.
package testsector
