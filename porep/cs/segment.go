// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/internal/parallel"
)

// Segment is a ConstraintSystem over one precomputed range of a
// ProvingAssignment: a fixed number of constraints, aux and input variables
// that it fills in order, exactly as the same synthesis appended to the
// ProvingAssignment would, so that segments synthesized concurrently give
// the bit-identical R1CS order, numbering, witness, a/b/c and densities of
// one sequential synthesis. See ProvingAssignment.Split.
//
// A segment may read the variables the ProvingAssignment held when it was
// split (the shared prefix) and its own; it writes only its own range. The
// density bits of its own variables live in the segment's private bitmaps
// (plain stores, no shared cache lines) and are merged into the
// ProvingAssignment's by Join; those of shared-prefix variables are set
// atomically in place. Overflowing its range, or reading another segment's
// variable, is recorded as an error (reported by Join) and turns the rest
// of its synthesis into no-ops; it never touches another segment.
type Segment struct {
	p *ProvingAssignment

	a, b, c []fr.Element // this segment's rows
	aux     []fr.Element // this segment's aux values
	input   []fr.Element // this segment's input values

	auxBase, inBase int // global index of aux[0], input[0]
	auxShared       int // aux variables below this index are the shared prefix
	inShared        int // likewise for inputs

	nC, nAux, nIn int // filled so far

	// Densities: A over aux, B over aux, B over inputs.
	aDenAux, bDenAux, bDenIn segDensity

	cands []cand
	slots []int32
	err   error
}

// Split reserves, after everything p holds now, n consecutive segments of
// exactly seg.Constraints constraints, seg.Aux aux and seg.Inputs input
// variables each, and returns them in order. p's vectors are extended (a,
// b, c keep room for the per-input rows Assignment appends) without
// clearing what the segments will overwrite; density bits of the new
// variables start clear. Until Join returns, p must not be used; the
// segments may be synthesized concurrently, one goroutine per segment.
// Arguments CheckSplit rejects make Split panic.
func (p *ProvingAssignment) Split(n int, seg SizeHint) []*Segment {
	c0, aux0, in0 := len(p.a), len(p.aux), len(p.input)
	nc, naux, nin := c0+n*seg.Constraints, aux0+n*seg.Aux, in0+n*seg.Inputs
	// Room for the per-input rows too, so Assignment does not move a/b/c.
	p.a = extend(p.a, nc, nin)
	p.b = extend(p.b, nc, nin)
	p.c = extend(p.c, nc, nin)
	p.aux = extend(p.aux, naux, 0)
	p.input = extend(p.input, nin, 0)
	p.aDenAux.grow(naux)
	p.bDenAux.grow(naux)
	p.bDenIn.grow(nin)
	segs := make([]*Segment, n)
	for i := range segs {
		cb, ab, ib := c0+i*seg.Constraints, aux0+i*seg.Aux, in0+i*seg.Inputs
		segs[i] = &Segment{
			p:         p,
			a:         p.a[cb : cb+seg.Constraints : cb+seg.Constraints],
			b:         p.b[cb : cb+seg.Constraints : cb+seg.Constraints],
			c:         p.c[cb : cb+seg.Constraints : cb+seg.Constraints],
			aux:       p.aux[ab : ab+seg.Aux : ab+seg.Aux],
			input:     p.input[ib : ib+seg.Inputs : ib+seg.Inputs],
			auxBase:   ab,
			inBase:    ib,
			auxShared: aux0,
			inShared:  in0,
			aDenAux:   newSegDensity(&p.aDenAux, ab, seg.Aux),
			bDenAux:   newSegDensity(&p.bDenAux, ab, seg.Aux),
			bDenIn:    newSegDensity(&p.bDenIn, ib, seg.Inputs),
			cands:     make([]cand, 0, 64),
		}
	}
	p.split = segs
	return segs
}

// maxIndex is the largest variable index a Variable holds (31 bits); Split
// also keeps the constraint count below it.
const maxIndex = int(^auxBit)

// CheckSplit reports, without changing p, why Split(n, seg) cannot be
// done: a negative count or size, or a total that a Variable cannot
// index (2^31 aux or input variables; constraints are capped likewise).
// Split itself panics on such arguments.
func (p *ProvingAssignment) CheckSplit(n int, seg SizeHint) error {
	if p.split != nil {
		return fmt.Errorf("split: the previous Split is not joined")
	}
	if n < 0 || seg.Constraints < 0 || seg.Aux < 0 || seg.Inputs < 0 {
		return fmt.Errorf("split: %d segments of %d constraints, %d aux, %d inputs: negative", n, seg.Constraints, seg.Aux, seg.Inputs)
	}
	for _, c := range []struct {
		what      string
		have, per int
	}{{"constraints", len(p.a), seg.Constraints}, {"aux", len(p.aux), seg.Aux}, {"inputs", len(p.input), seg.Inputs}} {
		if n > 0 && c.per > (maxIndex-c.have)/n {
			return fmt.Errorf("split: %d + %d segments × %d %s exceed %d", c.have, n, c.per, c.what, maxIndex)
		}
	}
	return nil
}

// extend returns v with length n and capacity at least n+extra, keeping
// v's elements; elements past len(v) are left as they are (not cleared)
// when v's array is large enough.
func extend(v []fr.Element, n, extra int) []fr.Element {
	if cap(v) < n+extra {
		v = slices.Grow(v, n+extra-len(v))
	}
	return v[:n]
}

// Join ends a Split: it merges the segments' density bits into p, checks
// that every segment was filled exactly and without error and makes p
// usable again (Assignment, more synthesis). The error names the first
// faulty segment.
func (p *ProvingAssignment) Join() error {
	segs := p.split
	p.split = nil
	for _, s := range segs {
		s.aDenAux.merge()
		s.bDenAux.merge()
		s.bDenIn.merge()
	}
	for i, s := range segs {
		if s.err != nil {
			return fmt.Errorf("segment %d: %w", i, s.err)
		}
		if s.nC != len(s.a) || s.nAux != len(s.aux) || s.nIn != len(s.input) {
			return fmt.Errorf("segment %d: filled %d constraints, %d aux, %d inputs of %d, %d, %d",
				i, s.nC, s.nAux, s.nIn, len(s.a), len(s.aux), len(s.input))
		}
	}
	return nil
}

// SynthesizeSegments is the one split → fill concurrently → join of a
// parallel synthesis: it checks that n items of size per fit
// (CheckSplit), splits p, runs fill(seg, i) for every item on up to
// workers goroutines (items handed out in order to the next free worker,
// internal/parallel.Dynamic; ctx is checked before each), checks each
// segment recorded no error and joins. name prefixes every error, which
// names the item or the size: "<name> size {…}: …" for the split and the
// join, "<name> i: …" for an item (stacked.Circuit: "circuit: challenge";
// post.Circuit: "post: circuit: sector"). p is usable again afterwards,
// also after an error.
func (p *ProvingAssignment) SynthesizeSegments(ctx context.Context, name string, n int, per SizeHint, workers int, fill func(seg *Segment, i int) error) error {
	if err := p.CheckSplit(n, per); err != nil {
		return fmt.Errorf("%s size %+v: %w", name, per, err)
	}
	segs := p.Split(n, per)
	err := parallel.Dynamic(n, max(1, min(workers, n)), func(_, i int) error {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%s %d: %w", name, i, err)
		}
		if err := fill(segs[i], i); err != nil {
			return fmt.Errorf("%s %d: %w", name, i, err)
		}
		if err := segs[i].Err(); err != nil {
			return fmt.Errorf("%s %d: size %+v: %w", name, i, per, err)
		}
		return nil
	})
	joinErr := p.Join()
	if err != nil {
		return err
	}
	if joinErr != nil {
		return fmt.Errorf("%s size %+v: %w", name, per, joinErr)
	}
	return nil
}

func (s *Segment) fail(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf(format, args...)
	}
}

// Err returns the first error the segment recorded (nil if none).
func (s *Segment) Err() error { return s.err }

// Alloc sets the segment's next aux variable to *value (nil means zero).
func (s *Segment) Alloc(value *fr.Element) Variable {
	if s.err != nil {
		return One
	}
	if s.nAux == len(s.aux) {
		s.fail("more than its %d aux variables", len(s.aux))
		return One
	}
	if value == nil {
		s.aux[s.nAux] = fr.Element{}
	} else {
		s.aux[s.nAux] = *value
	}
	s.nAux++
	return Aux(s.auxBase + s.nAux - 1)
}

// AllocInput sets the segment's next input variable to *value.
func (s *Segment) AllocInput(value *fr.Element) Variable {
	if s.err != nil {
		return One
	}
	if s.nIn == len(s.input) {
		s.fail("more than its %d inputs", len(s.input))
		return One
	}
	if value == nil {
		s.input[s.nIn] = fr.Element{}
	} else {
		s.input[s.nIn] = *value
	}
	s.nIn++
	return Input(s.inBase + s.nIn - 1)
}

// Push is a no-op.
func (s *Segment) Push(string) {}

// Pop is a no-op.
func (s *Segment) Pop() {}

// Enforce evaluates the constraint into the segment's next row and marks
// densities, as ProvingAssignment.Enforce does.
func (s *Segment) Enforce(a, b, c LC) {
	if !s.room() {
		return
	}
	s.eval(&s.a[s.nC], a, nil, &s.aDenAux)
	s.eval(&s.b[s.nC], b, &s.bDenIn, &s.bDenAux)
	s.eval(&s.c[s.nC], c, nil, nil)
	s.nC++
}

// room reports whether the segment takes another constraint: it has not
// failed and is not full (which it records as its error).
func (s *Segment) room() bool {
	if s.err != nil {
		return false
	}
	if s.nC == len(s.a) {
		s.fail("more than its %d constraints", len(s.a))
		return false
	}
	return true
}

// value returns the variable's value, or nil (recording an error) for a
// variable outside the shared prefix and this segment's filled range.
func (s *Segment) value(v Variable) *fr.Element {
	idx := v.Index()
	if v.IsAux() {
		if k := uint(idx - s.auxBase); k < uint(s.nAux) {
			return &s.aux[k]
		}
		if idx < s.auxShared {
			return &s.p.aux[idx]
		}
	} else {
		if k := uint(idx - s.inBase); k < uint(s.nIn) {
			return &s.input[k]
		}
		if idx < s.inShared {
			return &s.p.input[idx]
		}
	}
	s.badRead(v)
	return nil
}

//go:noinline
func (s *Segment) badRead(v Variable) {
	idx := v.Index()
	if v.IsAux() {
		s.fail("reads aux %d outside the shared prefix [0,%d) and its range [%d,%d)", idx, s.auxShared, s.auxBase, s.auxBase+s.nAux)
		return
	}
	s.fail("reads input %d outside the shared prefix [0,%d) and its range [%d,%d)", idx, s.inShared, s.inBase, s.inBase+s.nIn)
}

// eval is ProvingAssignment.eval over the segment's view and densities,
// a copy on purpose: sharing the loop or its term step cost instructions
// (docs/BENCHMARKS.md, "LC evaluation of ProvingAssignment and Segment").
// Another segment may set a shared-prefix bit during the scan: that only
// drops a candidate whose bit is set anyway, so the bitmaps equal the
// sequential ones.
func (s *Segment) eval(acc *fr.Element, lc LC, inDen, auxDen *segDensity) {
	acc.SetZero()
	cands := s.cands[:0]
	for i := range lc {
		t := &lc[i]
		x := s.value(t.Var)
		if x == nil {
			continue
		}
		if t.Var.IsAux() {
			if auxDen != nil && !auxDen.has(t.Var.Index()) {
				cands = append(cands, cand{t.Var, t.Coeff})
			}
		} else if inDen != nil && !inDen.has(t.Var.Index()) {
			cands = append(cands, cand{t.Var, t.Coeff})
		}
		switch {
		case x.IsZero():
		case *x == frOne:
			acc.Add(acc, &t.Coeff)
		case t.Coeff == frOne:
			acc.Add(acc, x)
		case t.Coeff == frMinusOne:
			acc.Sub(acc, x)
		default:
			var tmp fr.Element
			tmp.Mul(&t.Coeff, x)
			acc.Add(acc, &tmp)
		}
	}
	if len(cands) > 0 {
		s.resolveDensity(cands, inDen, auxDen)
	}
	s.cands = cands
}

// resolveDensity is ProvingAssignment.resolveDensity over the segment's
// densities (a copy on purpose, as eval).
func (s *Segment) resolveDensity(cands []cand, inDen, auxDen *segDensity) {
	s.slots = mergeCandidates(s.slots, cands, func(v Variable) {
		if v.IsAux() {
			auxDen.set(v.Index())
		} else {
			inDen.set(v.Index())
		}
	})
}

// segDensity is one density of a segment: the bits of its own variables
// (global index base+k, k < len) in a private bitmap, those of the shared
// prefix (index < base, already checked visible) in the ProvingAssignment's
// bitmap, set atomically since every segment may mark them.
type segDensity struct {
	shared *bitmap
	local  []uint64
	base   int
}

func newSegDensity(shared *bitmap, base, n int) segDensity {
	return segDensity{shared: shared, local: make([]uint64, (n+63)/64), base: base}
}

// has reports whether the (visible) variable idx is marked.
func (d *segDensity) has(idx int) bool {
	if k := idx - d.base; k >= 0 {
		return d.local[k>>6]&(1<<(uint(k)&63)) != 0
	}
	return d.shared.hasAtomic(idx)
}

// set marks the (visible) variable idx.
func (d *segDensity) set(idx int) {
	if k := idx - d.base; k >= 0 {
		d.local[k>>6] |= 1 << (uint(k) & 63)
		return
	}
	d.setShared(idx)
}

// setShared marks the shared-prefix variable idx (atomically, only if it
// is not marked yet: almost always it is).
func (d *segDensity) setShared(idx int) {
	if !d.shared.hasAtomic(idx) {
		d.shared.setAtomic(idx)
	}
}

// merge ORs the private bits into the shared bitmap at base (after every
// segment has finished; the segment is not used afterwards).
func (d *segDensity) merge() {
	orShifted(d.shared.words, d.base, d.local)
}

// orShifted ORs the bit vector src into dst starting at bit off.
func orShifted(dst []uint64, off int, src []uint64) {
	w, sh := off>>6, uint(off&63)
	for i, x := range src {
		if x == 0 {
			continue
		}
		dst[w+i] |= x << sh
		if sh != 0 {
			if hi := x >> (64 - sh); hi != 0 {
				dst[w+i+1] |= hi
			}
		}
	}
}

// grow extends the bitmap to n bits; the new bits are clear.
func (m *bitmap) grow(n int) {
	words := (n + 63) / 64
	for len(m.words) < words {
		m.words = append(m.words, 0)
	}
	m.n = n
}

// hasAtomic is has with an atomic load (for concurrent segments).
func (m *bitmap) hasAtomic(i int) bool {
	return atomic.LoadUint64(&m.words[i>>6])&(1<<(uint(i)&63)) != 0
}

// setAtomic sets bit i atomically; the incremental popcount is not
// maintained (only Counter reads it).
func (m *bitmap) setAtomic(i int) {
	atomic.OrUint64(&m.words[i>>6], 1<<(uint(i)&63))
}
