// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"time"

	"github.com/urfave/cli/v2"
)

// benchCommand groups the microbenchmarks. Every bench command takes --cpuprofile and
// --memprofile (pprof), so a regression can be located, not just seen.
func benchCommand() *cli.Command {
	return &cli.Command{
		Name:        "bench",
		Usage:       "microbenchmarks: synthesis, MSM, NTT, proving",
		Subcommands: benchSubcommands(),
	}
}

// profileFlags are shared by every bench command.
func profileFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "cpuprofile", Usage: "write a pprof CPU profile of the measured runs to `FILE`"},
		&cli.StringFlag{Name: "memprofile", Usage: "write a pprof allocation profile to `FILE` after the measured runs"},
	}
}

// checkProfilePaths fails early, before any benchmark work, when a --cpuprofile or
// --memprofile file cannot be created.
func checkProfilePaths(c *cli.Context) error {
	for _, name := range []string{"cpuprofile", "memprofile"} {
		path := c.String(name)
		if path == "" {
			continue
		}
		_, statErr := os.Stat(path)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			return inputError(fmt.Errorf("--%s: %w", name, fileError(err)))
		}
		f.Close()
		if os.IsNotExist(statErr) {
			os.Remove(path)
		}
	}
	return nil
}

// startProfiling starts the CPU profile when --cpuprofile is set and returns a function that
// stops it and writes the allocation profile when --memprofile is set; calls after the first
// do nothing, so a deferred call may back up the one on the success path. Files that cannot be
// created are input errors.
func startProfiling(c *cli.Context) (stop func() error, err error) {
	var cpuFile *os.File
	if path := c.String("cpuprofile"); path != "" {
		if cpuFile, err = os.Create(path); err != nil {
			return nil, inputError(fmt.Errorf("--cpuprofile: %w", err))
		}
		if err = pprof.StartCPUProfile(cpuFile); err != nil {
			cpuFile.Close()
			return nil, internalError(fmt.Errorf("--cpuprofile: %w", err))
		}
	}
	memPath := c.String("memprofile")
	if memPath != "" {
		// Create it now, so an unwritable path fails before minutes of benchmarking.
		f, err := os.Create(memPath)
		if err != nil {
			if cpuFile != nil {
				pprof.StopCPUProfile()
				cpuFile.Close()
			}
			return nil, inputError(fmt.Errorf("--memprofile: %w", err))
		}
		f.Close()
	}
	stopped := false
	return func() error {
		if stopped {
			return nil
		}
		stopped = true
		if cpuFile != nil {
			pprof.StopCPUProfile()
			if err := cpuFile.Close(); err != nil {
				return internalError(fmt.Errorf("--cpuprofile: %w", err))
			}
		}
		if memPath != "" {
			f, err := os.Create(memPath)
			if err != nil {
				return inputError(fmt.Errorf("--memprofile: %w", err))
			}
			runtime.GC()
			werr := pprof.Lookup("allocs").WriteTo(f, 0)
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				return internalError(fmt.Errorf("--memprofile: %w", werr))
			}
		}
		return nil
	}, nil
}

// measurement is what measure records over repeated runs of one workload.
type measurement struct {
	Seconds []float64 // wall time of each run
	Allocs  uint64    // heap allocations per run (mean over runs)
	Bytes   uint64    // heap bytes allocated per run (mean over runs)
}

// measure runs fn runs times and records the wall time of each run and the heap allocations
// per run. fn's error stops the measurement. GC runs before each run so that one run's
// garbage is not charged to the next.
func measure(runs int, fn func(run int) error) (measurement, error) {
	if runs < 1 {
		return measurement{}, usageErrorf("--runs %d: must be at least 1", runs)
	}
	var m measurement
	var before, after runtime.MemStats
	var allocs, bytes uint64
	for i := 0; i < runs; i++ {
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		if err := fn(i); err != nil {
			return m, err
		}
		m.Seconds = append(m.Seconds, time.Since(start).Seconds())
		runtime.ReadMemStats(&after)
		allocs += after.Mallocs - before.Mallocs
		bytes += after.TotalAlloc - before.TotalAlloc
	}
	m.Allocs = allocs / uint64(runs)
	m.Bytes = bytes / uint64(runs)
	return m, nil
}

// spread is the minimum, median and maximum of a set of timings.
type spread struct {
	Min, Median, Max float64
}

func summarize(xs []float64) spread {
	if len(xs) == 0 {
		return spread{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return spread{Min: s[0], Median: med, Max: s[len(s)-1]}
}
