// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// Benchmarks. Large sizes (2^22) run only in the huge tier
// (testsupport/testenv). Figures and commands are recorded in docs/BENCHMARKS.md.

func randomScalars(n int) []fr.Element {
	s := make([]fr.Element, n)
	for i := range s {
		s[i].SetRandom()
	}
	return s
}

// BenchmarkHCoefficients: the H polynomial (3 iFFT + 3 coset FFT + 1
// inverse coset FFT) at domain 2^20 (and 2^22 when large).
func BenchmarkHCoefficients(b *testing.B) {
	logs := []int{20}
	if testenv.Enabled(testenv.TierHuge) {
		logs = append(logs, 22)
	}
	for _, lg := range logs {
		m := 1 << lg
		b.Run(fmt.Sprintf("2^%d", lg), func(b *testing.B) {
			a, bb, c := randomScalars(m), randomScalars(m), randomScalars(m)
			dom := fft.NewDomain(uint64(m))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				HCoefficients(dom, a, bb, c)
			}
		})
	}
}

// BenchmarkMSM: the CPU backend's MSMs at 2^20 points (H, L, A, B_G1 are G1
// MSMs of this kind with dense random scalars; B_G2 is the G2 one).
func BenchmarkMSM(b *testing.B) {
	const n = 1 << 20
	scalars := randomScalars(n)
	b.Run("G1/2^20", func(b *testing.B) {
		_, _, g1, _ := bls.Generators()
		pts := make([]bls.G1Affine, n)
		newFixedBaseG1(&g1, n).mul(pts, randomScalars(n))
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			var r bls.G1Affine
			if err := msmG1(&r, pts, scalars, ecc.MultiExpConfig{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("G2/2^20", func(b *testing.B) {
		_, _, _, g2 := bls.Generators()
		pts := make([]bls.G2Affine, n)
		newFixedBaseG2(&g2, n).mul(pts, randomScalars(n))
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			var r bls.G2Affine
			if err := msmG2(&r, pts, scalars, ecc.MultiExpConfig{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFixedBase: parameter-generation throughput of the windowed
// tables (points/s reported), table build included.
func BenchmarkFixedBase(b *testing.B) {
	const n = 1 << 18
	scalars := randomScalars(n)
	_, _, g1, g2 := bls.Generators()
	b.Run("G1/2^18", func(b *testing.B) {
		out := make([]bls.G1Affine, n)
		for i := 0; i < b.N; i++ {
			newFixedBaseG1(&g1, n).mul(out, scalars)
		}
		b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "points/s")
	})
	b.Run("G2/2^18", func(b *testing.B) {
		out := make([]bls.G2Affine, n)
		for i := 0; i < b.N; i++ {
			newFixedBaseG2(&g2, n).mul(out, scalars)
		}
		b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "points/s")
	})
}

// BenchmarkFixedBaseLarge: the throughput of mul with the largest tables,
// what a 32 GiB partition's ~400M G1 and ~60M G2 points get (the table's
// build is reported apart, as table-s): window=16/15 are the largest
// windows before issue 40, 16/19 today's; G1 window=20 is the one tried. points/cpu-s is the
// figure to compare on a shared box.
func BenchmarkFixedBaseLarge(b *testing.B) {
	scalars := randomScalars(1 << 18)
	_, _, gen1, gen2 := bls.Generators()
	for _, c := range []int{fbMaxWindowG1, 20} {
		b.Run(fmt.Sprintf("G1/window=%d", c), func(b *testing.B) {
			benchTable(b, scalars, func() *fixedBaseG1 {
				return newFixedBase[bls.G1Affine, bls.G1Jac, fp.Element, *fp.Element, g1](&gen1, 1<<40, c)
			})
		})
	}
	for _, c := range []int{15, fbMaxWindowG2} {
		b.Run(fmt.Sprintf("G2/window=%d", c), func(b *testing.B) {
			benchTable(b, scalars, func() *fixedBaseG2 {
				return newFixedBase[bls.G2Affine, bls.G2Jac, bls.E2, *bls.E2, g2](&gen2, 1<<40, c)
			})
		})
	}
}

// benchTable times mul of scalars with the table newTable builds (the
// build reported apart, as table-s).
func benchTable[A, J, F any, PF fbField[F], G fbGroup[A, J, F]](b *testing.B, scalars []fr.Element, newTable func() *fixedBase[A, J, F, PF, G]) {
	n := len(scalars)
	t0 := time.Now()
	tab := newTable()
	build := time.Since(t0)
	out := make([]A, n)
	cpu0 := cpuSeconds()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tab.mul(out, scalars)
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "points/s")
	b.ReportMetric(float64(n*b.N)/(cpuSeconds()-cpu0), "points/cpu-s")
	b.ReportMetric(build.Seconds(), "table-s")
}

// cpuSeconds is the process's user + system CPU time: on a shared box the
// points per CPU-second compare runs better than wall time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// benchCircuit is a mid-size random circuit: 2^14 − 4 − 3 constraints plus
// 4 input rows → domain 2^14.
var benchCircuit = randomCircuit{shapeSeed: 77, valueSeed: 1, nPub: 3, nAux0: 100, nCons: 1<<14 - 7}

// BenchmarkSetup: full test-parameter generation for benchCircuit (G1+G2
// points/s reported), and for 2^22 constraints when large.
func BenchmarkSetup(b *testing.B) {
	sizes := []randomCircuit{benchCircuit}
	if testenv.Enabled(testenv.TierHuge) {
		big := benchCircuit
		big.nCons = 1<<22 - 7
		sizes = append(sizes, big)
	}
	for _, c := range sizes {
		r := c.r1cs(b)
		b.Run(fmt.Sprintf("constraints=%d", r.NumConstraints()), func(b *testing.B) {
			var pts int
			for i := 0; i < b.N; i++ {
				p, err := Setup(r, ToxicWasteFromSeed(seed32(1)))
				if err != nil {
					b.Fatal(err)
				}
				pts += p.NumH() + p.NumL() + len(p.VK.IC) + p.NumA() + p.NumBG1() + p.NumBG2()
			}
			b.ReportMetric(float64(pts)/b.Elapsed().Seconds(), "points/s")
		})
	}
}

// BenchmarkProveVerify: QuerySums + Assemble + Verify of benchCircuit on
// the CPU backend.
func BenchmarkProveVerify(b *testing.B) {
	r := benchCircuit.r1cs(b)
	p, err := Setup(r, ToxicWasteFromSeed(seed32(1)))
	if err != nil {
		b.Fatal(err)
	}
	a, pub := benchCircuit.assignment(b)
	pvk, _ := PrepareVerifyingKey(&p.VK)
	rs := []Randomness{RandomnessFromSeed(seed32(2), 0)}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		proofs, err := Prove(context.Background(), &CPUBackend{}, p, []*cs.Assignment{a}, rs)
		if err != nil {
			b.Fatal(err)
		}
		if err := pvk.Verify(&proofs[0], pub); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerify: one verification (prepared key).
func BenchmarkVerify(b *testing.B) {
	p, err := Setup(tinyCircuit.r1cs(b), ToxicWasteFromSeed(seed32(1)))
	if err != nil {
		b.Fatal(err)
	}
	a, pub := tinyCircuit.assignment(b)
	proofs, err := Prove(context.Background(), &CPUBackend{}, p, []*cs.Assignment{a}, []Randomness{RandomnessFromSeed(seed32(2), 0)})
	if err != nil {
		b.Fatal(err)
	}
	pvk, _ := PrepareVerifyingKey(&p.VK)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := pvk.Verify(&proofs[0], pub); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParamsRead: open a .params file and decode its five queries
// (unchecked, as the provers read them), the whole file's worth of points.
// The file is $CUSEAL_BENCH_PARAMS (e.g. the 2 KiB PoRep test parameters);
// skipped when unset.
func BenchmarkParamsRead(b *testing.B) {
	path := os.Getenv("CUSEAL_BENCH_PARAMS")
	if path == "" {
		b.Skip("set CUSEAL_BENCH_PARAMS to a .params file")
	}
	for i := 0; i < b.N; i++ {
		p, err := OpenParams(path, false)
		if err != nil {
			b.Fatal(err)
		}
		for _, q := range []func() ([]bls.G1Affine, error){p.H, p.L, p.A, p.BG1} {
			if _, err := q(); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := p.BG2(); err != nil {
			b.Fatal(err)
		}
		p.Close()
	}
}
