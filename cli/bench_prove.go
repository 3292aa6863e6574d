package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
)

func benchProveCommand() *cli.Command {
	return &cli.Command{
		Name:  "prove",
		Usage: "whole C2 (synthesis, proving, self-verification) of a C1 file, repeated",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "c1", Usage: "C1 JSON or lotus-bench Commit2In `FILE`", Required: true},
			paramsDirFlag(),
			minerFlag(),
			sectorFlag(),
			&cli.StringFlag{Name: "backend", Usage: "proving backend: auto, cpu or cuda", Value: porep.BackendAuto},
			noGPUFlag(),
			&cli.IntFlag{Name: "runs", Usage: "measured runs", Value: 1},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object"},
		}, append(proverFlags(), profileFlags()...)...),
		Action: benchProveAction,
	}
}

// proveResult is what `cuseal bench prove --json` prints.
type proveResult struct {
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
}

func benchProveAction(c *cli.Context) error {
	if err := checkProfilePaths(c); err != nil {
		return err
	}
	runs := c.Int("runs")
	if runs < 1 {
		return usageErrorf("--runs %d: must be at least 1", runs)
	}
	in, err := readC1Input(c, true)
	if err != nil {
		return err
	}
	backend, err := backendName(c)
	if err != nil {
		return err
	}
	if n := c.Int("partitions-in-flight"); n < 1 {
		return usageErrorf("--partitions-in-flight %d: must be at least 1", n)
	}
	if w := c.Int("synth-workers"); w < 0 {
		return usageErrorf("--synth-workers %d: must be at least 0", w)
	}
	dir := c.String("params-dir")
	if err := checkParamsPresent(dir, &in.cfg, true); err != nil {
		return err
	}
	stop, err := startProfiling(c)
	if err != nil {
		return err
	}
	jsonOut := c.Bool("json")
	bar := newProgress(c.App.ErrWriter, jsonOut, int64(runs*in.cfg.Partitions), fmt.Sprintf("bench prove %s", formatSize(in.cfg.SectorSize)))
	var rec *phaseRecorder
	var nbytes int
	m, err := measure(runs, func(int) error {
		rec = newPhaseRecorder(bar)
		opts, err := proverOptions(c, dir, backend, rec)
		if err != nil {
			return err
		}
		pf, err := porep.SealCommitPhase2(in.data, in.sector, in.miner, opts...)
		if err != nil {
			return classifyPorepError(err)
		}
		nbytes = len(pf)
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
	res := proveResult{
		RegisteredProof: in.cfg.Name,
		Backend:         rec.backend(),
		Partitions:      nbytes / 192,
		Runs:            runs,
		Seconds:         sp.Median,
		SecondsMin:      sp.Min,
		SecondsMax:      sp.Max,
		Timings:         rec.timings(),
		Allocs:          m.Allocs,
		AllocBytes:      m.Bytes,
		PeakRSSBytes:    peakRSS(),
	}
	if jsonOut {
		return writeJSON(c, res)
	}
	printf(c, "%s, %d partition(s), %s backend\n", res.RegisteredProof, res.Partitions, res.Backend)
	printf(c, "  time:     %.3fs median, %.3fs min, %.3fs max over %d run(s)\n", res.Seconds, res.SecondsMin, res.SecondsMax, runs)
	printf(c, "  peak RSS: %s\n", humanBytes(res.PeakRSSBytes))
	printTimings(c.App.Writer, res.Timings)
	return nil
}
