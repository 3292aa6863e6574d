// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package client is a Go client of cuzk.v1.ProvingEngine, for `cuseal
// client` and Go programs that talk to `cuseal serve` (or to Curio's cuzk
// daemon): Dial an address as `--listen` writes it (unix:///path or
// host:port), with 256 MiB message limits each way as Curio's client has,
// then Prove, Submit, Await, Cancel, Status and Metrics.
package client
