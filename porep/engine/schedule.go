// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"fmt"
	"slices"
	"time"
)

// Scheduling: which partition synthesizes next and which prover proves
// it, in priority order within the budget.

// dispatchLocked starts what can start: proofs on idle provers, then
// syntheses, each in priority order.
func (e *Engine) dispatchLocked() {
	e.liftQuarantinesLocked(time.Now())
	e.dispatchProofsLocked()
	e.dispatchSynthesisLocked()
	e.m.refreshLocked()
}

// liftQuarantinesLocked returns to service the provers whose quarantine
// for failures has ended (Config.QuarantineFor), one failure short of the
// next.
func (e *Engine) liftQuarantinesLocked(now time.Time) {
	for _, d := range e.devices {
		if d.quarantined && !d.until.IsZero() && !now.Before(d.until) {
			d.quarantined, d.until, d.fails = false, time.Time{}, 1
			e.log.Warn("prover back from quarantine: its next failure quarantines it again", "prover", d.p.Name())
		}
	}
}

// usableLocked counts the provers not quarantined: the general ones, and
// those kept for CRITICAL partitions.
func (e *Engine) usableLocked() (general, critical int) {
	for _, d := range e.devices {
		switch {
		case d.quarantined:
		case d.critical:
			critical++
		default:
			general++
		}
	}
	return general, critical
}

// onlyProverLocked is the name of the one general prover ("": several),
// the device a Ticket names.
func (e *Engine) onlyProverLocked() string {
	name := ""
	for _, d := range e.devices {
		if !d.critical {
			if name != "" {
				return ""
			}
			name = d.p.Name()
		}
	}
	return name
}

func (e *Engine) dispatchProofsLocked() {
	general, critical := e.usableLocked()
	if general == 0 {
		for _, j := range slices.Clone(e.active) {
			if j.prio == PriorityCritical && critical > 0 {
				continue // the critical prover still takes it
			}
			what := "every prover is quarantined after failing twice in a row"
			if critical > 0 {
				what = "every general prover is quarantined after failing twice in a row (the kept CPU prover takes CRITICAL work only)"
			}
			e.failLocked(j, fmt.Errorf("engine: job %s: %s", j.id, what))
		}
		if critical == 0 {
			return
		}
	}
	order := e.byPriorityLocked()
	for _, d := range e.devices {
		if d.busy || d.quarantined || d.critical {
			continue
		}
		if j, p := pickSynthesized(order, d, general, PriorityUnspecified); p != nil {
			e.startProveLocked(d, j, p)
		}
	}
	// Every general prover that could take a CRITICAL partition now has one
	// or is busy: the kept prover takes what is left when it is sooner.
	for _, d := range e.devices {
		if !d.critical || d.busy || d.quarantined {
			continue
		}
		j, p := pickSynthesized(order, d, general+critical, PriorityCritical)
		if p != nil && e.criticalNowLocked(d, j) {
			e.startProveLocked(d, j, p)
		}
	}
}

// startProveLocked hands partition p of j to prover d.
func (e *Engine) startProveLocked(d *device, j *job, p *part) {
	now := time.Now()
	p.state = partProving
	p.device = d.p.Name()
	d.busy, d.cur, d.curKind, d.started = true, j, j.req.Kind, now
	j.running++
	if !j.proving {
		j.proving = true
		j.timings.ProveWait = now.Sub(j.submitted)
		e.m.proveWait.WithLabelValues(j.req.Kind.String(), j.prio.String()).Observe(j.timings.ProveWait.Seconds())
	}
	go e.runProve(d, j, p)
}

// pickSynthesized finds the first synthesized partition in priority order,
// of priority atLeast or above, that d may prove: not one that failed on d
// when another prover is usable.
func pickSynthesized(order []*job, d *device, usable int, atLeast Priority) (*job, *part) {
	for _, j := range order {
		if j.prio < atLeast {
			break // order is by priority
		}
		if j.stopping {
			continue
		}
		for _, p := range j.parts {
			if p.state == partSynthesized && (p.failedOn != d.ord || usable == 1) {
				return j, p
			}
		}
	}
	return nil, nil
}

// byPriorityLocked returns the active jobs, highest priority first.
func (e *Engine) byPriorityLocked() []*job {
	order := slices.Clone(e.active)
	slices.SortStableFunc(order, func(a, b *job) int {
		if before(a, b) {
			return -1
		}
		if before(b, a) {
			return 1
		}
		return 0
	})
	return order
}

// countAtLeast counts the partitions of jobs with priority ≥ prio that
// are synthesizing, and those synthesizing or synthesized (not yet
// proving). Both bounds apply per priority and above, so higher work
// never waits for lower work's slots (briefly, one more synthesis runs).
func countAtLeast(order []*job, prio Priority) (synthesizing, waiting int) {
	for _, j := range order {
		if j.prio < prio {
			continue
		}
		for _, p := range j.parts {
			switch p.state {
			case partSynthesizing:
				synthesizing++
				waiting++
			case partSynthesized:
				waiting++
			}
		}
	}
	return synthesizing, waiting
}

func (e *Engine) dispatchSynthesisLocked() {
	order := e.byPriorityLocked()
	blocked := false
	// hold: work below it waits, started jobs too: a CRITICAL partition
	// waits for memory that the partitions in flight will return.
	hold := PriorityUnspecified
	for _, j := range order {
		if j.prio < hold {
			return // order is by priority
		}
		if j.stopping || (j.next >= len(j.parts) && len(j.redo) == 0) || (blocked && j.next == 0) {
			continue
		}
		synthesizing, waiting := countAtLeast(order, j.prio)
		if synthesizing >= e.cfg.SynthesisWorkers || waiting >= e.cfg.PartitionsWaiting {
			return // lower priorities count at least as many
		}
		if !e.reserveLocked(j) {
			// Wait for memory rather than let new lower work overtake; jobs
			// already started go on, since the memory (their parameters)
			// may come back only when they finish — unless a CRITICAL job
			// waits and fits once the partitions in flight are done.
			blocked = true
			if j.prio == PriorityCritical && e.fitsOnceDrainedLocked(j) {
				hold = PriorityCritical
			}
			continue
		}
		var p *part
		if len(j.redo) > 0 {
			p, j.redo = j.redo[0], j.redo[1:]
		} else {
			p = j.parts[j.next]
			j.next++
		}
		p.state = partSynthesizing
		p.reserved = j.plan.PartitionBytes()
		e.used.synth += p.reserved
		if j.state == StateQueued {
			j.state = StateRunning
			j.timings.QueueWait = time.Since(j.submitted)
		}
		j.running++
		go e.runSynthesis(j, p)
	}
}

// reserveLocked makes room for j's next partition, and for its parameters
// when they are not resident: it drops pooled buffers and evicts idle
// parameters (least recently used first) when it must. It takes the
// parameters reference of j's first partition.
func (e *Engine) reserveLocked(j *job) bool {
	spec := j.plan.Params()
	var pe *paramsEntry
	need := j.plan.PartitionBytes()
	if spec != nil {
		pe = e.params[spec.File]
		if pe == nil {
			need += spec.Bytes
		}
	}
	if e.usedLocked()+need > e.cfg.BudgetBytes {
		e.pool.Trim()
	}
	for e.usedLocked()+need > e.cfg.BudgetBytes {
		if !e.evictIdleLocked(spec) {
			return false
		}
	}
	if spec != nil && pe == nil {
		pe = &paramsEntry{spec: spec}
		e.params[spec.File] = pe
		e.used.params += spec.Bytes
	}
	if j.pe == nil && pe != nil {
		j.pe = pe
		pe.refs++
		pe.lastUsed = time.Now()
	}
	return true
}
