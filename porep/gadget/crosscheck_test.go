// SPDX-License-Identifier: Apache-2.0 OR MIT

package gadget

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/testsupport/testcs"
)

// nodeCircuit is a small real circuit: two numbers, the SHA-256 node over
// them, an inputized result and a packed UInt64 — everything the gadgets
// emit (Not-bits, constants, MultiEq flushes, packing with constants).
func nodeCircuit(t *testing.T, sys cs.ConstraintSystem) {
	var l, r fr.Element
	l.SetUint64(0x0123456789abcdef)
	l.Square(&l)
	r.SetUint64(42)
	ln, rn := AllocNum(sys, &l), AllocNum(sys, &r)
	out, err := SHA256HashMultiLeaf(sys, []AllocatedNum{ln, rn})
	if err != nil {
		t.Fatal(err)
	}
	out.Inputize(sys)
	u := AllocUInt64(sys, 0xdeadbeef)
	u.PackIntoInput(sys)
}

// ProvingAssignment's a/b/c equal the recorded matrices times the witness,
// its densities equal the ones read off the matrices and the Counter's, on
// a real gadget circuit.
func TestProvingAssignmentOnGadgets(t *testing.T) {
	p := cs.NewProvingAssignment(cs.SizeHint{})
	rec := cs.NewRecorder()
	tc := testcs.New()
	cnt := cs.NewCounter()
	for _, sys := range []cs.ConstraintSystem{p, rec, tc, cnt} {
		nodeCircuit(t, sys)
	}
	mustCheck(t, tc)
	asg := p.Assignment()
	sys := rec.R1CS()
	n := sys.NumConstraints()
	if len(asg.A) != n || n != 45379+1+65+3 {
		t.Fatalf("rows: prover %d, recorder %d", len(asg.A), n)
	}
	for _, m := range []struct {
		name string
		m    *cs.Matrix
		got  []fr.Element
	}{{"A", &sys.A, asg.A}, {"B", &sys.B, asg.B}, {"C", &sys.C, asg.C}} {
		want := make([]fr.Element, n)
		m.m.Eval(want, asg.Input, asg.Aux)
		for i := range want {
			if !want[i].Equal(&m.got[i]) {
				t.Fatalf("%s[%d] differs from matrix × witness", m.name, i)
			}
		}
	}
	// Witness: prover and TestCS agree.
	if len(asg.Aux) != tc.NumAux() || len(asg.Input) != tc.NumInputs() {
		t.Fatal("variable counts differ")
	}
	for i := range asg.Aux {
		if !asg.Aux[i].Equal(&tc.AuxValues()[i]) {
			t.Fatalf("aux %d differs", i)
		}
	}
	// Densities from the matrices.
	aAux := make([]bool, sys.NumAux)
	bIn := make([]bool, sys.NumInputs)
	bAux := make([]bool, sys.NumAux)
	for _, v := range sys.A.Vars {
		if v.IsAux() {
			aAux[v.Index()] = true
		}
	}
	for _, v := range sys.B.Vars {
		if v.IsAux() {
			bAux[v.Index()] = true
		} else {
			bIn[v.Index()] = true
		}
	}
	for _, d := range []struct {
		name string
		got  cs.Density
		want []bool
		cnt  int
	}{{"A-aux", asg.ADensityAux, aAux, cnt.ADensityAux()}, {"B-input", asg.BDensityInput, bIn, cnt.BDensityInput()}, {"B-aux", asg.BDensityAux, bAux, cnt.BDensityAux()}} {
		pop := 0
		for i, w := range d.want {
			if d.got.Has(i) != w {
				t.Fatalf("%s bit %d = %v, want %v", d.name, i, d.got.Has(i), w)
			}
			if w {
				pop++
			}
		}
		if d.got.PopCount() != pop || d.cnt != pop {
			t.Fatalf("%s popcount %d, counter %d, want %d", d.name, d.got.PopCount(), d.cnt, pop)
		}
	}
	if tc.Digest() != rec.Digest() {
		t.Fatal("TestCS and Recorder digests differ")
	}
	if cnt.Constraints != rec.NumConstraints() || cnt.Aux != rec.NumAux() || cnt.Inputs != rec.NumInputs() {
		t.Fatal("Counter shape differs from Recorder")
	}
}

// Gadgets share pooled scratch space; concurrent synthesis into separate
// constraint systems must give the same systems as sequential synthesis.
func TestConcurrentSynthesis(t *testing.T) {
	ref := cs.NewRecorder()
	nodeCircuit(t, ref)
	want := ref.Digest()
	const n = 4
	got := make(chan [32]byte, n)
	for i := 0; i < n; i++ {
		go func() {
			r := cs.NewRecorder()
			nodeCircuit(t, r)
			got <- r.Digest()
		}()
	}
	for i := 0; i < n; i++ {
		if d := <-got; d != want {
			t.Fatal("concurrent synthesis produced a different R1CS")
		}
	}
}
