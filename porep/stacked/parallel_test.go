// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/synthetic"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// TestSynthesizeParallelErrors: a wrong challenge size, a cancelled context
// and a used ProvingAssignment are errors, never a panic or a wrong
// assignment.
func TestSynthesizeParallelErrors(t *testing.T) {
	cfg, err := stacked.ConfigByName("StackedDrg2KiBV1_1")
	if err != nil {
		t.Fatal(err)
	}
	per, err := stacked.ChallengeSizeHint(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	hint, err := stacked.SizeHintFor(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	circ := stacked.BlankCircuit(&cfg)

	small := per
	small.Aux--
	if err := circ.SynthesizeParallel(context.Background(), cs.NewProvingAssignment(hint), small, 2); err == nil || !strings.Contains(err.Error(), "aux") {
		t.Errorf("one aux short: %v", err)
	}
	large := per
	large.Constraints++
	if err := circ.SynthesizeParallel(context.Background(), cs.NewProvingAssignment(hint), large, 2); err == nil || !strings.Contains(err.Error(), "filled") {
		t.Errorf("one constraint too many: %v", err)
	}
	// Every other size one off: the segment that overflows says so, one
	// that is left short is reported by Join.
	for _, tc := range []struct {
		name string
		d    [3]int // constraints, aux, inputs
		want string
	}{
		{"one constraint short", [3]int{-1, 0, 0}, "more than its"},
		{"one aux too many", [3]int{0, 1, 0}, "filled"},
		{"one input short", [3]int{0, 0, -1}, "more than its"},
		{"one input too many", [3]int{0, 0, 1}, "filled"},
	} {
		off := per
		off.Constraints += tc.d[0]
		off.Aux += tc.d[1]
		off.Inputs += tc.d[2]
		if err := circ.SynthesizeParallel(context.Background(), cs.NewProvingAssignment(hint), off, 2); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// Sizes Split cannot take: errors before anything is split, not panics.
	for _, bad := range []cs.SizeHint{
		{Constraints: -1, Aux: per.Aux, Inputs: per.Inputs},
		{Constraints: per.Constraints, Aux: -1, Inputs: per.Inputs},
		{Constraints: per.Constraints, Aux: per.Aux, Inputs: -1},
		{Constraints: 1 << 60, Aux: per.Aux, Inputs: per.Inputs},
		{Constraints: per.Constraints, Aux: 1 << 30, Inputs: per.Inputs},
	} {
		if err := circ.SynthesizeParallel(context.Background(), cs.NewProvingAssignment(hint), bad, 2); err == nil || !strings.Contains(err.Error(), "split") {
			t.Errorf("size %+v: %v", bad, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := circ.SynthesizeParallel(ctx, cs.NewProvingAssignment(hint), per, 2); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	used := cs.NewProvingAssignment(hint)
	used.Alloc(nil)
	if err := circ.SynthesizeParallel(context.Background(), used, per, 2); err == nil || !strings.Contains(err.Error(), "fresh") {
		t.Errorf("used assignment: %v", err)
	}
}

// TestSynthesizeParallelManyChallenges: with more challenges than workers
// and more workers than cores (7 challenges, 1–4 workers), the parallel
// path gives the sequential witness, a/b/c and density digests, into fresh
// and into reused (pooled, not cleared) storage.
func TestSynthesizeParallelManyChallenges(t *testing.T) {
	testenv.Long(t, "5 syntheses of 9.4M constraints")
	cfg, err := stacked.ConfigByName("StackedDrg2KiBV1_1")
	if err != nil {
		t.Fatal(err)
	}
	cfg.ChallengesPerPartition = 7
	c1, err := synthetic.C1(cfg, synthetic.C1Options{ChallengesPerPartition: 7, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	circ, err := stacked.NewCircuit(c1, &cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	hint, err := stacked.SizeHintFor(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	per, err := stacked.ChallengeSizeHint(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	digests := func(a *cs.Assignment) [3][32]byte {
		return [3][32]byte{a.WitnessDigest(), a.ABCDigest(), a.DensityDigest()}
	}
	seq := cs.NewProvingAssignment(hint)
	if err := circ.Synthesize(seq); err != nil {
		t.Fatal(err)
	}
	want := digests(seq.Assignment())
	seq = nil
	var pool cs.BufferPool
	for _, workers := range []int{1, 2, 3, 4} {
		pa := pool.NewProvingAssignment(hint)
		if err := circ.SynthesizeParallel(context.Background(), pa, per, workers); err != nil {
			t.Fatal(err)
		}
		a := pa.Assignment()
		if got := digests(a); got != want {
			t.Errorf("%d workers: digests differ from the sequential synthesis", workers)
		}
		pool.Release(a)
	}
}

// TestSynthesizePartition: sequentially into fresh storage and on several
// workers into pooled storage (twice: the second time into the storage the
// first left, not cleared), SynthesizePartition gives the assignment of
// Circuit.Synthesize into a ProvingAssignment; a partition out of range and
// a cancelled context are errors naming them.
func TestSynthesizePartition(t *testing.T) {
	cfg, err := stacked.ConfigByName("StackedDrg2KiBV1_1")
	if err != nil {
		t.Fatal(err)
	}
	// The long tier: two partitions of three challenges; the unit tier one of two.
	cfg.Partitions, cfg.ChallengesPerPartition = 1, 2
	if testenv.Enabled(testenv.TierLong) {
		cfg.Partitions, cfg.ChallengesPerPartition = 2, 3
	}
	c1, err := synthetic.C1(cfg, synthetic.C1Options{Partitions: cfg.Partitions, ChallengesPerPartition: cfg.ChallengesPerPartition, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	hint, err := stacked.SizeHintFor(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	digests := func(a *cs.Assignment) [3][32]byte {
		return [3][32]byte{a.WitnessDigest(), a.ABCDigest(), a.DensityDigest()}
	}
	var pool cs.BufferPool
	for k := 0; k < cfg.Partitions; k++ {
		circ, err := stacked.NewCircuit(c1, &cfg, k)
		if err != nil {
			t.Fatal(err)
		}
		pa := cs.NewProvingAssignment(cs.SizeHint{})
		if err := circ.Synthesize(pa); err != nil {
			t.Fatal(err)
		}
		want := digests(pa.Assignment())
		for _, run := range []struct {
			name    string
			pool    *cs.BufferPool
			workers int
		}{{"sequential, fresh", nil, 1}, {"3 workers, pooled", &pool, 3}, {"2 workers, reused", &pool, 2}} {
			a, err := stacked.SynthesizePartition(context.Background(), c1, &cfg, k, run.pool, run.workers)
			if err != nil {
				t.Fatalf("partition %d, %s: %v", k, run.name, err)
			}
			if len(a.A) != hint.Constraints+hint.Inputs || len(a.Aux) != hint.Aux || len(a.Input) != hint.Inputs {
				t.Errorf("partition %d, %s: %d constraints, %d aux, %d inputs; SizeHintFor %+v",
					k, run.name, len(a.A), len(a.Aux), len(a.Input), hint)
			}
			if digests(a) != want {
				t.Errorf("partition %d, %s: digests differ from Circuit.Synthesize's", k, run.name)
			}
			if run.pool != nil {
				run.pool.Release(a)
			}
		}
	}
	if sets, _ := pool.Kept(); sets != 1 {
		t.Errorf("pool keeps %d sets, want 1", sets)
	}
	if _, err := stacked.SynthesizePartition(context.Background(), c1, &cfg, cfg.Partitions, nil, 1); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("partition %d out of range", cfg.Partitions)) {
		t.Errorf("partition %d of %d: %v", cfg.Partitions, cfg.Partitions, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, workers := range []int{1, 2} {
		last := cfg.Partitions - 1
		_, err := stacked.SynthesizePartition(ctx, c1, &cfg, last, nil, workers)
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), fmt.Sprintf("partition %d: synthesize", last)) {
			t.Errorf("cancelled, %d workers: %v", workers, err)
		}
	}
}
