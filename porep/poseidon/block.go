// SPDX-License-Identifier: Apache-2.0 OR MIT

package poseidon

import (
	"sync/atomic"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
)

// The block path: into a cs.BlockEnforcer (the prover's ProvingAssignment
// and Segment) a hash is one block of CircuitCost(A) aux variables and
// constraints. circuitWitness writes the values straight into the block's
// aux slots, and every ⟨A⟩, ⟨B⟩, ⟨C⟩ is a value already known: each side of
// a template step is 1·ref (+ k·ONE), except the A side of
// ensure_allocated (a sum over the state), whose B is ONE and C the new
// variable v, so that ⟨A⟩ = v. Densities come from the template as bit
// masks over the block and the preimage's places. No LC is built and none
// is evaluated; the result equals the generic replay's element for element
// (TestBlockPathMatchesGeneric).

// evaluatedPath switches the block path on (tests switch it off to compare;
// atomic, so that doing so races with no synthesis).
var evaluatedPath = func() *atomic.Bool { var b atomic.Bool; b.Store(true); return &b }()

// blockSrc is where one side's value comes from: the local ref (0 ONE,
// 1…A the preimage, 1+A+k step k's variable) plus consts[k] unless k < 0.
type blockSrc struct {
	ref, k int32
}

type blockStep struct {
	a, b, c blockSrc
}

// planBlock fills tpl's block-path plan, or leaves tpl.block nil (generic
// replay only) when a step does not have the shape the plan needs.
func (tpl *template) planBlock() {
	base := int32(1 + tpl.arity)
	n := len(tpl.steps)
	words := (n + 63) / 64
	tpl.aDen, tpl.bDen = make([]uint64, words), make([]uint64, words)
	var inA, inB [MaxArity + 1]bool
	plan := make([]blockStep, n)
	for s := range tpl.steps {
		st := &tpl.steps[s]
		v := base + int32(s)
		b, okB := tpl.blockSource(st.b)
		c, okC := tpl.blockSource(st.c)
		a, okA := tpl.blockSource(st.a)
		if !okA && okB && okC && b == (blockSrc{0, -1}) && c == (blockSrc{v, -1}) {
			a, okA = blockSrc{v, -1}, true // ⟨A⟩·1 = v
		}
		if !okA || !okB || !okC {
			tpl.block = nil
			return
		}
		plan[s] = blockStep{a, b, c}
		for i := st.a[0]; i < st.a[1]; i++ {
			switch r := tpl.terms[i].ref; {
			case r >= base:
				tpl.aDen[(r-base)/64] |= 1 << ((r - base) % 64)
			case r > 0:
				inA[r] = true
			}
		}
		for i := st.b[0]; i < st.b[1]; i++ {
			switch r := tpl.terms[i].ref; {
			case r >= base:
				tpl.bDen[(r-base)/64] |= 1 << ((r - base) % 64)
			case r > 0:
				inB[r] = true
			default:
				tpl.bOne = true
			}
		}
	}
	for r := int32(1); r < base; r++ {
		if inA[r] {
			tpl.aPre = append(tpl.aPre, r)
		}
		if inB[r] {
			tpl.bPre = append(tpl.bPre, r)
		}
	}
	tpl.block = plan
}

// blockSource returns the source of an LC of the form 1·ref (+ k·ONE), with
// ref ≠ ONE, or 1·ONE alone; ok is false for any other LC.
func (tpl *template) blockSource(r [2]int32) (blockSrc, bool) {
	src := blockSrc{-1, -1}
	var k *fr.Element
	for i := r[0]; i < r[1]; i++ {
		t := &tpl.terms[i]
		switch {
		case t.ref == 0:
			k = &t.coeff
		case src.ref >= 0 || !t.coeff.IsOne():
			return src, false
		default:
			src.ref = t.ref
		}
	}
	switch {
	case src.ref < 0 && k != nil && k.IsOne():
		return blockSrc{0, -1}, true
	case src.ref < 0:
		return src, false
	case k != nil:
		src.k = int32(len(tpl.consts))
		tpl.consts = append(tpl.consts, *k)
	}
	return src, true
}

// blockFits reports whether the block path gives the generic R1CS for this
// preimage: every variable aux (an input in A is no density) and no two
// alike (their terms would merge).
func (tpl *template) blockFits(vars []cs.Variable) bool {
	if tpl.block == nil {
		return false
	}
	for i, v := range vars {
		if !v.IsAux() {
			return false
		}
		for _, w := range vars[:i] {
			if v == w {
				return false
			}
		}
	}
	return true
}

// replayBlock is replay into a BlockEnforcer (see the top of this file);
// vals are the preimage's values, len(vals) = A.
func (tpl *template) replayBlock(be cs.BlockEnforcer, sc *replayScratch, vars []cs.Variable, vals []fr.Element) (cs.Variable, fr.Element) {
	n := len(tpl.steps)
	first, aux, a, b, c, ok := be.EvaluatedBlock(n, tpl.aDen, tpl.bDen)
	if !ok {
		// The system recorded its error; the value stays the hash's, as
		// the generic replay's, for the caller's own checks.
		var out fr.Element
		hashOptimized(tpl.c, &out, vals)
		return cs.One, out
	}
	circuitWitness(tpl.c, aux, vals)
	head := sc.vals[:1+tpl.arity]
	head[0].SetOne()
	copy(head[1:], vals)
	base := int32(1 + tpl.arity)
	get := func(dst *fr.Element, s blockSrc) {
		if s.ref >= base {
			*dst = aux[s.ref-base]
		} else {
			*dst = head[s.ref]
		}
		if s.k >= 0 {
			dst.Add(dst, &tpl.consts[s.k])
		}
	}
	for k := range tpl.block {
		st := &tpl.block[k]
		get(&a[k], st.a)
		get(&b[k], st.b)
		get(&c[k], st.c)
	}
	sc.aV, sc.bV = sc.aV[:0], sc.bV[:0]
	for _, r := range tpl.aPre {
		sc.aV = append(sc.aV, vars[r-1])
	}
	for _, r := range tpl.bPre {
		sc.bV = append(sc.bV, vars[r-1])
	}
	if tpl.bOne {
		sc.bV = append(sc.bV, cs.One)
	}
	be.MarkDensity(sc.aV, sc.bV)
	return cs.Aux(first.Index() + n - 1), aux[n-1]
}
