// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import (
	"cmp"
	"slices"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// smallLC is the LC length up to which merging uses an insertion sort on
// the scratch copy; longer LCs (MultiEq flushes, packing) use slices.Sort.
const smallLC = 24

// merger merges LCs the way bellpepper's Indexer does (duplicate variables
// add their coefficients) into a reusable scratch buffer, sorted by
// (kind: input first, index), dropping zero merged coefficients.
type merger struct {
	buf LC
}

// merge returns lc merged, sorted and without zero coefficients. The result
// aliases m's scratch buffer and is valid until the next call.
func (m *merger) merge(lc LC) LC {
	buf := append(m.buf[:0], lc...)
	m.buf = buf
	if len(buf) > smallLC {
		slices.SortFunc(buf, func(x, y Term) int { return cmp.Compare(x.Var, y.Var) })
	} else {
		for i := 1; i < len(buf); i++ {
			t := buf[i]
			j := i
			for j > 0 && buf[j-1].Var > t.Var {
				buf[j] = buf[j-1]
				j--
			}
			buf[j] = t
		}
	}
	// Merge runs of equal variables and drop zeros, in place.
	out := buf[:0]
	for i := 0; i < len(buf); {
		t := buf[i]
		j := i + 1
		for j < len(buf) && buf[j].Var == t.Var {
			t.Coeff.Add(&t.Coeff, &buf[j].Coeff)
			j++
		}
		if !t.Coeff.IsZero() {
			out = append(out, t)
		}
		i = j
	}
	return out
}

// frOne and frMinusOne are compared against to skip multiplications.
var (
	frOne      fr.Element
	frMinusOne fr.Element
)

func init() {
	frOne.SetOne()
	frMinusOne.Neg(&frOne)
}
