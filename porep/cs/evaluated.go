// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import "github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

// NoVar fills an unused slot of EnforceEvaluated's variable lists (no real
// variable has the aux bit and the maximal index).
const NoVar = ^Variable(0)

// EvaluatedEnforcer is implemented by the constraint systems that keep only
// a constraint's evaluations and densities (ProvingAssignment, Segment).
// The bit gadgets of the SHA-256 hot path know their LC values from the
// bits they combine and use it to skip generic LC evaluation; the result
// must be exactly what Enforce would store for the same constraint
// (gadget tests compare both paths element for element).
type EvaluatedEnforcer interface {
	// EnforceEvaluated appends the constraint with ⟨A,w⟩ = *va, ⟨B,w⟩ = *vb,
	// ⟨C,w⟩ = *vc. a and b list every variable with a non-zero merged
	// coefficient in A and B (NoVar in unused slots), for the densities:
	// A tracks aux variables only, B inputs and aux, as Enforce does.
	EnforceEvaluated(va, vb, vc *fr.Element, a [3]Variable, b [2]Variable)
	// EnforceEvaluatedLC is EnforceEvaluated with A's density read off the
	// LC a (merged coefficients, as Enforce), for long A sides (MultiEq).
	EnforceEvaluatedLC(va, vb, vc *fr.Element, a LC, b [2]Variable)
}

// EnforceEvaluated implements EvaluatedEnforcer.
func (p *ProvingAssignment) EnforceEvaluated(va, vb, vc *fr.Element, a [3]Variable, b [2]Variable) {
	p.a = append(p.a, *va)
	p.b = append(p.b, *vb)
	p.c = append(p.c, *vc)
	for _, v := range a {
		if v != NoVar && v.IsAux() {
			p.aDenAux.set(v.Index())
		}
	}
	for _, v := range b {
		switch {
		case v == NoVar:
		case v.IsAux():
			p.bDenAux.set(v.Index())
		default:
			p.bDenIn.set(v.Index())
		}
	}
}

// EnforceEvaluatedLC implements EvaluatedEnforcer.
func (p *ProvingAssignment) EnforceEvaluatedLC(va, vb, vc *fr.Element, a LC, b [2]Variable) {
	cands := p.cands[:0]
	for i := range a {
		if v := a[i].Var; v.IsAux() && !p.aDenAux.has(v.Index()) {
			cands = append(cands, cand{v, a[i].Coeff})
		}
	}
	if len(cands) > 0 {
		p.resolveDensity(cands, nil, &p.aDenAux)
	}
	p.cands = cands
	p.EnforceEvaluated(va, vb, vc, [3]Variable{NoVar, NoVar, NoVar}, b)
}

// EnforceEvaluated implements EvaluatedEnforcer; variables outside the
// segment's view are an error, as in Enforce.
func (s *Segment) EnforceEvaluated(va, vb, vc *fr.Element, a [3]Variable, b [2]Variable) {
	if !s.room() {
		return
	}
	// Visibility checks and density marks written out for A and B: this is
	// the hot path of every SHA-256 bit constraint, and a shared helper
	// (cost 96) does not fit Go's inlining budget (80).
	for _, v := range a {
		if v == NoVar {
			continue
		}
		idx := v.Index()
		switch {
		case !v.IsAux():
			if uint(idx-s.inBase) >= uint(s.nIn) && idx >= s.inShared {
				s.badRead(v)
			}
		case uint(idx-s.auxBase) < uint(s.nAux):
			k := idx - s.auxBase
			s.aDenAux.local[k>>6] |= 1 << (uint(k) & 63)
		case idx < s.auxShared:
			s.aDenAux.setShared(idx)
		default:
			s.badRead(v)
		}
	}
	for _, v := range b {
		if v == NoVar {
			continue
		}
		idx := v.Index()
		if v.IsAux() {
			switch {
			case uint(idx-s.auxBase) < uint(s.nAux):
				k := idx - s.auxBase
				s.bDenAux.local[k>>6] |= 1 << (uint(k) & 63)
			case idx < s.auxShared:
				s.bDenAux.setShared(idx)
			default:
				s.badRead(v)
			}
			continue
		}
		switch {
		case uint(idx-s.inBase) < uint(s.nIn):
			k := idx - s.inBase
			s.bDenIn.local[k>>6] |= 1 << (uint(k) & 63)
		case idx < s.inShared:
			s.bDenIn.setShared(idx)
		default:
			s.badRead(v)
		}
	}
	n := s.nC
	s.a[n], s.b[n], s.c[n] = *va, *vb, *vc
	s.nC = n + 1
}

// EnforceEvaluatedLC implements EvaluatedEnforcer.
func (s *Segment) EnforceEvaluatedLC(va, vb, vc *fr.Element, a LC, b [2]Variable) {
	if !s.room() {
		return
	}
	cands := s.cands[:0]
	for i := range a {
		v := a[i].Var
		if s.value(v) != nil && v.IsAux() && !s.aDenAux.has(v.Index()) {
			cands = append(cands, cand{v, a[i].Coeff})
		}
	}
	if len(cands) > 0 {
		s.resolveDensity(cands, nil, &s.aDenAux)
	}
	s.cands = cands
	s.EnforceEvaluated(va, vb, vc, [3]Variable{NoVar, NoVar, NoVar}, b)
}
