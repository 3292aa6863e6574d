// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import (
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// Recorder records the constraint system's shape: the sparse matrices A,
// B, C (merged, non-zero, sorted rows, like the LCs bellperson's
// generator evaluates) and the variable counts. It ignores values. Use it
// for R1CS digests and cross-checks on small circuits; for the prover use
// ProvingAssignment.
type Recorder struct {
	numInputs, numAux int
	a, b, c           Matrix
	m                 merger
}

// NewRecorder returns an empty Recorder with ONE allocated as Input(0).
func NewRecorder() *Recorder {
	r := &Recorder{}
	for _, m := range []*Matrix{&r.a, &r.b, &r.c} {
		m.RowStart = []int{0}
	}
	r.AllocInput(nil)
	return r
}

// Alloc appends an aux variable (the value is ignored).
func (r *Recorder) Alloc(*fr.Element) Variable {
	r.numAux++
	return Aux(r.numAux - 1)
}

// AllocInput appends an input variable (the value is ignored).
func (r *Recorder) AllocInput(*fr.Element) Variable {
	r.numInputs++
	return Input(r.numInputs - 1)
}

// Enforce records one row in each matrix.
func (r *Recorder) Enforce(a, b, c LC) {
	r.a.appendRow(r.m.merge(a))
	r.b.appendRow(r.m.merge(b))
	r.c.appendRow(r.m.merge(c))
}

// Push is a no-op.
func (r *Recorder) Push(string) {}

// Pop is a no-op.
func (r *Recorder) Pop() {}

// NumConstraints returns the number of circuit constraints recorded (the
// per-input rows are not included; see R1CS).
func (r *Recorder) NumConstraints() int { return len(r.a.RowStart) - 1 }

// NumAux returns the number of aux variables.
func (r *Recorder) NumAux() int { return r.numAux }

// NumInputs returns the number of inputs, ONE included.
func (r *Recorder) NumInputs() int { return r.numInputs }

// R1CS returns a copy of the recorded system as the prover sees it: the
// circuit's rows followed by one row per input i (A = 1·Input(i), B = C = 0).
func (r *Recorder) R1CS() *R1CS {
	out := &R1CS{NumInputs: r.numInputs, NumAux: r.numAux,
		A: r.a.clone(), B: r.b.clone(), C: r.c.clone()}
	var one fr.Element
	one.SetOne()
	for i := 0; i < r.numInputs; i++ {
		out.A.appendRow(LC{{Coeff: one, Var: Input(i)}})
		out.B.appendRow(nil)
		out.C.appendRow(nil)
	}
	return out
}

// Digest returns the cuseal-r1cs-v1 digest of R1CS() (docs/digests.md §1).
func (r *Recorder) Digest() [32]byte { return r.R1CS().Digest() }

// appendRow appends a merged, sorted, non-zero row.
func (m *Matrix) appendRow(row LC) {
	for i := range row {
		m.Vars = append(m.Vars, row[i].Var)
		m.Coeffs = append(m.Coeffs, row[i].Coeff)
	}
	m.RowStart = append(m.RowStart, len(m.Vars))
}

func (m *Matrix) clone() Matrix {
	return Matrix{
		RowStart: append([]int(nil), m.RowStart...),
		Vars:     append([]Variable(nil), m.Vars...),
		Coeffs:   append([]fr.Element(nil), m.Coeffs...),
	}
}

// Row returns row r of m as an LC (aliasing m's storage).
func (m *Matrix) Row(r int) (vars []Variable, coeffs []fr.Element) {
	lo, hi := m.RowStart[r], m.RowStart[r+1]
	return m.Vars[lo:hi], m.Coeffs[lo:hi]
}

// NonZeros returns the number of stored terms of m.
func (m *Matrix) NonZeros() int { return len(m.Vars) }

// Eval sets out[r] = Σ coeff·w over row r for every row, with w given as the
// input and aux assignments; out must have one entry per row.
func (m *Matrix) Eval(out []fr.Element, input, aux []fr.Element) {
	for r := 0; r+1 < len(m.RowStart); r++ {
		var acc, t fr.Element
		for k := m.RowStart[r]; k < m.RowStart[r+1]; k++ {
			v := m.Vars[k]
			if v.IsAux() {
				t.Mul(&m.Coeffs[k], &aux[v.Index()])
			} else {
				t.Mul(&m.Coeffs[k], &input[v.Index()])
			}
			acc.Add(&acc, &t)
		}
		out[r] = acc
	}
}
