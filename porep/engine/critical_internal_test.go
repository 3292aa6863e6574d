// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"testing"
	"time"
)

// TestCriticalFirst: the kept prover takes a CRITICAL partition unless a
// busy prover is known to finish its partition and then the CRITICAL one
// sooner; unknown figures never make it wait.
func TestCriticalFirst(t *testing.T) {
	s := time.Second
	for _, tc := range []struct {
		name       string
		spare      time.Duration
		spareKnown bool
		busy       []busyProver
		now        bool
		waitFor    int
	}{
		{"nothing known", 0, false, []busyProver{{known: false}}, true, -1},
		{"spare unknown", 0, false, []busyProver{{remaining: s, next: s, known: true}}, true, -1},
		{"busy unknown", 3 * s, true, []busyProver{{known: false}}, true, -1},
		// CPU-only: a PoRep partition 22 s from its end; WinningPoSt 5 s shared.
		{"cpu beside a cpu partition", 5 * s, true, []busyProver{{remaining: 22 * s, next: 3 * s, known: true}}, true, -1},
		// GPU: 0.4 s left of a device partition, WinningPoSt 0.3 s on it, 4 s on the CPU.
		{"device nearly done", 4 * s, true, []busyProver{{remaining: 400 * time.Millisecond, next: 300 * time.Millisecond, known: true}}, false, 0},
		// GPU: 1.5 s left, 0.3 s on the device; the CPU proves it in 1 s.
		{"cpu sooner", s, true, []busyProver{{remaining: 1500 * time.Millisecond, next: 300 * time.Millisecond, known: true}}, true, -1},
		{"the sooner of two devices", 4 * s, true, []busyProver{
			{remaining: 3 * s, next: 300 * time.Millisecond, known: true},
			{remaining: s, next: 300 * time.Millisecond, known: true},
			{known: false},
		}, false, 1},
		{"equal: no wait", 2 * s, true, []busyProver{{remaining: s, next: s, known: true}}, true, -1},
	} {
		now, waitFor := criticalFirst(tc.spare, tc.spareKnown, tc.busy)
		if now != tc.now || waitFor != tc.waitFor {
			t.Errorf("%s: got (%v, %d), want (%v, %d)", tc.name, now, waitFor, tc.now, tc.waitFor)
		}
	}
}
