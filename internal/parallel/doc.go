// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package parallel splits index ranges over goroutines: the one home of the
// "contiguous chunks on GOMAXPROCS workers" loop that sealing, tree hashing,
// parameter decoding and aggregation share.
package parallel
