// SPDX-License-Identifier: Apache-2.0 OR MIT

package gadget

import (
	"fmt"
	"math/bits"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
)

// UInt32 is 32 Booleans, least significant first, with the value.
// Mirrors bellperson src/gadgets/uint32.rs.
type UInt32 struct {
	Bits  [32]Boolean
	Value uint32
}

// UInt32Constant returns UInt32::constant(v): 32 constant bits.
func UInt32Constant(v uint32) UInt32 {
	var u UInt32
	u.Value = v
	for i := range u.Bits {
		u.Bits[i] = Constant(v>>uint(i)&1 == 1)
	}
	return u
}

// UInt32FromBitsBE is UInt32::from_bits_be: bits[0] is the most
// significant bit.
func UInt32FromBitsBE(b []Boolean) UInt32 {
	var u UInt32
	for i := 0; i < 32; i++ {
		u.Bits[31-i] = b[i]
		u.Value <<= 1
		if b[i].Value() {
			u.Value |= 1
		}
	}
	return u
}

// AppendBitsBE appends the bits most significant first (into_bits_be).
func (u *UInt32) AppendBitsBE(dst []Boolean) []Boolean {
	for i := 31; i >= 0; i-- {
		dst = append(dst, u.Bits[i])
	}
	return dst
}

// BitsBE returns the bits most significant first (UInt32::into_bits_be).
func (u *UInt32) BitsBE() []Boolean { return u.AppendBitsBE(make([]Boolean, 0, 32)) }

// Rotr returns the value rotated right by k (bits[k..] ++ bits[..k]).
func (u *UInt32) Rotr(k int) UInt32 {
	k %= 32
	var r UInt32
	for i := 0; i < 32; i++ {
		r.Bits[i] = u.Bits[(i+k)%32]
	}
	r.Value = bits.RotateLeft32(u.Value, -k)
	return r
}

// Shr returns the value shifted right by k (bits[k..] ++ k × false).
func (u *UInt32) Shr(k int) UInt32 {
	k %= 32
	var r UInt32
	for i := 0; i+k < 32; i++ {
		r.Bits[i] = u.Bits[i+k]
	}
	r.Value = u.Value >> uint(k)
	return r
}

// xor32 sets r = a ⊕ b bitwise (Boolean::xor for bit 0..31).
func (s *synth) xor32(r, a, b *UInt32) {
	for i := 0; i < 32; i++ {
		r.Bits[i] = s.xor(a.Bits[i], b.Bits[i])
	}
	r.Value = a.Value ^ b.Value
}

// ch32 sets r = sha256_ch(a, b, c) bitwise.
func (s *synth) ch32(r, a, b, c *UInt32) {
	for i := 0; i < 32; i++ {
		r.Bits[i] = s.sha256Ch(a.Bits[i], b.Bits[i], c.Bits[i])
	}
	r.Value = (a.Value & b.Value) ^ (^a.Value & c.Value)
}

// maj32 sets r = sha256_maj(a, b, c) bitwise.
func (s *synth) maj32(r, a, b, c *UInt32) {
	for i := 0; i < 32; i++ {
		r.Bits[i] = s.sha256Maj(a.Bits[i], b.Bits[i], c.Bits[i])
	}
	r.Value = (a.Value & b.Value) ^ (a.Value & c.Value) ^ (b.Value & c.Value)
}

// UInt32Xor mirrors UInt32::xor.
func UInt32Xor(sys cs.ConstraintSystem, a, b *UInt32) UInt32 {
	s := acquire(sys)
	defer release(s)
	var r UInt32
	s.xor32(&r, a, b)
	return r
}

// multiEq mirrors bellperson src/gadgets/multieq.rs: it packs several
// equalities lhs_k = rhs_k of n_k-bit quantities into one constraint
// (Σ 2^{off_k}·lhs_k) · ONE = Σ 2^{off_k}·rhs_k, flushing when the next
// one would not fit below Capacity bits.
type multiEq struct {
	bitsUsed int
	lhs, rhs cs.LC
	lhsOne   fr.Element // merged coefficient of ONE in lhs
	hasOne   bool
	// val is Σ 2^off·(operand sum) of the pending equalities: the value of
	// both sides. With an EvaluatedEnforcer, rhs is not built (C has no
	// density) and lhs serves A's density only.
	val fr.Element
}

// flush emits the accumulated constraint and resets (MultiEq::accumulate).
func (s *synth) flushMultiEq() {
	m := &s.meq
	if s.ev != nil {
		s.ev.EnforceEvaluatedLC(&m.val, &frOne, &m.val, m.lhs, b1(cs.One))
	} else {
		if m.hasOne {
			m.lhs = append(m.lhs, cs.Term{Coeff: m.lhsOne, Var: cs.One})
		}
		s.reset()
		s.b = append(s.b, term(&frOne, cs.One))
		s.sys.Enforce(m.lhs, s.b, m.rhs)
	}
	m.lhs, m.rhs = m.lhs[:0], m.rhs[:0]
	m.lhsOne.SetZero()
	m.hasOne = false
	m.val.SetZero()
	m.bitsUsed = 0
}

// finishMultiEq is MultiEq's drop: flush if anything is pending.
func (s *synth) finishMultiEq() {
	if s.meq.bitsUsed > 0 {
		s.flushMultiEq()
	}
}

// addmany mirrors UInt32::addmany inside a MultiEq: the sum of 2..10
// operands modulo 2^32. All-constant operands fold to a constant;
// otherwise nbits = bitlen(|ops|·(2^32−1)) result bits are allocated (each
// with booleanity), then MultiEq.enforce_equal(nbits, Σ operands, Σ 2^i r_i)
// — which may first flush the pending constraint.
func (s *synth) addmany(ops []*UInt32) UInt32 {
	if len(ops) < 2 || len(ops) > 10 {
		panic(fmt.Sprintf("gadget: addmany of %d operands (want 2..10)", len(ops)))
	}
	var sum uint64
	allConst := true
	for _, op := range ops {
		sum += uint64(op.Value)
		if allConst {
			for i := range op.Bits {
				if !op.Bits[i].IsConstant() {
					allConst = false
					break
				}
			}
		}
	}
	if allConst {
		return UInt32Constant(uint32(sum))
	}
	nbits := bits.Len64(uint64(len(ops)) * 0xffffffff)

	var res UInt32
	res.Value = uint32(sum)
	var rvars [36]cs.Variable // 10 operands need 36 bits
	for i := 0; i < nbits; i++ {
		b := s.allocBit(sum>>uint(i)&1 == 1)
		rvars[i] = b.Var
		if i < 32 {
			res.Bits[i] = Is(b)
		}
	}

	m := &s.meq
	if Capacity <= m.bitsUsed+nbits {
		s.flushMultiEq()
	}
	off := m.bitsUsed
	for _, op := range ops {
		for i := range op.Bits {
			b := op.Bits[i]
			k := off + i
			switch b.kind {
			case KindConstant:
				if b.bit {
					m.lhsOne.Add(&m.lhsOne, &pow2[k])
					m.hasOne = true
				}
			case KindIs:
				m.lhs = append(m.lhs, cs.Term{Coeff: pow2[k], Var: b.v})
			default:
				m.lhsOne.Add(&m.lhsOne, &pow2[k])
				m.hasOne = true
				m.lhs = append(m.lhs, cs.Term{Coeff: negPow2[k], Var: b.v})
			}
		}
	}
	if s.ev != nil {
		var v fr.Element
		v.SetUint64(sum)
		v.Mul(&v, &pow2[off])
		m.val.Add(&m.val, &v)
	} else {
		for i := 0; i < nbits; i++ {
			m.rhs = append(m.rhs, cs.Term{Coeff: pow2[off+i], Var: rvars[i]})
		}
	}
	m.bitsUsed += nbits
	return res
}
