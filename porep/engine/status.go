// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"time"
)

// Status returns a snapshot of queues, jobs (pending, running and
// retained, in submission order), provers, resident parameters, the budget
// and the counters.
func (e *Engine) Status() Status {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.pruneLocked()
	now := time.Now()
	s := Status{Uptime: now.Sub(e.started), Counters: e.counters, Draining: e.draining}
	from := later(now.Add(-BusyWindow), e.started)
	for _, k := range e.order {
		q := QueueStatus{Kind: k}
		for _, j := range e.active {
			if j.req.Kind != k {
				continue
			}
			if j.state == StateQueued {
				q.Pending++
			} else {
				q.InProgress++
			}
		}
		s.Queues = append(s.Queues, q)
	}
	for _, j := range e.retained {
		s.Jobs = append(s.Jobs, e.jobStatusLocked(j))
	}
	for _, j := range e.active {
		s.Jobs = append(s.Jobs, e.jobStatusLocked(j))
	}
	for _, d := range e.devices {
		ds := DeviceStatus{
			Ordinal: d.ord, Name: d.p.Name(), Backend: d.p.Backend(),
			Quarantined: d.quarantined, MemoryLost: d.memLost, ConsecutiveFailures: d.fails, Busy: d.busyAt(now), CriticalOnly: d.critical,
		}
		if w := now.Sub(from); w > 0 {
			ds.BusyFraction = min(1, float64(d.busyIn(from, now))/float64(w))
		}
		if d.cur != nil {
			ds.CurrentJobID, ds.CurrentKind = d.cur.id, d.cur.req.Kind
		}
		if r, ok := d.p.(DeviceReporter); ok {
			if name, total, free, err := r.DeviceInfo(); err == nil {
				ds.Name, ds.VRAMTotal, ds.VRAMFree = name, total, free
			}
		}
		s.Devices = append(s.Devices, ds)
	}
	for _, pe := range e.params {
		ps := ParamsStatus{CircuitID: pe.spec.ID, File: pe.spec.File, Tier: "cold", Bytes: pe.spec.Bytes, RefCount: pe.refs, LastUsed: pe.lastUsed}
		if pe.loaded {
			ps.Tier = "warm" // opened (and decoded on demand) in host memory
		}
		s.Params = append(s.Params, ps)
	}
	s.Budget = e.budgetLocked()
	return s
}

// Budget is Status().Budget without the rest of the snapshot (cheap enough
// to sample often).
func (e *Engine) Budget() BudgetStatus {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.budgetLocked()
}

func (e *Engine) budgetLocked() BudgetStatus {
	b := BudgetStatus{
		Total: e.cfg.BudgetBytes, Params: e.used.params, Synthesis: e.used.synth + e.pooledBytes(), Assignments: e.used.assign,
	}
	b.Used = b.Params + b.Synthesis + b.Assignments
	return b
}

func (e *Engine) jobStatusLocked(j *job) JobStatus {
	js := JobStatus{
		JobID: j.id, RequestID: j.req.RequestID, Kind: j.req.Kind, Priority: j.prio, State: j.state,
		Submitted: j.submitted, Ended: j.ended, Timings: j.timings,
	}
	if !j.state.Final() {
		js.Timings.Total = time.Since(j.submitted)
	} else if j.failErr != nil {
		js.Error = j.failErr.Error()
	}
	for _, p := range j.parts {
		ps := PartitionStatus{
			Index: p.k, State: partStateNames[p.state], Device: p.device, Attempts: p.attempts,
			SynthesisStart: p.synthStart, ParamsWait: p.paramsWait, Synthesis: p.synth, ProverWait: p.proverWait,
			ProveStart: p.proveStart, ProveEnd: p.proveEnd, Prove: p.prove, Verify: p.verify,
		}
		if !p.waitStart.IsZero() {
			ps.ProverWait += time.Since(p.waitStart) // the wait in progress
		}
		js.Partitions = append(js.Partitions, ps)
	}
	return js
}
