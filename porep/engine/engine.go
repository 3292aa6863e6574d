// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/post"
)

// Engine is the long-lived proving engine (see the package doc). Its
// methods are safe for concurrent use.
type Engine struct {
	cfg     Config
	log     *slog.Logger
	kinds   map[Kind]Family
	order   []Kind // kinds in Status order
	devices []*device
	started time.Time
	m       *metrics
	// pool keeps synthesis buffers for the next partition of the same
	// shape; what it keeps counts in the budget.
	pool *cs.BufferPool

	mu       sync.Mutex
	draining bool
	seq      uint64
	jobs     map[string]*job // by JobID: pending, running and retained
	byKey    map[string]*job // by RequestID+digest: the newest job
	active   []*job          // not final, in submission order
	retained []*job          // final, oldest first
	params   map[string]*paramsEntry
	used     budgetUse
	changed  chan struct{} // closed and replaced when a job becomes final
	counters Counters
	// est is each prover's expected time per partition of a kind (a moving
	// average of its verified proofs), for the critical prover's choice.
	est map[estKey]time.Duration
	// wake re-runs dispatch at wakeAt: when a busy prover a CRITICAL
	// partition waits for is expected to be done (critical.go).
	wake   *time.Timer
	wakeAt time.Time
	closed bool
	// lost is closed when every device prover lost memory (devguard.go).
	lost     chan struct{}
	lostOnce sync.Once
	lostErr  error
}

// budgetUse is what is reserved in the budget, bytes.
type budgetUse struct{ params, synth, assign uint64 }

type device struct {
	ord         int
	p           Prover
	critical    bool // takes CRITICAL partitions only (Config.CriticalProver)
	busy        bool
	cur         *job
	curKind     Kind      // of cur, while busy
	started     time.Time // when the partition in progress started
	quarantined bool
	fails       int // consecutive
	busyTotal   time.Duration
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

type paramsEntry struct {
	spec     *Params
	keys     *Keys
	loading  chan struct{} // closed when a load ends
	err      error
	loaded   bool
	refs     int
	lastUsed time.Time
	loadTook time.Duration
}

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
	next      int // next partition to synthesize
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

// New starts an engine: it resolves the provers (Config.Provers, else one
// for Config.Backend) and registers the kinds this build proves.
func New(cfg Config) (*Engine, error) {
	cfg = cfg.withDefaults()
	e := &Engine{
		cfg: cfg, log: cfg.Logger, started: time.Now(),
		kinds:   map[Kind]Family{},
		jobs:    map[string]*job{},
		byKey:   map[string]*job{},
		params:  map[string]*paramsEntry{},
		changed: make(chan struct{}),
		pool:    &cs.BufferPool{Max: cfg.SynthesisWorkers},
		est:     map[estKey]time.Duration{},
		lost:    make(chan struct{}),
	}
	if e.cfg.BudgetBytes == 0 {
		e.cfg.BudgetBytes = DefaultBudget()
	}
	provers, spare := cfg.Provers, cfg.CriticalProver
	if len(provers) == 0 {
		var err error
		if provers, err = NewProvers(cfg.Backend); err != nil {
			return nil, err
		}
		if spare == nil && !cfg.NoCriticalProver {
			if spare, err = newCriticalProver(provers, cfg.CriticalTasks); err != nil {
				return nil, err
			}
		}
	}
	if cfg.NoCriticalProver {
		spare = nil
	}
	names := map[string]bool{}
	memBackend := "cuda"
	for i, p := range provers {
		if p == nil || names[p.Name()] {
			return nil, fmt.Errorf("engine: prover %d: nil or a repeated name", i)
		}
		names[p.Name()] = true
		e.devices = append(e.devices, &device{ord: i, p: p})
		if !deviceBackend(p.Backend()) {
			memBackend = porep.BackendCPU // a host backend's scratch is host memory
		}
	}
	if spare != nil {
		if names[spare.Name()] {
			return nil, fmt.Errorf("engine: critical prover %q: a repeated name", spare.Name())
		}
		e.devices = append(e.devices, &device{ord: len(e.devices), p: spare, critical: true})
	}
	if e.cfg.PartitionsWaiting <= 0 {
		e.cfg.PartitionsWaiting = len(provers) + 1
	}
	var opts []porep.Option
	if cfg.ParamsDir != "" {
		opts = append(opts, porep.WithParamsDir(cfg.ParamsDir))
	}
	if cfg.RequireProductionParams {
		opts = append(opts, porep.WithRequireProductionParams())
	}
	opts = append(opts, porep.WithLogger(cfg.Logger))
	base := jobFamily{opts: opts, backend: memBackend, pool: e.pool}
	// A WinningPoSt may prove on the kept prover: count its memory as that
	// prover's backend needs it when that is the CPU (more host scratch).
	win := base
	if spare != nil && spare.Backend() == porep.BackendCPU {
		win.backend = porep.BackendCPU
	}
	e.register(KindPoRepC2, porepFamily(base))
	e.register(KindWinningPoSt, postFamily(win, post.Winning))
	e.register(KindWindowPoStPartition, postFamily(base, post.Window))
	e.register(KindSnapDealsUpdate, updateFamily(base))
	extra := slices.Sorted(maps.Keys(cfg.Families))
	for _, k := range extra {
		if cfg.Families[k] == nil {
			return nil, fmt.Errorf("engine: Families[%s]: nil", k)
		}
		e.register(k, cfg.Families[k])
	}
	e.m = newMetrics(e)
	return e, nil
}

// register makes f prove kind k, in place of the kind's family if it
// has one.
func (e *Engine) register(k Kind, f Family) {
	if _, ok := e.kinds[k]; !ok {
		e.order = append(e.order, k)
	}
	e.kinds[k] = f
}

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
	t := Ticket{JobID: j.id, QueuePosition: e.aheadLocked(j), Device: e.onlyProverLocked()}
	e.log.Info("job submitted", "job", j.id, "request", req.RequestID, "kind", req.Kind.String(), "priority", prio.String(), "partitions", n)
	e.dispatchLocked()
	return j, t, nil
}

// attachLocked returns the job key names when it is pending, running, or
// completed and retained.
func (e *Engine) attachLocked(key string) (*job, Ticket, bool) {
	if key == "" {
		return nil, Ticket{}, false
	}
	e.pruneLocked()
	j := e.byKey[key]
	if j == nil || (j.state.Final() && j.state != StateCompleted) {
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

// usedLocked is the budget in use, bytes, pooled synthesis buffers included.
func (e *Engine) usedLocked() uint64 {
	return e.used.params + e.used.synth + e.used.assign + e.pooledBytes()
}

// dispatchLocked starts what can start: proofs on idle provers, then
// syntheses, each in priority order.
func (e *Engine) dispatchLocked() {
	e.dispatchProofsLocked()
	e.dispatchSynthesisLocked()
	e.m.refreshLocked()
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
			e.failLocked(j, fmt.Errorf("engine: job %s: every prover is quarantined after failing twice in a row", j.id))
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
		if j.stopping || j.next >= len(j.parts) || (blocked && j.next == 0) {
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
		p := j.parts[j.next]
		j.next++
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

// evictIdleLocked evicts the least recently used loaded parameters no job
// holds (other than keep); false when there are none.
func (e *Engine) evictIdleLocked(keep *Params) bool {
	var victim *paramsEntry
	for _, pe := range e.params {
		if pe.refs > 0 || pe.loading != nil || (keep != nil && pe.spec.File == keep.File) {
			continue
		}
		if victim == nil || pe.lastUsed.Before(victim.lastUsed) {
			victim = pe
		}
	}
	if victim == nil {
		return false
	}
	e.dropParamsLocked(victim)
	return true
}

func (e *Engine) dropParamsLocked(pe *paramsEntry) {
	delete(e.params, pe.spec.File)
	e.used.params -= pe.spec.Bytes
	if pe.keys != nil && pe.keys.Evict != nil {
		pe.keys.Evict()
	}
	e.log.Info("params evicted", "circuit", pe.spec.ID, "bytes", pe.spec.Bytes)
}

// acquireKeys loads j's parameters once (the first caller loads, others
// wait) and returns how long this caller waited.
func (e *Engine) acquireKeys(j *job) (*Keys, time.Duration, error) {
	e.mu.Lock()
	pe := j.pe
	if pe == nil {
		e.mu.Unlock()
		return nil, 0, nil
	}
	if pe.loaded && !pe.keys.changed() {
		e.mu.Unlock()
		return pe.keys, 0, nil
	}
	t0 := time.Now()
	if pe.loading != nil {
		ch := pe.loading
		e.mu.Unlock()
		select {
		case <-ch:
		case <-j.ctx.Done():
			return nil, time.Since(t0), j.ctx.Err()
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		if pe.err != nil {
			return nil, time.Since(t0), pe.err
		}
		return pe.keys, time.Since(t0), nil
	}
	pe.loading = make(chan struct{})
	pe.err = nil
	e.mu.Unlock()
	k, err := func() (k *Keys, err error) {
		defer recoverTo(&err, j, -1)
		return pe.spec.Load()
	}()
	took := time.Since(t0)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err != nil {
		pe.err = err
	} else {
		pe.keys, pe.loaded, pe.loadTook = k, true, took
	}
	close(pe.loading)
	pe.loading = nil
	e.m.paramsLoad.Observe(took.Seconds())
	return k, took, err
}

func (e *Engine) runSynthesis(j *job, p *part) {
	t0 := time.Now()
	e.mu.Lock()
	p.synthStart = t0
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
	p.synth, p.paramsWait = took, wait
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
	case errors.Is(err, groth16.ErrParamsChanged):
		// Not the prover's fault, and a retry would read another file: the
		// job fails; the next acquireKeys loads the file afresh.
		e.freePartLocked(j, p)
		p.state = partFailed
		e.failLocked(j, fmt.Errorf("engine: job %s: partition %d: %w", j.id, p.k, err))
	case err != nil:
		d.fails++
		if d.fails >= 2 && !d.quarantined {
			d.quarantined = true
			e.log.Warn("prover quarantined after two failures in a row", "prover", d.p.Name(), "err", err)
		}
		if p.attempts < 2 {
			p.state = partSynthesized
			p.waitStart = t1
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

// Drain stops accepting work and waits for every job to end; when ctx
// ends first it cancels the rest, waits for them to stop and returns
// ctx's error.
func (e *Engine) Drain(ctx context.Context) error {
	e.mu.Lock()
	e.draining = true
	for {
		if len(e.active) == 0 {
			e.mu.Unlock()
			return nil
		}
		ch := e.changed
		e.mu.Unlock()
		select {
		case <-ch:
			e.mu.Lock()
		case <-ctx.Done():
			e.cancelAll(ctx.Err())
			return ctx.Err()
		}
	}
}

// cancelAll cancels every unfinished job and waits until none is left.
func (e *Engine) cancelAll(cause error) {
	e.mu.Lock()
	for _, j := range slices.Clone(e.active) {
		e.cancelLocked(j, fmt.Errorf("engine: job %s cancelled: the engine is stopping (%v)", j.id, cause))
	}
	for len(e.active) > 0 {
		ch := e.changed
		e.mu.Unlock()
		<-ch
		e.mu.Lock()
	}
	e.mu.Unlock()
}

// Close stops accepting work, cancels every job, waits for them to stop
// and evicts the parameters the engine loaded.
func (e *Engine) Close() error {
	e.mu.Lock()
	e.draining = true
	e.mu.Unlock()
	e.cancelAll(errors.New("closed"))
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed = true
	if e.wake != nil {
		e.wake.Stop()
	}
	for _, pe := range e.params {
		if pe.refs == 0 && pe.loading == nil {
			e.dropParamsLocked(pe)
		}
	}
	return nil
}

// Preload loads a circuit's parameters (cuzk ids: "porep-32g", "porep-2k")
// and keeps them resident; it waits for a load in progress.
func (e *Engine) Preload(ctx context.Context, circuitID string) (alreadyLoaded bool, took time.Duration, err error) {
	spec, err := e.circuit(circuitID)
	if err != nil {
		return false, 0, err
	}
	t0 := time.Now()
	e.mu.Lock()
	pe := e.params[spec.File]
	if pe != nil && pe.loaded {
		pe.lastUsed = time.Now()
		e.mu.Unlock()
		return true, 0, nil
	}
	if pe == nil {
		if spec.Bytes > e.cfg.BudgetBytes {
			e.mu.Unlock()
			return false, 0, fmt.Errorf("%w: %s parameters take %s, the budget is %s", ErrTooLarge, circuitID, formatBytes(spec.Bytes), formatBytes(e.cfg.BudgetBytes))
		}
		for e.usedLocked()+spec.Bytes > e.cfg.BudgetBytes {
			e.pool.Trim()
			if e.usedLocked()+spec.Bytes > e.cfg.BudgetBytes && !e.evictIdleLocked(spec) {
				e.mu.Unlock()
				return false, 0, fmt.Errorf("engine: preload %s: %s do not fit the budget now (%s of %s in use)", circuitID, formatBytes(spec.Bytes), formatBytes(e.usedLocked()), formatBytes(e.cfg.BudgetBytes))
			}
		}
		pe = &paramsEntry{spec: spec}
		e.params[spec.File] = pe
		e.used.params += spec.Bytes
	}
	// Load as a pseudo-job holding a reference, so it is not evicted meanwhile.
	pe.refs++
	tmp := &job{id: "preload-" + circuitID, pe: pe, ctx: ctx}
	e.mu.Unlock()
	_, _, err = e.acquireKeys(tmp)
	e.mu.Lock()
	pe.refs--
	pe.lastUsed = time.Now()
	if err != nil && !pe.loaded && pe.refs == 0 && pe.loading == nil && e.params[spec.File] == pe {
		delete(e.params, spec.File)
		e.used.params -= spec.Bytes
	}
	e.dispatchLocked()
	e.mu.Unlock()
	return false, time.Since(t0), err
}

// Evict drops a circuit's resident parameters when no job uses them.
func (e *Engine) Evict(circuitID string) (wasLoaded bool, freed uint64, err error) {
	spec, err := e.circuit(circuitID)
	if err != nil {
		return false, 0, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	pe := e.params[spec.File]
	if pe == nil || !pe.loaded {
		return false, 0, nil
	}
	if pe.refs > 0 {
		return true, 0, fmt.Errorf("engine: evict %s: %d jobs are using these parameters", circuitID, pe.refs)
	}
	e.dropParamsLocked(pe)
	e.dispatchLocked()
	return true, pe.spec.Bytes, nil
}

func (e *Engine) circuit(id string) (*Params, error) {
	for _, k := range e.order {
		if s, ok := e.kinds[k].Circuit(id); ok {
			return s, nil
		}
	}
	return nil, badInputf("engine: unknown circuit id %q (want e.g. porep-32g, porep-2k)", id)
}

// shortRand is 4 random hex bytes, so job ids differ across restarts.
func shortRand() string {
	var b [4]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// pooledBytes is what the synthesis buffer pool keeps, bytes.
func (e *Engine) pooledBytes() uint64 {
	_, b := e.pool.Kept()
	return b
}
