// SPDX-License-Identifier: Apache-2.0 OR MIT

package poseidon

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// Hash returns neptune's Poseidon hash of inputs with arity len(inputs)
// (Strength::Standard, HashType::MerkleTree): the permutation of
// [2^A − 1, inputs…], element 1 of the result. It is bit-identical to
// neptune 11 Poseidon::hash (hash_optimized_static) and to filecoin-hashers'
// PoseidonFunction. It panics if len(inputs) is not in 1…MaxArity, a
// programming error at the call site; use ConstantsFor to validate an
// arity first.
func Hash(inputs []fr.Element) fr.Element {
	var out fr.Element
	HashInto(&out, inputs)
	return out
}

// Hash2 is Hash of the two-element preimage (a, b), as used for comm_r =
// H(comm_c, comm_r_last) and for binary trees.
func Hash2(a, b *fr.Element) fr.Element {
	in := [2]fr.Element{*a, *b}
	var out fr.Element
	hashOptimized(mustConstants(2), &out, in[:])
	return out
}

// HashInto writes Hash(inputs) to dst without allocating. It panics like
// Hash. dst may alias an element of inputs.
func HashInto(dst *fr.Element, inputs []fr.Element) {
	hashOptimized(mustConstants(len(inputs)), dst, inputs)
}

// Hasher is a Poseidon hasher bound to one arity; it holds no mutable state
// and is safe for concurrent use.
type Hasher struct {
	c *Constants
}

// NewHasher returns a Hasher for arity (1…MaxArity), computing the
// constants on first use.
func NewHasher(arity int) (*Hasher, error) {
	c, err := ConstantsFor(arity)
	if err != nil {
		return nil, err
	}
	return &Hasher{c: c}, nil
}

// Arity returns the number of inputs the Hasher takes.
func (h *Hasher) Arity() int { return h.c.Arity }

// Constants returns the Hasher's shared, read-only constants.
func (h *Hasher) Constants() *Constants { return h.c }

// HashInto writes the hash of inputs to dst without allocating. It returns
// an error if len(inputs) differs from the Hasher's arity.
func (h *Hasher) HashInto(dst *fr.Element, inputs []fr.Element) error {
	if len(inputs) != h.c.Arity {
		return fmt.Errorf("poseidon: %d inputs for an arity-%d hasher", len(inputs), h.c.Arity)
	}
	hashOptimized(h.c, dst, inputs)
	return nil
}

// sbox5 sets x = x^5.
func sbox5(x *fr.Element) {
	var x2 fr.Element
	x2.Square(x)
	x2.Square(&x2)
	x.Mul(x, &x2)
}

// hashOptimized is neptune's hash_optimized_static: compressed round
// constants added after each S-box, the pre-sparse matrix after the last
// initial full round and sparse factors after each partial round.
// len(inputs) must equal c.Arity.
func hashOptimized(c *Constants, dst *fr.Element, inputs []fr.Element) {
	var stateBuf, tmpBuf [MaxArity + 1]fr.Element
	t := c.Width
	s, tmp := stateBuf[:t], tmpBuf[:t]
	s[0] = c.DomainTag
	copy(s[1:], inputs)
	key := c.Compressed
	for i := range s {
		s[i].Add(&s[i], &key[i])
	}
	key = key[t:]
	half := c.FullRounds / 2

	for r := 0; r < half; r++ {
		fullRoundKeyed(s, key[:t])
		key = key[t:]
		if r == half-1 {
			denseProduct(tmp, s, c.preSparseCols)
		} else {
			denseProduct(tmp, s, c.mdsCols)
		}
		s, tmp = tmp, s
	}

	w, v := c.sparseW, c.sparseV
	for r := 0; r < c.PartialRounds; r++ {
		sbox5(&s[0])
		s[0].Add(&s[0], &key[0])
		key = key[1:]
		sparseProduct(s, w[:t], v[:t-1])
		w, v = w[t:], v[t-1:]
	}

	for r := 0; r < half-1; r++ {
		fullRoundKeyed(s, key[:t])
		key = key[t:]
		denseProduct(tmp, s, c.mdsCols)
		s, tmp = tmp, s
	}
	// Terminal round: no key, and only output column 1 is needed.
	for i := range s {
		sbox5(&s[i])
	}
	*dst = innerProduct(s, c.mdsCol1)
}

func fullRoundKeyed(s, key []fr.Element) {
	for i := range s {
		sbox5(&s[i])
		s[i].Add(&s[i], &key[i])
	}
}

// denseProduct sets out = s·m for m given column-major (cols[j*t+i] = m[i][j]),
// each element one innerProduct: the same reduced elements as a Mul/Add
// loop, with one reduction each.
func denseProduct(out, s, cols []fr.Element) {
	t := len(s)
	for j := range out {
		out[j] = innerProduct(s, cols[j*t:(j+1)*t])
	}
}

// sparseProduct sets s = s·m” in place for the sparse factor (w, v):
// s[0] = ⟨s, w⟩, s[j] += s[0]·v[j−1] (the old s[0]).
func sparseProduct(s, w, v []fr.Element) {
	var prod [MaxArity]fr.Element
	acc := innerProduct(s, w)
	p := fr.Vector(prod[:len(v)])
	p.ScalarMul(v, &s[0])
	rest := fr.Vector(s[1:])
	rest.Add(rest, p)
	s[0] = acc
}

// hashCorrect is neptune's reference permutation (poseidon_alt.rs
// hash_correct): uncompressed Grain keys added before every S-box and the
// dense MDS matrix after every round. Kept to check hashOptimized and the
// circuit; it allocates.
func hashCorrect(c *Constants, inputs []fr.Element) fr.Element {
	t := c.Width
	s := make([]fr.Element, t)
	s[0] = c.DomainTag
	copy(s[1:], inputs)
	m := make(matrix, t)
	for i := range m {
		m[i] = c.MDS[i*t : (i+1)*t]
	}
	rc := c.RoundConstants
	round := func(full bool) {
		for i := range s {
			s[i].Add(&s[i], &rc[i])
		}
		rc = rc[t:]
		if full {
			for i := range s {
				sbox5(&s[i])
			}
		} else {
			sbox5(&s[0])
		}
		s = applyMatrix(m, s)
	}
	half := c.FullRounds / 2
	for r := 0; r < half; r++ {
		round(true)
	}
	for r := 0; r < c.PartialRounds; r++ {
		round(false)
	}
	for r := 0; r < half; r++ {
		round(true)
	}
	return s[1]
}
