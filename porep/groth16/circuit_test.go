// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/testsupport/testcs"
)

// randomCircuit is a random R1CS satisfied by construction. Its shape and
// coefficients come from shapeSeed; the witness values from valueSeed, so
// two witnesses of the same circuit share one parameter set.
//
// Each constraint is ⟨a,w⟩·⟨b,w⟩ = ⟨c',w⟩ + z with a fresh aux z; the LCs
// draw from ONE, the public inputs and earlier aux, sometimes with a
// duplicated-and-cancelled term (merged coefficient zero, which must not
// count for density), so A/B densities are sparse and varied.
type randomCircuit struct {
	shapeSeed, valueSeed uint64
	nPub, nAux0, nCons   int
}

func randFr(rng *rand.Rand) fr.Element {
	var b [32]byte
	for i := 0; i < 4; i++ {
		v := rng.Uint64()
		for k := 0; k < 8; k++ {
			b[8*i+k] = byte(v >> (8 * k))
		}
	}
	var e fr.Element
	e.SetBytes(b[:])
	return e
}

// synthesize writes the circuit into sys and returns the public inputs
// (without ONE).
func (c randomCircuit) synthesize(sys cs.ConstraintSystem) []fr.Element {
	shape := rand.New(rand.NewPCG(c.shapeSeed, 1))
	vals := rand.New(rand.NewPCG(c.valueSeed, 2))
	type wv struct {
		v   cs.Variable
		val fr.Element
	}
	var one fr.Element
	one.SetOne()
	vars := []wv{{cs.One, one}}
	pub := make([]fr.Element, c.nPub)
	for i := range pub {
		pub[i] = randFr(vals)
		vars = append(vars, wv{sys.AllocInput(&pub[i]), pub[i]})
	}
	firstAux := len(vars)
	for i := 0; i < c.nAux0; i++ {
		x := randFr(vals)
		vars = append(vars, wv{sys.Alloc(&x), x})
	}
	coeff := func() fr.Element {
		if shape.IntN(3) == 0 {
			var e fr.Element
			e.SetInt64(int64(shape.IntN(5)) - 2)
			return e
		}
		return randFr(shape)
	}
	randLC := func(k int, must int) (cs.LC, fr.Element) {
		var lc cs.LC
		var sum fr.Element
		add := func(idx int, co fr.Element) {
			lc = append(lc, cs.Term{Coeff: co, Var: vars[idx].v})
			var t fr.Element
			t.Mul(&co, &vars[idx].val)
			sum.Add(&sum, &t)
		}
		if must >= 0 {
			add(must, randFr(shape)) // non-zero with overwhelming probability
		}
		for t := 0; t < k; t++ {
			idx := shape.IntN(len(vars))
			co := coeff()
			add(idx, co)
			if shape.IntN(8) == 0 { // duplicate that cancels
				var neg fr.Element
				neg.Neg(&co)
				add(idx, neg)
			}
		}
		return lc, sum
	}
	for j := 0; j < c.nCons; j++ {
		must := -1
		if j < c.nAux0 {
			must = firstAux + j // every initial aux is constrained
		}
		a, av := randLC(shape.IntN(3), must)
		b, bv := randLC(1+shape.IntN(2), -1)
		cc, cv := randLC(shape.IntN(3), -1)
		var z fr.Element
		z.Mul(&av, &bv).Sub(&z, &cv)
		zv := sys.Alloc(&z)
		cc = append(cc, cs.Term{Coeff: one, Var: zv})
		sys.Enforce(a, b, cc)
		vars = append(vars, wv{zv, z})
	}
	return pub
}

func (c randomCircuit) r1cs(t testing.TB) *cs.R1CS {
	t.Helper()
	rec := cs.NewRecorder()
	c.synthesize(rec)
	return rec.R1CS()
}

func (c randomCircuit) assignment(t testing.TB) (*cs.Assignment, []fr.Element) {
	t.Helper()
	tcs := testcs.New()
	c.synthesize(tcs)
	if err := tcs.Validate(); err != nil {
		t.Fatalf("random circuit unsatisfied: %v", err)
	}
	pa := cs.NewProvingAssignment(cs.SizeHint{})
	pub := c.synthesize(pa)
	return pa.Assignment(), pub
}

func seed32(b byte) [32]byte {
	var s [32]byte
	for i := range s {
		s[i] = b + byte(i)
	}
	return s
}
