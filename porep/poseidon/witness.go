// SPDX-License-Identifier: Apache-2.0 OR MIT

package poseidon

import "github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

// circuitWitness writes the values of every aux variable the legacy circuit
// allocates, in allocation order, into w (len = CircuitCost(A)). It runs the
// optimised permutation (hashOptimized) and records the S-box intermediates
// where circuit.rs allocates them:
//   - first round, inputs i = 1…A: (x+pre)², its square, l4·(x+pre) + post
//     (the tag's S-box is a constant);
//   - every later S-box: the element itself (ensure_allocated of a Num),
//     l², l⁴, l⁴·l + key (no key in the terminal round);
//   - finally state[1] (the allocated hash).
//
// The template replay checks nothing itself; circuit tests compare these
// values with the ones solved from the recorded constraints.
func circuitWitness(c *Constants, w []fr.Element, inputs []fr.Element) {
	var stateBuf, tmpBuf [MaxArity + 1]fr.Element
	t := c.Width
	s, tmp := stateBuf[:t], tmpBuf[:t]
	s[0] = c.DomainTag
	copy(s[1:], inputs)
	pre := c.Compressed[:t]
	key := c.Compressed[t:]
	n := 0

	// First round: the tag is folded as a constant, inputs get 3 values.
	s[0].Add(&s[0], &pre[0])
	sbox5(&s[0])
	s[0].Add(&s[0], &key[0])
	{
		var xb, sqb, qb, fb [MaxArity]fr.Element
		x, sq, q, f := fr.Vector(xb[:t-1]), fr.Vector(sqb[:t-1]), fr.Vector(qb[:t-1]), fr.Vector(fb[:t-1])
		x.Add(s[1:], pre[1:t])
		sq.Mul(x, x)
		q.Mul(sq, sq)
		f.Mul(q, x)
		f.Add(f, key[1:t])
		for i := range f {
			w[n], w[n+1], w[n+2] = sq[i], q[i], f[i]
			s[i+1] = f[i]
			n += 3
		}
	}
	key = key[t:]
	denseProduct(tmp, s, c.mdsCols)
	s, tmp = tmp, s

	sbox := func(e *fr.Element, k *fr.Element) {
		w[n] = *e
		w[n+1].Square(e)
		w[n+2].Square(&w[n+1])
		w[n+3].Mul(&w[n+2], e)
		if k != nil {
			w[n+3].Add(&w[n+3], k)
		}
		*e = w[n+3]
		n += 4
	}
	// fullSBoxes records e, e², e⁴ and e⁵ (+k) of every element, four
	// values each, on gnark-crypto's vector products (IFMA where the CPU
	// has it).
	var sqb, qb, fb [MaxArity + 1]fr.Element
	sq, q, f := fr.Vector(sqb[:t]), fr.Vector(qb[:t]), fr.Vector(fb[:t])
	fullSBoxes := func(k []fr.Element) {
		sv := fr.Vector(s)
		sq.Mul(sv, sv)
		q.Mul(sq, sq)
		f.Mul(q, sv)
		if k != nil {
			f.Add(f, k)
		}
		for i := range s {
			w[n], w[n+1], w[n+2], w[n+3] = s[i], sq[i], q[i], f[i]
			s[i] = f[i]
			n += 4
		}
	}
	half := c.FullRounds / 2
	for r := 1; r < half; r++ {
		fullSBoxes(key[:t])
		key = key[t:]
		if r == half-1 {
			denseProduct(tmp, s, c.preSparseCols)
		} else {
			denseProduct(tmp, s, c.mdsCols)
		}
		s, tmp = tmp, s
	}
	sw, sv := c.sparseW, c.sparseV
	for r := 0; r < c.PartialRounds; r++ {
		sbox(&s[0], &key[0])
		key = key[1:]
		sparseProduct(s, sw[:t], sv[:t-1])
		sw, sv = sw[t:], sv[t-1:]
	}
	for r := 0; r < half-1; r++ {
		fullSBoxes(key[:t])
		key = key[t:]
		denseProduct(tmp, s, c.mdsCols)
		s, tmp = tmp, s
	}
	fullSBoxes(nil)
	// Only the output's element 1 is the hash: one column of M.
	w[n] = innerProduct(s, c.mdsCol1)
	n++
	if n != len(w) || len(key) != 0 {
		panic("poseidon: circuit witness out of step with the legacy circuit")
	}
}
