// SPDX-License-Identifier: Apache-2.0 OR MIT

package service_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/cuseal/cuseal/porep/engine"
)

// fakeEngine is a test double of service.Engine: jobs finish when the test
// says (finish, or at once with auto), with the proof sha256(vanilla_proof).
type fakeEngine struct {
	mu      sync.Mutex
	jobs    map[string]*fakeJob
	byReq   map[string]*fakeJob
	n       int
	auto    bool
	params  map[string]uint64 // resident circuit ids and sizes
	reg     *prometheus.Registry
	submits prometheus.Counter
	// badRequestID: Submit refuses this request id with engine.ErrBadInput.
	badRequestID string
	statusCalls  atomic.Int64 // Status snapshots taken
}

type fakeJob struct {
	id      string
	req     *engine.Request
	done    chan struct{}
	res     engine.Result
	running bool
}

func newFake(auto bool) *fakeEngine {
	f := &fakeEngine{jobs: map[string]*fakeJob{}, byReq: map[string]*fakeJob{}, auto: auto,
		params: map[string]uint64{"porep-2k": 1 << 20}, reg: prometheus.NewRegistry()}
	f.submits = prometheus.NewCounter(prometheus.CounterOpts{Name: "fake_jobs_submitted_total", Help: "jobs"})
	f.reg.MustRegister(f.submits)
	return f
}

func proofOf(r *engine.Request) []byte {
	h := sha256.Sum256(r.VanillaProof)
	return h[:]
}

func (f *fakeEngine) Submit(_ context.Context, r *engine.Request) (engine.Ticket, error) {
	if r.RequestID == "panic" {
		panic("fake engine told to panic")
	}
	if r.RequestID != "" && r.RequestID == f.badRequestID {
		return engine.Ticket{}, fmt.Errorf("%w: vanilla_proof: comm_r mismatch at partition 0", engine.ErrBadInput)
	}
	if r.Kind != engine.KindPoRepC2 {
		return engine.Ticket{}, fmt.Errorf("%w: %s", engine.ErrUnsupportedKind, r.Kind)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if j, ok := f.byReq[r.RequestID]; ok && r.RequestID != "" {
		return engine.Ticket{JobID: j.id, Attached: true}, nil
	}
	f.n++
	j := &fakeJob{id: fmt.Sprintf("job-%d", f.n), req: r, done: make(chan struct{})}
	j.res = engine.Result{JobID: j.id, RequestID: r.RequestID, Kind: r.Kind, State: engine.StateQueued}
	f.jobs[j.id] = j
	if r.RequestID != "" {
		f.byReq[r.RequestID] = j
	}
	f.submits.Inc()
	pos := len(f.jobs) - 1
	if f.auto {
		f.finishLocked(j, engine.StateCompleted, nil)
	}
	return engine.Ticket{JobID: j.id, QueuePosition: pos, Device: "cpu"}, nil
}

func (f *fakeEngine) setAuto(on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.auto = on
}

// finish ends job id with state (Completed: the proof; else err).
func (f *fakeEngine) finish(id string, state engine.State, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.finishLocked(f.jobs[id], state, err)
}

func (f *fakeEngine) finishLocked(j *fakeJob, state engine.State, err error) {
	select {
	case <-j.done:
		return
	default:
	}
	j.res.State, j.res.Err = state, err
	if state == engine.StateCompleted {
		j.res.Proof = proofOf(j.req)
	}
	j.res.Timings = engine.Timings{QueueWait: 3 * time.Millisecond, ParamsLoad: 5 * time.Millisecond,
		Synthesis: 7 * time.Millisecond, Prove: 11 * time.Millisecond, Total: 29 * time.Millisecond}
	close(j.done)
}

func (f *fakeEngine) job(id string) *fakeJob {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.jobs[id]
}

func (f *fakeEngine) Await(ctx context.Context, id string) (*engine.Result, error) {
	j := f.job(id)
	if j == nil {
		return nil, fmt.Errorf("%w: %q", engine.ErrUnknownJob, id)
	}
	select {
	case <-j.done:
		f.mu.Lock()
		defer f.mu.Unlock()
		r := j.res
		return &r, nil
	case <-ctx.Done():
		f.mu.Lock()
		defer f.mu.Unlock()
		r := j.res
		return &r, ctx.Err()
	}
}

func (f *fakeEngine) Prove(ctx context.Context, r *engine.Request) (*engine.Result, error) {
	t, err := f.Submit(ctx, r)
	if err != nil {
		return nil, err
	}
	res, err := f.Await(ctx, t.JobID)
	if err != nil && ctx.Err() != nil {
		f.Cancel(t.JobID)
	}
	return res, err
}

func (f *fakeEngine) Cancel(id string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	j := f.jobs[id]
	if j == nil {
		return false, fmt.Errorf("%w: %q", engine.ErrUnknownJob, id)
	}
	was := j.running
	f.finishLocked(j, engine.StateCancelled, errors.New("cancelled by CancelProof"))
	return was, nil
}

// start marks a job running.
func (f *fakeEngine) start(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.jobs[id].running, f.jobs[id].res.State = true, engine.StateRunning
}

func (f *fakeEngine) Status() engine.Status {
	f.statusCalls.Add(1)
	f.mu.Lock()
	defer f.mu.Unlock()
	st := engine.Status{
		Uptime: 90 * time.Second,
		Queues: []engine.QueueStatus{{Kind: engine.KindPoRepC2, Pending: 2, InProgress: 1}},
		Devices: []engine.DeviceStatus{
			{Ordinal: 0, Name: "cpu", Backend: "cpu", CurrentJobID: "job-1", CurrentKind: engine.KindPoRepC2},
			{Ordinal: 1, Name: "cuda:0 Test GPU", Backend: "cuda", VRAMTotal: 80 << 30, VRAMFree: 60 << 30, Quarantined: true, ConsecutiveFailures: 2},
		},
		Budget:   engine.BudgetStatus{Total: 64 << 30, Used: 10 << 30},
		Counters: engine.Counters{Completed: 5, Failed: 2, Cancelled: 1},
	}
	for id, n := range f.params {
		st.Params = append(st.Params, engine.ParamsStatus{CircuitID: id, Tier: "warm", Bytes: n, RefCount: 1})
	}
	return st
}

func (f *fakeEngine) Preload(_ context.Context, id string) (bool, time.Duration, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id == "porep-64t" {
		return false, 0, fmt.Errorf("%w: unknown circuit id %q", engine.ErrBadInput, id)
	}
	_, ok := f.params[id]
	if ok {
		return true, 0, nil
	}
	f.params[id] = 2 << 20
	return false, 1500 * time.Millisecond, nil
}

func (f *fakeEngine) Evict(id string) (bool, uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, ok := f.params[id]
	delete(f.params, id)
	return ok, n, nil
}

func (f *fakeEngine) Gatherer() prometheus.Gatherer { return f.reg }
