// SPDX-License-Identifier: Apache-2.0 OR MIT

package poseidon

import "github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

// matrix is a square matrix as rows: m[i][j] is row i, column j (neptune
// src/matrix.rs layout). These helpers only run while constants are derived.
type matrix [][]fr.Element

func newMatrix(n int) matrix {
	m := make(matrix, n)
	cells := make([]fr.Element, n*n)
	for i := range m {
		m[i] = cells[i*n : (i+1)*n : (i+1)*n]
	}
	return m
}

func identity(n int) matrix {
	m := newMatrix(n)
	for i := range m {
		m[i][i].SetOne()
	}
	return m
}

// cauchyMDS returns neptune's MDS matrix M[i][j] = 1/(i + (t + j))
// (mds.rs generate_mds with xs = 0..t, ys = t..2t).
func cauchyMDS(t int) matrix {
	m := newMatrix(t)
	for i := 0; i < t; i++ {
		for j := 0; j < t; j++ {
			m[i][j].SetUint64(uint64(i + t + j))
			m[i][j].Inverse(&m[i][j])
		}
	}
	return m
}

// applyMatrix is neptune's apply_matrix: the row vector v times m,
// out[j] = Σ_i m[i][j]·v[i].
func applyMatrix(m matrix, v []fr.Element) []fr.Element {
	out := make([]fr.Element, len(v))
	var tmp fr.Element
	for j := range out {
		for i := range m {
			tmp.Mul(&m[i][j], &v[i])
			out[j].Add(&out[j], &tmp)
		}
	}
	return out
}

// mul is the standard matrix product a·b.
func mul(a, b matrix) matrix {
	n := len(a)
	out := newMatrix(n)
	var tmp fr.Element
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			for k := 0; k < n; k++ {
				tmp.Mul(&a[i][k], &b[k][j])
				out[i][j].Add(&out[i][j], &tmp)
			}
		}
	}
	return out
}

// minor drops row r and column c.
func minor(m matrix, r, c int) matrix {
	out := newMatrix(len(m) - 1)
	for i, ii := 0, 0; i < len(m); i++ {
		if i == r {
			continue
		}
		for j, jj := 0, 0; j < len(m); j++ {
			if j == c {
				continue
			}
			out[ii][jj] = m[i][j]
			jj++
		}
		ii++
	}
	return out
}

// invert returns m⁻¹ by Gauss–Jordan elimination, or ok = false if m is
// singular. The inverse is unique, so the elimination order need not match
// neptune's.
func invert(m matrix) (inv matrix, ok bool) {
	n := len(m)
	a := newMatrix(n)
	for i := range m {
		copy(a[i], m[i])
	}
	inv = identity(n)
	var f, tmp fr.Element
	for col := 0; col < n; col++ {
		piv := -1
		for r := col; r < n; r++ {
			if !a[r][col].IsZero() {
				piv = r
				break
			}
		}
		if piv < 0 {
			return nil, false
		}
		a[col], a[piv] = a[piv], a[col]
		inv[col], inv[piv] = inv[piv], inv[col]
		f.Inverse(&a[col][col])
		for j := 0; j < n; j++ {
			a[col][j].Mul(&a[col][j], &f)
			inv[col][j].Mul(&inv[col][j], &f)
		}
		for r := 0; r < n; r++ {
			if r == col || a[r][col].IsZero() {
				continue
			}
			f = a[r][col]
			for j := 0; j < n; j++ {
				tmp.Mul(&f, &a[col][j])
				a[r][j].Sub(&a[r][j], &tmp)
				tmp.Mul(&f, &inv[col][j])
				inv[r][j].Sub(&inv[r][j], &tmp)
			}
		}
	}
	return inv, true
}

// flat returns m row-major: out[i*n+j] = m[i][j].
func (m matrix) flat() []fr.Element {
	n := len(m)
	out := make([]fr.Element, 0, n*n)
	for i := range m {
		out = append(out, m[i]...)
	}
	return out
}
