// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package parallel runs index ranges on goroutines: the one home of the
// "contiguous chunks on GOMAXPROCS workers" loop that sealing, tree hashing,
// parameter decoding and aggregation share (For, Each), and of the
// "next item to the next free worker" loop of per-challenge synthesis, the
// parent cache and the fixed-base tables (Dynamic).
package parallel
