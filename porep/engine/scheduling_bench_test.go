// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine_test

import (
	"context"
	"flag"
	"fmt"
	"runtime/debug"
	"slices"
	"testing"
	"time"

	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/porep/engine/enginetest"
)

// The scheduling workload's shape (go test -bench Scheduling -args -sched.jobs 10 …).
var (
	schedPartitionTime  = flag.Duration("sched.partition-time", 50*time.Millisecond, "device time per partition")
	schedSynthesisTime  = flag.Duration("sched.synthesis-time", 20*time.Millisecond, "synthesis time per partition")
	schedJobs           = flag.Int("sched.jobs", 20, "jobs in the stream (a)")
	schedPartitions     = flag.Int("sched.partitions", 10, "partitions per job (PoRep 32 GiB: 10)")
	schedPartitionBytes = flag.Uint64("sched.partition-bytes", 8<<20, "memory one synthesized partition holds")
	schedBudget         = flag.Uint64("sched.budget", 256<<20, "the engine's memory budget, bytes")
	schedWorkers        = flag.Int("sched.synthesis-workers", 2, "partitions synthesized at once")
	schedNoCritical     = flag.Bool("sched.no-critical-prover", false, "keep no prover for CRITICAL work")
)

// scheduling is one run of the scheduling workload: enginetest's simulated
// device and kind, whose synthesis holds PartitionBytes of touched memory.
type scheduling struct {
	partitionTime, synthesisTime time.Duration
	jobs, partitions, workers    int
	partitionBytes, budget       uint64
	noCritical                   bool
}

// schedulingResult: (a) the device's busy fraction over a stream of jobs
// submitted at once; (b) a CRITICAL one-partition job's latency behind 10
// queued NORMAL jobs against the same job on the idle engine (median of 3
// after a warm-up); (c) the most of the budget reserved.
type schedulingResult struct {
	stream, busy, idle, behind time.Duration
	peakBudgetUsed             uint64
	criticalProver             string
}

func (s scheduling) run() (r schedulingResult, err error) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(s.budget)))
	dev := &enginetest.Prover{ProverName: "sim:0", PerPartition: s.partitionTime}
	var spare engine.Prover
	if !s.noCritical {
		spare = &enginetest.Prover{ProverName: "sim:critical", PerPartition: s.partitionTime}
		r.criticalProver = spare.Name()
	}
	e, err := engine.New(engine.Config{
		Provers: []engine.Prover{dev}, CriticalProver: spare, BudgetBytes: s.budget, SynthesisWorkers: s.workers,
		Families: enginetest.Families(&enginetest.Family{Partitions: s.partitions, SynthesisTime: s.synthesisTime, PartitionBytes: s.partitionBytes, Allocate: true}),
	})
	if err != nil {
		return r, err
	}
	defer e.Close()
	ctx := context.Background()
	stopSampling := sampleBudget(e, &r.peakBudgetUsed)
	defer stopSampling()
	critical := func(id string) (time.Duration, error) {
		t0 := time.Now()
		res, err := e.Prove(ctx, &engine.Request{RequestID: id, Kind: enginetest.Kind, Priority: engine.PriorityCritical, VanillaProofs: make([][]byte, 1)})
		if err == nil && res.State != engine.StateCompleted {
			err = fmt.Errorf("critical job %s: %v", res.State, res.Err)
		}
		return time.Since(t0), err
	}
	// (b), idle: the first job warms the engine up (goroutines, metric
	// series, heap); the figure is the median of three after it.
	var idles []time.Duration
	for i := range 4 {
		d, err := critical(fmt.Sprintf("critical-idle-%d", i))
		if err != nil {
			return r, err
		}
		if i > 0 {
			idles = append(idles, d)
		}
	}
	slices.Sort(idles)
	r.idle = idles[1]

	// (a): the stream.
	busy0 := e.Status().Devices[0].Busy
	t0 := time.Now()
	ids, err := submitNormal(ctx, e, "stream", s.jobs)
	if err != nil {
		return r, err
	}
	if err := awaitAll(ctx, e, ids); err != nil {
		return r, err
	}
	r.stream = time.Since(t0)
	r.busy = e.Status().Devices[0].Busy - busy0

	// (b), behind 10 NORMAL jobs: submitted once the device is proving them.
	if ids, err = submitNormal(ctx, e, "behind", 10); err != nil {
		return r, err
	}
	time.Sleep(s.synthesisTime + s.partitionTime + s.partitionTime/2)
	if r.behind, err = critical("critical-behind"); err != nil {
		return r, err
	}
	for _, id := range ids {
		if _, err := e.Cancel(id); err != nil {
			return r, err
		}
	}
	return r, awaitAll(ctx, e, nil)
}

// submitNormal submits n NORMAL jobs of the simulated kind.
func submitNormal(ctx context.Context, e *engine.Engine, prefix string, n int) ([]string, error) {
	ids := make([]string, n)
	for i := range ids {
		t, err := e.Submit(ctx, &engine.Request{RequestID: fmt.Sprintf("%s-%d", prefix, i), Kind: enginetest.Kind, Priority: engine.PriorityNormal})
		if err != nil {
			return nil, err
		}
		ids[i] = t.JobID
	}
	return ids, nil
}

// awaitAll waits for the jobs (nil: every job the engine still runs).
func awaitAll(ctx context.Context, e *engine.Engine, ids []string) error {
	if ids == nil {
		for _, js := range e.Status().Jobs {
			ids = append(ids, js.JobID)
		}
	}
	for _, id := range ids {
		r, err := e.Await(ctx, id)
		if err != nil {
			return err
		}
		if r.State == engine.StateFailed {
			return fmt.Errorf("job %s failed: %v", id, r.Err)
		}
	}
	return nil
}

// sampleBudget records the engine's peak reserved bytes every millisecond
// until the returned function is called (idempotent).
func sampleBudget(e *engine.Engine, peak *uint64) func() {
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				if u := e.Budget().Used; u > *peak {
					*peak = u
				}
			}
		}
	}()
	var once bool
	return func() {
		if !once {
			once = true
			close(done)
			<-stopped
		}
	}
}

// BenchmarkScheduling measures the engine's scheduling on a simulated
// device (see schedulingResult), shaped by the -sched.* flags; figures go
// to docs/BENCHMARKS.md.
func BenchmarkScheduling(b *testing.B) {
	s := scheduling{partitionTime: *schedPartitionTime, synthesisTime: *schedSynthesisTime, jobs: *schedJobs, partitions: *schedPartitions,
		workers: *schedWorkers, partitionBytes: *schedPartitionBytes, budget: *schedBudget, noCritical: *schedNoCritical}
	var r schedulingResult
	for b.Loop() {
		var err error
		if r, err = s.run(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(r.busy.Seconds()/r.stream.Seconds(), "device-busy-fraction")
	b.ReportMetric(r.idle.Seconds(), "critical-idle-s")
	b.ReportMetric(r.behind.Seconds(), "critical-behind-s")
	b.ReportMetric(r.behind.Seconds()/r.idle.Seconds(), "critical-ratio")
	b.ReportMetric(float64(r.peakBudgetUsed), "peak-budget-used-bytes")
}

// TestSchedulingFigures runs a small scheduling workload and checks that
// every figure the benchmark reports is there and plausible.
func TestSchedulingFigures(t *testing.T) {
	s := scheduling{partitionTime: 10 * time.Millisecond, synthesisTime: 2 * time.Millisecond, jobs: 3, partitions: 3,
		workers: 2, partitionBytes: 1 << 20, budget: 64 << 20}
	r, err := s.run()
	if err != nil {
		t.Fatal(err)
	}
	if r.criticalProver != "sim:critical" {
		t.Errorf("critical prover %q, want the kept simulated one", r.criticalProver)
	}
	if f := r.busy.Seconds() / r.stream.Seconds(); f <= 0 || f > 1 {
		t.Errorf("device busy fraction %v", f)
	}
	if r.idle < s.partitionTime || r.behind < s.partitionTime {
		t.Errorf("critical latencies %v idle, %v behind: each is at least one partition (%v)", r.idle, r.behind, s.partitionTime)
	}
	if r.peakBudgetUsed == 0 || r.peakBudgetUsed > s.budget {
		t.Errorf("peak budget used %d of %d", r.peakBudgetUsed, s.budget)
	}
}
