// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"testing"
	"time"
)

// TestBusyIn: the busy time in a window counts the overlap of finished
// spans and of the proof in progress, and forgets spans older than
// BusyWindow.
func TestBusyIn(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	d := &device{}
	d.noteBusy(at(0), at(10))   // forgotten once a span ends after 70 s
	d.noteBusy(at(50), at(80))  // 30 s
	d.noteBusy(at(90), at(100)) // 10 s
	if got := d.busyIn(at(40), at(100)); got != 40*time.Second {
		t.Fatalf("busy in [40 s, 100 s): %v, want 40s", got)
	}
	if got := d.busyIn(at(60), at(100)); got != 30*time.Second {
		t.Fatalf("busy in [60 s, 100 s): %v, want 30s (20 s of the span from 50 s, and 10 s)", got)
	}
	if len(d.spans) != 2 {
		t.Fatalf("%d spans kept, want 2 (the one that ended at 10 s is out of the window)", len(d.spans))
	}
	d.busy, d.since = true, at(110)
	if got := d.busyIn(at(60), at(120)); got != 40*time.Second {
		t.Fatalf("busy in [60 s, 120 s) with a proof since 110 s: %v, want 40s", got)
	}
}
