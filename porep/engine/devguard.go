// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"fmt"
	"time"
)

// The device-memory guard: a device whose free memory, read while it is
// idle, has shrunk by more than Config.DeviceMemoryLoss since its first
// idle reading is leaking (sppark 0.1.12–0.1.14 did in long-running
// provers; a driver or library may again). It is taken out of service as a
// quarantined prover — not reset: the CUDA context and sppark's GPU state
// are shared by the whole process — and when no device prover is left,
// DevicesLost is closed so that `cuseal serve` drains and exits non-zero
// for its service manager to restart it.

// guardDeviceMemory reads d's free memory when d is idle after a proof
// (called without e.mu): the first reading is its baseline; a later one
// that has lost more than the threshold retires d.
func (e *Engine) guardDeviceMemory(d *device) {
	rep, ok := d.p.(DeviceReporter)
	if !ok {
		return
	}
	e.mu.Lock()
	idle := !d.busy && !d.quarantined
	e.mu.Unlock()
	if !idle {
		return
	}
	_, total, free, err := rep.DeviceInfo()
	if err != nil || total == 0 {
		return // not on one device (the CPU backend): nothing to guard
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if d.busy || d.quarantined {
		return // work started meanwhile: not an idle reading
	}
	if !d.memBaseSet {
		d.memBase, d.memBaseSet = free, true
		e.log.Info("device memory baseline", "prover", d.p.Name(), "free", free, "total", total)
		return
	}
	limit := e.cfg.DeviceMemoryLoss
	if limit == 0 {
		limit = total / 10
	}
	if free >= d.memBase || d.memBase-free <= limit {
		return
	}
	d.quarantined, d.until, d.memLost = true, time.Time{}, d.memBase-free
	e.m.memLost.WithLabelValues(d.p.Name()).Set(float64(d.memLost))
	e.log.Error("device taken out of service: its free memory shrank while idle (a leak)", "prover", d.p.Name(),
		"baseline_free", d.memBase, "free", free, "lost", d.memLost, "threshold", limit)
	for _, o := range e.devices {
		if o.quarantined {
			continue
		}
		if o.memBaseSet {
			return
		}
		if r, ok := o.p.(DeviceReporter); ok {
			if _, t, _, err := r.DeviceInfo(); err == nil && t > 0 {
				return // a device not yet read
			}
		}
	}
	e.lostOnce.Do(func() {
		e.lostErr = fmt.Errorf("engine: every device was taken out of service: it lost more than its threshold of free memory while idle (%s last: %d bytes)", d.p.Name(), d.memLost)
		close(e.lost)
	})
}

// DevicesLost is closed when every device prover (one whose free memory
// the guard reads) has been taken out of service for lost memory;
// DevicesLostErr then says so. A server drains and exits on it.
func (e *Engine) DevicesLost() <-chan struct{} { return e.lost }

// DevicesLostErr is the reason DevicesLost was closed (nil before).
func (e *Engine) DevicesLostErr() error {
	select {
	case <-e.lost:
		return e.lostErr
	default:
		return nil
	}
}
