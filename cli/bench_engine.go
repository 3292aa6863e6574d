// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/porep/engine/enginetest"
)

func benchEngineCommand() *cli.Command {
	return &cli.Command{
		Name:  "engine",
		Usage: "scheduling benchmark of the proving engine, with a simulated device or real provers (--backend)",
		Description: "Runs porep/engine with a simulated prover (porep/engine/enginetest) that takes --partition-time per\n" +
			"partition and a simulated kind whose synthesis takes --synthesis-time and holds --partition-bytes of touched\n" +
			"memory per partition, and measures: (a) the device busy fraction over a stream of --jobs jobs of\n" +
			"--partitions partitions submitted at once (busy time / wall time from the first submission to the\n" +
			"last result); (b) the latency of a CRITICAL one-partition job submitted behind 10 queued NORMAL\n" +
			"jobs, against the same job on the idle engine (median of 3 after a warm-up job); (c) the process's peak RSS against --budget\n" +
			"(the Go heap's soft limit is set to the budget too). A simulated prover kept for CRITICAL work\n" +
			"takes the CRITICAL job unless --no-critical-prover.\n\n" +
			"With --backend (cpu, auto, cuda) it runs real provers instead: it seals a 2 KiB sector with the test\n" +
			"sealer, preloads the 2 KiB PoRep and WinningPoSt parameters from --params-dir, and measures a\n" +
			"(synthetic, valid) WinningPoSt alone and sent --critical-delay after a 2 KiB PoRep C2 partition\n" +
			"started proving (--repeat rounds, each alone then together; medians), and what the PoRep job lost; every proof is verified,\n" +
			"and with a fixed seed the proofs beside each other must equal the ones alone.",
		Flags: append([]cli.Flag{
			&cli.DurationFlag{Name: "partition-time", Usage: "device time per partition", Value: 50 * time.Millisecond},
			&cli.DurationFlag{Name: "synthesis-time", Usage: "synthesis time per partition", Value: 20 * time.Millisecond},
			&cli.IntFlag{Name: "jobs", Usage: "jobs in the stream (a)", Value: 20},
			&cli.IntFlag{Name: "partitions", Usage: "partitions per job (PoRep 32 GiB: 10)", Value: 10},
			&cli.Uint64Flag{Name: "partition-bytes", Usage: "memory one synthesized partition holds", Value: 8 << 20},
			&cli.Uint64Flag{Name: "budget", Usage: "the engine's memory budget, bytes", Value: 256 << 20},
			&cli.IntFlag{Name: "synthesis-workers", Usage: "partitions synthesized at once", Value: 2},
			&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON object"},
			&cli.BoolFlag{Name: "no-critical-prover", Usage: "keep no prover for CRITICAL work (the engine before issue 35)"},
			&cli.StringFlag{Name: "backend", Usage: "real provers: " + backendUsage() + " (default: the simulated device)"},
			paramsDirFlag(),
			&cli.IntFlag{Name: "repeat", Usage: "--backend: runs of each measurement", Value: 3},
			&cli.IntFlag{Name: "critical-tasks", Usage: "--backend: MSM tasks of the kept CPU prover (0: gnark's default, 2 × CPUs)"},
			&cli.DurationFlag{Name: "critical-delay", Usage: "--backend: how long after the PoRep partition starts proving the WinningPoSt is sent", Value: 2 * time.Second},
		}, profileFlags()...),
		Action: benchEngineAction,
	}
}

type benchEngineOutput struct {
	Jobs               int     `json:"jobs"`
	Partitions         int     `json:"partitions_per_job"`
	PartitionDeviceSec float64 `json:"partition_device_seconds"`
	PartitionSynthSec  float64 `json:"partition_synthesis_seconds"`
	StreamSec          float64 `json:"stream_seconds"`
	DeviceBusySec      float64 `json:"device_busy_seconds"`
	DeviceBusyFraction float64 `json:"device_busy_fraction"`
	CriticalIdleSec    float64 `json:"critical_idle_seconds"`
	CriticalLatencySec float64 `json:"critical_latency_seconds"`
	CriticalExcessSec  float64 `json:"critical_excess_seconds"` // latency − idle
	CriticalRatio      float64 `json:"critical_ratio"`          // latency / idle
	CriticalProver     string  `json:"critical_prover"`         // "" with --no-critical-prover
	PeakRSS            uint64  `json:"peak_rss_bytes"`
	Budget             uint64  `json:"budget_bytes"`
	PeakBudgetUsed     uint64  `json:"peak_budget_used_bytes"`
}

func benchEngineAction(c *cli.Context) error {
	if c.IsSet("backend") {
		return benchEngineReal(c)
	}
	for _, f := range []string{"repeat", "critical-delay", "critical-tasks"} {
		if c.IsSet(f) {
			return usageErrorf("--%s: only with --backend (the simulated device has no MSM tasks or rounds)", f)
		}
	}
	pt, st := c.Duration("partition-time"), c.Duration("synthesis-time")
	jobs, parts := c.Int("jobs"), c.Int("partitions")
	budget, pb := c.Uint64("budget"), c.Uint64("partition-bytes")
	switch {
	case pt <= 0 || st < 0:
		return usageErrorf("--partition-time must be > 0 and --synthesis-time ≥ 0")
	case jobs < 1 || parts < 1 || jobs > 10000 || parts > 1000:
		return usageErrorf("--jobs (1 … 10000) and --partitions (1 … 1000) must be positive")
	case pb < 1<<10 || budget < pb:
		return usageErrorf("--partition-bytes %d: want ≥ 1 KiB and ≤ --budget %d", pb, budget)
	}
	if err := checkProfilePaths(c); err != nil {
		return err
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(budget)))
	dev := &enginetest.Prover{ProverName: "double:0", PerPartition: pt}
	var spare engine.Prover
	if !c.Bool("no-critical-prover") {
		spare = &enginetest.Prover{ProverName: "double:critical", PerPartition: pt}
	}
	e, err := engine.New(engine.Config{
		Provers: []engine.Prover{dev}, CriticalProver: spare, BudgetBytes: budget, SynthesisWorkers: c.Int("synthesis-workers"),
		Families: enginetest.Families(&enginetest.Family{Partitions: parts, SynthesisTime: st, PartitionBytes: pb, Allocate: true}),
	})
	if err != nil {
		return internalError(err)
	}
	defer e.Close()
	stopProfiles, err := startProfiling(c)
	if err != nil {
		return err
	}
	defer stopProfiles()
	ctx := context.Background()
	var peakUsed uint64
	stopSampling := sampleBudget(e, &peakUsed)
	defer stopSampling()

	// (b), idle: one CRITICAL partition on the idle engine.
	critical := func(id string) (time.Duration, error) {
		t0 := time.Now()
		r, err := e.Prove(ctx, &engine.Request{RequestID: id, Kind: enginetest.Kind, Priority: engine.PriorityCritical, VanillaProofs: make([][]byte, 1)})
		if err == nil && r.State != engine.StateCompleted {
			err = fmt.Errorf("critical job %s: %v", r.State, r.Err)
		}
		return time.Since(t0), err
	}
	// The first job warms the engine up (goroutines, metric series, heap);
	// the idle figure is the median of three after it.
	var idles []time.Duration
	for i := range 4 {
		d, err := critical(fmt.Sprintf("critical-idle-%d", i))
		if err != nil {
			return internalError(err)
		}
		if i > 0 {
			idles = append(idles, d)
		}
	}
	slices.Sort(idles)
	idle := idles[1]

	// (a): the stream.
	busy0 := e.Status().Devices[0].Busy
	t0 := time.Now()
	ids, err := submitNormal(ctx, e, "stream", jobs)
	if err != nil {
		return internalError(err)
	}
	if err := awaitAll(ctx, e, ids); err != nil {
		return internalError(err)
	}
	stream := time.Since(t0)
	busy := e.Status().Devices[0].Busy - busy0

	// (b), behind 10 NORMAL jobs: submitted once the device is proving them.
	ids, err = submitNormal(ctx, e, "behind", 10)
	if err != nil {
		return internalError(err)
	}
	time.Sleep(st + pt + pt/2)
	behind, err := critical("critical-behind")
	if err != nil {
		return internalError(err)
	}
	for _, id := range ids {
		if _, err := e.Cancel(id); err != nil {
			return internalError(err)
		}
	}
	if err := awaitAll(ctx, e, nil); err != nil {
		return internalError(err)
	}
	stopSampling()
	if err := stopProfiles(); err != nil {
		return err
	}

	out := benchEngineOutput{
		Jobs: jobs, Partitions: parts, PartitionDeviceSec: pt.Seconds(), PartitionSynthSec: st.Seconds(),
		StreamSec: stream.Seconds(), DeviceBusySec: busy.Seconds(), DeviceBusyFraction: busy.Seconds() / stream.Seconds(),
		CriticalIdleSec: idle.Seconds(), CriticalLatencySec: behind.Seconds(), CriticalExcessSec: (behind - idle).Seconds(),
		CriticalRatio: behind.Seconds() / idle.Seconds(), PeakRSS: peakRSS(), Budget: budget, PeakBudgetUsed: peakUsed,
	}
	if spare != nil {
		out.CriticalProver = spare.Name()
	}
	if c.Bool("json") {
		return writeJSON(c, out)
	}
	printf(c, "engine scheduling, simulated device: %v per partition, synthesis %v, %d jobs × %d partitions\n", pt, st, jobs, parts)
	printf(c, "  (a) device busy %.1f%% (%.3fs of %.3fs)\n", 100*out.DeviceBusyFraction, out.DeviceBusySec, out.StreamSec)
	printf(c, "  (b) CRITICAL behind 10 NORMAL jobs: %.3fs; on the idle engine %.3fs (+%.3fs; one partition is %.3fs)\n",
		out.CriticalLatencySec, out.CriticalIdleSec, out.CriticalExcessSec, out.PartitionDeviceSec)
	printf(c, "  (c) peak RSS %d bytes, budget %d bytes (peak reserved %d)\n", out.PeakRSS, out.Budget, out.PeakBudgetUsed)
	return nil
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
