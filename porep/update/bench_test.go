// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

// Benchmarks (docs/BENCHMARKS.md, "CPU: EmptySectorUpdate"). 32 GiB runs
// only in the huge tier (testsupport/testenv): one partition's a/b/c and aux
// take about 10 GB.

import (
	"context"
	"testing"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// benchSynth synthesizes c into a pre-sized ProvingAssignment b.N times,
// sequentially (workers 0) or per challenge on workers goroutines.
func benchSynth(b *testing.B, c *Circuit, workers int) {
	hint, err := SizeHintFor(&c.Cfg)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := ChallengeSizeHint(&c.Cfg); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pa := cs.NewProvingAssignment(hint)
		if workers == 0 {
			err = c.Synthesize(context.Background(), pa)
		} else {
			err = c.SynthesizeParallel(context.Background(), pa, workers)
		}
		if err != nil {
			b.Fatal(err)
		}
		if pa.NumConstraints() != hint.Constraints {
			b.Fatalf("%d constraints, hint %d", pa.NumConstraints(), hint.Constraints)
		}
	}
	b.ReportMetric(float64(hint.Constraints)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mconstraints/s")
}

// BenchmarkSynthesize: one partition into a pre-sized ProvingAssignment.
// 2KiB is the reference partition (its real witness); 8MiB and 32GiB the
// blank circuit (zero witness, the same R1CS and gadget work).
func BenchmarkSynthesize(b *testing.B) {
	for _, size := range []struct {
		name string
		cfg  int
	}{{"2KiB", 0}, {"8MiB", 1}, {"32GiB", 3}} {
		for _, mode := range []struct {
			name    string
			workers int
		}{{"sequential", 0}, {"parallel", 2}} {
			b.Run(size.name+"/"+mode.name, func(b *testing.B) {
				if size.name == "32GiB" {
					testenv.Huge(b, "a 32 GiB update partition needs ~10 GB")
				}
				var c *Circuit
				if size.cfg == 0 {
					c, _, _ = refCircuit(b, 0)
				} else {
					cfg, err := ConfigFor(1)
					if size.cfg == 3 {
						cfg, err = ConfigFor(3)
					}
					if err != nil {
						b.Fatal(err)
					}
					c = BlankCircuit(&cfg)
				}
				benchSynth(b, c, mode.workers)
			})
		}
	}
}

// BenchmarkProve2KiB: synthesis + one CPU proof + verification of the 2 KiB
// reference partition, with the test parameters of
// TestReferenceParamsAndProof (generated on first use: minutes).
func BenchmarkProve2KiB(b *testing.B) {
	m, cfg, _ := loadRef(b)
	rec := cs.NewRecorder()
	if err := BlankCircuit(cfg).Synthesize(context.Background(), rec); err != nil {
		b.Fatal(err)
	}
	params, err := groth16.CachedSetup(updateParamsDir(), rec.R1CS(), hex32(b, "toxic_seed", m.ToxicSeed))
	if err != nil {
		b.Fatal(err)
	}
	defer params.Close()
	rec = nil
	hint, err := SizeHintFor(cfg)
	if err != nil {
		b.Fatal(err)
	}
	c, _, _ := refCircuit(b, 0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pa := cs.NewProvingAssignment(hint)
		if err := c.SynthesizeParallel(context.Background(), pa, 2); err != nil {
			b.Fatal(err)
		}
		r, err := groth16.NewRandomness()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := groth16.ProveAndVerify(context.Background(), &groth16.CPUBackend{}, params, []*cs.Assignment{pa.Assignment()}, []groth16.Randomness{r}); err != nil {
			b.Fatal(err)
		}
	}
}
