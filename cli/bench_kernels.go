// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"

	"github.com/consensys/gnark-crypto/ecc"
	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"
	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/bridge"
)

// kernelResult is what `cuseal bench msm|ntt --json` prints.
type kernelResult struct {
	Op             string  `json:"op"` // "msm_g1", "msm_g2", "ntt", "intt"
	Backend        string  `json:"backend"`
	Device         int     `json:"device,omitempty"`
	LogSize        int     `json:"log_size"`
	Size           int     `json:"size"`
	Runs           int     `json:"runs"`
	Seconds        float64 `json:"seconds"` // median
	SecondsMin     float64 `json:"seconds_min"`
	SecondsMax     float64 `json:"seconds_max"`
	ElementsPerSec float64 `json:"elements_per_second"`
	Allocs         uint64  `json:"allocs"`
	AllocBytes     uint64  `json:"alloc_bytes"`
	PeakRSSBytes   uint64  `json:"peak_rss_bytes"`
	MatchesCPU     *bool   `json:"matches_cpu,omitempty"` // with --check on the cuda backend
}

func kernelFlags(maxLog int) []cli.Flag {
	return append([]cli.Flag{
		&cli.IntFlag{Name: "log-size", Usage: fmt.Sprintf("2^N elements (1..%d)", maxLog), Value: 16},
		&cli.StringFlag{Name: "backend", Usage: "cpu (gnark-crypto) or cuda (the native library)", Value: "cpu"},
		&cli.IntFlag{Name: "device", Usage: "CUDA device index (-1: host emulation, slow)"},
		&cli.IntFlag{Name: "runs", Usage: "measured runs", Value: 3},
		&cli.BoolFlag{Name: "check", Usage: "with --backend cuda, compare the result with the CPU's"},
		&cli.BoolFlag{Name: "json", Usage: "print one JSON object"},
	}, profileFlags()...)
}

func benchMSMCommand() *cli.Command {
	return &cli.Command{
		Name:   "msm",
		Usage:  "multi-scalar multiplication over BLS12-381 G1 (or G2 with --g2) on random inputs",
		Flags:  append(kernelFlags(26), &cli.BoolFlag{Name: "g2", Usage: "G2 instead of G1"}),
		Action: benchMSMAction,
	}
}

func benchNTTCommand() *cli.Command {
	return &cli.Command{
		Name:   "ntt",
		Usage:  "number-theoretic transform over Fr (natural order in, bit-reversed out) on random data",
		Flags:  append(kernelFlags(bridge.MaxNTTLog), &cli.BoolFlag{Name: "inverse", Usage: "inverse transform"}),
		Action: benchNTTAction,
	}
}

// kernelSetup validates the common flags.
func kernelSetup(c *cli.Context, maxLog int) (logN, runs int, cuda bool, err error) {
	logN, runs = c.Int("log-size"), c.Int("runs")
	if logN < 1 || logN > maxLog {
		return 0, 0, false, usageErrorf("--log-size %d: must be between 1 and %d", logN, maxLog)
	}
	if runs < 1 {
		return 0, 0, false, usageErrorf("--runs %d: must be at least 1", runs)
	}
	switch c.String("backend") {
	case "cpu":
	case "cuda":
		cuda = true
		if _, err := bridge.Version(); err != nil {
			return 0, 0, false, usageErrorf("--backend cuda: %v", err)
		}
	default:
		return 0, 0, false, usageErrorf("--backend %q: want cpu or cuda", c.String("backend"))
	}
	if c.Bool("check") && !cuda {
		return 0, 0, false, usageErrorf("--check compares the cuda backend with the CPU: use it with --backend cuda")
	}
	return logN, runs, cuda, checkProfilePaths(c)
}

// bridgeError classifies errors from the native library: a missing device is the user's
// choice of --device, anything else internal.
func bridgeError(err error) error {
	if errors.Is(err, bridge.ErrNoDevice) || errors.Is(err, bridge.ErrNoCUDA) {
		return inputError(err)
	}
	return internalError(err)
}

// randomScalars returns n pseudo-random scalars from a fixed seed.
func randomScalars(n int, seed uint64) []fr.Element {
	r := rand.New(rand.NewPCG(seed, 0x637573656131))
	out := make([]fr.Element, n)
	for i := range out {
		out[i] = fr.Element{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64() >> 4}
		out[i].Mul(&out[i], &out[i]) // any value; keeps limbs in range and mixes them
	}
	return out
}

func benchMSMAction(c *cli.Context) error {
	logN, runs, cuda, err := kernelSetup(c, 26)
	if err != nil {
		return err
	}
	n := 1 << logN
	g2 := c.Bool("g2")
	dev := c.Int("device")
	scalars := randomScalars(n, 1)
	_, _, g1Gen, g2Gen := bls.Generators()
	var p1 []bls.G1Affine
	var p2 []bls.G2Affine
	if g2 {
		p2 = bls.BatchScalarMultiplicationG2(&g2Gen, randomScalars(n, 2))
	} else {
		p1 = bls.BatchScalarMultiplicationG1(&g1Gen, randomScalars(n, 2))
	}
	res := kernelResult{Op: "msm_g1", Backend: c.String("backend"), LogSize: logN, Size: n, Runs: runs}
	if g2 {
		res.Op = "msm_g2"
	}
	if cuda {
		res.Device = dev
	}
	var r1 bls.G1Jac
	var r2 bls.G2Jac
	cfg := ecc.MultiExpConfig{NbTasks: runtime.NumCPU()}
	run := func(int) error {
		var err error
		switch {
		case cuda && g2:
			r2, err = bridge.MSMG2(p2, scalars, dev)
		case cuda:
			r1, err = bridge.MSMG1(p1, scalars, dev)
		case g2:
			_, err = r2.MultiExp(p2, scalars, cfg)
		default:
			_, err = r1.MultiExp(p1, scalars, cfg)
		}
		if err != nil {
			return bridgeError(err)
		}
		return nil
	}
	if err := runKernel(c, runs, run, &res); err != nil {
		return err
	}
	if c.Bool("check") {
		var ok bool
		if g2 {
			var want bls.G2Jac
			if _, err := want.MultiExp(p2, scalars, cfg); err != nil {
				return internalError(err)
			}
			ok = want.Equal(&r2)
		} else {
			var want bls.G1Jac
			if _, err := want.MultiExp(p1, scalars, cfg); err != nil {
				return internalError(err)
			}
			ok = want.Equal(&r1)
		}
		res.MatchesCPU = &ok
		if !ok {
			return internalError(fmt.Errorf("bench msm: the cuda result differs from the CPU's for 2^%d points", logN))
		}
	}
	return printKernel(c, &res)
}

func benchNTTAction(c *cli.Context) error {
	logN, runs, cuda, err := kernelSetup(c, bridge.MaxNTTLog)
	if err != nil {
		return err
	}
	n := 1 << logN
	inverse := c.Bool("inverse")
	dev := c.Int("device")
	input := randomScalars(n, 3)
	data := make([]fr.Element, n)
	res := kernelResult{Op: "ntt", Backend: c.String("backend"), LogSize: logN, Size: n, Runs: runs}
	if inverse {
		res.Op = "intt"
	}
	if cuda {
		res.Device = dev
	}
	dom := fft.NewDomain(uint64(n))
	cpuNTT := func(d []fr.Element) {
		if inverse {
			dom.FFTInverse(d, fft.DIF)
		} else {
			dom.FFT(d, fft.DIF)
		}
	}
	run := func(int) error {
		copy(data, input)
		if cuda {
			return bridgeErrorOrNil(bridge.NTT(data, dev, bridge.NTTOptions{Inverse: inverse, In: bridge.Natural, Out: bridge.BitReversed}))
		}
		cpuNTT(data)
		return nil
	}
	if err := runKernel(c, runs, run, &res); err != nil {
		return err
	}
	if c.Bool("check") {
		want := append([]fr.Element(nil), input...)
		cpuNTT(want)
		ok := true
		for i := range want {
			if want[i] != data[i] {
				ok = false
				break
			}
		}
		res.MatchesCPU = &ok
		if !ok {
			return internalError(fmt.Errorf("bench ntt: the cuda result differs from the CPU's for 2^%d elements", logN))
		}
	}
	return printKernel(c, &res)
}

func bridgeErrorOrNil(err error) error {
	if err == nil {
		return nil
	}
	return bridgeError(err)
}

// runKernel measures run under the profile flags and fills the timing fields of res.
func runKernel(c *cli.Context, runs int, run func(int) error, res *kernelResult) error {
	stop, err := startProfiling(c)
	if err != nil {
		return err
	}
	bar := newProgress(c.App.ErrWriter, c.Bool("json"), int64(runs), "bench "+res.Op)
	m, err := measure(runs, func(i int) error {
		defer bar.Add(1)
		return run(i)
	})
	bar.Done()
	if serr := stop(); err == nil {
		err = serr
	}
	if err != nil {
		return err
	}
	sp := summarize(m.Seconds)
	res.Seconds, res.SecondsMin, res.SecondsMax = sp.Median, sp.Min, sp.Max
	if sp.Median > 0 {
		res.ElementsPerSec = float64(res.Size) / sp.Median
	}
	res.Allocs, res.AllocBytes, res.PeakRSSBytes = m.Allocs, m.Bytes, peakRSS()
	return nil
}

func printKernel(c *cli.Context, res *kernelResult) error {
	if c.Bool("json") {
		return writeJSON(c, res)
	}
	printf(c, "%s, 2^%d, %s backend\n", res.Op, res.LogSize, res.Backend)
	printf(c, "  time:  %.4fs median, %.4fs min, %.4fs max over %d run(s)\n", res.Seconds, res.SecondsMin, res.SecondsMax, res.Runs)
	printf(c, "  rate:  %.3g elements/s\n", res.ElementsPerSec)
	if res.MatchesCPU != nil {
		printf(c, "  check: matches the CPU result\n")
	}
	return nil
}
