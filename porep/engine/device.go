// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"slices"
	"time"
)

// device is the engine's record of one prover: what it runs, its
// failures and how long it has been busy.
type device struct {
	ord         int
	p           Prover
	critical    bool // takes CRITICAL partitions only (Config.CriticalProver)
	busy        bool
	cur         *job
	curKind     Kind      // of cur, while busy
	started     time.Time // when the partition in progress started
	quarantined bool
	// until is when a quarantine for failures ends (zero: for good, as
	// the memory guard's).
	until     time.Time
	fails     int // consecutive
	busyTotal time.Duration
	// since is when the running proof started (zero: idle, or not yet
	// noted); spans are the finished ones that end within BusyWindow.
	since time.Time
	spans []span

	// memBase is the device's free memory at its first idle reading;
	// memLost what it had lost when the guard retired it (devguard.go).
	memBase, memLost uint64
	memBaseSet       bool
}

// span is one stretch of time, [from, to).
type span struct{ from, to time.Time }

// busyIn is how long d proved in [from, now): its recent spans and the
// proof in progress.
func (d *device) busyIn(from, now time.Time) time.Duration {
	var t time.Duration
	for _, s := range d.spans {
		if s.to.After(from) {
			t += s.to.Sub(later(s.from, from))
		}
	}
	if d.busy && !d.since.IsZero() {
		t += now.Sub(later(d.since, from))
	}
	return t
}

// busyAt is how long d has proved up to now: its finished proofs and
// the proof in progress (e.mu held).
func (d *device) busyAt(now time.Time) time.Duration {
	t := d.busyTotal
	if d.busy && !d.since.IsZero() {
		t += now.Sub(d.since)
	}
	return t
}

// noteBusy records a finished proof [from, to) and forgets spans that
// ended before the window.
func (d *device) noteBusy(from, to time.Time) {
	cut := to.Add(-BusyWindow)
	d.spans = slices.DeleteFunc(d.spans, func(s span) bool { return !s.to.After(cut) })
	d.spans = append(d.spans, span{from, to})
	d.since = time.Time{}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
