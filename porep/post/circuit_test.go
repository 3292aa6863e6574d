// SPDX-License-Identifier: Apache-2.0 OR MIT

package post

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/testsupport/testcs"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// TestCircuitCounts: SizeHintFor of every registered proof against
// post-circuit.md §7.2 (golden-rs --blank-counts, prover view), and for the
// shapes small enough the whole blank circuit counted (the unit tier: 2 KiB only).
func TestCircuitCounts(t *testing.T) {
	want := map[abi.RegisteredPoStProof][3]int{ // inputs with ONE, aux, prover-view constraints
		0:  {133, 91674, 90883},
		1:  {133, 233442, 230803},
		2:  {133, 304326, 300763},
		3:  {133, 375210, 370723},
		4:  {133, 396000, 391447},
		10: {23, 22128, 21889},
		11: {23, 65088, 64289},
		12: {23, 86568, 85489},
		13: {25840, 126902376, 125305057},
		14: {25301, 131500200, 129913201},
	}
	for _, cfg := range Configs() {
		w := want[cfg.Proof]
		h, err := SizeHintFor(&cfg)
		if err != nil {
			t.Fatal(err)
		}
		if h.Inputs != w[0] || h.Aux != w[1] || h.Constraints+h.Inputs != w[2] || cfg.NumPublicInputs() != w[0] {
			t.Errorf("%s: %d inputs, %d aux, %d constraints (prover view); rust-fil-proofs %v", cfg.Name, h.Inputs, h.Aux, h.Constraints+h.Inputs, w)
		}
		if w[2] > 400000 || (!testenv.Enabled(testenv.TierLong) && cfg.SectorSize > 2<<10) {
			continue
		}
		cnt := cs.NewCounter()
		if err := BlankCircuit(&cfg).Synthesize(context.Background(), cnt); err != nil {
			t.Fatal(err)
		}
		if cnt.Inputs != h.Inputs || cnt.Aux != h.Aux || cnt.Constraints != h.Constraints {
			t.Errorf("%s: blank circuit %d/%d/%d, SizeHintFor %+v", cfg.Name, cnt.Inputs, cnt.Aux, cnt.Constraints, h)
		}
	}
}

// TestCircuitSatisfied: the golden window circuit satisfies its R1CS, and
// a leaf or a comm_r that does not fit the paths does not (the proof would
// fail to verify).
func TestCircuitSatisfied(t *testing.T) {
	c, _, _ := goldenCircuit(t, goldens[0], 0)
	tcs := testcs.New()
	if err := c.Synthesize(context.Background(), tcs); err != nil {
		t.Fatal(err)
	}
	if err := tcs.Validate(); err != nil {
		t.Fatalf("golden circuit unsatisfied: %v", err)
	}
	for _, tc := range []struct {
		name string
		mut  func(*Circuit)
	}{
		{"leaf", func(c *Circuit) { c.Sectors[1].Leaves[3].SetUint64(7) }},
		{"comm_r", func(c *Circuit) { c.Sectors[0].CommR.SetUint64(7) }},
		{"sibling", func(c *Circuit) { c.Sectors[0].Paths[9][1].Siblings[0].SetUint64(7) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad, _, _ := goldenCircuit(t, goldens[0], 0)
			tc.mut(bad)
			tcs := testcs.New()
			if err := bad.Synthesize(context.Background(), tcs); err != nil {
				t.Fatal(err)
			}
			var ue *testcs.UnsatisfiedError
			if err := tcs.Validate(); !errors.As(err, &ue) {
				t.Errorf("tampered %s: %v, want an unsatisfied constraint", tc.name, err)
			}
		})
	}
}

// TestCircuitStructureErrors: malformed circuits are refused before
// anything is written.
func TestCircuitStructureErrors(t *testing.T) {
	cfg := mustConfig(t, abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1)
	for _, tc := range []struct {
		name string
		mut  func(*Circuit)
		want string
	}{
		{"sectors", func(c *Circuit) { c.Sectors = c.Sectors[:1] }, "1 sectors, StackedDrgWindow2KiBV1_1 has 2"},
		{"leaves", func(c *Circuit) { c.Sectors[1].Leaves = c.Sectors[1].Leaves[:3] }, "sector 1: 3 leaves and 10 paths"},
		{"levels", func(c *Circuit) { c.Sectors[0].Paths[2] = c.Sectors[0].Paths[2][:1] }, "sector 0 path 2: 1 levels, want 2"},
		{"siblings", func(c *Circuit) { c.Sectors[0].Paths[2][1].Siblings = nil }, "sector 0 path 2 level 1: arity 8, 0 siblings"},
		{"index", func(c *Circuit) { c.Sectors[1].Paths[0][0].Index = 8 }, "index 8"},
		{"arities", func(c *Circuit) { c.Arities = []int{8, 8, 8} }, "arities [8 8 8]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := BlankCircuit(cfg)
			tc.mut(c)
			err := c.Validate(cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Validate: %v, want %q", err, tc.want)
			}
			if tc.name == "sectors" {
				return // a valid circuit of another slot count
			}
			cnt := cs.NewCounter()
			if err := c.Synthesize(context.Background(), cnt); err == nil {
				t.Errorf("Synthesize accepted it")
			} else if cnt.Constraints != 0 || cnt.Aux != 0 {
				t.Errorf("Synthesize wrote %d constraints before failing: %v", cnt.Constraints, err)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := BlankCircuit(cfg).Synthesize(ctx, cs.NewCounter()); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
	if _, err := NewCircuit(cfg, nil); err == nil || !strings.Contains(err.Error(), "0 slots") {
		t.Errorf("NewCircuit without slots: %v", err)
	}
}

// TestSynthesizeParallelErrors: a used assignment or a sector size that
// does not fit is an error, never a panic or a silently wrong system.
func TestSynthesizeParallelErrors(t *testing.T) {
	cfg := mustConfig(t, abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1)
	per, err := SectorSizeHint(cfg)
	if err != nil {
		t.Fatal(err)
	}
	used := cs.NewProvingAssignment(cs.SizeHint{})
	used.Alloc(nil)
	if err := BlankCircuit(cfg).SynthesizeParallel(context.Background(), used, per, 2); err == nil || !strings.Contains(err.Error(), "fresh ProvingAssignment") {
		t.Errorf("used assignment: %v", err)
	}
	for _, bad := range []cs.SizeHint{
		{Constraints: per.Constraints - 1, Aux: per.Aux, Inputs: per.Inputs},
		{Constraints: per.Constraints + 1, Aux: per.Aux, Inputs: per.Inputs},
		{Constraints: per.Constraints, Aux: per.Aux - 1, Inputs: per.Inputs},
		{Constraints: per.Constraints, Aux: per.Aux, Inputs: per.Inputs + 1},
		{Constraints: -1, Aux: per.Aux, Inputs: per.Inputs},
	} {
		err := BlankCircuit(cfg).SynthesizeParallel(context.Background(), cs.NewProvingAssignment(cs.SizeHint{}), bad, 2)
		if err == nil || !strings.Contains(err.Error(), "post: circuit: sector") {
			t.Errorf("size %+v (exact %+v): %v", bad, per, err)
		}
	}
	// The challenge-parallel path (more workers than sectors) checks per
	// against the header and challenge sizes.
	bad := per
	bad.Aux++
	if err := BlankCircuit(cfg).SynthesizeParallel(context.Background(), cs.NewProvingAssignment(cs.SizeHint{}), bad, 3); err == nil || !strings.Contains(err.Error(), "post: circuit: sector size") {
		t.Errorf("challenge-parallel, size %+v (exact %+v): %v", bad, per, err)
	}
	c := BlankCircuit(cfg)
	c.Sectors[1].Leaves = c.Sectors[1].Leaves[:9]
	c.Sectors[1].Paths = c.Sectors[1].Paths[:9]
	if err := c.SynthesizeParallel(context.Background(), cs.NewProvingAssignment(cs.SizeHint{}), per, 2); err == nil || !strings.Contains(err.Error(), "sector 1: 9 leaves and 9 paths, want 10") {
		t.Errorf("sectors of different sizes: %v", err)
	}
}

// TestNewCircuitSubTopShapes: vanilla proofs of the 32 GiB (Sub) and
// 64 GiB (Top) trees become circuits of the blank circuit's size, with
// each path's base, sub and top levels in order. The synthetic proofs'
// paths do not verify, so the slots are built here, not by ProverSlots.
func TestNewCircuitSubTopShapes(t *testing.T) {
	for _, p := range []abi.RegisteredPoStProof{abi.RegisteredPoStProof_StackedDrgWinning32GiBV1, abi.RegisteredPoStProof_StackedDrgWinning64GiBV1} {
		cfg := mustConfig(t, p)
		v := syntheticVanilla(cfg, 5, 9)
		sp := &v.Sectors[0]
		slots := make([]Slot, cfg.Slots)
		for i := range slots {
			slots[i] = Slot{Sector: PublicSector{ID: v.SectorID, CommR: v.CommR}, Challenges: []uint64{0},
				Proof: &SectorProof{InclusionProofs: sp.InclusionProofs[i : i+1], CommC: sp.CommC, CommRLast: sp.CommRLast}}
		}
		c, err := NewCircuit(cfg, slots)
		if err != nil {
			t.Fatal(err)
		}
		path := c.Sectors[3].Paths[0]
		src := sp.InclusionProofs[3]
		last := len(path) - 1
		if cfg.Shape.Top > 0 {
			if path[last].Arity != 2 || uint64(path[last].Index) != src.Top[0].Index || path[last-1].Arity != 8 || uint64(path[last-1].Index) != src.Sub[0].Index {
				t.Errorf("%s: top/sub levels %+v %+v from %+v %+v", cfg.Name, path[last-1], path[last], src.Sub, src.Top)
			}
		} else if uint64(path[last].Index) != src.Sub[0].Index {
			t.Errorf("%s: sub level %+v from %+v", cfg.Name, path[last], src.Sub)
		}
		cnt := cs.NewCounter()
		if err := c.Synthesize(context.Background(), cnt); err != nil {
			t.Fatal(err)
		}
		h, err := SizeHintFor(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if cnt.Constraints != h.Constraints || cnt.Aux != h.Aux || cnt.Inputs != h.Inputs {
			t.Errorf("%s: %d/%d/%d, SizeHintFor %+v", cfg.Name, cnt.Constraints, cnt.Aux, cnt.Inputs, h)
		}
	}
}
