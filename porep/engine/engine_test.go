// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/porep/engine/enginetest"
	"github.com/cuseal/cuseal/porep/groth16"
)

// newDouble starts an engine with the test double: provers of the given
// time per partition, synthesis of synth per partition.
func newDouble(t *testing.T, cfg engine.Config, synth time.Duration, provers ...*enginetest.Prover) *engine.Engine {
	t.Helper()
	if cfg.Families == nil {
		cfg.Families = enginetest.Families(&enginetest.Family{Partitions: 2, SynthesisTime: synth, PartitionBytes: 1 << 20})
	}
	if cfg.BudgetBytes == 0 {
		cfg.BudgetBytes = 1 << 30
	}
	for _, p := range provers {
		cfg.Provers = append(cfg.Provers, p)
	}
	e, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func doubleReq(id string, parts int, prio engine.Priority) *engine.Request {
	return &engine.Request{RequestID: id, Kind: enginetest.Kind, Priority: prio, VanillaProofs: make([][]byte, parts)}
}

// waitState polls until job id reaches state (or fails the test after 10 s).
func waitState(t *testing.T, e *engine.Engine, id string, want func(engine.JobStatus) bool) engine.JobStatus {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, js := range e.Status().Jobs {
			if js.JobID == id && want(js) {
				return js
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("job %s never reached the wanted state; status %+v", id, e.Status().Jobs)
	return engine.JobStatus{}
}

func partitionProving(js engine.JobStatus) bool {
	for _, p := range js.Partitions {
		if p.State == "proving" {
			return true
		}
	}
	return false
}

// budgetIdle checks that nothing but parameters is left in the budget.
func budgetIdle(t *testing.T, e *engine.Engine) {
	t.Helper()
	b := e.Status().Budget
	if b.Synthesis != 0 || b.Assignments != 0 || b.Used != b.Params {
		t.Fatalf("budget not returned: %+v", b)
	}
}

func TestDoubleJobCompletes(t *testing.T) {
	d := &enginetest.Prover{PerPartition: time.Millisecond}
	e := newDouble(t, engine.Config{}, time.Millisecond, d)
	r, err := e.Prove(context.Background(), doubleReq("", 3, 0))
	if err != nil || r.State != engine.StateCompleted || r.Err != nil {
		t.Fatalf("Prove: %+v, %v", r, err)
	}
	if len(r.Proof) != 3*192 || d.Calls() != 3 {
		t.Fatalf("proof %d bytes after %d prover calls, want 576 after 3", len(r.Proof), d.Calls())
	}
	if r.Timings.Prove < 3*time.Millisecond || r.Timings.Synthesis < 3*time.Millisecond || r.Timings.Total < r.Timings.Prove {
		t.Fatalf("timings %+v", r.Timings)
	}
	s := e.Status()
	if s.Counters.Completed != 1 || len(s.Jobs) != 1 || s.Jobs[0].State != engine.StateCompleted || len(s.Jobs[0].Partitions) != 3 {
		t.Fatalf("status %+v", s)
	}
	for _, p := range s.Jobs[0].Partitions {
		if p.State != "proven" || p.Device != "double" || p.Attempts != 1 || p.Prove <= 0 || p.Synthesis <= 0 {
			t.Fatalf("partition %+v", p)
		}
	}
	if s.Devices[0].Busy < 3*time.Millisecond || s.Devices[0].Name != "double" {
		t.Fatalf("device %+v", s.Devices[0])
	}
	budgetIdle(t, e)
}

// TestConcurrentDuplicates: 8 callers, two request ids, four callers each:
// two jobs run, each partition is proven once, every caller gets its
// job's proof.
func TestConcurrentDuplicates(t *testing.T) {
	d := &enginetest.Prover{PerPartition: 5 * time.Millisecond}
	e := newDouble(t, engine.Config{}, time.Millisecond, d)
	var wg sync.WaitGroup
	results := make([]*engine.Result, 8)
	errs := make([]error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = e.Prove(context.Background(), doubleReq(fmt.Sprintf("id-%d", i%2), 3, 0))
		}()
	}
	wg.Wait()
	jobs := map[string]bool{}
	for i, r := range results {
		if errs[i] != nil || r.State != engine.StateCompleted || len(r.Proof) != 3*192 {
			t.Fatalf("caller %d: %+v, %v", i, r, errs[i])
		}
		if results[i%2].JobID != r.JobID {
			t.Fatalf("caller %d got job %s, caller %d job %s for the same request", i, r.JobID, i%2, results[i%2].JobID)
		}
		jobs[r.JobID] = true
	}
	if len(jobs) != 2 || d.Calls() != 6 {
		t.Fatalf("%d jobs, %d partition proofs; want 2 jobs, 6 proofs", len(jobs), d.Calls())
	}
	// A retained completed job answers again without proving.
	tk, err := e.Submit(context.Background(), doubleReq("id-0", 3, 0))
	if err != nil || !tk.Attached || tk.JobID != results[0].JobID {
		t.Fatalf("resubmit: %+v, %v", tk, err)
	}
	r, err := e.Await(context.Background(), tk.JobID)
	if err != nil || string(r.Proof) != string(results[0].Proof) || d.Calls() != 6 {
		t.Fatalf("retained result: %+v, %v, %d calls", r, err, d.Calls())
	}
}

// TestRetryWhileCancelling: a request id sent again while its cancelled job
// still waits for a partition that cannot be interrupted (a kernel in
// flight, the CPU's MSM) starts a new job instead of attaching to the
// dying one, as Curio's retry right after its deadline does (issue 42's
// soak); the new job then answers the id.
func TestRetryWhileCancelling(t *testing.T) {
	d := &enginetest.Prover{PerPartition: 300 * time.Millisecond, IgnoreCancel: true}
	e := newDouble(t, engine.Config{}, 0, d)
	ctx := context.Background()
	a, err := e.Submit(ctx, doubleReq("retry", 1, 0))
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, e, a.JobID, partitionProving)
	if _, err := e.Cancel(a.JobID); err != nil {
		t.Fatal(err)
	}
	b, err := e.Submit(ctx, doubleReq("retry", 1, 0))
	if err != nil || b.Attached || b.JobID == a.JobID {
		t.Fatalf("sent again while job %s stops: %+v, %v; want a new job", a.JobID, b, err)
	}
	ra, _ := e.Await(ctx, a.JobID)
	rb, err := e.Await(ctx, b.JobID)
	if ra == nil || ra.State != engine.StateCancelled || err != nil || rb.State != engine.StateCompleted || len(rb.Proof) != 192 {
		t.Fatalf("cancelled job %+v; the retry's %+v, %v", ra, rb, err)
	}
	c, err := e.Submit(ctx, doubleReq("retry", 1, 0))
	if err != nil || !c.Attached || c.JobID != b.JobID {
		t.Fatalf("sent a third time: %+v, %v; want job %s attached", c, err, b.JobID)
	}
}

// TestSameIDOtherContent: the same RequestID with other inputs is another job.
func TestSameIDOtherContent(t *testing.T) {
	d := &enginetest.Prover{PerPartition: time.Millisecond}
	e := newDouble(t, engine.Config{}, 0, d)
	ctx := context.Background()
	a, err := e.Submit(ctx, doubleReq("same", 2, 0))
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.Submit(ctx, doubleReq("same", 3, 0))
	if err != nil {
		t.Fatal(err)
	}
	if a.JobID == b.JobID || b.Attached {
		t.Fatalf("different content attached: %+v %+v", a, b)
	}
	ra, _ := e.Await(ctx, a.JobID)
	rb, _ := e.Await(ctx, b.JobID)
	if len(ra.Proof) != 2*192 || len(rb.Proof) != 3*192 {
		t.Fatalf("proofs of %d and %d bytes", len(ra.Proof), len(rb.Proof))
	}
	// Priority is not content: it attaches.
	c, err := e.Submit(ctx, doubleReq("same", 3, engine.PriorityHigh))
	if err != nil || !c.Attached || c.JobID != b.JobID {
		t.Fatalf("priority changed the job: %+v, %v", c, err)
	}
}

func TestRetention(t *testing.T) {
	d := &enginetest.Prover{}
	e := newDouble(t, engine.Config{RetainJobs: 2, RetainFor: 200 * time.Millisecond}, 0, d)
	ctx := context.Background()
	var ids []string
	for i := range 3 {
		r, err := e.Prove(ctx, doubleReq(fmt.Sprintf("r%d", i), 1, 0))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.JobID)
	}
	if _, err := e.Await(ctx, ids[0]); !errors.Is(err, engine.ErrUnknownJob) {
		t.Fatalf("job beyond the retention count: %v", err)
	}
	if r, err := e.Await(ctx, ids[2]); err != nil || r.State != engine.StateCompleted {
		t.Fatalf("retained job: %+v, %v", r, err)
	}
	// r0 was forgotten: the same id runs again.
	tk, err := e.Submit(ctx, doubleReq("r0", 1, 0))
	if err != nil || tk.Attached {
		t.Fatalf("forgotten id attached: %+v, %v", tk, err)
	}
	if _, err := e.Await(ctx, tk.JobID); err != nil {
		t.Fatal(err)
	}
	time.Sleep(250 * time.Millisecond)
	if _, err := e.Await(ctx, ids[2]); !errors.Is(err, engine.ErrUnknownJob) {
		t.Fatalf("job past the retention age: %v", err)
	}
	if n := len(e.Status().Jobs); n != 0 {
		t.Fatalf("%d jobs left after the retention age", n)
	}
}

// TestCancelQueuedAndRunning: a running job stops at its partition
// boundary, a queued one leaves the queue, the budget comes back, and the
// next job runs.
func TestCancelQueuedAndRunning(t *testing.T) {
	d := &enginetest.Prover{PerPartition: 200 * time.Millisecond}
	e := newDouble(t, engine.Config{SynthesisWorkers: 1, PartitionsWaiting: 1}, 0, d)
	ctx := context.Background()
	run, err := e.Submit(ctx, doubleReq("run", 4, 0))
	if err != nil {
		t.Fatal(err)
	}
	queued, err := e.Submit(ctx, doubleReq("queued", 2, 0))
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, e, run.JobID, partitionProving)
	if js := waitState(t, e, queued.JobID, func(js engine.JobStatus) bool { return true }); js.State != engine.StateQueued {
		t.Fatalf("second job %s, want queued", js.State)
	}
	if s := e.Status(); s.Budget.Assignments == 0 || s.Devices[0].CurrentJobID != run.JobID || s.Devices[0].CurrentKind != enginetest.Kind ||
		len(s.Queues) != 5 || s.Queues[4].Kind != enginetest.Kind || s.Queues[4].Pending != 1 || s.Queues[4].InProgress != 1 {
		t.Fatalf("status while proving: %+v", s)
	}
	was, err := e.Cancel(queued.JobID)
	if err != nil || was {
		t.Fatalf("cancel queued: %v, %v", was, err)
	}
	was, err = e.Cancel(run.JobID)
	if err != nil || !was {
		t.Fatalf("cancel running: %v, %v", was, err)
	}
	for _, id := range []string{run.JobID, queued.JobID} {
		r, err := e.Await(ctx, id)
		if err != nil || r.State != engine.StateCancelled || !errors.Is(r.Err, context.Canceled) || r.Proof != nil {
			t.Fatalf("cancelled job %s: %+v, %v", id, r, err)
		}
	}
	if d.Calls() != 1 {
		t.Fatalf("%d partitions reached the prover, want the one running at the cancel", d.Calls())
	}
	budgetIdle(t, e)
	if s := e.Status(); s.Counters.Cancelled != 2 {
		t.Fatalf("counters %+v", s.Counters)
	}
	d.PerPartition = time.Millisecond
	r, err := e.Prove(ctx, doubleReq("next", 2, 0))
	if err != nil || r.State != engine.StateCompleted {
		t.Fatalf("next job: %+v, %v", r, err)
	}
	if was, err := e.Cancel(r.JobID); was || err != nil {
		t.Fatalf("cancel of a finished job: %v, %v", was, err)
	}
	if _, err := e.Cancel("nope"); !errors.Is(err, engine.ErrUnknownJob) {
		t.Fatalf("cancel unknown: %v", err)
	}
}

// TestProveCallerGone: a Prove caller's ctx ending cancels its job unless
// the job was Submit-ted or someone else waits; Await's timeout does not.
func TestProveCallerGone(t *testing.T) {
	d := &enginetest.Prover{PerPartition: 50 * time.Millisecond}
	e := newDouble(t, engine.Config{}, 0, d)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	r, err := e.Prove(ctx, doubleReq("gone", 4, 0))
	if !errors.Is(err, context.DeadlineExceeded) || r == nil {
		t.Fatalf("Prove past its deadline: %+v, %v", r, err)
	}
	r, _ = e.Await(context.Background(), r.JobID)
	if r.State != engine.StateCancelled {
		t.Fatalf("abandoned job %s, want cancelled", r.State)
	}
	// Submitted: Await's timeout leaves it running.
	tk, err := e.Submit(context.Background(), doubleReq("kept", 2, 0))
	if err != nil {
		t.Fatal(err)
	}
	actx, acancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer acancel()
	r, err = e.Await(actx, tk.JobID)
	if !errors.Is(err, context.DeadlineExceeded) || r.State.Final() || r.Timings.Total <= 0 {
		t.Fatalf("Await timeout: %+v, %v", r, err)
	}
	pctx, pcancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer pcancel()
	if _, err := e.Prove(pctx, doubleReq("kept", 2, 0)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatal(err)
	}
	r, err = e.Await(context.Background(), tk.JobID)
	if err != nil || r.State != engine.StateCompleted {
		t.Fatalf("submitted job after its callers left: %+v, %v", r, err)
	}
}

// TestCriticalOvertakes: a CRITICAL job submitted behind 10 queued NORMAL
// jobs of 4 partitions is proven within the next two proving slots (the
// partition proving when it arrives, and its own).
func TestCriticalOvertakes(t *testing.T) {
	var mu sync.Mutex
	var order []string
	d := &enginetest.Prover{PerPartition: 20 * time.Millisecond, Fail: func(_ int, w *engine.Work) error {
		mu.Lock()
		order = append(order, w.JobID)
		mu.Unlock()
		return nil
	}}
	e := newDouble(t, engine.Config{}, 2*time.Millisecond, d)
	ctx := context.Background()
	for i := range 10 {
		if _, err := e.Submit(ctx, doubleReq(fmt.Sprintf("n%d", i), 4, engine.PriorityNormal)); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(50 * time.Millisecond)
	mu.Lock()
	before := len(order)
	mu.Unlock()
	r, err := e.Prove(ctx, doubleReq("winning", 1, engine.PriorityCritical))
	if err != nil || r.State != engine.StateCompleted {
		t.Fatal(r, err)
	}
	mu.Lock()
	defer mu.Unlock()
	pos := -1
	for i, id := range order {
		if id == r.JobID {
			pos = i
		}
	}
	if pos < 0 || pos > before+1 {
		t.Fatalf("critical partition proven at slot %d, %d slots were started before it arrived (order %v)", pos, before, order)
	}
	if s := e.Status(); s.Queues[len(s.Queues)-1].Pending+s.Queues[len(s.Queues)-1].InProgress == 0 {
		t.Fatalf("NORMAL jobs should still be queued: %+v", s.Queues)
	}
}

// TestRetryOnOtherProver: a failing prover's partition is proven again on
// the other prover; the job completes; a prover failing twice in a row is
// quarantined and gets no more work.
func TestRetryOnOtherProver(t *testing.T) {
	bad := &enginetest.Prover{ProverName: "bad", PerPartition: time.Millisecond, Fail: func(int, *engine.Work) error { return errors.New("device lost") }}
	good := &enginetest.Prover{ProverName: "good", PerPartition: 5 * time.Millisecond}
	e := newDouble(t, engine.Config{}, 0, bad, good)
	ctx := context.Background()
	for i := range 3 {
		r, err := e.Prove(ctx, doubleReq(fmt.Sprintf("j%d", i), 4, 0))
		if err != nil || r.State != engine.StateCompleted {
			t.Fatalf("job %d: %+v, %v", i, r, err)
		}
	}
	s := e.Status()
	if !s.Devices[0].Quarantined || s.Devices[0].ConsecutiveFailures != 2 || s.Devices[1].Quarantined {
		t.Fatalf("devices %+v", s.Devices)
	}
	if bad.Calls() != 2 || s.Counters.Retries != 2 {
		t.Fatalf("bad prover called %d times, %d retries; want 2 and 2", bad.Calls(), s.Counters.Retries)
	}
	retried := 0
	for _, js := range s.Jobs {
		for _, p := range js.Partitions {
			if p.Attempts == 2 {
				retried++
				if p.Device != "good" {
					t.Fatalf("retry ran on %s", p.Device)
				}
			}
		}
	}
	if retried != 2 {
		t.Fatalf("%d partitions retried, want 2", retried)
	}
}

// TestFailureNamesPartition: with one prover failing, the partition is
// retried on it, then the job fails naming the partition and both causes;
// the prover is then quarantined, and with no prover left jobs fail.
func TestFailureNamesPartition(t *testing.T) {
	d := &enginetest.Prover{PerPartition: time.Millisecond, Fail: func(n int, _ *engine.Work) error { return fmt.Errorf("boom %d", n) }}
	e := newDouble(t, engine.Config{}, 0, d)
	r, err := e.Prove(context.Background(), doubleReq("f", 1, 0))
	if err != nil || r.State != engine.StateFailed {
		t.Fatalf("%+v, %v", r, err)
	}
	msg := r.Err.Error()
	for _, want := range []string{"partition 0", "boom 1", "boom 2", "double"} {
		if !strings.Contains(msg, want) {
			t.Fatalf("error %q does not name %q", msg, want)
		}
	}
	if s := e.Status(); !s.Devices[0].Quarantined || s.Counters.Failed != 1 {
		t.Fatalf("status %+v", s)
	}
	r, err = e.Prove(context.Background(), doubleReq("g", 1, 0))
	if err != nil || r.State != engine.StateFailed || !strings.Contains(r.Err.Error(), "quarantined") {
		t.Fatalf("job with every prover quarantined: %+v, %v", r, err)
	}
	budgetIdle(t, e)
}

// TestQuarantineEnds: a prover quarantined after two failures in a row
// (a new-user trial's case: a .params corrupted so that its proofs do not
// verify) refuses work until Config.QuarantineFor has passed, then takes
// jobs again; its next failure quarantines it at once.
func TestQuarantineEnds(t *testing.T) {
	d := &enginetest.Prover{PerPartition: time.Millisecond, Fail: func(n int, _ *engine.Work) error {
		if n <= 2 || n == 4 {
			return fmt.Errorf("proof does not verify %d", n)
		}
		return nil
	}}
	const quarantine = 300 * time.Millisecond
	e := newDouble(t, engine.Config{QuarantineFor: quarantine}, 0, d)
	ctx := context.Background()
	if r, err := e.Prove(ctx, doubleReq("bad", 1, 0)); err != nil || r.State != engine.StateFailed {
		t.Fatalf("job on a failing prover: %+v, %v", r, err)
	}
	t0 := time.Now()
	if r, err := e.Prove(ctx, doubleReq("refused", 1, 0)); err != nil || r.State != engine.StateFailed || !strings.Contains(r.Err.Error(), "quarantined") {
		t.Fatalf("job while quarantined: %+v, %v", r, err)
	}
	time.Sleep(quarantine - time.Since(t0) + 50*time.Millisecond)
	if r, err := e.Prove(ctx, doubleReq("back", 1, 0)); err != nil || r.State != engine.StateCompleted {
		t.Fatalf("job after the quarantine: %+v, %v", r, err)
	}
	if s := e.Status(); s.Devices[0].Quarantined || s.Devices[0].ConsecutiveFailures != 0 {
		t.Fatalf("devices after a success: %+v", s.Devices)
	}
	// One failure (call 4) on probation... then call 5 succeeds on the
	// same (only) prover: fails is back to 0, no quarantine.
	if r, err := e.Prove(ctx, doubleReq("retried", 1, 0)); err != nil || r.State != engine.StateCompleted {
		t.Fatalf("job with one failure: %+v, %v", r, err)
	}
	budgetIdle(t, e)
}

// TestPanicFailsJob: a kind that panics fails its job; the engine goes on.
func TestPanicFailsJob(t *testing.T) {
	d := &enginetest.Prover{PerPartition: time.Millisecond}
	e := newDouble(t, engine.Config{}, 0, d)
	ctx := context.Background()
	r, err := e.Prove(ctx, &engine.Request{Kind: enginetest.Kind, VanillaProof: []byte("panic")})
	if err != nil || r.State != engine.StateFailed || !errors.Is(r.Err, engine.ErrPanic) || !strings.Contains(r.Err.Error(), "on purpose") {
		t.Fatalf("panicking job: %+v, %v", r, err)
	}
	r, err = e.Prove(ctx, &engine.Request{Kind: enginetest.Kind, VanillaProof: []byte("fail")})
	if err != nil || r.State != engine.StateFailed || !strings.Contains(r.Err.Error(), "partition 0: synthesis") {
		t.Fatalf("failing synthesis: %+v, %v", r, err)
	}
	r, err = e.Prove(ctx, doubleReq("", 2, 0))
	if err != nil || r.State != engine.StateCompleted {
		t.Fatalf("job after the panic: %+v, %v", r, err)
	}
	budgetIdle(t, e)
}

func TestRefusals(t *testing.T) {
	e := newDouble(t, engine.Config{BudgetBytes: 10 << 20, Families: enginetest.Families(&enginetest.Family{PartitionBytes: 8 << 20, ParamsBytes: 4 << 20})}, 0, &enginetest.Prover{})
	ctx := context.Background()
	_, err := e.Submit(ctx, doubleReq("", 1, 0))
	if !errors.Is(err, engine.ErrTooLarge) || !strings.Contains(err.Error(), "12582912 bytes") || !strings.Contains(err.Error(), "10485760 bytes") {
		t.Fatalf("too large: %v", err)
	}
	if _, err := e.Submit(ctx, &engine.Request{Kind: engine.Kind(7)}); !errors.Is(err, engine.ErrUnsupportedKind) || !strings.Contains(err.Error(), "Kind(7)") {
		t.Fatalf("unsupported kind: %v", err)
	}
	if _, err := e.Submit(ctx, &engine.Request{Kind: enginetest.Kind, VanillaProof: []byte("bad")}); !errors.Is(err, engine.ErrBadInput) {
		t.Fatalf("bad input: %v", err)
	}
	if _, err := e.Submit(ctx, &engine.Request{Kind: engine.KindPoRepC2}); !errors.Is(err, engine.ErrBadInput) || !strings.Contains(err.Error(), "vanilla_proof") {
		t.Fatalf("empty PoRep: %v", err)
	}
	if _, err := e.Submit(ctx, &engine.Request{Kind: engine.KindPoRepC2, VanillaProof: []byte("{garbage")}); !errors.Is(err, engine.ErrBadInput) {
		t.Fatalf("garbage PoRep: %v", err)
	}
	if _, err := e.Await(ctx, "nope"); !errors.Is(err, engine.ErrUnknownJob) {
		t.Fatalf("await unknown: %v", err)
	}
}

// TestBudgetBoundsPartitions: with room for two partitions, never more
// than two are held at once, and everything completes.
func TestBudgetBoundsPartitions(t *testing.T) {
	d := &enginetest.Prover{PerPartition: 2 * time.Millisecond}
	e := newDouble(t, engine.Config{BudgetBytes: 2 << 20, SynthesisWorkers: 4, PartitionsWaiting: 8}, time.Millisecond, d)
	stop := make(chan struct{})
	var peak uint64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if b := e.Status().Budget; b.Used > peak {
				peak = b.Used
			}
			time.Sleep(100 * time.Microsecond)
		}
	}()
	var jobs []string
	for i := range 4 {
		tk, err := e.Submit(context.Background(), doubleReq(fmt.Sprint(i), 3, 0))
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, tk.JobID)
	}
	for _, id := range jobs {
		if r, err := e.Await(context.Background(), id); err != nil || r.State != engine.StateCompleted {
			t.Fatal(r, err)
		}
	}
	close(stop)
	wg.Wait()
	if peak > 2<<20 || peak == 0 {
		t.Fatalf("peak use %d bytes, budget %d", peak, 2<<20)
	}
}

// TestParamsLRU: idle parameters are evicted when room is needed; Preload
// and Evict work by circuit id.
func TestParamsLRU(t *testing.T) {
	e := newDouble(t, engine.Config{BudgetBytes: 8 << 20, Families: enginetest.Families(&enginetest.Family{PartitionBytes: 1 << 20, ParamsBytes: 4 << 20})}, 0, &enginetest.Prover{})
	ctx := context.Background()
	already, _, err := e.Preload(ctx, "double")
	if err != nil || already {
		t.Fatalf("preload: %v %v", already, err)
	}
	if already, _, err = e.Preload(ctx, "double"); err != nil || !already {
		t.Fatalf("second preload: %v %v", already, err)
	}
	s := e.Status()
	if len(s.Params) != 1 || s.Params[0].Tier != "warm" || s.Params[0].Bytes != 4<<20 || s.Budget.Params != 4<<20 {
		t.Fatalf("params %+v budget %+v", s.Params, s.Budget)
	}
	if _, err := e.Prove(ctx, doubleReq("", 2, 0)); err != nil {
		t.Fatal(err)
	}
	was, freed, err := e.Evict("double")
	if err != nil || !was || freed != 4<<20 {
		t.Fatalf("evict: %v %d %v", was, freed, err)
	}
	if s := e.Status(); len(s.Params) != 0 || s.Budget.Used != 0 {
		t.Fatalf("after evict: %+v %+v", s.Params, s.Budget)
	}
	if _, _, err := e.Preload(ctx, "porep-99k"); !errors.Is(err, engine.ErrBadInput) {
		t.Fatalf("unknown circuit: %v", err)
	}
}

func TestDrain(t *testing.T) {
	d := &enginetest.Prover{PerPartition: 20 * time.Millisecond}
	e := newDouble(t, engine.Config{}, 0, d)
	ctx := context.Background()
	tk, err := e.Submit(ctx, doubleReq("a", 2, 0))
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if r, _ := e.Await(ctx, tk.JobID); r.State != engine.StateCompleted {
		t.Fatalf("drained job %s", r.State)
	}
	if _, err := e.Submit(ctx, doubleReq("b", 1, 0)); !errors.Is(err, engine.ErrDraining) {
		t.Fatalf("submit while draining: %v", err)
	}

	e2 := newDouble(t, engine.Config{}, 0, &enginetest.Prover{PerPartition: time.Second})
	tk, err = e2.Submit(ctx, doubleReq("slow", 4, 0))
	if err != nil {
		t.Fatal(err)
	}
	dctx, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
	defer cancel()
	if err := e2.Drain(dctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("drain past its deadline: %v", err)
	}
	if r, _ := e2.Await(ctx, tk.JobID); r.State != engine.StateCancelled {
		t.Fatalf("job left at the drain deadline: %s", r.State)
	}
}

func TestMetrics(t *testing.T) {
	e := newDouble(t, engine.Config{}, 0, &enginetest.Prover{})
	if _, err := e.Prove(context.Background(), doubleReq("", 2, 0)); err != nil {
		t.Fatal(err)
	}
	mfs, err := e.Gatherer().Gather()
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, mf := range mfs {
		have[mf.GetName()] = true
	}
	for _, want := range []string{"cuseal_engine_queue_depth", "cuseal_engine_jobs_total", "cuseal_engine_job_duration_seconds", "cuseal_engine_partition_synthesis_seconds",
		"cuseal_engine_partition_prove_seconds", "cuseal_engine_device_busy", "cuseal_engine_device_busy_seconds_total",
		"cuseal_engine_budget_bytes", "cuseal_engine_partition_retries_total"} {
		if !have[want] {
			t.Errorf("metric %s missing (have %v)", want, have)
		}
	}
}

// TestBackendProvers: the registry's CPU backend is one prover, and a
// second CPU prover is kept for CRITICAL partitions unless
// NoCriticalProver; an unknown backend name is an error naming it.
func TestBackendProvers(t *testing.T) {
	e, err := engine.New(engine.Config{Backend: "cpu", BudgetBytes: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s := e.Status()
	if len(s.Devices) != 2 || s.Devices[0].Name != "cpu" || s.Devices[0].Backend != "cpu" || s.Devices[0].CriticalOnly ||
		s.Devices[1].Name != "cpu:critical" || s.Devices[1].Backend != "cpu" || !s.Devices[1].CriticalOnly || s.Budget.Total != 1<<30 {
		t.Fatalf("devices %+v budget %+v", s.Devices, s.Budget)
	}
	e1, err := engine.New(engine.Config{Backend: "cpu", BudgetBytes: 1 << 30, NoCriticalProver: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e1.Close()
	if d := e1.Status().Devices; len(d) != 1 || d[0].Name != "cpu" {
		t.Fatalf("NoCriticalProver: devices %+v", d)
	}
	if len(s.Queues) != 4 || s.Queues[0].Kind != engine.KindPoRepC2 || s.Queues[1].Kind != engine.KindWinningPoSt || s.Queues[2].Kind != engine.KindWindowPoStPartition || s.Queues[3].Kind != engine.KindSnapDealsUpdate {
		t.Fatalf("queues %+v", s.Queues)
	}
	if _, err := engine.New(engine.Config{Backend: "no-such-backend"}); err == nil || !strings.Contains(err.Error(), "no-such-backend") {
		t.Fatalf("unknown backend: %v", err)
	}
	if b := engine.DefaultBudget(); b == 0 {
		t.Fatal("no default budget")
	}
}

// TestProverPanic: a prover that panics counts as a failed attempt; the
// partition is retried and the job completes.
func TestProverPanic(t *testing.T) {
	d := &enginetest.Prover{Fail: func(n int, _ *engine.Work) error {
		if n == 1 {
			panic("prover panics on purpose")
		}
		return nil
	}}
	e := newDouble(t, engine.Config{}, 0, d)
	r, err := e.Prove(context.Background(), doubleReq("", 2, 0))
	if err != nil || r.State != engine.StateCompleted {
		t.Fatalf("%+v, %v", r, err)
	}
	if s := e.Status(); s.Counters.Retries != 1 || s.Devices[0].Quarantined || s.Devices[0].ConsecutiveFailures != 0 {
		t.Fatalf("status %+v", s)
	}
}

// deviceDouble is a enginetest.Prover that reports a device.
type deviceDouble struct{ enginetest.Prover }

func (d *deviceDouble) DeviceInfo() (string, uint64, uint64, error) {
	return "cuda:0 Test GPU", 80 << 30, 70 << 30, nil
}

// TestDeviceStatus: a prover on a device shows its name and memory; the
// CPU backend's prover reports no device.
func TestDeviceStatus(t *testing.T) {
	e2, err := engine.New(engine.Config{Provers: []engine.Prover{&deviceDouble{}}, BudgetBytes: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	d := e2.Status().Devices[0]
	if d.Name != "cuda:0 Test GPU" || d.VRAMTotal != 80<<30 || d.VRAMFree != 70<<30 || d.Backend != "double" {
		t.Fatalf("device %+v", d)
	}
	cpu, err := engine.NewBackendProver("cpu")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := cpu.DeviceInfo(); err == nil {
		t.Fatal("the CPU backend reports a device")
	}
}

// TestQueueCap: with MaxQueued 3 and a budget for one partition, a
// running job and three queued ones fill the queue: a fifth job is
// ErrQueueFull naming the cap, a repeated request id still attaches to
// its queued job, and every accepted job completes.
func TestQueueCap(t *testing.T) {
	d := &enginetest.Prover{PerPartition: 50 * time.Millisecond}
	e := newDouble(t, engine.Config{BudgetBytes: 1 << 20, MaxQueued: 3}, 0, d)
	ctx := context.Background()
	a, err := e.Submit(ctx, doubleReq("a", 1, 0))
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, e, a.JobID, func(js engine.JobStatus) bool { return js.State == engine.StateRunning })
	ids := []string{a.JobID}
	for _, id := range []string{"b", "c", "d"} {
		tk, err := e.Submit(ctx, doubleReq(id, 1, 0))
		if err != nil {
			t.Fatalf("job %s: %v", id, err)
		}
		ids = append(ids, tk.JobID)
	}
	if _, err := e.Submit(ctx, doubleReq("e", 1, 0)); !errors.Is(err, engine.ErrQueueFull) || !strings.Contains(err.Error(), "the queue cap is 3") {
		t.Fatalf("a fourth queued job: %v", err)
	}
	if tk, err := e.Submit(ctx, doubleReq("b", 1, 0)); err != nil || !tk.Attached || tk.JobID != ids[1] {
		t.Fatalf("b again while the queue is full: %+v, %v", tk, err)
	}
	for _, id := range ids {
		if r, err := e.Await(ctx, id); err != nil || r.State != engine.StateCompleted {
			t.Fatalf("job %s: %+v, %v", id, r, err)
		}
	}
	if _, err := e.Submit(ctx, doubleReq("e", 1, 0)); err != nil {
		t.Fatalf("after the queue drained: %v", err)
	}
}

// TestDeviceMemoryGuard: two simulated devices of 1 GiB (threshold: a
// tenth) that lose 300 and 200 MiB of free memory per proof. Each is read
// when idle after a proof: the first reading is its baseline, the next
// one, past the threshold, takes it out of service (quarantined, the loss
// in Status); the other goes on proving, and when it too is out,
// DevicesLost is closed with the reason.
func TestDeviceMemoryGuard(t *testing.T) {
	a := &enginetest.LeakyDevice{Prover: enginetest.Prover{ProverName: "gpu0"}, Total: 1 << 30, Leak: 300 << 20}
	b := &enginetest.LeakyDevice{Prover: enginetest.Prover{ProverName: "gpu1"}, Total: 1 << 30, Leak: 200 << 20}
	e, err := engine.New(engine.Config{Provers: []engine.Prover{a, b}, BudgetBytes: 1 << 30,
		Families: enginetest.Families(&enginetest.Family{Partitions: 1})})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	// prove runs one job, which the first device still in service takes,
	// and waits for the guard's reading after it.
	prove := func(on *enginetest.LeakyDevice) {
		t.Helper()
		reads := on.Reads()
		if r, err := e.Prove(context.Background(), doubleReq("", 1, 0)); err != nil || r.State != engine.StateCompleted {
			t.Fatalf("job: %+v, %v", r, err)
		}
		for deadline := time.Now().Add(10 * time.Second); on.Reads() == reads; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: no idle reading after its proof", on.Name())
			}
		}
	}
	device := func(name string) engine.DeviceStatus {
		for _, d := range e.Status().Devices {
			if strings.HasPrefix(d.Name, name+" ") {
				return d
			}
		}
		t.Fatalf("no device %s in status", name)
		return engine.DeviceStatus{}
	}
	prove(a) // baseline: 724 MiB free
	if d := device("gpu0"); d.Quarantined || d.MemoryLost != 0 {
		t.Fatalf("after its first proof: %+v", d)
	}
	prove(a) // 300 MiB lost > 102.4 MiB
	if d := device("gpu0"); !d.Quarantined || d.MemoryLost != 300<<20 {
		t.Fatalf("gpu0 after losing 300 MiB: %+v", d)
	}
	if e.DevicesLostErr() != nil {
		t.Fatal("DevicesLost with gpu1 still in service")
	}
	prove(b)
	prove(b)
	if d := device("gpu1"); !d.Quarantined || d.MemoryLost != 200<<20 {
		t.Fatalf("gpu1 after losing 200 MiB: %+v", d)
	}
	select {
	case <-e.DevicesLost():
	case <-time.After(10 * time.Second):
		t.Fatal("DevicesLost not closed with every device out of service")
	}
	if err := e.DevicesLostErr(); err == nil || !strings.Contains(err.Error(), "gpu1") {
		t.Fatalf("DevicesLostErr: %v", err)
	}
}

// TestParamsFaultNotTheProvers: a prover whose parameter file does not
// decode (a `.params` corrupted in place: a *groth16.FormatError naming the
// file) or changed while in use fails its job at once, naming the file,
// without a retry and without counting against the prover: after several
// such jobs no prover is quarantined and the next good job completes.
func TestParamsFaultNotTheProvers(t *testing.T) {
	bad := []error{
		&groth16.FormatError{File: "/p/v28-x.params", Section: groth16.SectionL, Index: 3, Offset: 20000, Err: groth16.ErrNonCanonical},
		fmt.Errorf("cpu prover: %w", &groth16.ChangedError{File: "/p/v28-x.params"}),
	}
	var fail atomic.Int64
	d := &enginetest.Prover{PerPartition: time.Millisecond, Fail: func(int, *engine.Work) error {
		if n := fail.Add(-1); n >= 0 {
			return bad[n%2]
		}
		return nil
	}}
	e := newDouble(t, engine.Config{}, 0, d)
	ctx := context.Background()
	fail.Store(4)
	for i := range 4 {
		r, err := e.Prove(ctx, doubleReq(fmt.Sprintf("bad%d", i), 1, 0))
		if err != nil || r.State != engine.StateFailed || !strings.Contains(r.Err.Error(), "/p/v28-x.params") || strings.Contains(r.Err.Error(), "failed twice") {
			t.Fatalf("job %d on a bad parameter file: %+v, %v", i, r, err)
		}
	}
	if s := e.Status(); s.Devices[0].Quarantined || s.Counters.Retries != 0 {
		t.Fatalf("a parameter file's fault counted against the prover: %+v", s)
	}
	if r, err := e.Prove(ctx, doubleReq("good", 1, 0)); err != nil || r.State != engine.StateCompleted {
		t.Fatalf("the next job: %+v, %v", r, err)
	}
	budgetIdle(t, e)
}
