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
	for i := 1; i < t; i++ {
		var x fr.Element
		x.Add(&s[i], &pre[i])
		w[n].Square(&x)
		w[n+1].Square(&w[n])
		w[n+2].Mul(&w[n+1], &x)
		w[n+2].Add(&w[n+2], &key[i])
		s[i] = w[n+2]
		n += 3
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
	half := c.FullRounds / 2
	for r := 1; r < half; r++ {
		for i := range s {
			sbox(&s[i], &key[i])
		}
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
		for i := range s {
			sbox(&s[i], &key[i])
		}
		key = key[t:]
		denseProduct(tmp, s, c.mdsCols)
		s, tmp = tmp, s
	}
	for i := range s {
		sbox(&s[i], nil)
	}
	denseProduct(tmp, s, c.mdsCols)
	w[n] = tmp[1]
	n++
	if n != len(w) || len(key) != 0 {
		panic("poseidon: circuit witness out of step with the legacy circuit")
	}
}
