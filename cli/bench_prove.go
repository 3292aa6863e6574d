// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/filecoin-project/go-state-types/proof"
	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
)

func benchProveCommand() *cli.Command {
	return &cli.Command{
		Name:  "prove",
		Usage: "whole C2 (synthesis, proving, self-verification) of a C1 file, or a whole PoSt proof from vanilla proofs, repeated",
		Description: "--circuit porep (default) proves --c1 FILE as commit2 does. winning-post and window-post\n" +
			"prove as cuseal post winning|window do (every partition, each verified with the .vk) from\n" +
			"--vanilla DIR (as bench vanilla or post vanilla write it) or --synthetic (valid synthetic\n" +
			"vanilla proofs of --sectors sectors, default one partition) of --sector-size. update proves as\n" +
			"cuseal update prove does from --vanilla DIR (partition-K.bin) and --comm-r-old, --comm-r-new,\n" +
			"--comm-d-new, or --synthetic (a valid synthetic updated sector of --sector-size, seed 1).",
		Flags: append([]cli.Flag{
			circuitFlag(),
			&cli.StringFlag{Name: "c1", Usage: "porep: C1 JSON or lotus-bench Commit2In `FILE`"},
			&cli.BoolFlag{Name: "synthetic", Usage: "PoSt, update: valid synthetic vanilla proofs (needs --sector-size)"},
			&cli.StringFlag{Name: "sector-size", Usage: "PoSt --synthetic: sector size (2KiB ... 64GiB); with --vanilla, must match it"},
			paramsDirFlag(),
			requireProductionFlag(),
			minerFlag(),
			sectorFlag(),
			&cli.StringFlag{Name: "backend", Usage: backendUsage() + "; a comma-separated list (cpu,cuda,supraseal) runs each on the same C1 in turn, with the same fixed blinding (r, s), and reports them side by side with whether their proofs are byte-identical", Value: porep.BackendAuto},
			noGPUFlag(),
			&cli.IntFlag{Name: "partition", Usage: "porep: prove only partition `K` of the C1 (verified with the .vk like every partition; one partition of a 32GiB sector)", Value: -1},
			&cli.IntFlag{Name: "runs", Usage: "measured runs", Value: 1},
			&cli.BoolFlag{Name: "force", Usage: "prove even when the estimated memory need exceeds the available memory"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object"},
		}, append(append(append(postInputFlags("one partition"), benchUpdateFlags()...), proverFlags()...), profileFlags()...)...),
		Action: benchProveAction,
	}
}

// proveResult is what `cuseal bench prove --json` prints.
type proveResult struct {
	Circuit         string        `json:"circuit"` // --circuit
	RegisteredProof string        `json:"registered_proof"`
	Backend         string        `json:"backend"`
	Partitions      int           `json:"partitions"`
	Runs            int           `json:"runs"`
	Seconds         float64       `json:"seconds"` // median
	SecondsMin      float64       `json:"seconds_min"`
	SecondsMax      float64       `json:"seconds_max"`
	Timings         []phaseTiming `json:"timings"` // of the last run
	Allocs          uint64        `json:"allocs"`
	AllocBytes      uint64        `json:"alloc_bytes"`
	PeakRSSBytes    uint64        `json:"peak_rss_bytes"`
	// EstimateBytes is porep.EstimateMemory's Total for this backend and the
	// flags (the preflight's figure): compare with PeakRSSBytes.
	EstimateBytes uint64 `json:"estimate_bytes"`
}

// proveComparison is what `cuseal bench prove --backend a,b,... --json` prints.
type proveComparison struct {
	Circuit         string        `json:"circuit"` // --circuit
	RegisteredProof string        `json:"registered_proof"`
	Partitions      int           `json:"partitions"`
	Runs            int           `json:"runs"`
	Backends        []proveResult `json:"backends"` // in --backend order; peak_rss_bytes is the process's so far
	// ProofsIdentical: every backend's proof bytes (same C1, same fixed r and s) are equal.
	ProofsIdentical bool `json:"proofs_identical"`
}

// benchSeed fixes (r, s) when several backends are compared, so that their proofs must be
// byte-identical (bench only: the proofs are discarded).
var benchSeed = [32]byte{'c', 'u', 's', 'e', 'a', 'l', '-', 'b', 'e', 'n', 'c', 'h', '-', 'p', 'r', 'o', 'v', 'e'}

func benchProveAction(c *cli.Context) error {
	if err := checkProfilePaths(c); err != nil {
		return err
	}
	runs := c.Int("runs")
	if runs < 1 {
		return usageErrorf("--runs %d: must be at least 1", runs)
	}
	backends, err := backendList(c)
	if err != nil {
		return err
	}
	job, err := proveInput(c, backends)
	if err != nil {
		return err
	}
	stop, err := startProfiling(c)
	if err != nil {
		return err
	}
	jsonOut := c.Bool("json")
	bar := newPhaseProgress(c.App.ErrWriter, int64(len(backends)*runs*job.partitions), fmt.Sprintf("bench prove %s", job.label))
	var results []proveResult
	var proofs [][]byte
	for _, backend := range backends {
		var rec *phaseRecorder
		var proof []byte
		m, err := measure(runs, func(int) error {
			rec = newPhaseRecorder(bar, c.App.ErrWriter, job.partitions)
			opts := proverOptions(c, c.String("params-dir"), backend, rec)
			if len(backends) > 1 {
				opts = append(opts, porep.WithDeterministicRandomness(benchSeed))
			}
			pf, err := job.prove(opts)
			if err != nil {
				return classifyPorepError(err)
			}
			proof = pf
			return nil
		})
		if err != nil {
			bar.Done()
			if serr := stop(); serr != nil {
				return serr
			}
			if len(backends) > 1 {
				return fmt.Errorf("backend %s: %w", backend, err)
			}
			return err
		}
		sp := summarize(m.Seconds)
		results = append(results, proveResult{
			Circuit:         job.circuit,
			RegisteredProof: job.name,
			Backend:         rec.backend(),
			Partitions:      len(proof) / groth16.ProofSize,
			Runs:            runs,
			Seconds:         sp.Median,
			SecondsMin:      sp.Min,
			SecondsMax:      sp.Max,
			Timings:         rec.timings(),
			Allocs:          m.Allocs,
			AllocBytes:      m.Bytes,
			PeakRSSBytes:    peakRSS(),
			EstimateBytes:   jobEstimate(c, job.cfg, rec.backend()),
		})
		proofs = append(proofs, proof)
	}
	bar.Done()
	if err := stop(); err != nil {
		return err
	}
	if len(results) == 1 {
		res := results[0]
		if jsonOut {
			return writeJSON(c, res)
		}
		printf(c, "%s, %d partition(s), %s backend\n", res.RegisteredProof, res.Partitions, res.Backend)
		printf(c, "  time:     %.3fs median, %.3fs min, %.3fs max over %d run(s)\n", res.Seconds, res.SecondsMin, res.SecondsMax, runs)
		printf(c, "  peak RSS: %s (estimated %s)\n", humanBytes(res.PeakRSSBytes), humanBytes(res.EstimateBytes))
		printTimings(c.App.Writer, res.Timings)
		return nil
	}
	cmp := proveComparison{Circuit: job.circuit, RegisteredProof: job.name, Partitions: results[0].Partitions, Runs: runs, Backends: results, ProofsIdentical: true}
	for _, p := range proofs[1:] {
		if !bytes.Equal(p, proofs[0]) {
			cmp.ProofsIdentical = false
		}
	}
	if jsonOut {
		if err := writeJSON(c, cmp); err != nil {
			return err
		}
	} else {
		printComparison(c, &cmp)
	}
	if !cmp.ProofsIdentical {
		// Every proof verified, yet with the same (r, s) they must be equal: a backend is wrong.
		return internalError(fmt.Errorf("bench prove: the backends' proofs differ for the same input, r and s (%s)", strings.Join(backends, ", ")))
	}
	return nil
}

// proveJob is what bench prove repeats: one whole proof of a circuit, as
// its Go API makes it (every partition verified with the .vk).
type proveJob struct {
	circuit, name string // --circuit, registered proof
	label         string // the sector size, for the progress line
	partitions    int
	cfg           paramfile.Circuit // for the memory estimate
	prove         func(opts []porep.Option) ([]byte, error)
}

// jobEstimate is the estimated peak memory (porep.EstimateMemory's Total) of
// proving circuit with backend under c's flags and --params-dir's file; 0 if
// it cannot be estimated.
func jobEstimate(c *cli.Context, circuit paramfile.Circuit, backend string) uint64 {
	if backend == porep.BackendAuto {
		backend = porep.AutoPreference()
	}
	size, err := paramfile.ParamsBytes(c.String("params-dir"), circuit)
	if err != nil {
		return 0
	}
	m, err := porep.EstimateMemory(circuit, backend, partitionsInFlight(c, circuit), c.Bool("preload-params"), size)
	if err != nil {
		return 0
	}
	return m.Total
}

// proveInput reads --circuit's inputs and runs the checks that precede
// proving (flags, parameter files, memory unless --force) for each backend.
func proveInput(c *cli.Context, backends []string) (*proveJob, error) {
	spec, err := lookupCircuit("circuit", c.String("circuit"))
	if err != nil {
		return nil, err
	}
	return spec.proveJob(c, spec, backends)
}

// porepProveInput is bench prove's PoRep C2 job: --c1, its checks and the preflight.
func porepProveInput(c *cli.Context, spec *circuitSpec, backends []string) (*proveJob, error) {
	for _, f := range []string{"vanilla", "synthetic", "sectors", "sector-size"} {
		if c.IsSet(f) {
			return nil, usageErrorf("--%s: only with --circuit %s or %s (porep proves --c1 FILE)", f, circuitWinningPoSt, circuitWindowPoSt)
		}
	}
	if !c.IsSet("c1") {
		return nil, usageErrorf("--circuit %s needs --c1 FILE", circuitPoRep)
	}
	in, err := readC1Input(c, true)
	if err != nil {
		return nil, err
	}
	parts, only := in.cfg.Partitions, c.Int("partition")
	if c.IsSet("partition") {
		if only < 0 || only >= parts {
			return nil, usageErrorf("--partition %d: %s has partitions 0 to %d", only, in.cfg.Name, parts-1)
		}
		parts = 1
	}
	if err := preflightProve(c, in, backends); err != nil {
		return nil, err
	}
	return &proveJob{circuit: spec.name, name: in.cfg.Name, label: stacked.SizeLabel(in.cfg.SectorSize), partitions: parts, cfg: &in.cfg,
		prove: func(opts []porep.Option) ([]byte, error) {
			if c.IsSet("partition") {
				opts = append(opts, porep.WithOnlyPartition(only))
			}
			return porep.SealCommitPhase2(in.data, in.sector, in.miner, opts...)
		}}, nil
}

// postProveInput is bench prove's PoSt job: its vanilla proofs, then benchReady.
func postProveInput(c *cli.Context, spec *circuitSpec, backends []string) (*proveJob, error) {
	for _, f := range []string{"c1", "sector", "partition", "partitions-in-flight", "preload-params"} {
		if c.IsSet(f) {
			return nil, usageErrorf("--%s: only with --circuit %s", f, circuitPoRep)
		}
	}
	if w := c.Int("synth-workers"); w < 0 {
		return nil, usageErrorf("--synth-workers %d: must be at least 0", w)
	}
	set, err := postBenchInput(c, spec, 1)
	if err != nil {
		return nil, err
	}
	cfg := set.cfg
	if err := benchReady(c, backends, postParams(cfg), cfg); err != nil {
		return nil, err
	}
	job := &proveJob{circuit: spec.name, name: cfg.Name, label: stacked.SizeLabel(cfg.SectorSize), partitions: cfg.Partitions(len(set.vanilla)), cfg: cfg}
	job.prove = func(opts []porep.Option) ([]byte, error) {
		var ps []proof.PoStProof
		var err error
		if cfg.Kind == post.Winning {
			ps, err = porep.GenerateWinningPoStWithVanilla(cfg.Proof, set.miner, set.randomness, set.vanilla, opts...)
		} else {
			ps, err = porep.GenerateWindowPoStWithVanilla(cfg.Proof, set.miner, set.randomness, set.vanilla, opts...)
		}
		if err != nil {
			return nil, err
		}
		return ps[0].ProofBytes, nil
	}
	return job, nil
}

// benchReady is bench prove's check before a PoSt or update job: the
// circuit's parameter files are in --params-dir, and (unless --force) one
// partition fits each backend's memory (preflightBackends).
func benchReady(c *cli.Context, backends []string, cp circuitParams, circuit paramfile.Circuit) error {
	dir := c.String("params-dir")
	if err := checkParamsPresent(dir, cp, true); err != nil {
		return err
	}
	if c.Bool("force") {
		return nil
	}
	return preflightBackends(circuit.ProofName(), backends, func(b string) (porep.Memory, error) {
		return porep.KeysFor(circuit, porep.WithParamsDir(dir)).Memory(b)
	})
}

// preflightBackends refuses (exit 2) a proof of one partition in flight
// whose estimated memory for one of the backends (auto: the one it picks)
// exceeds the available memory.
func preflightBackends(name string, backends []string, estimate func(backend string) (porep.Memory, error)) error {
	for _, b := range backends {
		if b == porep.BackendAuto {
			b = porep.AutoPreference()
		}
		est, err := estimate(b)
		if err != nil {
			return internalError(err)
		}
		if err := checkMemoryEstimate(name, b, est, 1, false); err != nil {
			return err
		}
	}
	return nil
}

// printComparison prints the backends side by side: total times, then every phase.
func printComparison(c *cli.Context, cmp *proveComparison) {
	printf(c, "%s, %d partition(s), %d run(s) per backend, fixed r and s\n", cmp.RegisteredProof, cmp.Partitions, cmp.Runs)
	width := len("phase (seconds)")
	for _, t := range cmp.Backends[0].Timings {
		width = max(width, len(t.Phase))
	}
	printf(c, "%-*s", width, "phase (seconds)")
	for _, r := range cmp.Backends {
		printf(c, "  %12s", r.Backend)
	}
	printf(c, "\n")
	row := func(name string, v func(r *proveResult) (float64, bool)) {
		printf(c, "%-*s", width, name)
		for i := range cmp.Backends {
			if x, ok := v(&cmp.Backends[i]); ok {
				printf(c, "  %12.3f", x)
			} else {
				printf(c, "  %12s", "-")
			}
		}
		printf(c, "\n")
	}
	row("total (median)", func(r *proveResult) (float64, bool) { return r.Seconds, true })
	row("total (min)", func(r *proveResult) (float64, bool) { return r.SecondsMin, true })
	for i, t := range cmp.Backends[0].Timings {
		row(t.Phase, func(r *proveResult) (float64, bool) {
			if i < len(r.Timings) && r.Timings[i].Phase == t.Phase {
				return r.Timings[i].Seconds, true
			}
			return 0, false
		})
	}
	base := cmp.Backends[0]
	for _, r := range cmp.Backends[1:] {
		if r.Seconds > 0 {
			printf(c, "%s / %s: %.2fx (median total time)\n", base.Backend, r.Backend, base.Seconds/r.Seconds)
		}
	}
	same := "yes"
	if !cmp.ProofsIdentical {
		same = "NO"
	}
	printf(c, "proofs byte-identical: %s\n", same)
}
