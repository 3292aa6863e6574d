// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"context"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/cuseal/cuseal/porep/groth16"
)

// Admission: a request becomes a job (or attaches to its twin) once its
// family prepared it and it fits the budget; Cancel takes it back out.

// Submit queues req and returns at once; the job runs whether or not
// anyone awaits it. A RequestID that matches a pending, running or
// completed retained job with the same content attaches to it.
func (e *Engine) Submit(ctx context.Context, req *Request) (Ticket, error) {
	j, t, err := e.submit(ctx, req)
	if err != nil {
		return Ticket{}, err
	}
	e.mu.Lock()
	j.detached = true
	e.mu.Unlock()
	return t, nil
}

// Prove is Submit and Await in one call: the caller's ctx ending cancels
// the job unless another caller awaits it or it was Submit-ted.
func (e *Engine) Prove(ctx context.Context, req *Request) (*Result, error) {
	j, _, err := e.submit(ctx, req)
	if err != nil {
		return nil, err
	}
	return e.await(ctx, j, true)
}

// Await waits for a job's result until ctx ends (its deadline is the
// timeout); then it returns the job's current Result (Queued or Running)
// and ctx's error, and the job goes on.
func (e *Engine) Await(ctx context.Context, jobID string) (*Result, error) {
	e.mu.Lock()
	e.pruneLocked()
	j := e.jobs[jobID]
	e.mu.Unlock()
	if j == nil {
		return nil, fmt.Errorf("%w: %q", ErrUnknownJob, jobID)
	}
	return e.await(ctx, j, false)
}

func (e *Engine) await(ctx context.Context, j *job, prover bool) (*Result, error) {
	e.mu.Lock()
	j.waiters++
	e.mu.Unlock()
	select {
	case <-j.done:
		e.mu.Lock()
		j.waiters--
		r := e.resultLocked(j)
		e.mu.Unlock()
		return r, nil
	case <-ctx.Done():
		e.mu.Lock()
		defer e.mu.Unlock()
		j.waiters--
		if prover && j.waiters == 0 && !j.detached && !j.state.Final() {
			e.cancelLocked(j, fmt.Errorf("engine: job %s cancelled: its caller went away (%w)", j.id, ctx.Err()))
		}
		return e.resultLocked(j), ctx.Err()
	}
}

// submit finds or creates the job of req.
func (e *Engine) submit(ctx context.Context, req *Request) (*job, Ticket, error) {
	if req == nil {
		return nil, Ticket{}, badInputf("engine: nil request")
	}
	h, ok := e.kinds[req.Kind]
	if !ok {
		return nil, Ticket{}, unsupported(req.Kind, e.order)
	}
	key := ""
	if req.RequestID != "" {
		d := requestDigest(req)
		key = req.RequestID + "\x00" + hex.EncodeToString(d[:])
	}
	e.mu.Lock()
	if e.draining {
		e.mu.Unlock()
		return nil, Ticket{}, ErrDraining
	}
	if j, t, ok := e.attachLocked(key); ok {
		e.mu.Unlock()
		return j, t, nil
	}
	e.mu.Unlock()

	pl, err := safePrepare(h, req)
	if err != nil {
		return nil, Ticket{}, err
	}
	if err := e.checkFits(pl); err != nil {
		return nil, Ticket{}, err
	}
	if err := ctx.Err(); err != nil {
		return nil, Ticket{}, err
	}

	e.mu.Lock()
	defer e.mu.Unlock()
	if e.draining {
		return nil, Ticket{}, ErrDraining
	}
	if j, t, ok := e.attachLocked(key); ok { // a twin won the race
		return j, t, nil
	}
	if err := e.queueRoomLocked(); err != nil {
		return nil, Ticket{}, err
	}
	e.seq++
	prio := req.Priority
	if prio == PriorityUnspecified {
		prio = DefaultPriority(req.Kind)
	}
	jctx, cancel := context.WithCancel(context.Background())
	j := &job{
		id: "job-" + strconv.FormatUint(e.seq, 10) + "-" + shortRand(), key: key,
		req: *req, prio: prio, seq: e.seq, plan: pl, state: StateQueued,
		ctx: jctx, cancel: cancel, done: make(chan struct{}), submitted: time.Now(),
	}
	j.req.VanillaProof, j.req.VanillaProofs = nil, nil
	n := pl.Partitions()
	j.parts = make([]*part, n)
	for k := range j.parts {
		j.parts[k] = &part{k: k, failedOn: -1}
	}
	j.proofs = make([]groth16.Proof, n)
	e.jobs[j.id] = j
	if key != "" {
		e.byKey[key] = j
	}
	e.active = append(e.active, j)
	e.idleGen++ // a pending idle release is stale now
	t := Ticket{JobID: j.id, QueuePosition: e.aheadLocked(j), Device: e.onlyProverLocked()}
	e.log.Info("job submitted", "job", j.id, "request", req.RequestID, "kind", req.Kind.String(), "priority", prio.String(), "partitions", n)
	e.dispatchLocked()
	return j, t, nil
}

// attachLocked returns the job key names when it is pending, running, or
// completed and retained. A job being cancelled or failed (stopping: its
// partition in flight has yet to return) is not attached to: a caller's
// retry right after its deadline would get that job's CANCELLED.
func (e *Engine) attachLocked(key string) (*job, Ticket, bool) {
	if key == "" {
		return nil, Ticket{}, false
	}
	e.pruneLocked()
	j := e.byKey[key]
	if j == nil || j.stopping || (j.state.Final() && j.state != StateCompleted) {
		return nil, Ticket{}, false
	}
	t := Ticket{JobID: j.id, Attached: true, Device: e.onlyProverLocked()}
	if !j.state.Final() {
		t.QueuePosition = e.aheadLocked(j)
	}
	return j, t, true
}

// aheadLocked counts the unfinished jobs that go before j.
func (e *Engine) aheadLocked(j *job) int {
	n := 0
	for _, o := range e.active {
		if o != j && before(o, j) {
			n++
		}
	}
	return n
}

// before orders jobs: higher priority first, then submission order.
func before(a, b *job) bool {
	if a.prio != b.prio {
		return a.prio > b.prio
	}
	return a.seq < b.seq
}

// checkFits refuses a plan whose parameters plus one partition exceed the
// whole budget.
func (e *Engine) checkFits(pl Plan) error {
	need := pl.PartitionBytes()
	var pb uint64
	if s := pl.Params(); s != nil {
		pb = s.Bytes
	}
	if pb+need > e.cfg.BudgetBytes {
		return fmt.Errorf("%w: it needs %s (parameters %s + one partition %s), the budget is %s",
			ErrTooLarge, formatBytes(pb+need), formatBytes(pb), formatBytes(need), formatBytes(e.cfg.BudgetBytes))
	}
	return nil
}

// safePrepare is h.prepare with a panic turned into an error.
func safePrepare(h Family, req *Request) (pl Plan, err error) {
	defer func() {
		if r := recover(); r != nil {
			pl, err = nil, fmt.Errorf("%w while parsing the request: %v", errPanic, r)
		}
	}()
	return h.Prepare(req)
}

// Cancel stops a job: a queued one leaves the queue, a running one stops
// at its next partition boundary (its ctx stops synthesis and proving
// between stages) and frees its memory. wasRunning reports whether a
// partition had started. A finished job is left as it is.
func (e *Engine) Cancel(jobID string) (wasRunning bool, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.pruneLocked()
	j := e.jobs[jobID]
	if j == nil {
		return false, fmt.Errorf("%w: %q", ErrUnknownJob, jobID)
	}
	if j.state.Final() {
		return false, nil
	}
	wasRunning = j.state == StateRunning
	e.cancelLocked(j, fmt.Errorf("engine: job %s cancelled", j.id))
	return wasRunning, nil
}
