// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// segCircuit is a random sub-circuit of fixed shape: which operation comes
// next depends on shapeSeed only, values, coefficients and the variables an
// LC reads on valSeed. It reads the prefix variables (shared) and its own,
// with duplicates, cancelling pairs and long LCs, as randomCircuit does.
func segCircuit(sys ConstraintSystem, shapeSeed, valSeed uint64, nOps int, prefix []Variable) {
	shape := rand.New(rand.NewPCG(shapeSeed, 1))
	rng := rand.New(rand.NewPCG(valSeed, 2))
	own := []Variable{}
	coeff := func() fr.Element {
		var c fr.Element
		switch rng.IntN(5) {
		case 0:
			c.SetOne()
		case 1:
			c.SetOne()
			c.Neg(&c)
		case 2:
			c.SetZero()
		default:
			c.SetUint64(rng.Uint64())
		}
		return c
	}
	pick := func() Variable {
		if len(own) > 0 && rng.IntN(2) == 0 {
			return own[rng.IntN(len(own))]
		}
		return prefix[rng.IntN(len(prefix))]
	}
	lc := func(n int) LC {
		out := LC{}
		for i := 0; i < n; i++ {
			v, c := pick(), coeff()
			out = append(out, Term{c, v})
			if rng.IntN(6) == 0 {
				var m fr.Element
				m.Neg(&c)
				out = append(out, Term{m, v})
			}
		}
		return out
	}
	for op := 0; op < nOps; op++ {
		switch k := shape.IntN(10); {
		case k < 3:
			var v fr.Element
			v.SetUint64(uint64(rng.IntN(3)))
			own = append(own, sys.Alloc(&v))
		case k == 3:
			var v fr.Element
			v.SetUint64(rng.Uint64())
			own = append(own, sys.AllocInput(&v))
		case k == 4:
			// An evaluated constraint (the bit gadgets' path) where the
			// system takes one; Enforce of nothing counts the same row.
			e, ok := sys.(EvaluatedEnforcer)
			if !ok {
				sys.Enforce(nil, nil, nil)
				break
			}
			var va, vb, vc fr.Element
			va.SetUint64(rng.Uint64())
			vb.SetUint64(rng.Uint64())
			vc.Mul(&va, &vb)
			slot := func() Variable {
				if rng.IntN(4) == 0 {
					return NoVar
				}
				return pick()
			}
			a := [3]Variable{slot(), slot(), slot()}
			b := [2]Variable{slot(), slot()}
			if rng.IntN(3) == 0 {
				e.EnforceEvaluatedLC(&va, &vb, &vc, lc(1+rng.IntN(4)), b)
			} else {
				e.EnforceEvaluated(&va, &vb, &vc, a, b)
			}
		default:
			n := 1 + shape.IntN(5)
			if shape.IntN(12) == 0 {
				n = 40 + shape.IntN(60)
			}
			sys.Enforce(lc(n), lc(shape.IntN(4)), lc(1))
		}
	}
}

// TestSplitMatchesSequential: segments synthesized concurrently give the
// assignment (a/b/c, witness, densities) of the same sub-circuits appended
// in order to one ProvingAssignment; with and without a size hint.
func TestSplitMatchesSequential(t *testing.T) {
	const nSeg, nOps = 13, 400
	prefixOf := func(sys ConstraintSystem) []Variable {
		vars := []Variable{One}
		for i := 0; i < 70; i++ {
			var v fr.Element
			v.SetUint64(uint64(i % 3))
			if i%9 == 0 {
				vars = append(vars, sys.AllocInput(&v))
			} else {
				vars = append(vars, sys.Alloc(&v))
			}
		}
		sys.Enforce(LC{{frOne, vars[1]}}, LC{{frOne, One}}, LC{{frOne, vars[1]}})
		return vars
	}
	cnt := NewCounter()
	segCircuit(cnt, 7, 0, nOps, []Variable{One})
	seg := SizeHint{Constraints: cnt.Constraints, Aux: cnt.Aux, Inputs: cnt.Inputs - 1}

	seq := NewProvingAssignment(SizeHint{})
	pre := prefixOf(seq)
	for i := 0; i < nSeg; i++ {
		segCircuit(seq, 7, uint64(100+i), nOps, pre)
	}
	want := seq.Assignment()

	for _, hinted := range []bool{false, true} {
		hint := SizeHint{}
		if hinted {
			hint = SizeHint{Constraints: len(want.A) - len(want.Input), Aux: len(want.Aux), Inputs: len(want.Input)}
		}
		par := NewProvingAssignment(hint)
		pre := prefixOf(par)
		got := splitRun(t, par, nSeg, seg, func(i int, s *Segment) {
			segCircuit(s, 7, uint64(100+i), nOps, pre)
		})
		if got.WitnessDigest() != want.WitnessDigest() || got.ABCDigest() != want.ABCDigest() || got.DensityDigest() != want.DensityDigest() {
			t.Fatalf("hinted=%v: parallel digests differ from the sequential ones", hinted)
		}
		if hinted && !par.ABCInPlace() {
			t.Errorf("a/b/c moved despite an exact hint")
		}
	}
}

// TestSplitShapeErrors: a segment that outgrows its range, or leaves part
// of it unfilled, or reads another segment's variable is reported by Join
// naming the segment; nothing outside its range is written.
func TestSplitShapeErrors(t *testing.T) {
	cnt := NewCounter()
	segCircuit(cnt, 7, 0, 200, []Variable{One})
	seg := SizeHint{Constraints: cnt.Constraints, Aux: cnt.Aux, Inputs: cnt.Inputs - 1}
	for _, tc := range []struct {
		name string
		seg  SizeHint
		want string
	}{
		{"too few constraints", SizeHint{seg.Constraints - 1, seg.Aux, seg.Inputs}, "more than its"},
		{"too few aux", SizeHint{seg.Constraints, seg.Aux - 1, seg.Inputs}, "more than its"},
		{"too few inputs", SizeHint{seg.Constraints, seg.Aux, seg.Inputs - 1}, "more than its"},
		{"too many aux", SizeHint{seg.Constraints, seg.Aux + 1, seg.Inputs}, "filled"},
	} {
		p := NewProvingAssignment(SizeHint{})
		segs := p.Split(2, tc.seg)
		for i, s := range segs {
			segCircuit(s, 7, uint64(i), 200, []Variable{One})
		}
		err := p.Join()
		if err == nil || !strings.Contains(err.Error(), "segment 0") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Join = %v, want segment 0 … %q", tc.name, err, tc.want)
		}
	}
	// Reading a variable of another segment.
	p := NewProvingAssignment(SizeHint{})
	segs := p.Split(2, SizeHint{Constraints: 1, Aux: 1})
	v0 := segs[0].Alloc(&frOne)
	segs[0].Enforce(LC{{frOne, v0}}, nil, nil)
	segs[1].Alloc(&frOne)
	segs[1].Enforce(LC{{frOne, v0}}, nil, nil)
	if err := p.Join(); err == nil || !strings.Contains(err.Error(), "segment 1: reads aux 0") {
		t.Errorf("cross-segment read: Join = %v", err)
	}
}

// TestCheckSplit: the arguments Split would panic on — negative counts or
// sizes, totals a Variable cannot index, an unjoined Split — are errors;
// sizes of 0 and the largest total are fine.
func TestCheckSplit(t *testing.T) {
	p := NewProvingAssignment(SizeHint{}) // ONE: 1 input
	for _, tc := range []struct {
		n    int
		seg  SizeHint
		want string // "" = ok
	}{
		{0, SizeHint{}, ""},
		{3, SizeHint{}, ""},
		{2, SizeHint{Constraints: 5, Aux: 7, Inputs: 1}, ""},
		{1, SizeHint{Inputs: maxIndex - 1}, ""},
		{1, SizeHint{Inputs: maxIndex}, "inputs exceed"},
		{2, SizeHint{Aux: maxIndex/2 + 1}, "aux exceed"},
		{3, SizeHint{Constraints: 1 << 62}, "constraints exceed"},
		{-1, SizeHint{}, "negative"},
		{1, SizeHint{Constraints: -1}, "negative"},
		{1, SizeHint{Aux: -1}, "negative"},
		{1, SizeHint{Inputs: -1}, "negative"},
	} {
		err := p.CheckSplit(tc.n, tc.seg)
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckSplit(%d, %+v) = %v, want %q", tc.n, tc.seg, err, tc.want)
		}
	}
	p.Split(1, SizeHint{Constraints: 1})
	if err := p.CheckSplit(1, SizeHint{}); err == nil || !strings.Contains(err.Error(), "not joined") {
		t.Errorf("CheckSplit before Join = %v", err)
	}
}

// TestAssignmentBeforeJoinPanics: finishing an assignment whose segments
// have not been joined (their density bits not merged) is a programming
// error, not a silently wrong density.
func TestAssignmentBeforeJoinPanics(t *testing.T) {
	p := NewProvingAssignment(SizeHint{})
	p.Split(1, SizeHint{Aux: 1})
	defer func() {
		if recover() == nil {
			t.Fatal("Assignment between Split and Join did not panic")
		}
	}()
	p.Assignment()
}

// splitRun splits p into n segments of shape seg, fills segment i with
// fill(i, s) on its own goroutine (all at once), joins and returns the
// finished assignment; a Join error fails the test.
func splitRun(t *testing.T, p *ProvingAssignment, n int, seg SizeHint, fill func(i int, s *Segment)) *Assignment {
	t.Helper()
	var wg sync.WaitGroup
	for i, s := range p.Split(n, seg) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fill(i, s)
		}()
	}
	wg.Wait()
	if err := p.Join(); err != nil {
		t.Fatal(err)
	}
	return p.Assignment()
}
