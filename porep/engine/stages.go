// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
)

// The two stages of a partition: synthesis on a CPU worker, then proving
// on a prover, with the proof verified before it counts.

// recoverTo turns a panic into *err naming the job and partition (-1: none).
func recoverTo(err *error, j *job, k int) {
	if r := recover(); r != nil {
		where := "job " + j.id
		if k >= 0 {
			where += " partition " + strconv.Itoa(k)
		}
		*err = fmt.Errorf("%w in %s: %v\n%s", errPanic, where, r, debug.Stack())
	}
}

func (e *Engine) runSynthesis(j *job, p *part) {
	t0 := time.Now()
	e.mu.Lock()
	if p.synthStart.IsZero() { // a retried partition is synthesized again
		p.synthStart = t0
	}
	e.mu.Unlock()
	keys, wait, err := e.acquireKeys(j)
	stage := "synthesis"
	if err != nil {
		stage = "parameter load"
	}
	var a *cs.Assignment
	if err == nil {
		err = j.ctx.Err()
	}
	if err == nil {
		t1 := time.Now()
		a, err = func() (a *cs.Assignment, err error) {
			defer recoverTo(&err, j, p.k)
			return j.plan.Synthesize(j.ctx, p.k, e.cfg.SynthesisThreads)
		}()
		e.m.synth.WithLabelValues(j.req.Kind.String()).Observe(time.Since(t1).Seconds())
	}
	took := time.Since(t0) - wait
	e.mu.Lock()
	defer e.mu.Unlock()
	j.running--
	j.timings.ParamsLoad += wait
	j.timings.Synthesis += took
	p.synth += took
	p.paramsWait += wait
	if keys != nil && j.keys == nil {
		j.keys = keys
	}
	e.used.synth -= p.reserved
	e.used.assign += p.reserved
	p.state = partSynthesized
	p.a = a
	switch {
	case j.stopping:
		e.freePartLocked(j, p)
	case err != nil:
		e.freePartLocked(j, p)
		p.state = partFailed
		e.failLocked(j, fmt.Errorf("engine: job %s: partition %d: %s: %w", j.id, p.k, stage, err))
	default:
		p.waitStart = time.Now()
	}
	e.settleLocked(j)
	e.dispatchLocked()
}

// blindingIndex is the index partition k of pl is blinded under with
// DeterministicSeed: k, or what the plan says (a WindowPoSt partition job
// is blinded as its partition_index, as porep blinds it).
func blindingIndex(pl Plan, k int) int {
	if b, ok := pl.(interface{ BlindingIndex(k int) int }); ok {
		return b.BlindingIndex(k)
	}
	return k
}

// randomness is partition k's blinding.
func (e *Engine) randomness(k int) (groth16.Randomness, error) {
	if e.cfg.DeterministicSeed != nil {
		return groth16.RandomnessFromSeed(*e.cfg.DeterministicSeed, uint64(k)), nil
	}
	return groth16.NewRandomness()
}

func (e *Engine) runProve(d *device, j *job, p *part) {
	defer e.guardDeviceMemory(d) // after the unlock below: d may be idle then
	t0 := time.Now()
	e.mu.Lock()
	d.since = t0
	if p.proveStart.IsZero() {
		p.proveStart = t0
	}
	if !p.waitStart.IsZero() {
		p.proverWait += t0.Sub(p.waitStart)
		p.waitStart = time.Time{}
	}
	e.mu.Unlock()
	var verify time.Duration // of took, checking the proof
	err := func() (err error) {
		defer recoverTo(&err, j, p.k)
		r, err := e.randomness(blindingIndex(j.plan, p.k))
		if err != nil {
			return err
		}
		w := &Work{JobID: j.id, Kind: j.req.Kind, Partition: p.k, Assignment: p.a, Randomness: r}
		if j.keys != nil {
			w.Params = j.keys.Params
		}
		proof, err := d.p.Prove(j.ctx, w)
		if err != nil {
			return err
		}
		tv := time.Now()
		err = j.plan.Verify(p.k, p.a, &proof, j.keys)
		verify = time.Since(tv)
		if err != nil {
			return err
		}
		j.proofs[p.k] = proof // only this goroutine writes index k
		return nil
	}()
	t1 := time.Now()
	took := t1.Sub(t0)
	e.m.prove.WithLabelValues(j.req.Kind.String(), d.p.Name()).Observe(took.Seconds())
	e.mu.Lock()
	defer e.mu.Unlock()
	d.busy, d.cur, d.curKind = false, nil, KindUnspecified
	d.busyTotal += took
	d.noteBusy(t0, t1)
	j.running--
	p.prove += took - verify
	p.verify += verify
	p.proveEnd = t1
	p.attempts++
	j.timings.Prove += took - verify
	j.timings.Verify += verify
	switch {
	case j.stopping:
		e.freePartLocked(j, p)
	case paramsFault(err):
		// Not the prover's fault, and a retry reads the same bad (or another)
		// file: the job fails and the prover is not counted against; the
		// next acquireKeys loads a changed file afresh.
		e.freePartLocked(j, p)
		p.state = partFailed
		e.failLocked(j, fmt.Errorf("engine: job %s: partition %d: %w", j.id, p.k, err))
	case err != nil:
		d.fails++
		if d.fails >= 2 && !d.quarantined {
			d.quarantined = true
			d.until = time.Time{}
			if e.cfg.QuarantineFor > 0 {
				d.until = t1.Add(e.cfg.QuarantineFor)
			}
			e.log.Warn("prover quarantined after two failures in a row", "prover", d.p.Name(), "until", d.until, "err", err)
		}
		if p.attempts < 2 {
			// The prover computed H in the assignment's a, b, c
			// (groth16.WithAssignmentsConsumed): synthesize it again.
			e.freePartLocked(j, p)
			p.state = partQueued
			j.redo = append(j.redo, p)
			p.failedOn = d.ord
			p.firstErr = err
			e.counters.Retries++
			e.m.retries.Inc()
			e.log.Warn("partition failed, retrying", "job", j.id, "partition", p.k, "prover", d.p.Name(), "err", err)
		} else {
			e.freePartLocked(j, p)
			p.state = partFailed
			e.failLocked(j, fmt.Errorf("engine: job %s: partition %d failed twice: on %s (%v), then on %s: %w", j.id, p.k, e.devices[p.failedOn].p.Name(), p.firstErr, d.p.Name(), err))
		}
	default:
		d.fails = 0
		e.observeLocked(d, j.req.Kind, took)
		e.freePartLocked(j, p) // frees the assignment; the state stays proven
		p.state = partProven
		j.proven++
	}
	e.settleLocked(j)
	e.dispatchLocked()
}

// paramsFault reports whether err is the parameter file's, not the
// prover's: the file changed while in use, or a query's bytes do not
// decode (a `.params` corrupted or rewritten in place, *groth16.FormatError
// naming the file and its section).
func paramsFault(err error) bool {
	if errors.Is(err, groth16.ErrParamsChanged) {
		return true
	}
	var fe *groth16.FormatError
	return errors.As(err, &fe) && fe.File != "" && fe.Section != groth16.SectionProof
}
