// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep/aggregate"
)

func benchAggregateCommand() *cli.Command {
	return &cli.Command{
		Name:  "aggregate",
		Usage: "SnarkPack V2 aggregation and verification of N Groth16 proofs (CPU, gnark-crypto)",
		Description: "Builds N valid Groth16 proofs of a one-input verifying key from a known trapdoor\n" +
			"(no circuit or parameters needed) and an in-memory test SRS (cuseal-srs-v1), then times\n" +
			"aggregate (padded to a power of two) and verify separately.",
		Flags: append([]cli.Flag{
			&cli.IntFlag{Name: "proofs", Usage: "number of proofs N (padded to a power of two)", Value: 64},
			&cli.IntFlag{Name: "runs", Usage: "timed runs of each phase", Value: 3},
			&cli.StringFlag{Name: "bellperson", Usage: "also run bellperson's timing tool `FILE` (porep/aggregate/testdata/refbench, built with cargo) on the same N and runs"},
			&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON object"},
		}, profileFlags()...),
		Action: benchAggregateAction,
	}
}

type benchAggregateOutput struct {
	Proofs     int     `json:"proofs"`
	Aggregated int     `json:"aggregated"`
	Bytes      int     `json:"bytes"`
	Runs       int     `json:"runs"`
	Threads    int     `json:"threads"`
	SetupSec   float64 `json:"setup_seconds"`
	AggMin     float64 `json:"aggregate_seconds_min"`
	AggMedian  float64 `json:"aggregate_seconds_median"`
	AggMax     float64 `json:"aggregate_seconds_max"`
	VerMin     float64 `json:"verify_seconds_min"`
	VerMedian  float64 `json:"verify_seconds_median"`
	VerMax     float64 `json:"verify_seconds_max"`
	// Bellperson is the refbench tool's own JSON line (its timings of the
	// same workload), when --bellperson is given.
	Bellperson *benchAggregateRef `json:"bellperson,omitempty"`
}

type benchAggregateRef struct {
	Tool      string  `json:"tool"`
	Bytes     int     `json:"bytes"`
	Threads   int     `json:"threads"`
	AggMin    float64 `json:"aggregate_seconds_min"`
	AggMedian float64 `json:"aggregate_seconds_median"`
	VerMin    float64 `json:"verify_seconds_min"`
	VerMedian float64 `json:"verify_seconds_median"`
}

// runBellpersonBench runs the refbench tool for n proofs and runs runs and
// decodes its JSON line.
func runBellpersonBench(path string, n, runs int) (*benchAggregateRef, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, usageErrorf("--bellperson: %v (build it: cd porep/aggregate/testdata/refbench && cargo build --release)", fileError(err))
	}
	out, err := exec.Command(path, strconv.Itoa(n), strconv.Itoa(runs)).Output()
	if err != nil {
		return nil, internalError(fmt.Errorf("--bellperson %s: %w", path, err))
	}
	var r benchAggregateRef
	if err := json.Unmarshal(bytes.TrimSpace(out), &r); err != nil {
		return nil, internalError(fmt.Errorf("--bellperson %s: output %q: %w", path, out, err))
	}
	return &r, nil
}

func benchAggregateAction(c *cli.Context) error {
	n := c.Int("proofs")
	if n < 1 || n > 1<<14 {
		return usageErrorf("--proofs %d: want 1 … %d", n, 1<<14)
	}
	if err := checkProfilePaths(c); err != nil {
		return err
	}
	target := 2
	for target < n {
		target <<= 1
	}
	t0 := time.Now()
	var seed [32]byte
	copy(seed[:], "cuseal-bench-aggregate")
	srs, err := aggregate.GenerateTestSRS(seed, target)
	if err != nil {
		return internalError(err)
	}
	pk, vsrs, err := srs.Specialize(target)
	if err != nil {
		return internalError(err)
	}
	vk, proofs, public := aggregate.FakeProofs(seed, n)
	for len(proofs) < target {
		proofs = append(proofs, proofs[len(proofs)-1])
		public = append(public, public[len(public)-1])
	}
	include := []byte("cuseal bench aggregate")
	setup := time.Since(t0)

	stop, err := startProfiling(c)
	if err != nil {
		return err
	}
	var agg *aggregate.AggregateProof
	am, err := measure(c.Int("runs"), func(int) error {
		var err error
		agg, err = aggregate.Aggregate(pk, include, proofs)
		return err
	})
	if err != nil {
		stop()
		return internalError(err)
	}
	vm, err := measure(c.Int("runs"), func(int) error {
		return aggregate.Verify(vsrs, vk, public, include, agg)
	})
	if perr := stop(); perr != nil && err == nil {
		err = perr
	}
	if err != nil {
		return internalError(fmt.Errorf("bench aggregate: verify: %w", err))
	}
	b, err := agg.Bytes()
	if err != nil {
		return internalError(err)
	}
	as, vs := summarize(am.Seconds), summarize(vm.Seconds)
	out := benchAggregateOutput{Proofs: n, Aggregated: target, Bytes: len(b), Runs: c.Int("runs"), Threads: runtime.GOMAXPROCS(0),
		SetupSec: setup.Seconds(), AggMin: as.Min, AggMedian: as.Median, AggMax: as.Max, VerMin: vs.Min, VerMedian: vs.Median, VerMax: vs.Max}
	if p := c.String("bellperson"); p != "" {
		if out.Bellperson, err = runBellpersonBench(p, n, c.Int("runs")); err != nil {
			return err
		}
		if out.Bellperson.Bytes != out.Bytes {
			return internalError(fmt.Errorf("bench aggregate: bellperson's aggregate is %d bytes, cuseal's %d", out.Bellperson.Bytes, out.Bytes))
		}
	}
	if c.Bool("json") {
		return writeJSON(c, out)
	}
	printf(c, "SnarkPack V2, %d proofs (aggregated as %d, %d bytes), %d threads, %d runs\n", n, target, len(b), out.Threads, out.Runs)
	printf(c, "  aggregate: min %.3fs  median %.3fs  max %.3fs\n", as.Min, as.Median, as.Max)
	printf(c, "  verify:    min %.3fs  median %.3fs  max %.3fs\n", vs.Min, vs.Median, vs.Max)
	if b := out.Bellperson; b != nil {
		printf(c, "  %s: aggregate median %.3fs (cuseal ×%.2f faster), verify median %.3fs (×%.2f)\n",
			b.Tool, b.AggMedian, b.AggMedian/as.Median, b.VerMedian, b.VerMedian/vs.Median)
	}
	printf(c, "  setup (test SRS + proofs, untimed): %.1fs\n", out.SetupSec)
	return nil
}
