// SPDX-License-Identifier: Apache-2.0 OR MIT

package gadget

import (
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
)

// AllocatedBit is an aux variable constrained (or known by construction) to
// be 0 or 1, with its value. Mirrors bellpepper-core gadgets/boolean.rs.
type AllocatedBit struct {
	Var cs.Variable
	Val bool
}

// BoolKind tells how a Boolean relates to its variable.
type BoolKind uint8

const (
	// KindConstant is a constant bit (no variable).
	KindConstant BoolKind = iota
	// KindIs is the allocated bit itself.
	KindIs
	// KindNot is the negation of the allocated bit.
	KindNot
)

// Boolean is bellpepper's Boolean: Is(bit), Not(bit) or Constant(b).
// The zero value is Constant(false).
type Boolean struct {
	v    cs.Variable
	kind BoolKind
	bit  bool // Constant: the constant; Is/Not: the allocated bit's value
}

// Constant returns Boolean::Constant(b).
func Constant(b bool) Boolean { return Boolean{kind: KindConstant, bit: b} }

// Is returns Boolean::Is(bit).
func Is(bit AllocatedBit) Boolean { return Boolean{v: bit.Var, kind: KindIs, bit: bit.Val} }

// Kind returns the kind of b.
func (b Boolean) Kind() BoolKind { return b.kind }

// IsConstant reports whether b is a constant.
func (b Boolean) IsConstant() bool { return b.kind == KindConstant }

// Bit returns the underlying allocated bit of an Is/Not Boolean.
func (b Boolean) Bit() AllocatedBit { return AllocatedBit{Var: b.v, Val: b.bit} }

// Variable returns the underlying variable of an Is/Not Boolean.
func (b Boolean) Variable() cs.Variable { return b.v }

// Value returns the Boolean's value.
func (b Boolean) Value() bool {
	if b.kind == KindNot {
		return !b.bit
	}
	return b.bit
}

// Not returns the negation (no constraint): Is ↔ Not, constants flip.
func (b Boolean) Not() Boolean {
	switch b.kind {
	case KindConstant:
		b.bit = !b.bit
	case KindIs:
		b.kind = KindNot
	default:
		b.kind = KindIs
	}
	return b
}

func (b Boolean) isConst(v bool) bool { return b.kind == KindConstant && b.bit == v }

// appendLC appends b.lc(ONE, coeff) to lc: Constant(true) → coeff·ONE,
// Constant(false) → nothing, Is(v) → coeff·v, Not(v) → coeff·ONE − coeff·v.
// neg must be −coeff.
func appendLC(lc cs.LC, b Boolean, coeff, neg *fr.Element) cs.LC {
	switch b.kind {
	case KindConstant:
		if b.bit {
			lc = append(lc, term(coeff, cs.One))
		}
	case KindIs:
		lc = append(lc, term(coeff, b.v))
	default:
		lc = append(lc, term(coeff, cs.One), term(neg, b.v))
	}
	return lc
}

// LC returns b.lc(ONE, coeff) as a new linear combination.
func (b Boolean) LC(coeff fr.Element) cs.LC {
	var neg fr.Element
	neg.Neg(&coeff)
	return appendLC(nil, b, &coeff, &neg)
}

// allocBit: alloc v; enforce (ONE − v) · v = 0.
func (s *synth) allocBit(val bool) AllocatedBit {
	v := s.sys.Alloc(frBit(val))
	if s.ev != nil {
		s.ev.EnforceEvaluated(frBit(!val), frBit(val), &frZero, a1(v), b1(v))
		return AllocatedBit{Var: v, Val: val}
	}
	s.reset()
	s.a = append(s.a, term(&frOne, cs.One), term(&frMinusOne, v))
	s.b = append(s.b, term(&frOne, v))
	s.enforce()
	return AllocatedBit{Var: v, Val: val}
}

// xorBits: alloc c; enforce (a + a) · b = a + b − c.
func (s *synth) xorBits(a, b AllocatedBit) AllocatedBit {
	val := a.Val != b.Val
	c := s.sys.Alloc(frBit(val))
	if s.ev != nil { // a + b − c = 2(a ∧ b)
		s.ev.EnforceEvaluated(frInt(2*b2i(a.Val)), frBit(b.Val), frInt(2*b2i(a.Val && b.Val)), a1(a.Var), b1(b.Var))
		return AllocatedBit{Var: c, Val: val}
	}
	s.reset()
	s.a = append(s.a, term(&frTwo, a.Var)) // a + a, merged
	s.b = append(s.b, term(&frOne, b.Var))
	s.c = append(s.c, term(&frOne, a.Var), term(&frOne, b.Var), term(&frMinusOne, c))
	s.enforce()
	return AllocatedBit{Var: c, Val: val}
}

// andBits: alloc c; enforce a · b = c.
func (s *synth) andBits(a, b AllocatedBit) AllocatedBit {
	val := a.Val && b.Val
	c := s.sys.Alloc(frBit(val))
	if s.ev != nil {
		s.ev.EnforceEvaluated(frBit(a.Val), frBit(b.Val), frBit(val), a1(a.Var), b1(b.Var))
		return AllocatedBit{Var: c, Val: val}
	}
	s.reset()
	s.a = append(s.a, term(&frOne, a.Var))
	s.b = append(s.b, term(&frOne, b.Var))
	s.c = append(s.c, term(&frOne, c))
	s.enforce()
	return AllocatedBit{Var: c, Val: val}
}

// andNotBits: alloc c; enforce a · (ONE − b) = c.
func (s *synth) andNotBits(a, b AllocatedBit) AllocatedBit {
	val := a.Val && !b.Val
	c := s.sys.Alloc(frBit(val))
	if s.ev != nil && b.Var != cs.One {
		s.ev.EnforceEvaluated(frBit(a.Val), frBit(!b.Val), frBit(val), a1(a.Var), b2(cs.One, b.Var))
		return AllocatedBit{Var: c, Val: val}
	}
	s.reset()
	s.a = append(s.a, term(&frOne, a.Var))
	s.b = append(s.b, term(&frOne, cs.One), term(&frMinusOne, b.Var))
	s.c = append(s.c, term(&frOne, c))
	s.enforce()
	return AllocatedBit{Var: c, Val: val}
}

// norBits: alloc c; enforce (ONE − a) · (ONE − b) = c.
func (s *synth) norBits(a, b AllocatedBit) AllocatedBit {
	val := !a.Val && !b.Val
	c := s.sys.Alloc(frBit(val))
	if s.ev != nil && b.Var != cs.One {
		s.ev.EnforceEvaluated(frBit(!a.Val), frBit(!b.Val), frBit(val), a1(a.Var), b2(cs.One, b.Var))
		return AllocatedBit{Var: c, Val: val}
	}
	s.reset()
	s.a = append(s.a, term(&frOne, cs.One), term(&frMinusOne, a.Var))
	s.b = append(s.b, term(&frOne, cs.One), term(&frMinusOne, b.Var))
	s.c = append(s.c, term(&frOne, c))
	s.enforce()
	return AllocatedBit{Var: c, Val: val}
}

// xor mirrors Boolean::xor: the first matching rule applies.
func (s *synth) xor(a, b Boolean) Boolean {
	switch {
	case a.isConst(false):
		return b
	case b.isConst(false):
		return a
	case a.isConst(true):
		return b.Not()
	case b.isConst(true):
		return a.Not()
	case a.kind == KindIs && b.kind == KindNot:
		return Is(s.xorBits(a.Bit(), b.Bit())).Not()
	case a.kind == KindNot && b.kind == KindIs:
		return Is(s.xorBits(b.Bit(), a.Bit())).Not()
	default: // Is,Is or Not,Not
		return Is(s.xorBits(a.Bit(), b.Bit()))
	}
}

// and mirrors Boolean::and.
func (s *synth) and(a, b Boolean) Boolean {
	switch {
	case a.isConst(false) || b.isConst(false):
		return Constant(false)
	case a.isConst(true):
		return b
	case b.isConst(true):
		return a
	case a.kind == KindIs && b.kind == KindNot:
		return Is(s.andNotBits(a.Bit(), b.Bit()))
	case a.kind == KindNot && b.kind == KindIs:
		return Is(s.andNotBits(b.Bit(), a.Bit()))
	case a.kind == KindNot && b.kind == KindNot:
		return Is(s.norBits(a.Bit(), b.Bit()))
	default:
		return Is(s.andBits(a.Bit(), b.Bit()))
	}
}

// sha256Ch mirrors Boolean::sha256_ch: (a ∧ b) ⊕ (¬a ∧ c), rules in order.
func (s *synth) sha256Ch(a, b, c Boolean) Boolean {
	val := (a.Value() && b.Value()) != (!a.Value() && c.Value())
	switch {
	case a.IsConstant() && b.IsConstant() && c.IsConstant():
		return Constant(val)
	case a.isConst(false):
		return c
	case b.isConst(false):
		return s.and(a.Not(), c)
	case c.isConst(false):
		return s.and(a, b)
	case c.isConst(true):
		return s.and(a, b.Not()).Not()
	case b.isConst(true):
		return s.and(a.Not(), c.Not()).Not()
	}
	// a may still be Constant(true): fall through to the general case.
	ch := s.sys.Alloc(frBit(val))
	if s.ev != nil && b.v != c.v { // b, c are Is/Not here; equal variables would merge
		bv, cv := b.Value(), c.Value()
		s.ev.EnforceEvaluated(frInt(b2i(bv)-b2i(cv)), frBit(a.Value()), frInt(b2i(val)-b2i(cv)), a2(b.v, c.v), lcVars(a))
		return Is(AllocatedBit{Var: ch, Val: val})
	}
	s.reset()
	// (b − c) · a = ch − c
	s.a = appendLC(s.a, b, &frOne, &frMinusOne)
	s.a = appendLC(s.a, c, &frMinusOne, &frOne)
	s.b = appendLC(s.b, a, &frOne, &frMinusOne)
	s.c = append(s.c, term(&frOne, ch))
	s.c = appendLC(s.c, c, &frMinusOne, &frOne)
	s.enforce()
	return Is(AllocatedBit{Var: ch, Val: val})
}

// sha256Maj mirrors Boolean::sha256_maj: (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c).
func (s *synth) sha256Maj(a, b, c Boolean) Boolean {
	av, bv, cv := a.Value(), b.Value(), c.Value()
	val := (av && bv) != (av && cv) != (bv && cv)
	switch {
	case a.IsConstant() && b.IsConstant() && c.IsConstant():
		return Constant(val)
	case a.isConst(false):
		return s.and(b, c)
	case b.isConst(false):
		return s.and(a, c)
	case c.isConst(false):
		return s.and(a, b)
	case c.isConst(true):
		return s.and(a.Not(), b.Not()).Not()
	case b.isConst(true):
		return s.and(a.Not(), c.Not()).Not()
	case a.isConst(true):
		return s.and(b.Not(), c.Not()).Not()
	}
	maj := s.sys.Alloc(frBit(val)) // allocated before bc, as upstream
	bc := s.and(b, c)
	if s.ev != nil && b.v != c.v && bc.kind == KindIs { // equal variables would merge
		bcv := bc.Value()
		s.ev.EnforceEvaluated(frInt(2*b2i(bcv)-b2i(bv)-b2i(cv)), frBit(av), frInt(b2i(bcv)-b2i(val)), a3(bc.v, b.v, c.v), lcVars(a))
		return Is(AllocatedBit{Var: maj, Val: val})
	}
	s.reset()
	// (2bc − b − c) · a = bc − maj
	s.a = appendLC(s.a, bc, &frTwo, &negPow2[1])
	s.a = appendLC(s.a, b, &frMinusOne, &frOne)
	s.a = appendLC(s.a, c, &frMinusOne, &frOne)
	s.b = appendLC(s.b, a, &frOne, &frMinusOne)
	s.c = appendLC(s.c, bc, &frOne, &frMinusOne)
	s.c = append(s.c, term(&frMinusOne, maj))
	s.enforce()
	return Is(AllocatedBit{Var: maj, Val: val})
}

// AllocBit allocates a bit with its booleanity constraint (1 aux, 1
// constraint). Mirrors AllocatedBit::alloc.
func AllocBit(sys cs.ConstraintSystem, val bool) AllocatedBit {
	s := acquire(sys)
	defer release(s)
	return s.allocBit(val)
}

// XorBits mirrors AllocatedBit::xor (1 aux, 1 constraint).
func XorBits(sys cs.ConstraintSystem, a, b AllocatedBit) AllocatedBit {
	s := acquire(sys)
	defer release(s)
	return s.xorBits(a, b)
}

// AndBits mirrors AllocatedBit::and (1 aux, 1 constraint).
func AndBits(sys cs.ConstraintSystem, a, b AllocatedBit) AllocatedBit {
	s := acquire(sys)
	defer release(s)
	return s.andBits(a, b)
}

// AndNotBits mirrors AllocatedBit::and_not: a ∧ ¬b (1 aux, 1 constraint).
func AndNotBits(sys cs.ConstraintSystem, a, b AllocatedBit) AllocatedBit {
	s := acquire(sys)
	defer release(s)
	return s.andNotBits(a, b)
}

// NorBits mirrors AllocatedBit::nor: ¬a ∧ ¬b (1 aux, 1 constraint).
func NorBits(sys cs.ConstraintSystem, a, b AllocatedBit) AllocatedBit {
	s := acquire(sys)
	defer release(s)
	return s.norBits(a, b)
}

// Xor mirrors Boolean::xor (constants fold; 0 or 1 constraint).
func Xor(sys cs.ConstraintSystem, a, b Boolean) Boolean {
	s := acquire(sys)
	defer release(s)
	return s.xor(a, b)
}

// And mirrors Boolean::and (constants fold; 0 or 1 constraint).
func And(sys cs.ConstraintSystem, a, b Boolean) Boolean {
	s := acquire(sys)
	defer release(s)
	return s.and(a, b)
}

// SHA256Ch mirrors Boolean::sha256_ch (0 or 1 constraint).
func SHA256Ch(sys cs.ConstraintSystem, a, b, c Boolean) Boolean {
	s := acquire(sys)
	defer release(s)
	return s.sha256Ch(a, b, c)
}

// SHA256Maj mirrors Boolean::sha256_maj (0, 1 or 2 constraints).
func SHA256Maj(sys cs.ConstraintSystem, a, b, c Boolean) Boolean {
	s := acquire(sys)
	defer release(s)
	return s.sha256Maj(a, b, c)
}

// EnforceEqual mirrors Boolean::enforce_equal: for two constants it returns
// an error if they differ; otherwise one constraint 0 · 0 = a − b (with the
// constant cases ONE − a, and a).
func EnforceEqual(sys cs.ConstraintSystem, a, b Boolean) error {
	s := acquire(sys)
	defer release(s)
	s.reset()
	switch {
	case a.IsConstant() && b.IsConstant():
		if a.bit != b.bit {
			return errUnsatisfiable
		}
		return nil
	case a.isConst(true) || b.isConst(true):
		x := b
		if b.isConst(true) {
			x = a
		}
		s.c = append(s.c, term(&frOne, cs.One))
		s.c = appendLC(s.c, x, &frMinusOne, &frOne)
	case a.isConst(false) || b.isConst(false):
		x := b
		if b.isConst(false) {
			x = a
		}
		s.c = appendLC(s.c, x, &frOne, &frMinusOne)
	default:
		s.c = appendLC(s.c, a, &frOne, &frMinusOne)
		s.c = appendLC(s.c, b, &frMinusOne, &frOne)
	}
	s.enforce()
	return nil
}
