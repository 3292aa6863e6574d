// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

// A CRITICAL partition (WinningPoSt) must not wait for a lower-priority
// partition to finish proving: a partition cannot be interrupted without
// losing its work, and on the CPU one takes seconds (2 KiB) to many
// minutes (32 GiB). So the engine keeps a prover for CRITICAL partitions
// (Config.CriticalProver): it takes nothing else, and takes a CRITICAL
// partition that no general prover is free for, unless a busy prover is
// expected to finish its partition and then prove this one sooner. On a
// CPU-only machine it is a second CPU prover that shares the cores with
// the partition in progress (Go's scheduler splits them: the WinningPoSt
// takes about twice its idle time, as beside Lotus' C2). Beside GPUs it
// is the CPU, chosen when it is expected to prove the WinningPoSt before
// the device could.

import (
	"fmt"
	"time"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/groth16"
)

// estKey keys a prover's expected time per partition of a kind.
type estKey struct {
	prover int // device ordinal
	kind   Kind
}

// observeLocked folds a verified partition's time into d's estimate for
// kind: a moving average weighting the newest proof one half, so the
// estimate follows a change of load (a shared CPU) within a few proofs.
func (e *Engine) observeLocked(d *device, kind Kind, took time.Duration) {
	k := estKey{d.ord, kind}
	if old, ok := e.est[k]; ok {
		took = (old + took) / 2
	}
	e.est[k] = took
}

// busyProver is what the choice knows of one busy general prover: the
// expected time left of its partition in progress and its expected time
// for the CRITICAL partition; known is false when either is not known
// (no proof of that kind on it yet, or it has run past its estimate).
type busyProver struct {
	remaining, next time.Duration
	known           bool
}

// criticalFirst decides whether the kept prover, expected to take spare
// for the CRITICAL partition (spareKnown: it has proven one of its kind),
// takes it now: yes unless some busy prover is known to finish its
// partition and then the CRITICAL one sooner (remaining + next < spare).
// It returns the index in busy of the prover to wait for, or -1. An
// unknown figure never makes a CRITICAL partition wait: the promise is
// that it starts at once, and its time is learnt from the proof.
func criticalFirst(spare time.Duration, spareKnown bool, busy []busyProver) (now bool, waitFor int) {
	if !spareKnown {
		return true, -1
	}
	waitFor = -1
	best := spare
	for i, b := range busy {
		if b.known && b.remaining+b.next < best {
			best, waitFor = b.remaining+b.next, i
		}
	}
	return waitFor < 0, waitFor
}

// criticalNowLocked applies criticalFirst to the kept prover d and j's
// next CRITICAL partition. When it waits for a busy prover it arms a
// wake-up for when that prover is expected to be done: if it is not done
// by then, its time left is unknown and the kept prover takes the
// partition.
func (e *Engine) criticalNowLocked(d *device, j *job) bool {
	spare, spareKnown := e.est[estKey{d.ord, j.req.Kind}]
	now := time.Now()
	var busy []busyProver
	var ends []time.Time
	for _, o := range e.devices {
		if o.critical || o.quarantined || !o.busy {
			continue
		}
		cur, ok1 := e.est[estKey{o.ord, o.curKind}]
		next, ok2 := e.est[estKey{o.ord, j.req.Kind}]
		rem := cur - now.Sub(o.started)
		busy = append(busy, busyProver{remaining: rem, next: next, known: ok1 && ok2 && rem > 0})
		ends = append(ends, o.started.Add(cur))
	}
	take, waitFor := criticalFirst(spare, spareKnown, busy)
	if !take {
		e.wakeAtLocked(ends[waitFor].Add(time.Millisecond))
	}
	return take
}

// wakeAtLocked makes dispatch run again at t (or earlier, when an earlier
// wake-up is pending).
func (e *Engine) wakeAtLocked(t time.Time) {
	if e.closed {
		return
	}
	if e.wake != nil && !e.wakeAt.Before(time.Now()) && !e.wakeAt.After(t) {
		return // an earlier one is pending
	}
	if e.wake != nil {
		e.wake.Stop()
	}
	e.wakeAt = t
	e.wake = time.AfterFunc(time.Until(t), func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.dispatchLocked()
	})
}

// fitsOnceDrainedLocked reports whether j's next partition (and its
// parameters, when not resident) would fit the budget once every
// partition in flight is proven and every idle parameter file evicted:
// only parameters that jobs hold stay.
func (e *Engine) fitsOnceDrainedLocked(j *job) bool {
	spec := j.plan.Params()
	need := j.plan.PartitionBytes()
	if spec != nil {
		need += spec.Bytes
	}
	for _, pe := range e.params {
		if (pe.refs > 0 || pe.loading != nil) && (spec == nil || pe.spec.File != spec.File) {
			need += pe.spec.Bytes
		}
	}
	return need <= e.cfg.BudgetBytes
}

// deviceBackend reports whether backend proves on a GPU (porep's registry
// says so: cuda, supraseal); anything else proves in host memory.
func deviceBackend(backend string) bool {
	spec, ok := porep.LookupBackend(backend)
	return ok && spec.GPU
}

// newCriticalProver is the prover New keeps for CRITICAL partitions
// beside provers made from a backend name: the CPU backend (with tasks
// MSM tasks, 0: gnark's default) beside device backends and beside the
// CPU, else another prover of the same host backend. Its name is the
// backend's with ":critical".
func newCriticalProver(provers []Prover, tasks int) (Prover, error) {
	backend := provers[0].Backend()
	if deviceBackend(backend) {
		backend = porep.BackendCPU
	}
	name := backend + ":critical"
	if backend == porep.BackendCPU {
		return &BackendProver{name: name, backend: backend, b: &groth16.CPUBackend{NbTasks: min(max(tasks, 0), 1024)}, device: -1}, nil
	}
	p, err := NewBackendProver(backend)
	if err != nil {
		return nil, fmt.Errorf("engine: the prover for CRITICAL partitions: %w", err)
	}
	p.name = name
	return p, nil
}
