// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"context"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/synthetic"
)

func benchSynthCommand() *cli.Command {
	return &cli.Command{
		Name:  "synth",
		Usage: "circuit synthesis only (no parameters, no proving): constraints/s, allocations, peak RSS",
		Description: "--circuit porep (default) builds each partition's Stacked-DRG circuit from C1 data;\n" +
			"winning-post and window-post build the FallbackPoSt circuit (a WindowPoSt partition, or the\n" +
			"WinningPoSt circuit) from vanilla proofs: --vanilla DIR (as bench vanilla or post vanilla\n" +
			"write it) or --synthetic (valid synthetic vanilla proofs of --sectors sectors; their checks\n" +
			"run before the timed runs); update builds SnapDeals' EmptySectorUpdate circuit from\n" +
			"--vanilla DIR (partition-K.bin, as update vanilla or bench vanilla write them) and\n" +
			"--comm-r-old, --comm-r-new, --comm-d-new, or --synthetic (a valid synthetic updated sector of\n" +
			"--sector-size on sparse trees, seed 1). Each circuit is synthesized into a\n" +
			"ProvingAssignment pre-sized to the exact partition size, as the prover does: the time covers\n" +
			"circuit construction from C1, synthesis (witness, a/b/c, densities) and the per-input\n" +
			"rows. --synthetic makes correctly shaped but invalid C1 data for any sector size, so\n" +
			"32GiB shapes can be measured without sealing. As the prover, it synthesizes a partition's\n" +
			"challenges on --workers goroutines and reuses assignment storage across partitions and\n" +
			"runs: the first partition is cold (fresh memory), later ones warm. Per partition it\n" +
			"reports wall and CPU time, cores used (CPU/wall) and minor page faults (getrusage).",
		Flags: append([]cli.Flag{
			circuitFlag(),
			&cli.StringFlag{Name: "sector-size", Usage: "sector size (2KiB ... 64GiB); with --c1 or --vanilla, must match it"},
			&cli.StringFlag{Name: "c1", Usage: "porep: C1 JSON (or lotus-bench Commit2In) `FILE`"},
			&cli.BoolFlag{Name: "synthetic", Usage: "use synthetic data: correctly shaped, invalid C1 (porep); valid vanilla proofs (PoSt, update)"},
			&cli.IntFlag{Name: "partitions", Usage: "partitions synthesized per run", Value: 1},
			&cli.IntFlag{Name: "challenges", Usage: "challenges per partition (--synthetic only; default: the sector's)"},
			&cli.IntFlag{Name: "runs", Usage: "measured runs (min/median/max reported)", Value: 1},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object"},
			&cli.BoolFlag{Name: "digests", Usage: "also report partition 0's R1CS, witness, a/b/c and density digests (synthesized once more, into the reused storage unless --no-pool; recording the R1CS needs several times the synthesis memory, not counted in the peak RSS)"},
			&cli.IntFlag{Name: "workers", Usage: "goroutines synthesizing one partition's challenges (0: GOMAXPROCS; 1: sequential; at most one per challenge), as commit2 --synth-workers", Value: 0},
			&cli.BoolFlag{Name: "no-pool", Usage: "fresh assignment storage for every partition (no reuse across partitions and runs)"},
			&cli.StringFlag{Name: "hugepages", Usage: "madvise(MADV_HUGEPAGE) the large vectors: auto (only where THP defrag is defer or never, so faults do not stall on compaction), on, off", Value: "auto"},
		}, append(append(postInputFlags("--partitions full partitions"), benchUpdateFlags()...), profileFlags()...)...),
		Action: benchSynthAction,
	}
}

// synthResult is what `cuseal bench synth --json` prints. constraints counts what the
// prover evaluates for one partition: the circuit's constraints plus one per public input.
type synthResult struct {
	Circuit              string  `json:"circuit"` // --circuit
	RegisteredProof      string  `json:"registered_proof"`
	SectorSize           string  `json:"sector_size"`
	Source               string  `json:"source"` // "synthetic", the C1 file or the vanilla-proof directory
	Partitions           int     `json:"partitions"`
	Challenges           int     `json:"challenges"`        // per partition (PoSt: leaf challenges of all its sectors)
	Sectors              int     `json:"sectors,omitempty"` // PoSt: vanilla proofs (sectors) given
	Constraints          int     `json:"constraints"`
	Aux                  int     `json:"aux"`
	Inputs               int     `json:"inputs"` // ONE included
	Runs                 int     `json:"runs"`
	Seconds              float64 `json:"seconds"` // median over runs, all partitions of one run
	SecondsMin           float64 `json:"seconds_min"`
	SecondsMax           float64 `json:"seconds_max"`
	ConstraintsPerSecond float64 `json:"constraints_per_second"` // constraints × partitions / seconds
	Allocs               uint64  `json:"allocs"`                 // heap allocations per run
	AllocBytes           uint64  `json:"alloc_bytes"`            // heap bytes allocated per run
	PeakRSSBytes         uint64  `json:"peak_rss_bytes"`         // of the whole process
	GOMAXPROCS           int     `json:"gomaxprocs"`
	Workers              int     `json:"workers"`   // synthesis goroutines per partition
	Pool                 bool    `json:"pool"`      // storage reused across partitions and runs
	HugePages            string  `json:"hugepages"` // auto, on, off
	// PartitionRuns lists every partition synthesized, in order.
	PartitionRuns []partitionRun `json:"partition_runs"`
	// ColdSeconds is the first partition's time (fresh storage); WarmSeconds
	// the median of those that reused storage (0 if none: one partition, or
	// --no-pool).
	ColdSeconds     float64 `json:"cold_seconds"`
	WarmSeconds     float64 `json:"warm_seconds"`
	ColdMinorFaults uint64  `json:"cold_minor_faults"`
	WarmMinorFaults uint64  `json:"warm_minor_faults"` // median of the warm partitions
	CoresUsed       float64 `json:"cores_used"`        // CPU seconds / wall seconds over all partitions
	R1CSDigest      string  `json:"r1cs_digest,omitempty"`
	WitnessDigest   string  `json:"witness_digest,omitempty"`
	ABCDigest       string  `json:"abc_digest,omitempty"`
	DensityDigest   string  `json:"density_digest,omitempty"`
}

func benchSynthAction(c *cli.Context) error {
	if err := checkProfilePaths(c); err != nil {
		return err
	}
	// Flags checked before any work, and before the profiles are started
	// (which truncates their files).
	runs := c.Int("runs")
	if runs < 1 {
		return usageErrorf("--runs %d: must be at least 1", runs)
	}
	workers := c.Int("workers")
	if workers < 0 {
		return usageErrorf("--workers %d: must be at least 0", workers)
	}
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	switch hp := c.String("hugepages"); hp {
	case "auto":
		cs.HugePages = cs.HugePagesAuto
	case "on":
		cs.HugePages = cs.HugePagesOn
	case "off":
		cs.HugePages = cs.HugePagesOff
	default:
		return usageErrorf("--hugepages %q: want auto, on or off", hp)
	}
	job, err := synthInput(c)
	if err != nil {
		return err
	}
	parts := c.Int("partitions")
	// One goroutine per challenge (PoRep) or sector (PoSt) at most.
	workers = min(workers, max(job.maxWorkers, 1))
	slog.Info("bench synth", "proof", job.name, "partitions", parts, "runs", runs, "workers", workers)

	stop, err := startProfiling(c)
	if err != nil {
		return err
	}
	jsonOut := c.Bool("json")
	var pool *cs.BufferPool
	if !c.Bool("no-pool") {
		pool = &cs.BufferPool{}
	}
	bar := newProgress(c.App.ErrWriter, jsonOut, int64(runs*parts), "synthesizing")
	var shape [3]int // constraints incl. input rows, aux, inputs
	var pruns []partitionRun
	m, err := measure(runs, func(run int) error {
		for k := 0; k < parts; k++ {
			u0, t0 := selfUsage(), time.Now()
			a, err := job.synthesize(context.Background(), k, pool, workers)
			if err != nil {
				return inputError(err)
			}
			wall, u1 := time.Since(t0).Seconds(), selfUsage()
			pr := partitionRun{Run: run, Partition: k, Seconds: wall, CPUSeconds: u1.cpu - u0.cpu,
				MinorFaults: u1.minorFaults - u0.minorFaults, Cold: pool == nil || len(pruns) == 0}
			if wall > 0 {
				pr.Cores = pr.CPUSeconds / wall
			}
			pruns = append(pruns, pr)
			slog.Info("partition synthesized", "run", run, "k", k, "seconds", wall, "cores", pr.Cores, "minor_faults", pr.MinorFaults)
			shape = [3]int{len(a.A), len(a.Aux), len(a.Input)}
			if pool != nil {
				pool.Release(a)
			}
			bar.Add(1)
		}
		return nil
	})
	bar.Done()
	if serr := stop(); err == nil {
		err = serr
	}
	if err != nil {
		return err
	}
	sp := summarize(m.Seconds)
	res := synthResult{
		Circuit:         job.circuit,
		RegisteredProof: job.name,
		SectorSize:      stacked.SizeLabel(job.sectorSize),
		Source:          job.source,
		Partitions:      parts,
		Challenges:      job.challenges,
		Sectors:         job.sectors,
		Constraints:     shape[0],
		Aux:             shape[1],
		Inputs:          shape[2],
		Runs:            runs,
		Seconds:         sp.Median,
		SecondsMin:      sp.Min,
		SecondsMax:      sp.Max,
		Allocs:          m.Allocs,
		AllocBytes:      m.Bytes,
		PeakRSSBytes:    peakRSS(),
		GOMAXPROCS:      runtime.GOMAXPROCS(0),
		Workers:         workers,
		Pool:            pool != nil,
		HugePages:       c.String("hugepages"),
		PartitionRuns:   pruns,
	}
	res.summarizePartitions()
	if sp.Median > 0 {
		res.ConstraintsPerSecond = float64(res.Constraints) * float64(parts) / sp.Median
	}
	if c.Bool("digests") {
		if err := synthDigests(job, workers, pool, &res); err != nil {
			return err
		}
	}
	if jsonOut {
		return writeJSON(c, res)
	}
	printf(c, "%s (%s), %s, %d partition(s) × %d challenge(s)\n", res.RegisteredProof, res.SectorSize, job.about, parts, res.Challenges)
	printf(c, "  constraints: %d per partition (%d inputs, %d aux)\n", res.Constraints, res.Inputs, res.Aux)
	printf(c, "  time:        %.3fs median, %.3fs min, %.3fs max over %d run(s)\n", res.Seconds, res.SecondsMin, res.SecondsMax, runs)
	printf(c, "  rate:        %.3g constraints/s\n", res.ConstraintsPerSecond)
	printf(c, "  cold:        %.3fs (%d minor faults)", res.ColdSeconds, res.ColdMinorFaults)
	if res.WarmSeconds > 0 {
		printf(c, ", warm %.3fs median (%d minor faults)", res.WarmSeconds, res.WarmMinorFaults)
	}
	printf(c, "\n  cores used:  %.2f (GOMAXPROCS %d, %d worker(s) per partition)\n", res.CoresUsed, res.GOMAXPROCS, res.Workers)
	for _, p := range res.PartitionRuns {
		printf(c, "    run %d partition %d: %.3fs, %.2f cores, %d minor faults\n", p.Run, p.Partition, p.Seconds, p.Cores, p.MinorFaults)
	}
	printf(c, "  allocations: %d per run, %s\n", res.Allocs, humanBytes(res.AllocBytes))
	printf(c, "  peak RSS:    %s\n", humanBytes(res.PeakRSSBytes))
	if res.R1CSDigest != "" {
		printf(c, "  r1cs digest:    %s\n  witness digest: %s\n  abc digest:     %s\n  density digest: %s\n",
			res.R1CSDigest, res.WitnessDigest, res.ABCDigest, res.DensityDigest)
	}
	return nil
}

// partitionRun is one partition's synthesis in `bench synth`.
type partitionRun struct {
	Run         int     `json:"run"`
	Partition   int     `json:"partition"`
	Seconds     float64 `json:"seconds"`
	CPUSeconds  float64 `json:"cpu_seconds"` // user + system, whole process
	Cores       float64 `json:"cores"`       // cpu_seconds / seconds
	MinorFaults uint64  `json:"minor_faults"`
	Cold        bool    `json:"cold"` // fresh storage (first partition, or --no-pool)
}

// summarizePartitions fills the cold/warm and cores fields from PartitionRuns.
func (r *synthResult) summarizePartitions() {
	var wall, cpu float64
	var warm []float64
	var warmFaults []float64
	for i, p := range r.PartitionRuns {
		wall += p.Seconds
		cpu += p.CPUSeconds
		if i == 0 {
			r.ColdSeconds, r.ColdMinorFaults = p.Seconds, p.MinorFaults
		} else if !p.Cold {
			warm = append(warm, p.Seconds)
			warmFaults = append(warmFaults, float64(p.MinorFaults))
		}
	}
	if wall > 0 {
		r.CoresUsed = cpu / wall
	}
	if len(warm) > 0 {
		r.WarmSeconds = summarize(warm).Median
		r.WarmMinorFaults = uint64(summarize(warmFaults).Median)
	}
}

// synthDigests fills the digests of partition 0 (digests.md §1–§4); the witness, a/b/c and
// density digests come from the same synthesis path as the timed runs, into the storage
// they left in pool (reused, not cleared) unless pool is nil, so that comparing them with
// those of --workers 1 --no-pool checks the parallel path and the storage reuse together.
func synthDigests(job *synthJob, workers int, pool *cs.BufferPool, res *synthResult) error {
	a, err := job.synthesize(context.Background(), 0, pool, workers)
	if err != nil {
		return inputError(err)
	}
	w, abc, den := a.WitnessDigest(), a.ABCDigest(), a.DensityDigest()
	res.WitnessDigest = hex.EncodeToString(w[:])
	res.ABCDigest = hex.EncodeToString(abc[:])
	res.DensityDigest = hex.EncodeToString(den[:])
	if pool != nil {
		pool.Release(a)
		pool.Trim() // the recording below needs the memory more
	}
	a = nil
	rec := cs.NewRecorder()
	if err := job.record(0, rec); err != nil {
		return inputError(err)
	}
	d := rec.Digest()
	res.R1CSDigest = hex.EncodeToString(d[:])
	return nil
}

// synthJob is what bench synth measures: the partitions of one circuit.
type synthJob struct {
	circuit, name string // --circuit, registered proof
	sectorSize    uint64
	source        string // for the JSON: "synthetic", the file or directory
	about         string // for the table: what the input is
	partitions    int    // available
	challenges    int    // per partition
	sectors       int    // PoSt: vanilla proofs
	maxWorkers    int    // useful synthesis goroutines per partition
	synthesize    func(ctx context.Context, k int, pool *cs.BufferPool, workers int) (*cs.Assignment, error)
	record        func(k int, rec *cs.Recorder) error // partition k's circuit into rec
}

// synthInput reads the circuit's inputs (--circuit) into a job and checks
// --partitions against it.
func synthInput(c *cli.Context) (*synthJob, error) {
	spec, err := lookupCircuit("circuit", c.String("circuit"))
	if err != nil {
		return nil, err
	}
	job, err := spec.synthJob(c, spec)
	if err != nil {
		return nil, err
	}
	job.circuit = spec.name
	if parts := c.Int("partitions"); parts < 1 || parts > job.partitions {
		return nil, usageErrorf("--partitions %d: must be between 1 and %d (the partitions of the %s data)", parts, job.partitions, job.source)
	}
	return job, nil
}

// postSynthInput reads PoSt inputs: --vanilla DIR or --synthetic, and
// prepares every partition (vanilla proofs parsed and checked, as the
// prover does before synthesis).
func postSynthInput(c *cli.Context, spec *circuitSpec) (*synthJob, error) {
	for _, f := range []string{"c1", "challenges"} {
		if c.IsSet(f) {
			return nil, usageErrorf("--%s: only with --circuit %s (PoSt reads vanilla proofs: --vanilla DIR or --synthetic)", f, circuitPoRep)
		}
	}
	set, err := postBenchInput(c, spec, c.Int("partitions"))
	if err != nil {
		return nil, err
	}
	cfg := set.cfg
	n := cfg.Partitions(len(set.vanilla))
	jobs := make([]*porep.Job, n)
	for k := range jobs {
		if jobs[k], err = preparePoStPartition(set, k); err != nil {
			return nil, err
		}
	}
	job := &synthJob{
		name: cfg.Name, sectorSize: cfg.SectorSize, source: set.source, about: set.about(),
		partitions: n, challenges: cfg.Slots * cfg.SlotChallenges, sectors: len(set.vanilla), maxWorkers: cfg.Slots,
		synthesize: func(ctx context.Context, k int, pool *cs.BufferPool, workers int) (*cs.Assignment, error) {
			return jobs[k].SynthesizePartition(ctx, 0, pool, workers)
		},
		record: func(k int, rec *cs.Recorder) error {
			circ, err := jobs[k].PartitionCircuit(0)
			if err != nil {
				return err
			}
			return circ.Synthesize(context.Background(), rec)
		},
	}
	return job, nil
}

// porepSynthInput reads PoRep inputs: --c1 FILE or --synthetic.
func porepSynthInput(c *cli.Context, _ *circuitSpec) (*synthJob, error) {
	if c.IsSet("vanilla") || c.IsSet("sectors") {
		return nil, usageErrorf("--vanilla and --sectors: only with --circuit %s or %s", circuitWinningPoSt, circuitWindowPoSt)
	}
	c1, cfg, source, err := porepC1Input(c)
	if err != nil {
		return nil, err
	}
	// The exact partition size, measured once per shape before the timed runs, pre-sizes
	// every ProvingAssignment in stacked.SynthesizePartition, as in the prover.
	if _, err := stacked.SizeHintFor(&cfg); err != nil {
		return nil, internalError(err)
	}
	about := "C1 " + source
	if source == "synthetic" {
		about = "synthetic C1"
	}
	return &synthJob{
		name: cfg.Name, sectorSize: cfg.SectorSize, source: source, about: about,
		partitions: len(c1.VanillaProofs), challenges: cfg.ChallengesPerPartition, maxWorkers: cfg.ChallengesPerPartition,
		synthesize: func(ctx context.Context, k int, pool *cs.BufferPool, workers int) (*cs.Assignment, error) {
			return stacked.SynthesizePartition(ctx, c1, &cfg, k, pool, workers)
		},
		record: func(k int, rec *cs.Recorder) error {
			circ, err := stacked.NewCircuit(c1, &cfg, k)
			if err != nil {
				return err
			}
			return circ.Synthesize(context.Background(), rec)
		},
	}, nil
}

// porepC1Input returns the C1 data to synthesize and its (possibly overridden) configuration,
// from --c1 FILE or --synthetic.
func porepC1Input(c *cli.Context) (*stacked.C1Output, stacked.SectorConfig, string, error) {
	path, useSynthetic := c.String("c1"), c.Bool("synthetic")
	if (path == "") == !useSynthetic {
		return nil, stacked.SectorConfig{}, "", usageErrorf("bench synth: give exactly one of --c1 FILE and --synthetic")
	}
	if useSynthetic {
		if !c.IsSet("sector-size") {
			return nil, stacked.SectorConfig{}, "", usageErrorf("bench synth: --synthetic needs --sector-size")
		}
		sc, err := configForSize[*stacked.SectorConfig](circuitNamed(circuitPoRep), c.String("sector-size"))
		if err != nil {
			return nil, stacked.SectorConfig{}, "", err
		}
		cfg := *sc
		parts := c.Int("partitions")
		if parts < 1 || parts > cfg.Partitions {
			return nil, cfg, "", usageErrorf("--partitions %d: a %s sector has %d partition(s)", parts, stacked.SizeLabel(cfg.SectorSize), cfg.Partitions)
		}
		opt := synthetic.C1Options{Partitions: parts, Seed: 1}
		if c.IsSet("challenges") {
			n := c.Int("challenges")
			if n < 1 || n > stacked.MaxChallengesPerPartition {
				return nil, cfg, "", usageErrorf("--challenges %d: out of range, want 1..%d (%s has %d per partition)",
					n, stacked.MaxChallengesPerPartition, cfg.Name, cfg.ChallengesPerPartition)
			}
			opt.ChallengesPerPartition = n
			cfg.ChallengesPerPartition = n
		}
		cfg.Partitions = parts
		c1, err := synthetic.C1(cfg, opt)
		if err != nil {
			return nil, cfg, "", internalError(err)
		}
		return c1, cfg, "synthetic", nil
	}
	if c.IsSet("challenges") {
		return nil, stacked.SectorConfig{}, "", usageErrorf("--challenges: only with --synthetic (a C1 file fixes its challenges)")
	}
	c1, cfg, err := readC1(path)
	if err != nil {
		return nil, cfg, "", err
	}
	if c.IsSet("sector-size") {
		size, err := parseSectorSize(c.String("sector-size"))
		if err != nil {
			return nil, cfg, "", inputError(err)
		}
		if size != cfg.SectorSize {
			return nil, cfg, "", usageErrorf("--sector-size %s does not match %s: it holds a %s sector (%s)",
				c.String("sector-size"), path, stacked.SizeLabel(cfg.SectorSize), cfg.Name)
		}
	}
	return c1, cfg, path, nil
}

// readC1 reads and validates a C1 JSON file (or a lotus-bench Commit2In wrapper).
func readC1(path string) (*stacked.C1Output, stacked.SectorConfig, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, stacked.SectorConfig{}, inputError(fmt.Errorf("--c1: %w", fileError(err)))
	}
	c1, cfg, err := stacked.ParseC1(data)
	if err != nil {
		return nil, cfg, inputError(fmt.Errorf("%s: %w", path, err))
	}
	return c1, cfg, nil
}
