// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import (
	"context"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// Counter measures a circuit's shape without keeping values or matrices:
// constraints, aux and inputs, the number of merged non-zero terms per
// matrix, and the density popcounts (one bit per variable, 16 MB for the
// 130M aux variables of a 32 GiB partition). Counts exclude the per-input
// rows the prover appends (add NumInputs for those: one A term each).
type Counter struct {
	Constraints int
	Aux, Inputs int
	// NonZeroA/B/C count merged terms with non-zero coefficient.
	NonZeroA, NonZeroB, NonZeroC int

	aDenAux, bDenIn, bDenAux bitmap
	m                        merger
}

// NewCounter returns an empty Counter with ONE allocated as Input(0).
func NewCounter() *Counter {
	c := &Counter{}
	c.AllocInput(nil)
	return c
}

// Alloc counts an aux variable.
func (c *Counter) Alloc(*fr.Element) Variable {
	c.Aux++
	c.aDenAux.add()
	c.bDenAux.add()
	return Aux(c.Aux - 1)
}

// AllocInput counts an input variable.
func (c *Counter) AllocInput(*fr.Element) Variable {
	c.Inputs++
	c.bDenIn.add()
	return Input(c.Inputs - 1)
}

// Enforce counts one constraint and its merged terms.
func (c *Counter) Enforce(a, b, cc LC) {
	c.Constraints++
	ma := c.m.merge(a)
	c.NonZeroA += len(ma)
	for _, t := range ma {
		if t.Var.IsAux() {
			c.aDenAux.set(t.Var.Index())
		}
	}
	mb := c.m.merge(b)
	c.NonZeroB += len(mb)
	for _, t := range mb {
		if t.Var.IsAux() {
			c.bDenAux.set(t.Var.Index())
		} else {
			c.bDenIn.set(t.Var.Index())
		}
	}
	c.NonZeroC += len(c.m.merge(cc))
}

// Push is a no-op.
func (c *Counter) Push(string) {}

// Pop is a no-op.
func (c *Counter) Pop() {}

// ADensityAux returns the number of aux variables used in A.
func (c *Counter) ADensityAux() int { return c.aDenAux.ones }

// BDensityInput returns the number of inputs used in B.
func (c *Counter) BDensityInput() int { return c.bDenIn.ones }

// BDensityAux returns the number of aux variables used in B.
func (c *Counter) BDensityAux() int { return c.bDenAux.ones }

// QuerySizes returns the lengths of the A and B queries of a .params file
// for the circuit counted: |a| = every input (the prover's per-input rows
// put each in A) and the aux variables used in A; |b_g1| = |b_g2| = the
// inputs and aux variables used in B. bellperson's generator drops the
// points of the other variables (all zero).
func (c *Counter) QuerySizes() (a, b int) {
	return c.Inputs + c.aDenAux.ones, c.bDenIn.ones + c.bDenAux.ones
}

// partsQueries caches PartsQuerySizes by its callers' keys.
var partsQueries sync.Map // key → [2]int

// PartsQuerySizes is QuerySizes of a circuit of n equal parts (a PoRep
// partition's challenges, a PoSt partition's sectors), counted on blank
// circuits of one part and of two (blank(parts)): each part past the first
// adds what the second added — its own variables; what the parts share
// (inputs, the top part's variables) the first part already counts. n ≥ 1.
// The result is cached under key (comparable, of a type of the caller's
// package, naming the circuit's shape and n).
func PartsQuerySizes(key any, n int, blank func(parts int) Circuit) (a, b int, err error) {
	if v, ok := partsQueries.Load(key); ok {
		q := v.([2]int)
		return q[0], q[1], nil
	}
	var qa, qb [2]int
	for i := range min(n, 2) {
		cnt := NewCounter()
		if err := blank(i+1).Synthesize(context.Background(), cnt); err != nil {
			return 0, 0, err
		}
		qa[i], qb[i] = cnt.QuerySizes()
	}
	if n > 1 {
		qa[0] += (n - 1) * (qa[1] - qa[0])
		qb[0] += (n - 1) * (qb[1] - qb[0])
	}
	partsQueries.Store(key, [2]int{qa[0], qb[0]})
	return qa[0], qb[0], nil
}
