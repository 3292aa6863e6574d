// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import (
	"math/bits"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// BlockEnforcer is implemented by the constraint systems that keep only
// evaluations and densities (ProvingAssignment, Segment), for gadgets whose
// R1CS is a fixed template in which the k-th new aux variable is allocated
// just before the k-th constraint (Poseidon, poseidon.HashCircuit). Such a
// gadget knows every value from its native computation and every density
// from the template, so it writes them in place: the result must be exactly
// what n × (Alloc, Enforce) would store (gadget tests compare both paths
// element for element).
type BlockEnforcer interface {
	// EvaluatedBlock appends n aux variables and n constraints and returns
	// the first new variable (the k-th is Aux(first.Index()+k)) with the
	// slots the caller must fill before it uses the system again: aux[k]
	// the k-th variable's value, a[k], b[k], c[k] the k-th constraint's
	// ⟨A,w⟩, ⟨B,w⟩, ⟨C,w⟩. Bit k of aDen (bDen) is set iff the k-th new
	// variable has a non-zero merged coefficient in some A (B) of the
	// block; both hold at least ⌈n/64⌉ words and no bit at or past n.
	// Variables from outside the block are marked with MarkDensity.
	// ok is false when the system takes no block (it failed or has no
	// room; the error is recorded as Alloc and Enforce record theirs), and
	// then nothing is to be written.
	EvaluatedBlock(n int, aDen, bDen []uint64) (first Variable, aux, a, b, c []fr.Element, ok bool)
	// MarkDensity marks the A density of every aux variable of aVars
	// (inputs are always dense in A) and the B density of every variable
	// of bVars, as Enforce would for variables with a non-zero merged
	// coefficient; a Segment checks that each is visible to it (its error
	// names the same variable as Enforce's, with the range as it stands
	// after the block).
	MarkDensity(aVars, bVars []Variable)
}

// EvaluatedBlock implements BlockEnforcer.
func (p *ProvingAssignment) EvaluatedBlock(n int, aDen, bDen []uint64) (first Variable, aux, a, b, c []fr.Element, ok bool) {
	base, c0 := len(p.aux), len(p.a)
	p.aux = extend(p.aux, base+n, 0)
	p.a = extend(p.a, c0+n, 0)
	p.b = extend(p.b, c0+n, 0)
	p.c = extend(p.c, c0+n, 0)
	p.aDenAux.addBlock(n, aDen)
	p.bDenAux.addBlock(n, bDen)
	return Aux(base), p.aux[base:], p.a[c0:], p.b[c0:], p.c[c0:], true
}

// MarkDensity implements BlockEnforcer.
func (p *ProvingAssignment) MarkDensity(aVars, bVars []Variable) {
	for _, v := range aVars {
		if v.IsAux() {
			p.aDenAux.set(v.Index())
		}
	}
	for _, v := range bVars {
		if v.IsAux() {
			p.bDenAux.set(v.Index())
		} else {
			p.bDenIn.set(v.Index())
		}
	}
}

// addBlock appends n bits taken from mask (bit k of mask is bit m.n+k).
func (m *bitmap) addBlock(n int, mask []uint64) {
	off := m.n
	m.n += n
	for len(m.words) < (m.n+63)/64 {
		m.words = append(m.words, 0)
	}
	orShifted(m.words, off, mask[:(n+63)/64])
	for _, w := range mask[:(n+63)/64] {
		m.ones += bits.OnesCount64(w)
	}
}

// EvaluatedBlock implements BlockEnforcer; the block must fit the
// segment's remaining aux variables and constraints (the error otherwise
// is the one n × (Alloc, Enforce) would record first).
func (s *Segment) EvaluatedBlock(n int, aDen, bDen []uint64) (first Variable, aux, a, b, c []fr.Element, ok bool) {
	// The error n × (Alloc, Enforce) would record first: Alloc k precedes
	// Enforce k, so aux runs out first unless constraints run out earlier.
	roomAux, roomC := len(s.aux)-s.nAux, len(s.a)-s.nC
	switch {
	case s.err != nil:
		return One, nil, nil, nil, nil, false
	case roomAux < n && roomAux <= roomC:
		s.fail("more than its %d aux variables", len(s.aux))
		return One, nil, nil, nil, nil, false
	case roomC < n:
		s.fail("more than its %d constraints", len(s.a))
		return One, nil, nil, nil, nil, false
	}
	k0, c0 := s.nAux, s.nC
	s.nAux += n
	s.nC += n
	w := (n + 63) / 64
	orShifted(s.aDenAux.local, k0, aDen[:w])
	orShifted(s.bDenAux.local, k0, bDen[:w])
	return Aux(s.auxBase + k0), s.aux[k0:s.nAux], s.a[c0:s.nC], s.b[c0:s.nC], s.c[c0:s.nC], true
}

// MarkDensity implements BlockEnforcer.
func (s *Segment) MarkDensity(aVars, bVars []Variable) {
	if s.err != nil {
		return
	}
	for _, v := range aVars {
		if v.IsAux() {
			s.mark(&s.aDenAux, v, s.auxBase, s.nAux, s.auxShared)
		} else {
			s.mark(nil, v, s.inBase, s.nIn, s.inShared)
		}
	}
	for _, v := range bVars {
		if v.IsAux() {
			s.mark(&s.bDenAux, v, s.auxBase, s.nAux, s.auxShared)
		} else {
			s.mark(&s.bDenIn, v, s.inBase, s.nIn, s.inShared)
		}
	}
}

// mark sets v's bit in d (nil: only the visibility check) when v is in the
// segment's filled range [base, base+n) or the shared prefix [0, shared),
// and records a bad read otherwise.
func (s *Segment) mark(d *segDensity, v Variable, base, n, shared int) {
	idx := v.Index()
	switch {
	case uint(idx-base) < uint(n):
		if d != nil {
			k := idx - base
			d.local[k>>6] |= 1 << (uint(k) & 63)
		}
	case idx < shared:
		if d != nil {
			d.setShared(idx)
		}
	default:
		s.badRead(v)
	}
}
