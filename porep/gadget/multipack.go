// SPDX-License-Identifier: Apache-2.0 OR MIT

package gadget

import (
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
)

// packValue returns Σ 2^i·bits[i] for len(bits) ≤ Capacity.
func packValue(bits []Boolean) fr.Element {
	var limbs [4]uint64
	for i, b := range bits {
		if b.Value() {
			limbs[i/64] |= 1 << (uint(i) % 64)
		}
	}
	var buf [32]byte
	for i, l := range limbs {
		for j := 0; j < 8; j++ {
			buf[8*i+j] = byte(l >> (8 * j))
		}
	}
	v, err := fr.LittleEndian.Element(&buf)
	if err != nil { // unreachable: fewer than 255 bits are always < p
		panic(err)
	}
	return v
}

// packLC appends Σ 2^i·bits[i].lc(ONE) to lc.
func packLC(lc cs.LC, bits []Boolean) cs.LC {
	for i, b := range bits {
		lc = appendLC(lc, b, &pow2[i], &negPow2[i])
	}
	return lc
}

// PackIntoInputs mirrors bellperson multipack::pack_into_inputs: for each
// chunk of up to 254 bits (LSB first), alloc_input x = Σ 2^i·bit_i and
// enforce (Σ 2^i·bit_i) · ONE = x (1 input, 1 constraint per chunk).
func PackIntoInputs(sys cs.ConstraintSystem, bits []Boolean) {
	s := acquire(sys)
	defer release(s)
	for off := 0; off < len(bits); off += Capacity {
		chunk := bits[off:min(off+Capacity, len(bits))]
		v := packValue(chunk)
		x := sys.AllocInput(&v)
		s.reset()
		s.a = packLC(s.a, chunk)
		s.b = append(s.b, term(&frOne, cs.One))
		s.c = append(s.c, term(&frOne, x))
		s.enforce()
	}
}

// PackBits mirrors multipack::pack_bits (storage-proofs / bellperson): takes
// the first 254 bits, allocates x = Σ 2^i·bit_i (aux) and enforces
// (Σ 2^i·bit_i) · ONE = x (1 aux, 1 constraint).
func PackBits(sys cs.ConstraintSystem, bits []Boolean) AllocatedNum {
	s := acquire(sys)
	defer release(s)
	return s.packBits(bits)
}

func (s *synth) packBits(bits []Boolean) AllocatedNum {
	if len(bits) > Capacity {
		bits = bits[:Capacity]
	}
	v := packValue(bits)
	x := s.sys.Alloc(&v)
	s.reset()
	s.a = packLC(s.a, bits)
	s.b = append(s.b, term(&frOne, cs.One))
	s.c = append(s.c, term(&frOne, x))
	s.enforce()
	return AllocatedNum{Var: x, Val: v}
}

// ComputeMultipacking is the native counterpart of PackIntoInputs
// (multipack::compute_multipacking): one field element per 254-bit chunk.
func ComputeMultipacking(bits []bool) []fr.Element {
	var out []fr.Element
	for off := 0; off < len(bits); off += Capacity {
		chunk := bits[off:min(off+Capacity, len(bits))]
		var acc fr.Element
		for i, b := range chunk {
			if b {
				acc.Add(&acc, &pow2[i])
			}
		}
		out = append(out, acc)
	}
	return out
}

// ReverseBitNumbering mirrors storage-proofs-core util.rs
// reverse_bit_numbering: pad with Constant(false) to a multiple of 8, then
// reverse the bit order inside each byte. Field-LE bits become the
// MSB-first bit stream of the little-endian byte encoding.
func ReverseBitNumbering(bits []Boolean) []Boolean {
	return AppendReverseBitNumbering(make([]Boolean, 0, (len(bits)+7)&^7), bits)
}

// AppendReverseBitNumbering is ReverseBitNumbering appending to dst.
func AppendReverseBitNumbering(dst, bits []Boolean) []Boolean {
	n := (len(bits) + 7) &^ 7
	for off := 0; off < n; off += 8 {
		for j := 7; j >= 0; j-- {
			if off+j < len(bits) {
				dst = append(dst, bits[off+j])
			} else {
				dst = append(dst, Constant(false))
			}
		}
	}
	return dst
}

// UInt64 is 64 Booleans, least significant first, with the value.
// Mirrors storage-proofs-core gadgets/uint64.rs.
type UInt64 struct {
	Bits  [64]Boolean
	Value uint64
}

// AllocUInt64 allocates 64 bits, LSB first, each with booleanity (64 aux,
// 64 constraints).
func AllocUInt64(sys cs.ConstraintSystem, v uint64) UInt64 {
	s := acquire(sys)
	defer release(s)
	u := UInt64{Value: v}
	for i := range u.Bits {
		u.Bits[i] = Is(s.allocBit(v>>uint(i)&1 == 1))
	}
	return u
}

// UInt64Constant returns UInt64::constant(v).
func UInt64Constant(v uint64) UInt64 {
	u := UInt64{Value: v}
	for i := range u.Bits {
		u.Bits[i] = Constant(v>>uint(i)&1 == 1)
	}
	return u
}

// BitsBE returns the bits most significant first (to_bits_be).
func (u *UInt64) BitsBE() []Boolean {
	out := make([]Boolean, 64)
	for i := range out {
		out[i] = u.Bits[63-i]
	}
	return out
}

// PackIntoInput mirrors UInt64::pack_into_input = pack_into_inputs(bits LE):
// 1 input (= Fr(v)), 1 constraint.
func (u *UInt64) PackIntoInput(sys cs.ConstraintSystem) {
	PackIntoInputs(sys, u.Bits[:])
}
