// SPDX-License-Identifier: Apache-2.0 OR MIT

package gadget

import (
	"sync"
	"sync/atomic"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
)

// Field constants shared by all gadgets. pow2[i] = 2^i, negPow2[i] = −2^i
// for i < 256 (MultiEq shifts stay below 254 + 35).
var (
	frZero, frOne, frMinusOne, frTwo fr.Element
	pow2, negPow2                    [300]fr.Element
)

func init() {
	frOne.SetOne()
	frMinusOne.Neg(&frOne)
	frTwo.SetUint64(2)
	pow2[0].SetOne()
	for i := 1; i < len(pow2); i++ {
		pow2[i].Double(&pow2[i-1])
	}
	for i := range pow2 {
		negPow2[i].Neg(&pow2[i])
	}
}

// Capacity is the number of bits that always fit in a field element
// (blstrs Scalar::CAPACITY = 254).
const Capacity = 254

// NumBits is the bit length of the field modulus (Scalar::NUM_BITS = 255).
const NumBits = 255

// frBit returns a pointer to the constant 1 or 0 (cs implementations copy
// the value, never retain the pointer).
func frBit(b bool) *fr.Element {
	if b {
		return &frOne
	}
	return &frZero
}

// synth is a ConstraintSystem plus scratch LCs reused across constraints,
// so that building a constraint does not allocate.
type synth struct {
	sys     cs.ConstraintSystem
	ev      cs.EvaluatedEnforcer // sys, where it takes evaluated constraints
	a, b, c cs.LC
	vals    [3]fr.Element // values handed to sys and ev (pick)
	meq     multiEq
	sha     shaScratch
}

var synthPool = sync.Pool{New: func() any {
	return &synth{a: make(cs.LC, 0, 64), b: make(cs.LC, 0, 64), c: make(cs.LC, 0, 512)}
}}

func acquire(sys cs.ConstraintSystem) *synth {
	s := synthPool.Get().(*synth)
	s.sys = sys
	s.ev = nil
	if evaluatedPath.Load() {
		s.ev, _ = sys.(cs.EvaluatedEnforcer)
	}
	return s
}

func release(s *synth) {
	s.sys, s.ev = nil, nil
	synthPool.Put(s)
}

// enforce emits the constraint held in s.a, s.b, s.c.
func (s *synth) enforce() { s.sys.Enforce(s.a, s.b, s.c) }

// reset clears the scratch LCs.
func (s *synth) reset() {
	s.a, s.b, s.c = s.a[:0], s.b[:0], s.c[:0]
}

// evaluatedPath lets the bit gadgets hand their known LC values to an
// EvaluatedEnforcer instead of building LCs (tests switch it off to compare;
// atomic, so that doing so races with no synthesis).
var evaluatedPath = func() *atomic.Bool { var b atomic.Bool; b.Store(true); return &b }()

// small[k+2] = k for k in −2..2: the values a bit gadget's LCs take.
var small = func() (t [5]fr.Element) {
	for k := range t {
		t[k].SetInt64(int64(k - 2))
	}
	return t
}()

// frInt returns a pointer to the constant k (−2 ≤ k ≤ 2).
func frInt(k int) *fr.Element { return &small[k+2] }

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// a1, a2, a3 and b1, b2 fill EnforceEvaluated's variable lists.
func a1(v cs.Variable) [3]cs.Variable       { return [3]cs.Variable{v, cs.NoVar, cs.NoVar} }
func a2(v, w cs.Variable) [3]cs.Variable    { return [3]cs.Variable{v, w, cs.NoVar} }
func a3(u, v, w cs.Variable) [3]cs.Variable { return [3]cs.Variable{u, v, w} }
func b1(v cs.Variable) [2]cs.Variable       { return [2]cs.Variable{v, cs.NoVar} }
func b2(v, w cs.Variable) [2]cs.Variable    { return [2]cs.Variable{v, w} }

// lcVars returns the variables of b.lc(ONE, ±1) with a non-zero
// coefficient: Is → v, Not → ONE and v, Constant(true) → ONE.
func lcVars(b Boolean) [2]cs.Variable {
	switch b.kind {
	case KindIs:
		return b1(b.v)
	case KindNot:
		return b2(cs.One, b.v)
	}
	if b.bit {
		return b1(cs.One)
	}
	return b1(cs.NoVar)
}

func term(c *fr.Element, v cs.Variable) cs.Term { return cs.Term{Coeff: *c, Var: v} }
