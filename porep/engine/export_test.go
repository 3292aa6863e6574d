// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import "time"

// SeedEstimate sets prover ord's expected time for kind k's partitions, as
// if it had proven some (the CRITICAL rule's input).
func SeedEstimate(e *Engine, ord int, k Kind, d time.Duration) {
	e.mu.Lock()
	e.est[estKey{ord, k}] = d
	e.mu.Unlock()
}

// ErrPanic wraps a recovered panic as a job failure.
var ErrPanic = errPanic
