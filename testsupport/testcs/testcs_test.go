// SPDX-License-Identifier: Apache-2.0 OR MIT

package testcs

import (
	"errors"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
)

// TestNamesUnsatisfied: Validate passes a satisfied system and names the
// first unsatisfied constraint and its namespace.
func TestNamesUnsatisfied(t *testing.T) {
	tc := New()
	var one, minusOne, two fr.Element
	one.SetOne()
	minusOne.Neg(&one)
	two.SetUint64(2)
	x := tc.Alloc(&one)
	tc.Push("outer")
	tc.Enforce(cs.LC{{Coeff: one, Var: cs.One}, {Coeff: minusOne, Var: x}}, cs.LC{{Coeff: one, Var: x}}, nil) // boolean
	tc.Push("inner")
	tc.Enforce(cs.LC{{Coeff: one, Var: x}}, cs.LC{{Coeff: one, Var: cs.One}}, cs.LC{{Coeff: one, Var: x}})
	tc.Pop()
	tc.Pop()
	if err := tc.Validate(); err != nil {
		t.Fatalf("satisfied system reported: %v", err)
	}
	tc.Set(x, two)
	err := tc.Validate()
	var ue *UnsatisfiedError
	if !errors.As(err, &ue) || ue.Index != 0 || ue.Path != "outer" {
		t.Fatalf("got %v, want constraint 0 in outer", err)
	}
}

// TestRecordsAsRecorder: a CS records the same system as cs.Recorder.
func TestRecordsAsRecorder(t *testing.T) {
	tc, r := New(), cs.NewRecorder()
	var v fr.Element
	for i := range 50 {
		v.SetUint64(uint64(i))
		a, b := tc.Alloc(&v), r.Alloc(nil)
		in, rin := tc.AllocInput(&v), r.AllocInput(nil)
		tc.Enforce(cs.LC{{Coeff: v, Var: a}}, cs.LC{{Coeff: v, Var: in}}, cs.LC{{Coeff: v, Var: cs.One}})
		r.Enforce(cs.LC{{Coeff: v, Var: b}}, cs.LC{{Coeff: v, Var: rin}}, cs.LC{{Coeff: v, Var: cs.One}})
	}
	if tc.Digest() != r.Digest() {
		t.Fatal("CS and Recorder digests differ")
	}
	if len(tc.Inputs()) != r.NumInputs() || len(tc.AuxValues()) != r.NumAux() {
		t.Fatalf("%d inputs and %d aux values, the Recorder has %d and %d", len(tc.Inputs()), len(tc.AuxValues()), r.NumInputs(), r.NumAux())
	}
}

// cs.PushIndexed names the namespace for a CS (an unsatisfied constraint
// says where it is) and only pushes the prefix for systems that keep no
// names.
func TestPushIndexed(t *testing.T) {
	sys := New()
	var one fr.Element
	one.SetOne()
	x := sys.Alloc(&one)
	cs.PushIndexed(sys, "sector_", 12)
	cs.PushIndexed(sys, "challenge_inclusion_", 3)
	sys.Enforce(cs.LC{{Coeff: one, Var: x}}, cs.LC{{Coeff: one, Var: cs.One}}, cs.LC{})
	sys.Pop()
	sys.Pop()
	var ue *UnsatisfiedError
	if err := sys.Validate(); !errors.As(err, &ue) || ue.Path != "sector_12/challenge_inclusion_3" {
		t.Errorf("Validate = %v, want the namespace sector_12/challenge_inclusion_3", err)
	}
	if _, ok := cs.ConstraintSystem(cs.NewProvingAssignment(cs.SizeHint{})).(cs.NameKeeper); ok {
		t.Error("ProvingAssignment keeps names: PushIndexed would format them")
	}
}
