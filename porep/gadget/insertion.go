// SPDX-License-Identifier: Apache-2.0 OR MIT

package gadget

import (
	"fmt"

	"github.com/cuseal/cuseal/porep/cs"
)

// pick: alloc c = cond ? a : b; enforce (b − a) · cond = b − c.
func (s *synth) pick(cond Boolean, a, b *AllocatedNum) AllocatedNum {
	// Values handed to sys live in s.vals: locals would escape through
	// the interface, one heap allocation each.
	val, va, vc := &s.vals[0], &s.vals[1], &s.vals[2]
	*val = b.Val
	if cond.Value() {
		*val = a.Val
	}
	c := s.sys.Alloc(val)
	if s.ev != nil && a.Var != b.Var { // b − a does not merge to zero
		va.Sub(&b.Val, &a.Val)
		vc.Sub(&b.Val, val)
		s.ev.EnforceEvaluated(va, frBit(cond.Value()), vc, a2(b.Var, a.Var), lcVars(cond))
		return AllocatedNum{Var: c, Val: *val}
	}
	s.reset()
	s.a = append(s.a, term(&frOne, b.Var), term(&frMinusOne, a.Var))
	s.b = appendLC(s.b, cond, &frOne, &frMinusOne)
	s.c = append(s.c, term(&frOne, b.Var), term(&frMinusOne, c))
	s.enforce()
	return AllocatedNum{Var: c, Val: *val}
}

// Pick mirrors storage-proofs-core gadgets/insertion.rs pick: returns a if
// cond else b (1 aux, 1 constraint).
func Pick(sys cs.ConstraintSystem, cond Boolean, a, b *AllocatedNum) AllocatedNum {
	s := acquire(sys)
	defer release(s)
	return s.pick(cond, a, b)
}

// Insert mirrors insertion.rs insert: places x at index n (bits, LSB first)
// among the len(bits)²−1 elements, returning 2^len(bits) numbers. Arity 2,
// 4 and 8 use the hand-optimised orders (2, 8, 22 constraints); others use
// the generic select per position (size·(size−1) constraints). Arity 8
// requires its first two bits to be Is (allocated, unnegated), as upstream.
func Insert(sys cs.ConstraintSystem, x *AllocatedNum, bits []Boolean, elems []AllocatedNum) ([]AllocatedNum, error) {
	return insertInto(nil, sys, x, bits, elems)
}

// insertInto is Insert writing into dst's storage when it is large enough
// (the path gadgets reuse one buffer per path).
func insertInto(dst []AllocatedNum, sys cs.ConstraintSystem, x *AllocatedNum, bits []Boolean, elems []AllocatedNum) ([]AllocatedNum, error) {
	size := len(elems) + 1
	if len(bits) >= 31 || 1<<len(bits) != size {
		return nil, fmt.Errorf("gadget: insert: %d elements + 1 is not 2^%d", len(elems), len(bits))
	}
	s := acquire(sys)
	defer release(s)
	dst = dst[:0]
	switch size {
	case 2:
		return append(dst,
			s.pick(bits[0], &elems[0], x),
			s.pick(bits[0], x, &elems[0]),
		), nil
	case 4:
		b0, b1 := bits[0], bits[1]
		a, b, c, d := x, &elems[0], &elems[1], &elems[2]
		p0x0 := s.pick(b0, b, a)
		p0 := s.pick(b1, b, &p0x0)
		p1x0 := s.pick(b0, a, b)
		p1 := s.pick(b1, c, &p1x0)
		p2x1 := s.pick(b0, d, a)
		p2 := s.pick(b1, &p2x1, c)
		p3x1 := s.pick(b0, a, d)
		p3 := s.pick(b1, &p3x1, d)
		return append(dst, p0, p1, p2, p3), nil
	case 8:
		b0, b1, b2 := bits[0], bits[1], bits[2]
		if b0.Kind() != KindIs || b1.Kind() != KindIs {
			return nil, fmt.Errorf("gadget: insert 8: bits must be allocated and unnegated")
		}
		a, b, c, d, e, f, g, h := x, &elems[0], &elems[1], &elems[2], &elems[3], &elems[4], &elems[5], &elems[6]
		nor := Is(s.norBits(b0.Bit(), b1.Bit()))
		and := Is(s.andBits(b0.Bit(), b1.Bit()))
		p0xx0 := s.pick(nor, a, b)
		p0 := s.pick(b2, b, &p0xx0)
		p1x00 := s.pick(b0, a, b)
		p1xx0 := s.pick(b1, c, &p1x00)
		p1 := s.pick(b2, c, &p1xx0)
		p2x10 := s.pick(b0, d, a)
		p2xx0 := s.pick(b1, &p2x10, c)
		p2 := s.pick(b2, d, &p2xx0)
		p3xx0 := s.pick(and, a, d)
		p3 := s.pick(b2, e, &p3xx0)
		p4xx1 := s.pick(nor, a, f)
		p4 := s.pick(b2, &p4xx1, e)
		p5x01 := s.pick(b0, a, f)
		p5xx1 := s.pick(b1, g, &p5x01)
		p5 := s.pick(b2, &p5xx1, f)
		p6x11 := s.pick(b0, h, a)
		p6xx1 := s.pick(b1, &p6x11, g)
		p6 := s.pick(b2, &p6xx1, g)
		p7xx1 := s.pick(and, a, h)
		p7 := s.pick(b2, &p7xx1, h)
		return append(dst, p0, p1, p2, p3, p4, p5, p6, p7), nil
	}
	// Generic: position pos takes choices[index] = potential_results[index][pos].
	out := make([]AllocatedNum, size)
	choices := make([]AllocatedNum, size)
	for pos := 0; pos < size; pos++ {
		for index := 0; index < size; index++ {
			switch {
			case pos < index:
				choices[index] = elems[pos]
			case pos == index:
				choices[index] = *x
			default:
				choices[index] = elems[pos-1]
			}
		}
		out[pos] = s.selectNum(choices, bits)
	}
	return out, nil
}

// selectNum mirrors insertion.rs select: a binary tree of picks consuming
// the bits most significant first (len(from)−1 constraints).
func (s *synth) selectNum(from []AllocatedNum, bits []Boolean) AllocatedNum {
	state := append([]AllocatedNum(nil), from...)
	half := len(from) / 2
	for i := len(bits) - 1; i >= 0; i-- {
		next := make([]AllocatedNum, half)
		for j := 0; j < half; j++ {
			next[j] = s.pick(bits[i], &state[half+j], &state[j])
		}
		state = next
		half /= 2
	}
	return state[0]
}

// Select mirrors insertion.rs select: returns from[n] for n given by bits
// (LSB first); len(from) must be 2^len(bits).
func Select(sys cs.ConstraintSystem, from []AllocatedNum, bits []Boolean) (AllocatedNum, error) {
	if len(bits) >= 31 || 1<<len(bits) != len(from) {
		return AllocatedNum{}, fmt.Errorf("gadget: select: %d elements is not 2^%d", len(from), len(bits))
	}
	s := acquire(sys)
	defer release(s)
	return s.selectNum(from, bits), nil
}
