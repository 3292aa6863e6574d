// SPDX-License-Identifier: Apache-2.0 OR MIT

package poseidon

import (
	"errors"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/testsupport/testcs"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// Constraint counts of the legacy circuit at Strength::Standard: neptune
// v11.0.0 src/circuit.rs test_poseidon_hash (arities 2, 4, 8, 16, 24, 36;
// docs/porep-circuit.md §4.4) and the §3.8.5 formula 3A + 28(A+1) + 4R_P + 1 for
// arity 11 (docs/porep-circuit.md §3.8.5 quotes 598).
var circuitCounts = []struct{ arity, constraints int }{
	{2, 311}, {4, 377}, {8, 505}, {11, 598}, {16, 761}, {24, 1009}, {36, 1385},
}

func allocPreimage(sys cs.ConstraintSystem, vals []fr.Element) []cs.Variable {
	vars := make([]cs.Variable, len(vals))
	for i := range vals {
		vars[i] = sys.Alloc(&vals[i])
	}
	return vars
}

func TestCircuitCounts(t *testing.T) {
	for _, k := range circuitCounts {
		c := cs.NewCounter()
		vals := randomElements(k.arity, int64(k.arity))
		vars := allocPreimage(c, vals)
		if _, _, err := HashCircuit(c, vars, nil); err != nil {
			t.Fatal(err)
		}
		aux := c.Aux - k.arity
		if c.Constraints != k.constraints || aux != k.constraints || c.Inputs != 1 {
			t.Errorf("arity %d: %d constraints, %d aux, %d inputs; want %d, %d, 1", k.arity, c.Constraints, aux, c.Inputs, k.constraints, k.constraints)
		}
		// neptune's own formula: 3·(t·R_F + R_P − 1) + (t·R_F + R_P − A).
		cc := mustConstants(k.arity)
		sboxes := cc.Width*cc.FullRounds + cc.PartialRounds - 1
		if f := 3*sboxes + (sboxes + 1 - k.arity); f != k.constraints {
			t.Errorf("arity %d: neptune formula gives %d", k.arity, f)
		}
		if n, err := CircuitCost(k.arity); err != nil || n != k.constraints {
			t.Errorf("arity %d: CircuitCost = %d, %v", k.arity, n, err)
		}
	}
}

func TestCircuitMatchesNative(t *testing.T) {
	for _, arity := range []int{1, 2, 4, 8, 11, 16} {
		sys := testcs.New()
		vals := randomElements(arity, int64(1000+arity))
		vars := allocPreimage(sys, vals)
		out, val, err := HashCircuit(sys, vars, vals)
		if err != nil {
			t.Fatal(err)
		}
		if err := sys.Validate(); err != nil {
			t.Fatalf("arity %d: %v", arity, err)
		}
		want := hashCorrect(mustConstants(arity), vals)
		if got := sys.Value(out); !val.Equal(&want) || !got.Equal(&want) {
			t.Fatalf("arity %d: circuit %s / %s, native %s", arity, val.String(), got.String(), want.String())
		}
		if !out.IsAux() || out.Index() != sys.NumAux()-1 {
			t.Errorf("arity %d: output is %v, want the last aux", arity, out)
		}
	}
}

// TestCircuitVectors runs the hash_values preimages through the circuit.
func TestCircuitVectors(t *testing.T) {
	for _, v := range hashValuesVectors[:4] {
		sys := testcs.New()
		in := countingPreimage(v.arity)
		_, val, err := HashCircuit(sys, allocPreimage(sys, in), in)
		if err != nil {
			t.Fatal(err)
		}
		if want := fromLimbs(v.limbs); !val.Equal(&want) {
			t.Errorf("arity %d: circuit %s, want %s", v.arity, val.String(), want.String())
		}
		if err := sys.Validate(); err != nil {
			t.Errorf("arity %d: %v", v.arity, err)
		}
	}
}

// TestCircuitTamper: changing any one witness value breaks satisfaction.
func TestCircuitTamper(t *testing.T) {
	const arity = 8
	vals := randomElements(arity, 77)
	sys := testcs.New()
	vars := allocPreimage(sys, vals)
	out, _, err := HashCircuit(sys, vars, vals)
	if err != nil {
		t.Fatal(err)
	}
	n := sys.NumAux()
	// preimage, first s-box outputs, a partial-round value, the output
	for _, idx := range []int{0, arity - 1, arity, arity + 2, n / 2, n - 2, out.Index()} {
		v := cs.Aux(idx)
		orig := sys.Value(v)
		var bad fr.Element
		bad.SetOne()
		bad.Add(&bad, &orig)
		sys.Set(v, bad)
		var ue *testcs.UnsatisfiedError
		if err := sys.Validate(); !errors.As(err, &ue) {
			t.Errorf("aux %d tampered: Check = %v", idx, err)
		}
		sys.Set(v, orig)
	}
	if err := sys.Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestCircuitShapeWithoutValues: synthesis without values records the same
// R1CS as with values, and the gadget composes (a second hash over the first
// one's output, with variables at other indices).
func TestCircuitShapeWithoutValues(t *testing.T) {
	const arity = 11
	vals := randomElements(arity, 5)
	withVals := testcs.New()
	vars := allocPreimage(withVals, vals)
	out, h, err := HashCircuit(withVals, vars, vals)
	if err != nil {
		t.Fatal(err)
	}
	vars2 := append([]cs.Variable{out}, vars[1:]...)
	vals2 := append([]fr.Element{h}, vals[1:]...)
	if _, _, err := HashCircuit(withVals, vars2, vals2); err != nil {
		t.Fatal(err)
	}
	if err := withVals.Validate(); err != nil {
		t.Fatal(err)
	}

	rec := cs.NewRecorder()
	vars = allocPreimage(rec, vals)
	out, _, err = HashCircuit(rec, vars, nil)
	if err != nil {
		t.Fatal(err)
	}
	vars2 = append([]cs.Variable{out}, vars[1:]...)
	if _, _, err := HashCircuit(rec, vars2, nil); err != nil {
		t.Fatal(err)
	}
	if rec.Digest() != withVals.R1CS().Digest() {
		t.Error("R1CS recorded without values differs from the one with values")
	}
}

// TestCircuitFirstRoundShape spot-checks constraint shapes against
// docs/porep-circuit.md §3.8.5: the first input's S-box is
// (x+pre)·(x+pre) = l2, l2·l2 = l4, (x+pre)·l4 = l5 − post, with pre/post
// the compressed constants at 1 and t+1; the last constraint is
// lc·ONE = out.
func TestCircuitFirstRoundShape(t *testing.T) {
	const arity = 2
	c := mustConstants(arity)
	sys := testcs.New()
	vals := randomElements(arity, 3)
	vars := allocPreimage(sys, vals)
	out, _, err := HashCircuit(sys, vars, vals)
	if err != nil {
		t.Fatal(err)
	}
	r := sys.R1CS()
	var one, negPost fr.Element
	one.SetOne()
	negPost.Neg(&c.Compressed[c.Width+1])
	pre := c.Compressed[1]
	x, l2, l4, l5 := vars[0], cs.Aux(arity), cs.Aux(arity+1), cs.Aux(arity+2)
	type term struct {
		v cs.Variable
		c fr.Element
	}
	expect := []struct {
		row     int
		m       *cs.Matrix
		want    []term
		explain string
	}{
		{0, &r.A, []term{{cs.One, pre}, {x, one}}, "A0 = x + pre"},
		{0, &r.B, []term{{cs.One, pre}, {x, one}}, "B0 = x + pre"},
		{0, &r.C, []term{{l2, one}}, "C0 = l2"},
		{1, &r.A, []term{{l2, one}}, "A1 = l2"},
		{1, &r.C, []term{{l4, one}}, "C1 = l4"},
		{2, &r.A, []term{{cs.One, pre}, {x, one}}, "A2 = x + pre"},
		{2, &r.B, []term{{l4, one}}, "B2 = l4"},
		{2, &r.C, []term{{cs.One, negPost}, {l5, one}}, "C2 = l5 − post"},
		{r.NumConstraints() - r.NumInputs - 0 - 1, &r.B, []term{{cs.One, one}}, "last B = ONE"},
		{r.NumConstraints() - r.NumInputs - 1, &r.C, []term{{out, one}}, "last C = out"},
	}
	for _, e := range expect {
		vs, cf := e.m.Row(e.row)
		if len(vs) != len(e.want) {
			t.Errorf("%s: row has %d terms, want %d", e.explain, len(vs), len(e.want))
			continue
		}
		for i := range vs {
			if vs[i] != e.want[i].v || !cf[i].Equal(&e.want[i].c) {
				t.Errorf("%s: term %d is %v·%s", e.explain, i, vs[i], cf[i].String())
			}
		}
	}
}

func TestCircuitErrors(t *testing.T) {
	sys := testcs.New()
	vals := randomElements(3, 1)
	vars := allocPreimage(sys, vals)
	if _, _, err := HashCircuit(sys, vars, vals[:2]); err == nil {
		t.Error("accepted 3 variables with 2 values")
	}
	if _, _, err := HashCircuit(sys, nil, nil); err == nil {
		t.Error("accepted arity 0")
	}
	if _, _, err := HashCircuit(sys, make([]cs.Variable, MaxArity+1), nil); err == nil {
		t.Error("accepted arity 37")
	}
	if sys.NumConstraints() != 0 {
		t.Error("a rejected call enforced constraints")
	}
}

func benchmarkHashCircuit(b *testing.B, arity int) {
	vals := randomElements(arity, 1)
	if _, err := templateFor(arity); err != nil {
		b.Fatal(err)
	}
	n, _ := CircuitCost(arity)
	const perRun = 64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += perRun {
		b.StopTimer()
		p := cs.NewProvingAssignment(cs.SizeHint{Constraints: perRun * n, Aux: perRun * (n + arity), Inputs: 1})
		vars := allocPreimage(p, vals)
		b.StartTimer()
		for k := 0; k < perRun && i+k < b.N; k++ {
			if _, _, err := HashCircuit(p, vars, vals); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkHashCircuit2(b *testing.B)  { benchmarkHashCircuit(b, 2) }
func BenchmarkHashCircuit8(b *testing.B)  { benchmarkHashCircuit(b, 8) }
func BenchmarkHashCircuit11(b *testing.B) { benchmarkHashCircuit(b, 11) }

// The generic replay (LCs built and evaluated), for a side-by-side figure.
func BenchmarkHashCircuitGeneric8(b *testing.B) {
	withEvaluatedPath(false, func() { benchmarkHashCircuit(b, 8) })
}

// TestCircuitWitnessMatchesConstraints: the fast witness (intermediates of
// the optimised permutation) equals the values solved from the recorded
// constraints, step by step.
func TestCircuitWitnessMatchesConstraints(t *testing.T) {
	for arity := 1; arity <= MaxArity; arity++ {
		if !testenv.Enabled(testenv.TierLong) && arity > 12 && arity != 16 {
			continue
		}
		tpl, err := templateFor(arity)
		if err != nil {
			t.Fatal(err)
		}
		in := randomElements(arity, int64(300+arity))
		n := 1 + arity + len(tpl.steps)
		solved := make([]fr.Element, n)
		solved[0].SetOne()
		copy(solved[1:], in)
		tpl.solveWitness(solved)
		fast := make([]fr.Element, len(tpl.steps))
		circuitWitness(tpl.c, fast, in)
		for s := range fast {
			if !fast[s].Equal(&solved[1+arity+s]) {
				t.Fatalf("arity %d: aux %d: witness %s, solved %s", arity, s, fast[s].String(), solved[1+arity+s].String())
			}
		}
		if want := Hash(in); !fast[len(fast)-1].Equal(&want) {
			t.Fatalf("arity %d: last witness value is not the hash", arity)
		}
	}
}

// discardCS hands out variables and drops everything: it isolates the
// gadget's own cost (witness + LC building) from the constraint system's.
type discardCS struct{ aux int }

func (d *discardCS) Alloc(*fr.Element) cs.Variable      { d.aux++; return cs.Aux(d.aux - 1) }
func (d *discardCS) AllocInput(*fr.Element) cs.Variable { return cs.One }
func (d *discardCS) Enforce(a, b, c cs.LC)              {}
func (d *discardCS) Push(string)                        {}
func (d *discardCS) Pop()                               {}

func benchmarkGadgetOnly(b *testing.B, arity int) {
	vals := randomElements(arity, 1)
	d := &discardCS{}
	vars := allocPreimage(d, vals)
	if _, err := templateFor(arity); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := HashCircuit(d, vars, vals); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHashCircuitGadgetOnly8(b *testing.B)  { benchmarkGadgetOnly(b, 8) }
func BenchmarkHashCircuitGadgetOnly11(b *testing.B) { benchmarkGadgetOnly(b, 11) }

// TestCircuitNamespaces: an unsatisfied constraint is reported under
// neptune's round namespace.
func TestCircuitNamespaces(t *testing.T) {
	const arity = 2
	vals := randomElements(arity, 11)
	sys := testcs.New()
	vars := allocPreimage(sys, vals)
	sys.Push("hash")
	if _, _, err := HashCircuit(sys, vars, vals); err != nil {
		t.Fatal(err)
	}
	sys.Pop()
	// Aux layout: preimage (2), first round 3·A = 6, then 3 full rounds of
	// 4·t = 12 each; the first partial-round value follows.
	idx := arity + 3*arity + 3*4*(arity+1)
	var bad fr.Element
	bad.SetUint64(3)
	sys.Set(cs.Aux(idx), bad)
	var ue *testcs.UnsatisfiedError
	if err := sys.Validate(); !errors.As(err, &ue) || ue.Path != "hash/partial round 0" {
		t.Fatalf("tampered first partial-round input: %v", err)
	}
}

// TestConcurrentUse runs hashes and circuits from several goroutines
// (meaningful under -race).
func TestConcurrentUse(t *testing.T) {
	done := make(chan error, 4)
	for g := 0; g < 4; g++ {
		go func(g int) {
			vals := randomElements(8, int64(g))
			sys := testcs.New()
			_, v, err := HashCircuit(sys, allocPreimage(sys, vals), vals)
			if err == nil {
				err = sys.Validate()
			}
			if want := Hash(vals); err == nil && !v.Equal(&want) {
				err = errors.New("circuit value differs from Hash")
			}
			done <- err
		}(g)
	}
	for g := 0; g < 4; g++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
