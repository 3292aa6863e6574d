// SPDX-License-Identifier: Apache-2.0 OR MIT

package poseidon

import (
	"fmt"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// MaxArity is the largest arity neptune 11 defines (typenum U1..U36).
const MaxArity = 36

// fullRounds is R_F for every arity at Strength::Standard (4 + 4).
const fullRounds = 8

// SparseMatrix is one factor m” of neptune's sparse factorisation
// (mds.rs SparseMatrix): the identity except for column 0 (WHat, t entries,
// WHat[i] = m”[i][0]) and row 0 past its first entry (VRest, t−1 entries,
// VRest[j−1] = m”[0][j]). Applied to a state s as a row vector:
// out[0] = Σ_i WHat[i]·s[i], out[j] = s[j] + VRest[j−1]·s[0].
type SparseMatrix struct {
	WHat  []fr.Element
	VRest []fr.Element
}

// Constants are neptune's PoseidonConstants<Fr, A> for Strength::Standard and
// HashType::MerkleTree (poseidon.rs new_with_strength_and_type). Matrices are
// t×t, flat and row-major (M[i*t+j] = row i, column j). Shared and read-only:
// callers must not modify any slice.
type Constants struct {
	Arity         int // A, the number of inputs
	Width         int // t = A + 1
	FullRounds    int // R_F = 8
	PartialRounds int // R_P (55…60, see roundnumbers.go)

	// DomainTag is state element 0, 2^A − 1 (hash_type.rs, MerkleTree).
	DomainTag fr.Element
	// RoundConstants are the (R_F + R_P)·t Grain constants, round by round.
	RoundConstants []fr.Element
	// MDS is the Cauchy matrix 1/(i + t + j); MDSInv its inverse.
	MDS, MDSInv []fr.Element
	// Compressed are the R_F·t + R_P compressed round constants
	// (preprocessing.rs compress_round_constants, fully preprocessed).
	Compressed []fr.Element
	// PreSparse is the dense matrix applied after the last initial full
	// round; Sparse the R_P matrices applied after each partial round, in
	// application order (mds.rs factor_to_sparse_matrixes).
	PreSparse []fr.Element
	Sparse    []SparseMatrix

	// Column-major copies for the hash loop: cols[j*t+i] = M[i][j].
	mdsCols, preSparseCols []fr.Element
	// mdsCol1 is column 1 of M (the only output column of the last round).
	mdsCol1 []fr.Element
	// sparseW / sparseV hold all sparse factors back to back: t and t−1
	// entries per partial round.
	sparseW, sparseV []fr.Element
}

var constantsCache [MaxArity + 1]struct {
	once sync.Once
	c    *Constants
}

// ConstantsFor returns the constants for arity (1…MaxArity), computing them
// on first use (tens of milliseconds for the widest arities) and caching
// them for the life of the process. Safe for concurrent use.
func ConstantsFor(arity int) (*Constants, error) {
	if arity < 1 || arity > MaxArity {
		return nil, fmt.Errorf("poseidon: arity %d not supported (neptune defines 1..%d)", arity, MaxArity)
	}
	e := &constantsCache[arity]
	e.once.Do(func() { e.c = newConstants(arity) })
	return e.c, nil
}

// mustConstants is ConstantsFor for callers whose arity is a programming
// choice, not input; it panics with the reason otherwise.
func mustConstants(arity int) *Constants {
	c, err := ConstantsFor(arity)
	if err != nil {
		panic(err)
	}
	return c
}

func newConstants(arity int) *Constants {
	t := arity + 1
	rf, rp := calcRoundNumbers(t)
	if rf != fullRounds {
		panic(fmt.Sprintf("poseidon: round-number search gave R_F=%d for t=%d, want %d", rf, t, fullRounds))
	}
	m := cauchyMDS(t)
	mInv, ok := invert(m)
	if !ok {
		panic("poseidon: Cauchy MDS matrix is singular")
	}
	rc := roundConstants(t, rf, rp)
	pre, sparse := factorToSparse(m, rp)

	c := &Constants{
		Arity:          arity,
		Width:          t,
		FullRounds:     rf,
		PartialRounds:  rp,
		RoundConstants: rc,
		MDS:            m.flat(),
		MDSInv:         mInv.flat(),
		Compressed:     compressRoundConstants(t, rf, rp, rc, mInv),
		PreSparse:      pre.flat(),
		Sparse:         sparse,
	}
	c.DomainTag.SetUint64(1<<uint(arity) - 1)
	c.mdsCols = columns(m)
	c.preSparseCols = columns(pre)
	c.mdsCol1 = c.mdsCols[t : 2*t]
	for _, s := range sparse {
		c.sparseW = append(c.sparseW, s.WHat...)
		c.sparseV = append(c.sparseV, s.VRest...)
	}
	return c
}

func columns(m matrix) []fr.Element {
	n := len(m)
	out := make([]fr.Element, n*n)
	for i := range m {
		for j := range m[i] {
			out[j*n+i] = m[i][j]
		}
	}
	return out
}

// compressRoundConstants mirrors preprocessing.rs compress_round_constants
// with partial_preprocessed = R_P: round keys are pushed back through the
// linear layers so that the optimised rounds add one key after each S-box.
// Result length R_F·t + R_P.
func compressRoundConstants(t, rf, rp int, rc []fr.Element, mInv matrix) []fr.Element {
	rk := func(r int) []fr.Element { return rc[r*t : (r+1)*t] }
	half := rf / 2
	res := make([]fr.Element, 0, rf*t+rp)
	res = append(res, rk(0)...)
	for i := 0; i < half-1; i++ {
		res = append(res, applyMatrix(mInv, rk(i+1))...)
	}
	// Walk the partial rounds backwards: invert the accumulated keys, keep
	// element 0 as that round's single key, fold the rest into the round
	// before.
	final := half + rp
	acc := append([]fr.Element(nil), rk(final)...)
	partial := make([]fr.Element, 0, rp)
	for i := 0; i < rp; i++ {
		prev := rk(final - 1 - i)
		inv := applyMatrix(mInv, acc)
		partial = append(partial, inv[0])
		inv[0].SetZero()
		for j := range inv {
			inv[j].Add(&inv[j], &prev[j])
		}
		acc = inv
	}
	res = append(res, applyMatrix(mInv, acc)...)
	for i := len(partial) - 1; i >= 0; i-- {
		res = append(res, partial[i])
	}
	for i := 1; i < half; i++ {
		res = append(res, applyMatrix(mInv, rk(i+final))...)
	}
	if len(res) != rf*t+rp {
		panic(fmt.Sprintf("poseidon: %d compressed constants, want %d", len(res), rf*t+rp))
	}
	return res
}

// factorToSparse mirrors mds.rs factor_to_sparse_matrices: starting from
// curr = M, n times split curr = m'·m” (derive), keep m” and continue with
// curr = M·m'. Returns the final curr (pre-sparse) and the m” factors in
// application order (reverse of derivation).
func factorToSparse(m matrix, n int) (matrix, []SparseMatrix) {
	t := len(m)
	curr := m
	sparse := make([]SparseMatrix, n)
	for k := 0; k < n; k++ {
		mHatInv, ok := invert(minor(curr, 0, 0))
		if !ok {
			panic("poseidon: singular MDS minor in sparse factorisation")
		}
		// m'' column 0 is [curr[0][0], ŵ…] with ŵ = w·m̂⁻¹ (row vector),
		// w = curr[1..][0]; m'' row 0 past column 0 is v = curr[0][1..].
		w := make([]fr.Element, t-1)
		for i := 1; i < t; i++ {
			w[i-1] = curr[i][0]
		}
		wHat := applyMatrix(mHatInv, w)
		s := SparseMatrix{WHat: make([]fr.Element, t), VRest: make([]fr.Element, t-1)}
		s.WHat[0] = curr[0][0]
		copy(s.WHat[1:], wHat)
		copy(s.VRest, curr[0][1:])
		sparse[n-1-k] = s
		// m' = e₀ in row 0, [0, curr[i][1..]] in rows i ≥ 1.
		prime := newMatrix(t)
		prime[0][0].SetOne()
		for i := 1; i < t; i++ {
			copy(prime[i][1:], curr[i][1:])
		}
		curr = mul(m, prime)
	}
	return curr, sparse
}
