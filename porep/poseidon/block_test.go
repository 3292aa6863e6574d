// SPDX-License-Identifier: Apache-2.0 OR MIT

package poseidon

import (
	"fmt"
	"slices"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/testsupport/testcs"
)

func withEvaluatedPath(on bool, f func()) {
	old := evaluatedPath.Swap(on)
	defer evaluatedPath.Store(old)
	f()
}

// Every arity and the custom constants have a block plan: the block path
// is not silently skipped for a template of another shape.
func TestBlockPlanEveryArity(t *testing.T) {
	for arity := 1; arity <= MaxArity; arity++ {
		tpl, err := templateFor(arity)
		if err != nil {
			t.Fatal(err)
		}
		if tpl.block == nil || len(tpl.block) != len(tpl.steps) {
			t.Errorf("arity %d: no block plan", arity)
		}
	}
	c, err := CustomConstants(2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if tpl := buildTemplate(c); tpl.block == nil {
		t.Error("custom constants (2, 1): no block plan")
	}
}

// blockCase is a circuit of a few hashes around a preimage made by pre
// (some variables allocated before the hashes, some inside).
type blockCase struct {
	name  string
	arity int
	c     *Constants // nil: ConstantsFor(arity)
	// pre returns the preimage's variables; allocated are aux variables
	// allocated before (the first shared ones in the Segment runs).
	pre func(allocated []cs.Variable) []cs.Variable
}

func blockCases(t *testing.T) []blockCase {
	custom, err := CustomConstants(2, 1)
	if err != nil {
		t.Fatal(err)
	}
	var cases []blockCase
	for arity := 1; arity <= MaxArity; arity++ {
		cases = append(cases, blockCase{fmt.Sprintf("arity %d", arity), arity, nil,
			func(v []cs.Variable) []cs.Variable { return v[:arity] }})
	}
	cases = append(cases,
		blockCase{"custom (2, 1)", 2, custom, func(v []cs.Variable) []cs.Variable { return v[:2] }},
		// The generic path is kept where terms could merge or an input
		// sits in A: the results must still agree.
		blockCase{"duplicate preimage", 4, nil, func(v []cs.Variable) []cs.Variable { return []cs.Variable{v[0], v[1], v[0], v[2]} }},
		blockCase{"ONE in the preimage", 2, nil, func(v []cs.Variable) []cs.Variable { return []cs.Variable{cs.One, v[1]} }},
		blockCase{"reversed preimage", 8, nil, func(v []cs.Variable) []cs.Variable {
			r := slices.Clone(v[:8])
			slices.Reverse(r)
			return r
		}},
	)
	return cases
}

// run synthesizes the case: preimage values, then hash the preimage, then
// hash (output, preimage[1:]…) again so that the second block reads the
// first's variable.
func (bc blockCase) run(t *testing.T, sys cs.ConstraintSystem, allocated []cs.Variable, vals []fr.Element) {
	t.Helper()
	c := bc.c
	if c == nil {
		c = mustConstants(bc.arity)
	}
	vars := slices.Clone(bc.pre(allocated))
	in := make([]fr.Element, len(vars))
	for i, v := range vars {
		switch {
		case v == cs.One:
			in[i].SetOne()
		default:
			in[i] = vals[slices.Index(allocated, v)]
		}
	}
	out, val, err := HashCircuitWith(sys, c, vars, in)
	if err != nil {
		t.Fatal(err)
	}
	vars[0], in[0] = out, val
	if _, _, err := HashCircuitWith(sys, c, vars, in); err != nil {
		t.Fatal(err)
	}
}

// The block path (values and densities written in place) gives exactly the
// generic replay's assignment — a, b, c, witness and the three density
// bitmaps — in a ProvingAssignment and in a Segment, with the preimage in
// the segment's own range or in its shared prefix.
func TestBlockPathMatchesGeneric(t *testing.T) {
	const nPre = MaxArity
	vals := randomElements(nPre, 99)
	for _, bc := range blockCases(t) {
		alloc := func(sys cs.ConstraintSystem) []cs.Variable {
			v := make([]cs.Variable, nPre)
			for i := range v {
				v[i] = sys.Alloc(&vals[i])
			}
			return v
		}
		whole := func(sys cs.ConstraintSystem) { bc.run(t, sys, alloc(sys), vals) }
		var want *cs.Assignment
		withEvaluatedPath(false, func() {
			p := cs.NewProvingAssignment(cs.SizeHint{})
			whole(p)
			want = p.Assignment()
		})
		cnt := cs.NewCounter()
		whole(cnt)
		hashes := cs.SizeHint{Constraints: cnt.Constraints, Aux: cnt.Aux - nPre}
		runs := map[string]func() (*cs.Assignment, error){
			"ProvingAssignment": func() (*cs.Assignment, error) {
				p := cs.NewProvingAssignment(cs.SizeHint{})
				whole(p)
				return p.Assignment(), nil
			},
			"Segment": func() (*cs.Assignment, error) {
				p := cs.NewProvingAssignment(cs.SizeHint{})
				s := p.Split(1, cs.SizeHint{Constraints: cnt.Constraints, Aux: cnt.Aux})
				whole(s[0])
				if err := p.Join(); err != nil {
					return nil, err
				}
				return p.Assignment(), nil
			},
			"Segment, shared preimage": func() (*cs.Assignment, error) {
				p := cs.NewProvingAssignment(cs.SizeHint{})
				pre := alloc(p)
				s := p.Split(1, hashes)
				bc.run(t, s[0], pre, vals)
				if err := p.Join(); err != nil {
					return nil, err
				}
				return p.Assignment(), nil
			},
		}
		testcs.CheckPaths(t, bc.name, want, runs, func(f func()) { withEvaluatedPath(true, f) })
	}
}

// A segment too small for a hash's block records the error the generic
// path records (aux or constraints, whichever runs out first), writes
// nothing past its range and still returns the hash's value.
func TestBlockPathSegmentOverflow(t *testing.T) {
	vals := randomElements(2, 5)
	want := Hash(vals)
	for _, size := range []cs.SizeHint{{Constraints: 100, Aux: 100}, {Constraints: 50, Aux: 100}, {Constraints: 100, Aux: 50}, {Constraints: 400, Aux: 310}, {Constraints: 310, Aux: 400}} {
		var errs [2]string
		for i, on := range []bool{false, true} {
			p := cs.NewProvingAssignment(cs.SizeHint{})
			pre := []cs.Variable{p.Alloc(&vals[0]), p.Alloc(&vals[1])}
			s := p.Split(1, size)
			withEvaluatedPath(on, func() {
				_, got, err := HashCircuit(s[0], pre, vals)
				if err != nil {
					t.Fatal(err)
				}
				if !got.Equal(&want) {
					t.Errorf("size %+v, evaluated path %v: value %s, want Hash(vals) %s", size, on, got.String(), want.String())
				}
			})
			if err := p.Join(); err != nil {
				errs[i] = err.Error()
			}
		}
		if errs[0] == "" || errs[0] != errs[1] {
			t.Errorf("size %+v: generic path %q, block path %q", size, errs[0], errs[1])
		}
	}
}

// BenchmarkCircuitWitness8 is the permutation with every intermediate the
// circuit allocates written out: the arithmetic part of BenchmarkHashCircuit8.
func BenchmarkCircuitWitness8(b *testing.B) {
	c := mustConstants(8)
	vals := randomElements(8, 1)
	n, _ := CircuitCost(8)
	w := make([]fr.Element, n)
	b.ReportAllocs()
	for b.Loop() {
		circuitWitness(c, w, vals)
	}
}
