// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package service is the gRPC server of cuzk.v1.ProvingEngine (package
// cuzkv1) over a porep/engine Engine: what `cuseal serve` runs and what a
// Curio node reaches through its `[Cuzk] Address` setting.
//
// Server answers all eight RPCs: SubmitProof, AwaitProof (timeout_ms →
// TIMEOUT), Prove (the call's deadline cancels the job unless another caller
// waits on it), CancelProof, GetStatus, GetMetrics (Prometheus text),
// PreloadSRS and EvictSRS. A request is checked before it reaches the
// engine; a bad one is codes.InvalidArgument naming the field, and a panic
// in a handler is codes.Internal, never a crash. Listen applies the
// listening rules (unix sockets 0600, a non-loopback TCP address only with
// TLS or an explicit insecure opt-in); MetricsHandler serves /metrics and
// /status over HTTP. docs/service.md describes the service.
package service
