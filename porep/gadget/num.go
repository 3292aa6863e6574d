// SPDX-License-Identifier: Apache-2.0 OR MIT

package gadget

import (
	"errors"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
)

// errUnsatisfiable is bellpepper's SynthesisError::Unsatisfiable.
var errUnsatisfiable = errors.New("gadget: constraint system is unsatisfiable (constant mismatch)")

// AllocatedNum is a field element allocated as one aux (or input) variable,
// with its value. Mirrors bellpepper-core gadgets/num.rs AllocatedNum.
type AllocatedNum struct {
	Var cs.Variable
	Val fr.Element
}

// AllocNum allocates an aux variable holding val (1 aux, no constraint);
// nil means zero (shape-only synthesis).
func AllocNum(sys cs.ConstraintSystem, val *fr.Element) AllocatedNum {
	if val == nil {
		val = &frZero
	}
	return AllocatedNum{Var: sys.Alloc(val), Val: *val}
}

// AllocInputNum allocates an input variable holding val
// (AllocatedNum::alloc_input); nil means zero.
func AllocInputNum(sys cs.ConstraintSystem, val *fr.Element) AllocatedNum {
	if val == nil {
		val = &frZero
	}
	return AllocatedNum{Var: sys.AllocInput(val), Val: *val}
}

// Inputize allocates an input x with n's value and enforces x · ONE = n
// (1 input, 1 constraint).
func (n *AllocatedNum) Inputize(sys cs.ConstraintSystem) {
	x := sys.AllocInput(&n.Val)
	sys.Enforce(cs.LC{term(&frOne, x)}, cs.LC{term(&frOne, cs.One)}, cs.LC{term(&frOne, n.Var)})
}

// ToBitsLE is the non-strict AllocatedNum::to_bits_le: 255 allocated bits,
// little-endian (bit 0 first), each with its booleanity constraint, then
// the unpacking constraint 0 · 0 = Σ 2^i·b_i − n (255 aux, 256 constraints).
func (n *AllocatedNum) ToBitsLE(sys cs.ConstraintSystem) []Boolean {
	out := make([]Boolean, NumBits)
	s := acquire(sys)
	defer release(s)
	s.toBitsLE(n, out)
	return out
}

// toBitsLE writes the 255 bits of n into out[:255].
func (s *synth) toBitsLE(n *AllocatedNum, out []Boolean) {
	limbs := n.Val.Bits() // canonical little-endian limbs
	var vars [NumBits]cs.Variable
	for i := 0; i < NumBits; i++ {
		bit := s.allocBit(limbs[i/64]>>(uint(i)%64)&1 == 1)
		vars[i] = bit.Var
		out[i] = Is(bit)
	}
	s.reset()
	for i := 0; i < NumBits; i++ {
		s.c = append(s.c, term(&pow2[i], vars[i]))
	}
	s.c = append(s.c, term(&frMinusOne, n.Var))
	s.enforce()
}

// Mul allocates r = n·o and enforces n · o = r (1 aux, 1 constraint).
func (n *AllocatedNum) Mul(sys cs.ConstraintSystem, o *AllocatedNum) AllocatedNum {
	var v fr.Element
	v.Mul(&n.Val, &o.Val)
	r := sys.Alloc(&v)
	sys.Enforce(cs.LC{term(&frOne, n.Var)}, cs.LC{term(&frOne, o.Var)}, cs.LC{term(&frOne, r)})
	return AllocatedNum{Var: r, Val: v}
}

// Square allocates r = n² and enforces n · n = r (1 aux, 1 constraint).
func (n *AllocatedNum) Square(sys cs.ConstraintSystem) AllocatedNum {
	var v fr.Element
	v.Square(&n.Val)
	r := sys.Alloc(&v)
	sys.Enforce(cs.LC{term(&frOne, n.Var)}, cs.LC{term(&frOne, n.Var)}, cs.LC{term(&frOne, r)})
	return AllocatedNum{Var: r, Val: v}
}

// Add allocates r = n + o and enforces (n + o) · ONE = r (AllocatedNum::add;
// also storage-proofs constraint::add and encode).
func (n *AllocatedNum) Add(sys cs.ConstraintSystem, o *AllocatedNum) AllocatedNum {
	var v fr.Element
	v.Add(&n.Val, &o.Val)
	r := sys.Alloc(&v)
	sys.Enforce(cs.LC{term(&frOne, n.Var), term(&frOne, o.Var)}, cs.LC{term(&frOne, cs.One)}, cs.LC{term(&frOne, r)})
	return AllocatedNum{Var: r, Val: v}
}

// Num is a value with a linear combination; it creates no constraints.
// Mirrors bellpepper-core gadgets/num.rs Num. LC may hold duplicate
// variables; constraint systems merge them.
type Num struct {
	LC  cs.LC
	Val fr.Element
}

// NumFrom returns the Num 1·n.
func NumFrom(n *AllocatedNum) Num {
	return Num{LC: cs.LC{term(&frOne, n.Var)}, Val: n.Val}
}

// AddBoolWithCoeff adds bit.lc(ONE, coeff) to the LC and coeff to the value
// if the bit is set.
func (m *Num) AddBoolWithCoeff(bit Boolean, coeff *fr.Element) {
	var neg fr.Element
	neg.Neg(coeff)
	m.LC = appendLC(m.LC, bit, coeff, &neg)
	if bit.Value() {
		m.Val.Add(&m.Val, coeff)
	}
}

// Add adds o's LC and value.
func (m *Num) Add(o *Num) {
	m.LC = append(m.LC, o.LC...)
	m.Val.Add(&m.Val, &o.Val)
}

// Scale multiplies every coefficient and the value by k.
func (m *Num) Scale(k *fr.Element) {
	for i := range m.LC {
		m.LC[i].Coeff.Mul(&m.LC[i].Coeff, k)
	}
	m.Val.Mul(&m.Val, k)
}

// ScaledLC returns a new LC equal to coeff · m.LC (Num::lc).
func (m *Num) ScaledLC(coeff *fr.Element) cs.LC {
	out := make(cs.LC, len(m.LC))
	for i := range m.LC {
		out[i].Var = m.LC[i].Var
		out[i].Coeff.Mul(&m.LC[i].Coeff, coeff)
	}
	return out
}

// Equal mirrors storage-proofs-core gadgets/constraint.rs equal:
// a · ONE = b (1 constraint).
func Equal(sys cs.ConstraintSystem, a, b *AllocatedNum) {
	sys.Enforce(cs.LC{term(&frOne, a.Var)}, cs.LC{term(&frOne, cs.One)}, cs.LC{term(&frOne, b.Var)})
}

// Encode mirrors storage-proofs-core gadgets/encode.rs encode (= constraint
// add): alloc res = key + value; (key + value) · ONE = res (1 aux, 1
// constraint).
func Encode(sys cs.ConstraintSystem, key, value *AllocatedNum) AllocatedNum {
	return key.Add(sys, value)
}
