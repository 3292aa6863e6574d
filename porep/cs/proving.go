// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import (
	"math/bits"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// ProvingAssignment is the prover's constraint system: it keeps the input
// and aux assignments, evaluates ⟨A,w⟩, ⟨B,w⟩, ⟨C,w⟩ of every constraint
// into a, b, c, and tracks the A-aux, B-input and B-aux densities.
// Mirrors bellperson src/groth16/prover/mod.rs (ProvingAssignment) with
// lc.rs eval_with_trackers: a variable counts for density iff its merged
// coefficient in the LC is non-zero; inputs are always dense in A.
//
// Enforce performs no heap allocation once the slices have grown to (or
// were pre-sized for, see SizeHint) the circuit's size.
type ProvingAssignment struct {
	a, b, c []fr.Element
	input   []fr.Element
	aux     []fr.Element

	aDenAux, bDenIn, bDenAux bitmap

	abc0 [3]*fr.Element // first elements of the initial a, b, c arrays

	cands []cand  // density candidates of the current LC (scratch)
	slots []int32 // dedup hash table for long LCs (scratch)
	done  *Assignment

	split  []*Segment // segments of an unjoined Split
	pooled *bufferSet // storage from a BufferPool, handed to the Assignment
}

// gone flags a candidate merged into an earlier one (no real variable has
// the aux bit and the maximal index).
const gone = ^Variable(0)

// cand is a term whose variable's density bit was still clear.
type cand struct {
	v     Variable
	coeff fr.Element
}

// NewProvingAssignment returns an empty ProvingAssignment sized by hint,
// with ONE already allocated as Input(0) (as bellperson's prover does).
func NewProvingAssignment(hint SizeHint) *ProvingAssignment {
	n := abcCapacity(hint.Constraints + hint.Inputs)
	mk := func() []fr.Element { return make([]fr.Element, 0, n) }
	p := &ProvingAssignment{
		a:       mk(),
		b:       mk(),
		c:       mk(),
		input:   make([]fr.Element, 0, max(hint.Inputs, 1)),
		aux:     make([]fr.Element, 0, hint.Aux),
		aDenAux: newBitmap(hint.Aux),
		bDenIn:  newBitmap(max(hint.Inputs, 1)),
		bDenAux: newBitmap(hint.Aux),
		cands:   make([]cand, 0, 64),
	}
	p.abc0 = [3]*fr.Element{ptr0(p.a), ptr0(p.b), ptr0(p.c)}
	p.AllocInput(&frOne)
	return p
}

// abcCapacity is the capacity given to a, b and c for n evaluations: the
// Groth16 domain size (n rounded up to a power of two), so that a prover
// may compute H in their own storage (groth16.WithAssignmentsConsumed).
// The pages past n are only address space until a prover writes them.
func abcCapacity(n int) int {
	if n <= 1 {
		return n
	}
	return 1 << bits.Len(uint(n-1))
}

func ptr0(v []fr.Element) *fr.Element {
	if cap(v) == 0 {
		return nil
	}
	return &v[:1][0]
}

// ABCInPlace reports whether a, b and c still live in the arrays they
// started in, i.e. the size hint held and no append had to reallocate them.
func (p *ProvingAssignment) ABCInPlace() bool {
	return p.abc0 == [3]*fr.Element{ptr0(p.a), ptr0(p.b), ptr0(p.c)}
}

// Alloc appends an aux variable with value *value (nil means zero).
func (p *ProvingAssignment) Alloc(value *fr.Element) Variable {
	if value == nil {
		p.aux = append(p.aux, fr.Element{})
	} else {
		p.aux = append(p.aux, *value)
	}
	p.aDenAux.add()
	p.bDenAux.add()
	return Aux(len(p.aux) - 1)
}

// AllocInput appends an input variable with value *value (nil means zero).
func (p *ProvingAssignment) AllocInput(value *fr.Element) Variable {
	if value == nil {
		p.input = append(p.input, fr.Element{})
	} else {
		p.input = append(p.input, *value)
	}
	p.bDenIn.add()
	return Input(len(p.input) - 1)
}

// Push is a no-op: namespaces do not matter to the prover.
func (p *ProvingAssignment) Push(string) {}

// Pop is a no-op.
func (p *ProvingAssignment) Pop() {}

// Enforce evaluates the three LCs against the current assignment and
// updates the densities (A: aux only; B: input and aux; C: none).
func (p *ProvingAssignment) Enforce(a, b, c LC) {
	var va, vb, vc fr.Element
	p.eval(&va, a, nil, &p.aDenAux)
	p.eval(&vb, b, &p.bDenIn, &p.bDenAux)
	p.eval(&vc, c, nil, nil)
	p.a = append(p.a, va)
	p.b = append(p.b, vb)
	p.c = append(p.c, vc)
}

// eval sets acc = ⟨lc, w⟩ and marks density in inDen / auxDen (nil: not
// tracked). Bits values 0 and 1 and coefficients ±1 skip the multiply,
// which covers almost every term of the SHA-256 gadget.
func (p *ProvingAssignment) eval(acc *fr.Element, lc LC, inDen, auxDen *bitmap) {
	acc.SetZero()
	cands := p.cands[:0]
	for i := range lc {
		t := &lc[i]
		var x *fr.Element
		idx := t.Var.Index()
		if t.Var.IsAux() {
			x = &p.aux[idx]
			if auxDen != nil && !auxDen.has(idx) {
				cands = append(cands, cand{t.Var, t.Coeff})
			}
		} else {
			x = &p.input[idx]
			if inDen != nil && !inDen.has(idx) {
				cands = append(cands, cand{t.Var, t.Coeff})
			}
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
		p.resolveDensity(cands, inDen, auxDen)
	}
	p.cands = cands
}

// resolveDensity merges the candidate terms by variable (duplicates add
// their coefficients) and sets the density bit of every variable whose
// merged coefficient is non-zero. All duplicates of a candidate variable
// are candidates too, since bits are only set here, after the scan.
func (p *ProvingAssignment) resolveDensity(cands []cand, inDen, auxDen *bitmap) {
	p.slots = mergeCandidates(p.slots, cands, func(v Variable) {
		if v.IsAux() {
			auxDen.set(v.Index())
		} else {
			inDen.set(v.Index())
		}
	})
}

// mergeCandidates calls mark once for every variable of cands whose merged
// coefficient is non-zero; slot is the scratch table of long LCs, returned
// for reuse.
func mergeCandidates(slot []int32, cands []cand, mark func(Variable)) []int32 {
	switch n := len(cands); {
	case n == 1:
		if !cands[0].coeff.IsZero() {
			mark(cands[0].v)
		}
	case n <= smallLC:
		// Quadratic merge; a merged-away entry's variable becomes gone.
		for i := 0; i < n; i++ {
			v := cands[i].v
			if v == gone {
				continue
			}
			sum := cands[i].coeff
			for j := i + 1; j < n; j++ {
				if cands[j].v == v {
					sum.Add(&sum, &cands[j].coeff)
					cands[j].v = gone
				}
			}
			if !sum.IsZero() {
				mark(v)
			}
		}
	default:
		slot = dedupResolve(slot, cands, mark)
	}
	return slot
}

func dedupResolve(slot []int32, cands []cand, mark func(Variable)) []int32 {
	n := len(cands)
	size := 1
	for size < 2*n {
		size <<= 1
	}
	mask := size - 1
	if len(slot) < size {
		slot = make([]int32, size)
	}
	for i := range cands {
		v := cands[i].v
		h := int(uint32(v)*0x9e3779b1>>7) & mask
		for {
			j := slot[h]
			if j == 0 {
				slot[h] = int32(i + 1)
				break
			}
			if first := &cands[j-1]; first.v == v {
				first.coeff.Add(&first.coeff, &cands[i].coeff)
				cands[i].v = gone
				break
			}
			h = (h + 1) & mask
		}
	}
	for i := range cands {
		if cands[i].v != gone && !cands[i].coeff.IsZero() {
			mark(cands[i].v)
		}
	}
	clear(slot[:size])
	return slot
}

// NumConstraints returns the number of constraints enforced so far
// (including the input rows once Assignment has been called).
func (p *ProvingAssignment) NumConstraints() int { return len(p.a) }

// NumAux returns the number of aux variables.
func (p *ProvingAssignment) NumAux() int { return len(p.aux) }

// NumInputs returns the number of inputs, ONE included.
func (p *ProvingAssignment) NumInputs() int { return len(p.input) }

// Assignment finishes synthesis: on the first call it appends one row per
// input i (A = input_i, B = 0, C = 0), exactly as bellperson's
// synthesize_circuits_batch does, and returns the result. Later calls
// return the same Assignment. The ProvingAssignment must not be used for
// synthesis afterwards; the returned slices alias its storage.
func (p *ProvingAssignment) Assignment() *Assignment {
	if p.done != nil {
		return p.done
	}
	if p.split != nil {
		// The segments' density bits reach p only at Join.
		panic("cs: ProvingAssignment.Assignment called between Split and Join")
	}
	for i := range p.input {
		p.a = append(p.a, p.input[i])
		p.b = append(p.b, fr.Element{})
		p.c = append(p.c, fr.Element{})
	}
	p.done = &Assignment{
		A: p.a, B: p.b, C: p.c,
		Input: p.input, Aux: p.aux,
		ADensityAux:   p.aDenAux.density(),
		BDensityInput: p.bDenIn.density(),
		BDensityAux:   p.bDenAux.density(),
		pooled:        p.pooled,
	}
	return p.done
}

// WitnessDigest returns the cuseal-witness-v1 digest (shared
// docs/digests.md §2) of the input and aux assignment.
func (p *ProvingAssignment) WitnessDigest() [32]byte { return p.Assignment().WitnessDigest() }

// ABCDigest returns the cuseal-abc-v1 digest (docs/digests.md §3) of a, b, c,
// input rows included (it finishes the assignment).
func (p *ProvingAssignment) ABCDigest() [32]byte { return p.Assignment().ABCDigest() }

// DensityDigest returns the cuseal-density-v1 digest (docs/digests.md §4).
func (p *ProvingAssignment) DensityDigest() [32]byte { return p.Assignment().DensityDigest() }
