// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
)

func benchGroth16Command() *cli.Command {
	return &cli.Command{
		Name:  "groth16",
		Usage: "Groth16 proving alone on a synthetic circuit shape of domain 2^K (no synthesis, no verification), per backend",
		Description: "Times groth16 proving (H, the five MSMs, the assembly) of synthetic circuits with the\n" +
			"shape of native/tests/bench_groth16 (constraints = aux = 0.97·2^K, 16 inputs, A/B-aux\n" +
			"density 60/40 %, witness 35 % zeros and 35 % ones) against synthetic parameters: a\n" +
			"tiling of distinct points written once to --params (47 GiB for K=27: the 32 GiB\n" +
			"partition shape; 1.5 GiB for K=22, the 2 KiB one). The first run includes loading the\n" +
			"parameters into the backend (SRS upload); the median is over the others. The proofs\n" +
			"are for timing only: synthetic witnesses do not satisfy a circuit.",
		Flags: append([]cli.Flag{
			&cli.IntFlag{Name: "log", Usage: "domain size 2^`K` (10..28)", Value: 22},
			&cli.StringFlag{Name: "backend", Usage: "backend, or a comma-separated list run in turn: cpu, cuda, supraseal (auto: what commit2 would pick)", Value: porep.BackendAuto},
			noGPUFlag(),
			&cli.IntFlag{Name: "circuits", Usage: "circuits per proving call (a 32 GiB sector has 10 partitions)", Value: 1},
			&cli.IntFlag{Name: "runs", Usage: "proving calls per backend (the first includes the parameter load)", Value: 2},
			&cli.StringFlag{Name: "params", Usage: "synthetic parameter `FILE` (written when missing or of another shape)", DefaultText: "$TMPDIR/cuseal-synthetic-2^K.params"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object"},
		}, profileFlags()...),
		Action: benchGroth16Action,
	}
}

// groth16BenchBackend is one backend's line of `bench groth16`.
type groth16BenchBackend struct {
	Backend      string  `json:"backend"`
	FirstSeconds float64 `json:"first_seconds"` // first call, including the parameter load
	Seconds      float64 `json:"seconds"`       // median of the later calls (the first when --runs 1)
	SecondsMin   float64 `json:"seconds_min"`
	Runs         int     `json:"runs"`
}

// groth16BenchResult is what `cuseal bench groth16 --json` prints.
type groth16BenchResult struct {
	Log           int                   `json:"log"`
	Constraints   int                   `json:"constraints"`
	Aux           int                   `json:"aux"`
	Circuits      int                   `json:"circuits"`
	Params        string                `json:"params"`
	ParamsBytes   int64                 `json:"params_bytes"`
	ParamsWritten bool                  `json:"params_written"`
	SetupSeconds  float64               `json:"setup_seconds"` // writing/opening the params, making the witnesses
	Backends      []groth16BenchBackend `json:"backends"`
	PeakRSSBytes  uint64                `json:"peak_rss_bytes"`
}

func benchGroth16Action(c *cli.Context) error {
	shape, err := groth16.NewSyntheticShape(c.Int("log"))
	if err != nil {
		return usageErrorf("--log %d: must be 10..28", c.Int("log"))
	}
	runs, n := c.Int("runs"), c.Int("circuits")
	if runs < 1 {
		return usageErrorf("--runs %d: must be at least 1", runs)
	}
	if n < 1 || n > 64 {
		return usageErrorf("--circuits %d: must be 1..64", n)
	}
	backends, err := backendList(c)
	if err != nil {
		return err
	}
	if err := checkProfilePaths(c); err != nil {
		return err
	}
	path := c.String("params")
	if path == "" {
		path = filepath.Join(os.TempDir(), fmt.Sprintf("cuseal-synthetic-2^%d.params", shape.LogN))
	}
	t0 := time.Now()
	params, wrote, err := groth16.SyntheticParams(path, shape)
	if err != nil {
		return inputError(fmt.Errorf("--params %s: %w", path, err))
	}
	defer params.Close()
	as := make([]*cs.Assignment, n)
	rs := make([]groth16.Randomness, n)
	for i := range as {
		as[i] = groth16.SyntheticAssignment(shape, uint64(i+1))
		rs[i] = groth16.RandomnessFromSeed(benchSeed, uint64(i))
	}
	res := groth16BenchResult{
		Log: shape.LogN, Constraints: shape.Constraints, Aux: shape.Aux, Circuits: n, Params: path,
		ParamsBytes: shape.SyntheticParamsSize(), ParamsWritten: wrote, SetupSeconds: time.Since(t0).Seconds(),
	}
	stop, err := startProfiling(c)
	if err != nil {
		return err
	}
	if err := benchGroth16Backends(c, &res, backends, params, as, rs, runs); err != nil {
		stop()
		return err
	}
	if err := stop(); err != nil {
		return err
	}
	res.PeakRSSBytes = peakRSS()
	if c.Bool("json") {
		return writeJSON(c, res)
	}
	printf(c, "synthetic Groth16 shape 2^%d: %d constraints, %d aux, %d circuit(s) per call; params %s (%s%s), setup %.1fs\n",
		res.Log, res.Constraints, res.Aux, n, path, humanBytes(uint64(res.ParamsBytes)), map[bool]string{true: ", written now", false: ""}[wrote], res.SetupSeconds)
	printf(c, "%-12s %14s %14s %14s\n", "backend", "first (s)", "median (s)", "min (s)")
	for _, l := range res.Backends {
		printf(c, "%-12s %14.3f %14.3f %14.3f\n", l.Backend, l.FirstSeconds, l.Seconds, l.SecondsMin)
	}
	for _, l := range res.Backends[1:] {
		if l.Seconds > 0 {
			printf(c, "%s / %s: %.2fx (median)\n", res.Backends[0].Backend, l.Backend, res.Backends[0].Seconds/l.Seconds)
		}
	}
	printf(c, "peak RSS: %s\n", humanBytes(res.PeakRSSBytes))
	return nil
}

// benchGroth16Backends times runs proving calls per backend into res.Backends.
func benchGroth16Backends(c *cli.Context, res *groth16BenchResult, backends []string, params *groth16.Params,
	as []*cs.Assignment, rs []groth16.Randomness, runs int) error {
	for _, name := range backends {
		b, chosen, err := porep.NewBackend(name)
		if err != nil {
			return classifyPorepError(err)
		}
		var times []float64
		for r := 0; r < runs; r++ {
			t := time.Now()
			if _, err := groth16.Prove(c.Context, b, params, as, rs); err != nil {
				return internalError(fmt.Errorf("backend %s: %w", chosen, err))
			}
			times = append(times, time.Since(t).Seconds())
		}
		line := groth16BenchBackend{Backend: chosen, FirstSeconds: times[0], Runs: runs}
		later := times
		if len(times) > 1 {
			later = times[1:]
		}
		sp := summarize(later)
		line.Seconds, line.SecondsMin = sp.Median, sp.Min
		res.Backends = append(res.Backends, line)
		if rel, ok := b.(interface{ Release(*groth16.Params) error }); ok {
			rel.Release(params) // free the device copy before the next backend loads its own
		}
	}
	return nil
}
