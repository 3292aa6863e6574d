// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/filecoin-project/go-state-types/abi"
	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/porep/seal"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/synthetic"
)

func benchEngineCommand() *cli.Command {
	return &cli.Command{
		Name:  "engine",
		Usage: "the proving engine on real provers: a CRITICAL WinningPoSt sent into a PoRep C2's partition",
		Description: "Seals a 2 KiB sector with the test sealer, preloads the 2 KiB PoRep and WinningPoSt parameters\n" +
			"from --params-dir, and measures a (synthetic, valid) WinningPoSt alone and sent --critical-delay after a\n" +
			"2 KiB PoRep C2 partition started proving (--repeat rounds, each alone then together; medians), and what\n" +
			"the PoRep job lost; every proof is verified, and with a fixed seed the proofs beside each other must equal\n" +
			"the ones alone. The scheduling workload is `go test -bench Scheduling ./porep/engine/`.",
		Flags: append([]cli.Flag{
			backendFlag(),
			paramsDirFlag(),
			&cli.Uint64Flag{Name: "budget", Usage: "the engine's memory budget, bytes (default: the engine's)"},
			&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON object"},
			&cli.BoolFlag{Name: "no-critical-prover", Usage: "keep no prover for CRITICAL work (the engine before issue 35)"},
			&cli.IntFlag{Name: "repeat", Usage: "runs of each measurement", Value: 3},
			&cli.IntFlag{Name: "critical-tasks", Usage: "MSM tasks of the kept CPU prover (0: gnark's default, 2 × CPUs)"},
			&cli.DurationFlag{Name: "critical-delay", Usage: "how long after the PoRep partition starts proving the WinningPoSt is sent", Value: 2 * time.Second},
		}, profileFlags()...),
		Action: benchEngineReal,
	}
}

// benchEngineRealOutput is `bench engine --backend B --json`: a WinningPoSt
// (CRITICAL) alone and sent while a 2 KiB PoRep C2 partition (NORMAL)
// proves, on real provers.
type benchEngineRealOutput struct {
	Backend          string   `json:"backend"`
	Provers          []string `json:"provers"`
	CriticalProver   string   `json:"critical_prover"` // "" with --no-critical-prover
	CriticalDelaySec float64  `json:"critical_delay_seconds"`
	CriticalTasks    int      `json:"critical_tasks"` // --critical-tasks (0: the engine's default)
	// The WinningPoSt alone: median of --repeat after a warm-up; each
	// round's figure in the list (rounds alternate alone and together).
	CriticalIdleSec  float64   `json:"critical_idle_seconds"`
	CriticalIdleRuns []float64 `json:"critical_idle_runs_seconds"`
	// Sent --critical-delay after the PoRep partition started proving:
	// median of --repeat; each run's figure in the list.
	CriticalLatencySec  float64   `json:"critical_latency_seconds"`
	CriticalLatencyRuns []float64 `json:"critical_latency_runs_seconds"`
	CriticalRatio       float64   `json:"critical_ratio"`          // latency / idle
	CriticalExcessSec   float64   `json:"critical_excess_seconds"` // latency − idle
	CriticalProveWait   float64   `json:"critical_prove_wait_seconds"`
	CriticalProvenOn    []string  `json:"critical_proven_on"` // prover of each run's WinningPoSt
	// The PoRep C2 job (submit → result) alone, and beside the WinningPoSt
	// (median of --repeat): what the background work lost.
	BackgroundAloneSec  float64   `json:"background_alone_seconds"`
	BackgroundAloneRuns []float64 `json:"background_alone_runs_seconds"`
	BackgroundSec       float64   `json:"background_seconds"`
	BackgroundRuns      []float64 `json:"background_runs_seconds"`
	BackgroundExtraSec  float64   `json:"background_extra_seconds"`
	// Every proof verified (the engine checks each partition); with the
	// fixed seed the PoRep proof beside the WinningPoSt is byte-identical
	// to the one alone, and so is the WinningPoSt's.
	BackgroundIdentical bool    `json:"background_identical"`
	CriticalIdentical   bool    `json:"critical_identical"`
	Retries             uint64  `json:"retries"`
	PartitionsProven    int     `json:"partitions_proven"`
	PartitionsExpected  int     `json:"partitions_expected"`
	LoadAvgStart        string  `json:"loadavg_start"`
	LoadAvgEnd          string  `json:"loadavg_end"`
	TotalSec            float64 `json:"total_seconds"`
	PeakRSS             uint64  `json:"peak_rss_bytes"`
}

// benchEngineReal is `bench engine --backend B`: it seals a 2 KiB sector
// with the test sealer (its C1 is the background PoRep job), builds a
// synthetic (valid) 2 KiB WinningPoSt, preloads both circuits' parameters
// from --params-dir, then measures as benchEngineRealOutput says.
func benchEngineReal(c *cli.Context) error {
	t0 := time.Now()
	load0 := loadAvg()
	backend, err := backendName(c)
	if err != nil {
		return err
	}
	repeat, delay := c.Int("repeat"), c.Duration("critical-delay")
	switch tasks := c.Int("critical-tasks"); {
	case repeat < 1 || repeat > 100:
		return usageErrorf("--repeat %d: want 1 … 100", repeat)
	case delay < 0:
		return usageErrorf("--critical-delay %s: must not be negative", delay)
	case tasks < 0 || tasks > 1024:
		return usageErrorf("--critical-tasks %d: want 0 (gnark's default) … 1024", tasks)
	case tasks > 0 && c.Bool("no-critical-prover"):
		return usageErrorf("--critical-tasks %d: there is no kept CPU prover with --no-critical-prover", tasks)
	}
	if err := checkProfilePaths(c); err != nil {
		return err
	}
	cfg, err := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	if err != nil {
		return internalError(err)
	}
	ctx := context.Background()
	c1, miner, sector, err := sealForBench(ctx, cfg)
	if err != nil {
		return internalError(fmt.Errorf("sealing the background sector: %w", err))
	}
	win, err := synthetic.PoSt(abi.RegisteredPoStProof_StackedDrgWinning2KiBV1, synthetic.PoStOptions{Seed: 1})
	if err != nil {
		return internalError(err)
	}
	seed := [32]byte{0xbe, 0x4c}
	ecfg := engine.Config{ParamsDir: c.String("params-dir"), Backend: backend, NoCriticalProver: c.Bool("no-critical-prover"),
		CriticalTasks: c.Int("critical-tasks"), DeterministicSeed: &seed}
	if c.IsSet("budget") {
		ecfg.BudgetBytes = c.Uint64("budget")
	}
	e, err := engine.New(ecfg)
	if err != nil {
		return classifyPorepError(err)
	}
	defer e.Close()
	for _, id := range []string{"porep-2k", "winning-2k"} {
		if _, _, err := e.Preload(ctx, id); err != nil {
			return classifyPorepError(fmt.Errorf("--params-dir %s: %s: %w", ecfg.ParamsDir, id, err))
		}
	}
	stopProfiles, err := startProfiling(c)
	if err != nil {
		return err
	}
	defer stopProfiles()
	out := benchEngineRealOutput{Backend: backend, CriticalDelaySec: delay.Seconds(), CriticalTasks: ecfg.CriticalTasks, LoadAvgStart: load0}
	for _, d := range e.Status().Devices {
		out.Provers = append(out.Provers, d.Name)
		if d.CriticalOnly {
			out.CriticalProver = d.Name
		}
	}
	n := 0
	id := func(what string) string { n++; return fmt.Sprintf("%s-%d", what, n) }
	porepReq := func() *engine.Request {
		return &engine.Request{RequestID: id("porep"), Kind: engine.KindPoRepC2, RegisteredProof: uint64(cfg.Proof),
			SectorSize: cfg.SectorSize, SectorNumber: uint64(sector), MinerID: uint64(miner), VanillaProof: c1}
	}
	winReq := func() *engine.Request {
		return &engine.Request{RequestID: id("winning"), Kind: engine.KindWinningPoSt, RegisteredProof: uint64(win.Config.Proof),
			MinerID: uint64(win.Miner), Randomness: win.Randomness, VanillaProofs: win.Vanilla}
	}
	prove := func(req *engine.Request) (*engine.Result, error) {
		r, err := e.Prove(ctx, req)
		if err == nil && r.State != engine.StateCompleted {
			err = fmt.Errorf("%s job %s: %s: %v", req.Kind, r.JobID, r.State, r.Err)
		}
		return r, err
	}

	// A warm-up WinningPoSt; then --repeat rounds, each measuring the
	// WinningPoSt alone, the PoRep C2 alone, and the two together, so that
	// a change of the machine's load falls on both sides alike.
	warm, err := prove(winReq())
	if err != nil {
		return internalError(err)
	}
	out.BackgroundIdentical, out.CriticalIdentical = true, true
	var idles, alones, bgs, waits []float64
	var porepAlone []byte
	for range repeat {
		t := time.Now()
		r, err := prove(winReq())
		if err != nil {
			return internalError(err)
		}
		idles = append(idles, time.Since(t).Seconds())
		out.CriticalIdentical = out.CriticalIdentical && bytes.Equal(r.Proof, warm.Proof)

		t = time.Now()
		alone, err := prove(porepReq())
		if err != nil {
			return internalError(err)
		}
		alones = append(alones, time.Since(t).Seconds())
		if porepAlone == nil {
			porepAlone = alone.Proof
		}
		out.BackgroundIdentical = out.BackgroundIdentical && bytes.Equal(alone.Proof, porepAlone)

		// The WinningPoSt sent --critical-delay after the PoRep partition
		// started proving.
		t = time.Now()
		tk, err := e.Submit(ctx, porepReq())
		if err != nil {
			return internalError(err)
		}
		if err := waitJobProving(e, tk.JobID, 10*time.Minute); err != nil {
			return internalError(err)
		}
		time.Sleep(delay)
		if !stillProving(e, tk.JobID) {
			return usageErrorf("the PoRep partition ended within --critical-delay %v: the WinningPoSt would not be sent during it; lower --critical-delay", delay)
		}
		tc := time.Now()
		r, err = prove(winReq())
		if err != nil {
			return internalError(err)
		}
		out.CriticalLatencyRuns = append(out.CriticalLatencyRuns, time.Since(tc).Seconds())
		waits = append(waits, r.Timings.ProveWait.Seconds())
		out.CriticalIdentical = out.CriticalIdentical && bytes.Equal(r.Proof, warm.Proof)
		for _, js := range e.Status().Jobs {
			if js.JobID == r.JobID && len(js.Partitions) > 0 {
				out.CriticalProvenOn = append(out.CriticalProvenOn, js.Partitions[0].Device)
			}
		}
		bg, err := e.Await(ctx, tk.JobID)
		if err == nil && bg.State != engine.StateCompleted {
			err = fmt.Errorf("PoRep job %s: %s: %v", bg.JobID, bg.State, bg.Err)
		}
		if err != nil {
			return internalError(err)
		}
		bgs = append(bgs, time.Since(t).Seconds())
		out.BackgroundIdentical = out.BackgroundIdentical && bytes.Equal(bg.Proof, porepAlone)
	}
	out.CriticalIdleRuns, out.BackgroundAloneRuns, out.BackgroundRuns = slices.Clone(idles), slices.Clone(alones), slices.Clone(bgs)
	out.CriticalIdleSec = median(idles)
	out.BackgroundAloneSec = median(alones)
	out.CriticalLatencySec = median(slices.Clone(out.CriticalLatencyRuns))
	out.CriticalProveWait = median(waits)
	out.CriticalRatio = out.CriticalLatencySec / out.CriticalIdleSec
	out.CriticalExcessSec = out.CriticalLatencySec - out.CriticalIdleSec
	out.BackgroundSec = median(bgs)
	out.BackgroundExtraSec = out.BackgroundSec - out.BackgroundAloneSec

	st := e.Status()
	out.Retries = st.Counters.Retries
	for _, js := range st.Jobs {
		out.PartitionsExpected += len(js.Partitions)
		for _, p := range js.Partitions {
			out.PartitionsProven += p.Attempts
		}
	}
	if err := stopProfiles(); err != nil {
		return err
	}
	out.LoadAvgEnd, out.TotalSec, out.PeakRSS = loadAvg(), time.Since(t0).Seconds(), peakRSS()
	if !out.BackgroundIdentical || !out.CriticalIdentical || out.PartitionsProven != out.PartitionsExpected {
		return internalError(fmt.Errorf("bench engine: proofs differ or a partition was proven twice: %+v", out))
	}
	if c.Bool("json") {
		return writeJSON(c, out)
	}
	printf(c, "engine, real provers (%s: %s), 2 KiB PoRep C2 in the background, 2 KiB WinningPoSt CRITICAL\n", backend, strings.Join(out.Provers, ", "))
	printf(c, "  WinningPoSt alone %.3fs; sent %v into a PoRep partition %.3fs (%.2f×, +%.3fs; waited %.3fs to start; on %s)\n",
		out.CriticalIdleSec, delay, out.CriticalLatencySec, out.CriticalRatio, out.CriticalExcessSec, out.CriticalProveWait, strings.Join(out.CriticalProvenOn, ", "))
	printf(c, "  PoRep C2 alone %.3fs, beside the WinningPoSt %.3fs (+%.3fs); proofs identical, %d partitions proven once each\n",
		out.BackgroundAloneSec, out.BackgroundSec, out.BackgroundExtraSec, out.PartitionsProven)
	printf(c, "  load average %s → %s\n", out.LoadAvgStart, out.LoadAvgEnd)
	return nil
}

// sealForBench seals a random 2 KiB sector with the test sealer in a
// temporary directory (removed) and returns its C1 output.
func sealForBench(ctx context.Context, cfg stacked.SectorConfig) ([]byte, abi.ActorID, abi.SectorNumber, error) {
	const miner, sector = abi.ActorID(1000), abi.SectorNumber(1)
	dir, err := os.MkdirTemp("", "cuseal-bench-engine-*")
	if err != nil {
		return nil, 0, 0, err
	}
	defer os.RemoveAll(dir)
	data, err := writeRandomData(ctx, seal.UnpaddedSize(cfg.SectorSize))
	if err != nil {
		return nil, 0, 0, err
	}
	defer os.Remove(data)
	ticket, seed := bytes.Repeat([]byte{0x11}, 32), bytes.Repeat([]byte{0x22}, 32)
	res, err := seal.Seal(ctx, cfg, data, dir, miner, sector, ticket)
	if err != nil {
		return nil, 0, 0, err
	}
	c1, err := seal.CommitPhase1(ctx, cfg, res.CommR, res.CommD, dir, sector, miner, ticket, seed)
	return c1, miner, sector, err
}

// waitJobProving waits until job id has a partition proving.
func waitJobProving(e *engine.Engine, id string, limit time.Duration) error {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if stillProving(e, id) {
			return nil
		}
	}
	return fmt.Errorf("job %s: no partition proving after %v", id, limit)
}

// stillProving reports whether job id has a partition proving.
func stillProving(e *engine.Engine, id string) bool {
	for _, js := range e.Status().Jobs {
		if js.JobID == id {
			return slices.ContainsFunc(js.Partitions, func(p engine.PartitionStatus) bool { return p.State == "proving" })
		}
	}
	return false
}

// median of xs (not empty); xs is sorted in place.
func median(xs []float64) float64 {
	slices.Sort(xs)
	if n := len(xs); n%2 == 0 {
		return (xs[n/2-1] + xs[n/2]) / 2
	}
	return xs[len(xs)/2]
}

// loadAvg is /proc/loadavg's first three fields ("" where there is none).
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
