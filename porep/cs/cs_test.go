// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// randomCircuit drives every CS in syss with the same random circuit: a mix
// of allocations, inputs and constraints whose LCs contain duplicates,
// cancelling pairs (c·v − c·v), explicit zero coefficients, ±1, small and
// random coefficients, and long LCs (to exercise the sorted merge path).
func randomCircuit(seed uint64, nOps int, syss ...ConstraintSystem) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	nIn, nAux := 1, 0
	randCoeff := func() fr.Element {
		var c fr.Element
		switch rng.IntN(6) {
		case 0:
			c.SetOne()
		case 1:
			c.SetOne()
			c.Neg(&c)
		case 2:
			c.SetUint64(uint64(rng.IntN(8) + 2))
		case 3:
			c.SetZero()
		default:
			c.SetUint64(rng.Uint64())
			c.Square(&c)
		}
		return c
	}
	randVar := func() Variable {
		if nAux > 0 && rng.IntN(4) != 0 {
			return Aux(rng.IntN(nAux))
		}
		return Input(rng.IntN(nIn))
	}
	randLC := func() LC {
		var n int
		switch rng.IntN(10) {
		case 0:
			n = 0
		case 1:
			n = 30 + rng.IntN(250)
		default:
			n = 1 + rng.IntN(6)
		}
		lc := make(LC, 0, n+4)
		for i := 0; i < n; i++ {
			v := randVar()
			c := randCoeff()
			lc = append(lc, Term{c, v})
			switch rng.IntN(8) {
			case 0: // duplicate
				lc = append(lc, Term{randCoeff(), v})
			case 1: // cancelling pair
				var m fr.Element
				m.Neg(&c)
				lc = append(lc, Term{m, v})
			}
		}
		rng.Shuffle(len(lc), func(i, j int) { lc[i], lc[j] = lc[j], lc[i] })
		return lc
	}
	for op := 0; op < nOps; op++ {
		switch k := rng.IntN(10); {
		case k < 3:
			var v fr.Element
			if rng.IntN(2) == 0 {
				v.SetUint64(uint64(rng.IntN(2)))
			} else {
				v.SetUint64(rng.Uint64())
			}
			for _, s := range syss {
				s.Alloc(&v)
			}
			nAux++
		case k == 3:
			var v fr.Element
			v.SetUint64(rng.Uint64())
			for _, s := range syss {
				s.AllocInput(&v)
			}
			nIn++
		default:
			a, b, c := randLC(), randLC(), randLC()
			for _, s := range syss {
				s.Push("op")
				s.Enforce(a, b, c)
				s.Pop()
			}
		}
	}
}

// densityFromMatrix recomputes a density bitmap from recorded rows.
func densityFromMatrix(m *Matrix, n int, aux bool) []bool {
	d := make([]bool, n)
	for _, v := range m.Vars {
		if v.IsAux() == aux {
			d[v.Index()] = true
		}
	}
	return d
}

func checkDensity(t *testing.T, name string, got Density, want []bool) {
	t.Helper()
	if got.BitLen != len(want) {
		t.Fatalf("%s: bit length %d, want %d", name, got.BitLen, len(want))
	}
	pop := 0
	for i, w := range want {
		if got.Has(i) != w {
			t.Fatalf("%s: bit %d = %v, want %v", name, i, got.Has(i), w)
		}
		if w {
			pop++
		}
	}
	if got.PopCount() != pop {
		t.Fatalf("%s: popcount %d, want %d", name, got.PopCount(), pop)
	}
	if r := got.BitLen % 64; r != 0 && got.Words[len(got.Words)-1]>>r != 0 {
		t.Fatalf("%s: bits set past BitLen", name)
	}
}

func TestProvingAssignmentMatchesRecorder(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		p := NewProvingAssignment(SizeHint{})
		r := NewRecorder()
		cnt := NewCounter()
		randomCircuit(seed, 3000, p, r, cnt)
		asg := p.Assignment()
		sys := r.R1CS()
		n := sys.NumConstraints()
		if len(asg.A) != n || len(asg.B) != n || len(asg.C) != n {
			t.Fatalf("seed %d: len a/b/c = %d/%d/%d, want %d", seed, len(asg.A), len(asg.B), len(asg.C), n)
		}
		if n != r.NumConstraints()+r.NumInputs() {
			t.Fatalf("seed %d: R1CS rows %d != constraints %d + inputs %d", seed, n, r.NumConstraints(), r.NumInputs())
		}
		for _, mm := range []struct {
			name string
			m    *Matrix
			got  []fr.Element
		}{{"A", &sys.A, asg.A}, {"B", &sys.B, asg.B}, {"C", &sys.C, asg.C}} {
			want := make([]fr.Element, n)
			mm.m.Eval(want, asg.Input, asg.Aux)
			for i := range want {
				if !want[i].Equal(&mm.got[i]) {
					t.Fatalf("seed %d: %s[%d] = %s, matrix×witness = %s", seed, mm.name, i, mm.got[i].String(), want[i].String())
				}
			}
		}
		// Matrices must be merged, sorted, non-zero.
		for _, m := range []*Matrix{&sys.A, &sys.B, &sys.C} {
			for row := 0; row < n; row++ {
				vars, coeffs := m.Row(row)
				for k := range vars {
					if coeffs[k].IsZero() {
						t.Fatalf("seed %d: zero coefficient stored", seed)
					}
					if k > 0 && vars[k-1] >= vars[k] {
						t.Fatalf("seed %d: row %d not strictly sorted", seed, row)
					}
				}
			}
		}
		checkDensity(t, "A-aux", asg.ADensityAux, densityFromMatrix(&sys.A, sys.NumAux, true))
		checkDensity(t, "B-input", asg.BDensityInput, densityFromMatrix(&sys.B, sys.NumInputs, false))
		checkDensity(t, "B-aux", asg.BDensityAux, densityFromMatrix(&sys.B, sys.NumAux, true))

		// Counter agrees with the recorded shape.
		if cnt.Constraints != r.NumConstraints() || cnt.Aux != r.NumAux() || cnt.Inputs != r.NumInputs() {
			t.Fatalf("seed %d: counter shape mismatch", seed)
		}
		if cnt.NonZeroA+cnt.Inputs != sys.A.NonZeros() || cnt.NonZeroB != sys.B.NonZeros() || cnt.NonZeroC != sys.C.NonZeros() {
			t.Fatalf("seed %d: counter non-zeros %d/%d/%d vs %d/%d/%d", seed,
				cnt.NonZeroA, cnt.NonZeroB, cnt.NonZeroC, sys.A.NonZeros(), sys.B.NonZeros(), sys.C.NonZeros())
		}
		if cnt.ADensityAux() != asg.ADensityAux.PopCount() || cnt.BDensityInput() != asg.BDensityInput.PopCount() ||
			cnt.BDensityAux() != asg.BDensityAux.PopCount() {
			t.Fatalf("seed %d: counter density popcounts differ", seed)
		}
		// Same circuit, same digests.
		p2 := NewProvingAssignment(SizeHint{Constraints: 4000, Aux: 1000, Inputs: 400})
		r2 := NewRecorder()
		randomCircuit(seed, 3000, p2, r2)
		if p2.WitnessDigest() != p.WitnessDigest() || p2.ABCDigest() != p.ABCDigest() ||
			p2.DensityDigest() != p.DensityDigest() || r2.Digest() != r.Digest() {
			t.Fatalf("seed %d: digests not stable", seed)
		}
	}
}

func TestDensityCancellation(t *testing.T) {
	// A variable whose merged coefficient is zero must not count; one whose
	// duplicates add to non-zero must.
	p := NewProvingAssignment(SizeHint{})
	var one, two, mtwo, three fr.Element
	one.SetOne()
	two.SetUint64(2)
	mtwo.Neg(&two)
	three.SetUint64(3)
	x := p.Alloc(&three)
	y := p.Alloc(&one)
	z := p.Alloc(&two)
	in := p.AllocInput(&three)
	p.Enforce(LC{{two, x}, {mtwo, x}, {one, y}, {one, y}}, LC{{two, in}, {mtwo, in}, {two, z}}, nil)
	// Long LC: 40 distinct, cancelling, in the sorted path.
	long := LC{}
	for i := 0; i < 40; i++ {
		long = append(long, Term{two, x}, Term{mtwo, x})
	}
	long = append(long, Term{one, z})
	p.Enforce(nil, long, nil)
	a := p.Assignment()
	if a.ADensityAux.Has(0) || !a.ADensityAux.Has(1) || a.ADensityAux.Has(2) {
		t.Fatalf("A-aux density wrong: %b", a.ADensityAux.Words)
	}
	if a.BDensityInput.Has(1) || a.BDensityAux.Has(0) || !a.BDensityAux.Has(2) {
		t.Fatalf("B density wrong: in %b aux %b", a.BDensityInput.Words, a.BDensityAux.Words)
	}
	// a_0 = 2·3 − 2·3 + 1 + 1 = 2; b_0 = 2·2 = 4; input rows appended.
	if !a.A[0].Equal(&two) || a.B[0].String() != "4" || len(a.A) != 4 || !a.A[2].Equal(&one) || !a.A[3].Equal(&three) {
		t.Fatalf("evaluations wrong: a=%v b=%v", a.A, a.B)
	}
}

func TestDigestEncoding(t *testing.T) {
	// Independent byte-level construction of docs/digests.md §1-§4 for a tiny
	// circuit: x·x = y with ONE, one input u = 5.
	var one, x, y, u fr.Element
	one.SetOne()
	x.SetUint64(3)
	y.SetUint64(9)
	u.SetUint64(5)
	p := NewProvingAssignment(SizeHint{})
	r := NewRecorder()
	for _, s := range []ConstraintSystem{p, r} {
		vx := s.Alloc(&x)
		vy := s.Alloc(&y)
		vu := s.AllocInput(&u)
		s.Enforce(LC{{one, vx}}, LC{{one, vx}}, LC{{one, vy}, {u, vu}, {one, One}, {one, One}})
	}
	le := func(e fr.Element) []byte { var b [32]byte; fr.LittleEndian.PutElement(&b, e); return b[:] }
	u64 := func(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
	u32 := func(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
	term := func(kind byte, idx uint32, c fr.Element) []byte {
		return append(append([]byte{kind}, u32(idx)...), le(c)...)
	}
	var two fr.Element
	two.SetUint64(2)
	var buf bytes.Buffer
	buf.WriteString("cuseal-r1cs-v1")
	buf.Write(u64(2))
	buf.Write(u64(2))
	buf.Write(u64(3))
	// row 0: A = x, B = x, C = 2·ONE + 5·u + y (sorted: inputs first)
	buf.Write(u32(1))
	buf.Write(term(1, 0, one))
	buf.Write(u32(1))
	buf.Write(term(1, 0, one))
	buf.Write(u32(3))
	buf.Write(term(0, 0, two))
	buf.Write(term(0, 1, u))
	buf.Write(term(1, 1, one))
	// input rows
	for i := uint32(0); i < 2; i++ {
		buf.Write(u32(1))
		buf.Write(term(0, i, one))
		buf.Write(u32(0))
		buf.Write(u32(0))
	}
	if got, want := r.Digest(), sha256.Sum256(buf.Bytes()); got != want {
		t.Fatalf("r1cs digest %x, want %x", got, want)
	}

	buf.Reset()
	buf.WriteString("cuseal-witness-v1")
	buf.Write(u64(2))
	buf.Write(le(one))
	buf.Write(le(u))
	buf.Write(u64(2))
	buf.Write(le(x))
	buf.Write(le(y))
	if got, want := p.WitnessDigest(), sha256.Sum256(buf.Bytes()); got != want {
		t.Fatalf("witness digest %x, want %x", got, want)
	}

	var c0 fr.Element
	c0.SetUint64(9 + 25 + 2)
	buf.Reset()
	buf.WriteString("cuseal-abc-v1")
	buf.Write(u64(3))
	for _, e := range []fr.Element{x, one, u, x, {}, {}, c0, {}, {}} {
		buf.Write(le(e))
	}
	if got, want := p.ABCDigest(), sha256.Sum256(buf.Bytes()); got != want {
		t.Fatalf("abc digest %x, want %x", got, want)
	}

	buf.Reset()
	buf.WriteString("cuseal-density-v1")
	for _, d := range [][3]uint64{{2, 1, 0b01}, {2, 0, 0}, {2, 1, 0b01}} {
		buf.Write(u64(d[0]))
		buf.Write(u64(d[1]))
		buf.Write(u64(d[2]))
	}
	if got, want := p.DensityDigest(), sha256.Sum256(buf.Bytes()); got != want {
		t.Fatalf("density digest %x, want %x", got, want)
	}
}

func TestEnforceAllocs(t *testing.T) {
	p := NewProvingAssignment(SizeHint{Constraints: 2000, Aux: 2000, Inputs: 2})
	var one, mone fr.Element
	one.SetOne()
	mone.Neg(&one)
	lcA := make(LC, 2)
	lcB := make(LC, 1)
	var empty LC
	allocs := testing.AllocsPerRun(1000, func() {
		v := p.Alloc(&one)
		lcA[0] = Term{one, One}
		lcA[1] = Term{mone, v}
		lcB[0] = Term{one, v}
		p.Enforce(lcA, lcB, empty)
	})
	if allocs != 0 {
		t.Fatalf("Alloc+Enforce allocates %.1f times per call", allocs)
	}
}

// TestABCInPlace: a/b/c stay in the arrays NewProvingAssignment made for
// them while the hint holds, and ABCInPlace says so when a circuit outgrows it.
func TestABCInPlace(t *testing.T) {
	var one fr.Element
	one.SetOne()
	p := NewProvingAssignment(SizeHint{Constraints: 10, Aux: 10, Inputs: 2})
	a0 := &p.a[:1][0]
	x := p.AllocInput(&one)
	for i := 0; i < 10; i++ {
		p.Enforce(LC{{one, x}}, LC{{one, One}}, nil)
	}
	a := p.Assignment()
	if !p.ABCInPlace() || len(a.A) != 12 || &a.A[0] != a0 {
		t.Fatalf("a/b/c moved within the hint (in place %v, %d rows)", p.ABCInPlace(), len(a.A))
	}
	q := NewProvingAssignment(SizeHint{Constraints: 1})
	for i := 0; i < 10; i++ {
		q.Enforce(nil, nil, nil)
	}
	if q.ABCInPlace() {
		t.Fatal("outgrown arrays reported in place")
	}
}
