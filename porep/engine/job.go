// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
)

// A job and its partitions: their states, and how a job stops, finishes
// and is retained.

type partState int

const (
	partQueued partState = iota
	partSynthesizing
	partSynthesized
	partProving
	partProven
	partFailed    // its own synthesis, parameter load or proofs failed
	partCancelled // stopped unproven: the job was cancelled, or failed elsewhere
)

var partStateNames = [...]string{"queued", "synthesizing", "synthesized", "proving", "proven", "failed", "cancelled"}

type part struct {
	k        int
	state    partState
	a        *cs.Assignment
	reserved uint64 // bytes held in used.synth or used.assign
	device   string
	failedOn int // device ordinal of the failed attempt, -1: none
	firstErr error
	synth    time.Duration
	prove    time.Duration
	attempts int
	// For status: stage times (zero until the stage starts).
	synthStart, proveStart, proveEnd time.Time
	paramsWait, verify               time.Duration
	// waitStart is when it last became synthesized (zero: not waiting);
	// proverWait sums its finished waits for a prover.
	waitStart  time.Time
	proverWait time.Duration
}

type job struct {
	id        string
	key       string
	req       Request // VanillaProof(s) dropped after prepare
	prio      Priority
	seq       uint64
	plan      Plan
	pe        *paramsEntry // set when the first partition is dispatched
	keys      *Keys
	state     State
	parts     []*part
	proofs    []groth16.Proof
	next      int     // next partition to synthesize
	redo      []*part // partitions to synthesize again (a prover failed them: their a, b, c were its scratch)
	proven    int
	running   int  // partitions whose goroutine is running
	proving   bool // a partition has started proving (Timings.ProveWait is set)
	stopping  bool
	failErr   error
	finishing bool

	waiters  int
	detached bool
	ctx      context.Context
	cancel   context.CancelFunc
	done     chan struct{}

	submitted time.Time
	ended     time.Time
	timings   Timings
	proof     []byte
}

// cancelLocked marks j cancelled, stops its goroutines and finalizes it
// once none runs.
func (e *Engine) cancelLocked(j *job, why error) {
	if j.stopping {
		return
	}
	j.stopping = true
	j.failErr = &cancelError{why}
	j.cancel()
	e.settleLocked(j)
	e.dispatchLocked()
}

type cancelError struct{ err error }

func (c *cancelError) Error() string { return c.err.Error() }
func (c *cancelError) Unwrap() error { return context.Canceled }

// failLocked fails j with err (the first cause wins) and stops the rest.
func (e *Engine) failLocked(j *job, err error) {
	if j.stopping {
		return
	}
	j.stopping = true
	j.failErr = err
	j.cancel()
	e.settleLocked(j)
}

// settleLocked finalizes a stopping job once none of its partitions runs,
// or starts finish once every partition is proven.
func (e *Engine) settleLocked(j *job) {
	if j.state.Final() || j.running > 0 || j.finishing {
		return
	}
	if j.stopping {
		state := StateFailed
		var ce *cancelError
		if errors.As(j.failErr, &ce) {
			state = StateCancelled
		}
		e.finalizeLocked(j, state, nil, j.failErr)
		return
	}
	if j.proven == len(j.parts) {
		j.finishing = true
		go e.runFinish(j)
	}
}

func (e *Engine) runFinish(j *job) {
	out, err := func() (out []byte, err error) {
		defer recoverTo(&err, j, -1)
		return j.plan.Finish(j.proofs)
	}()
	e.mu.Lock()
	defer e.mu.Unlock()
	j.finishing = false
	if err != nil {
		e.finalizeLocked(j, StateFailed, nil, fmt.Errorf("engine: job %s: finish: %w", j.id, err))
	} else {
		e.finalizeLocked(j, StateCompleted, out, nil)
	}
	e.dispatchLocked()
}

// finalizeLocked makes j final: frees what its partitions hold, drops its
// parameters reference, wakes its waiters and retains it.
func (e *Engine) finalizeLocked(j *job, state State, proof []byte, err error) {
	for _, p := range j.parts {
		e.freePartLocked(j, p)
		if p.state != partProven && p.state != partFailed {
			p.state = partCancelled
		}
	}
	if pe := j.pe; pe != nil {
		pe.refs--
		pe.lastUsed = time.Now()
		if pe.refs == 0 && !pe.loaded && pe.loading == nil && e.params[pe.spec.File] == pe {
			e.dropParamsLocked(pe) // a load that failed, or never ran
		}
	}
	j.state = state
	j.proof = proof
	j.failErr = err
	j.ended = time.Now()
	j.timings.Total = j.ended.Sub(j.submitted)
	j.cancel()
	j.plan = nil
	j.proofs = nil
	j.keys = nil
	e.active = slices.DeleteFunc(e.active, func(o *job) bool { return o == j })
	e.retained = append(e.retained, j)
	switch state {
	case StateCompleted:
		e.counters.Completed++
	case StateFailed:
		e.counters.Failed++
	case StateCancelled:
		e.counters.Cancelled++
	}
	e.m.jobDone(j)
	if err != nil {
		e.log.Info("job ended", "job", j.id, "state", state.String(), "err", err)
	} else {
		e.log.Info("job ended", "job", j.id, "state", state.String(), "took", j.timings.Total)
	}
	close(j.done)
	close(e.changed)
	e.changed = make(chan struct{})
	e.pruneLocked()
	e.armIdleReleaseLocked()
}

// freePartLocked returns what partition p holds to the budget and ends
// its wait for a prover.
func (e *Engine) freePartLocked(j *job, p *part) {
	if !p.waitStart.IsZero() {
		p.proverWait += time.Since(p.waitStart)
		p.waitStart = time.Time{}
	}
	if p.reserved > 0 {
		if p.state == partSynthesizing {
			e.used.synth -= p.reserved
		} else {
			e.used.assign -= p.reserved
		}
		p.reserved = 0
	}
	if p.a != nil {
		if j.plan != nil {
			j.plan.Release(p.a)
		}
		p.a = nil
	}
}

// pruneLocked forgets finished jobs beyond the retention count and age.
func (e *Engine) pruneLocked() {
	cut := 0
	now := time.Now()
	for cut < len(e.retained) {
		j := e.retained[cut]
		if len(e.retained)-cut <= e.cfg.RetainJobs && now.Sub(j.ended) <= e.cfg.RetainFor {
			break
		}
		delete(e.jobs, j.id)
		if j.key != "" && e.byKey[j.key] == j {
			delete(e.byKey, j.key)
		}
		cut++
	}
	if cut > 0 {
		e.retained = slices.Delete(e.retained, 0, cut)
	}
}

// resultLocked is j's Result now.
func (e *Engine) resultLocked(j *job) *Result {
	r := &Result{JobID: j.id, RequestID: j.req.RequestID, Kind: j.req.Kind, State: j.state, Timings: j.timings}
	if j.state == StateCompleted {
		r.Proof = slices.Clone(j.proof)
	}
	if j.state.Final() {
		r.Err = j.failErr
	} else {
		r.Timings.Total = time.Since(j.submitted)
	}
	return r
}
