// SPDX-License-Identifier: Apache-2.0 OR MIT

package post_test

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/testsupport/goldentest"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// BenchmarkSynthesis32GiB times the prover's warm synthesis (a pre-sized
// ProvingAssignment from a cs.BufferPool, as every partition after a
// process's first, filled by SynthesizeParallel on GOMAXPROCS workers) of
// the circuits of testdata/rust_golden_32g.json, from the vanilla proofs
// cuseal-refproofs synth reads (scripts/bench-post-compare.sh runs both).
// CUSEAL_BENCH_WINDOW_SECTORS=N cuts the window partition to its first N
// sectors (its full 2349 need ~17 GB; they run only in the huge tier or
// with N set). Reports constraints (prover view: the
// per-input rows included, as bellperson counts), constraints/s and the
// process's CPU seconds per run (user + system: on a shared box a steadier
// figure than wall time).
func BenchmarkSynthesis32GiB(b *testing.B) {
	sectors, _ := strconv.Atoi(os.Getenv("CUSEAL_BENCH_WINDOW_SECTORS"))
	for _, c := range goldentest.Load(b, "testdata/rust_golden_32g.json") {
		b.Run(c.Name, func(b *testing.B) {
			p, o := golden32Case(b, &c)
			if o.Large && sectors == 0 {
				testenv.Huge(b, "the full 32 GiB window partition: ~17 GB (CUSEAL_BENCH_WINDOW_SECTORS=N cuts it)")
			}
			cut := sectors
			if p.CutSectors > 0 {
				cut = p.CutSectors
			}
			circ, cfg, _ := golden32Circuit(b, &p, cut)
			hint, err := post.SizeHintFor(cfg)
			if err != nil {
				b.Fatal(err)
			}
			per, err := post.SectorSizeHint(cfg)
			if err != nil {
				b.Fatal(err)
			}
			var pool cs.BufferPool
			run := func() *cs.ProvingAssignment {
				pa := pool.NewProvingAssignment(hint)
				if err := circ.SynthesizeParallel(context.Background(), pa, per, runtime.GOMAXPROCS(0)); err != nil {
					b.Fatal(err)
				}
				return pa
			}
			pool.Release(run().Assignment()) // the cold first touch, untimed
			cpu0 := processCPU()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				pa := run()
				if i == b.N-1 {
					// prover view, as bellperson counts: the per-input rows included
					n := pa.NumConstraints() + pa.NumInputs()
					b.ReportMetric(float64(n), "constraints")
					b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "constraints/s")
					b.ReportMetric((processCPU()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
				}
				pool.Release(pa.Assignment())
			}
		})
	}
}

// processCPU is the process's user + system CPU time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
