// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"errors"
	"fmt"
	"math/big"
	"runtime"
	"sync"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"
	"github.com/consensys/gnark-crypto/utils"

	"github.com/cuseal/cuseal/porep/cs"
)

// frTwoAdicity is S for BLS12-381's scalar field: r − 1 = 2^32 · t.
const frTwoAdicity = 32

// ErrUnconstrainedVariable: an aux variable's l-query scalar is zero
// (bellperson SynthesisError::UnconstrainedVariable).
var ErrUnconstrainedVariable = errors.New("groth16: unconstrained aux variable")

// Setup generates Groth16 parameters for r1cs from the given toxic waste,
// with the standard BLS12-381 G1/G2 generators. FOR TESTS ONLY: whoever
// knows tw can forge proofs.
//
// The output is point-for-point what bellperson's generate_parameters
// (src/groth16/generator.rs) produces for the same R1CS and toxic waste:
//   - m = the smallest power of two ≥ the number of constraints (r1cs rows,
//     which include the per-input rows input_i·0 = 0); m = 1 for none;
//   - h_i = τ^i·Z(τ)/δ·G1 for i < m−1, Z(τ) = τ^m − 1;
//   - u_i, v_i, w_i = the A, B, C polynomials of variable i evaluated at τ
//     through the Lagrange basis of the m-th roots of unity (ω = the
//     2^32-th root of unity 7^t squared down, as ff/blstrs and gnark agree);
//   - ic_i = (β·u_i + α·v_i + w_i)/γ·G1 for inputs, l_i = (…)/δ·G1 for aux;
//   - a = u_i·G1, b_g1 = v_i·G1, b_g2 = v_i·G2 over inputs then aux, with
//     the entries whose scalar is zero (the identity points) dropped.
//
// It fails if the R1CS is malformed, if the domain exceeds 2^31, if γ or δ
// is zero, or with ErrUnconstrainedVariable if an aux l-scalar is zero.
func Setup(r1cs *cs.R1CS, tw ToxicWaste) (*Params, error) {
	if err := validateR1CS(r1cs); err != nil {
		return nil, err
	}
	n := len(r1cs.A.RowStart) - 1
	m, logm := 1, 0
	for m < n {
		m <<= 1
		logm++
		if logm >= frTwoAdicity {
			return nil, fmt.Errorf("groth16: setup: %d constraints exceed the 2^%d FFT domain", n, frTwoAdicity-1)
		}
	}
	if tw.Gamma.IsZero() || tw.Delta.IsZero() {
		return nil, errors.New("groth16: setup: γ and δ must be non-zero")
	}
	var gammaInv, deltaInv fr.Element
	gammaInv.Inverse(&tw.Gamma)
	deltaInv.Inverse(&tw.Delta)

	// Powers of τ, then the H scalars τ^i·Z(τ)/δ.
	powers := make([]fr.Element, m)
	powersOf(powers, &tw.Tau)
	var zt, one fr.Element
	one.SetOne()
	zt.Exp(tw.Tau, big.NewInt(int64(m)))
	zt.Sub(&zt, &one)
	var coeff fr.Element
	coeff.Mul(&zt, &deltaInv)
	hScalars := make([]fr.Element, m-1)
	parallelRange(m-1, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			hScalars[i].Mul(&powers[i], &coeff)
		}
	})

	// Lagrange basis at τ: the inverse FFT of the powers of τ (bellperson
	// powers_of_tau.ifft).
	lagrange := powers
	if m > 1 {
		dom := fft.NewDomain(uint64(m))
		dom.FFTInverse(lagrange, fft.DIF)
		utils.BitReverse(lagrange)
	}

	nIn, nAux := r1cs.NumInputs, r1cs.NumAux
	nVars := nIn + nAux
	u := make([]fr.Element, nVars)
	v := make([]fr.Element, nVars)
	w := make([]fr.Element, nVars)
	var wg sync.WaitGroup
	for _, job := range []struct {
		mat *cs.Matrix
		out []fr.Element
	}{{&r1cs.A, u}, {&r1cs.B, v}, {&r1cs.C, w}} {
		wg.Add(1)
		go func(mat *cs.Matrix, out []fr.Element) {
			defer wg.Done()
			evalAtTau(out, mat, lagrange, nIn)
		}(job.mat, job.out)
	}
	wg.Wait()

	// ic / l scalars: (β·u + α·v + w) / γ (inputs) or / δ (aux).
	ext := make([]fr.Element, nVars)
	parallelRange(nVars, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			var t fr.Element
			ext[i].Mul(&u[i], &tw.Beta)
			t.Mul(&v[i], &tw.Alpha)
			ext[i].Add(&ext[i], &t).Add(&ext[i], &w[i])
			if i < nIn {
				ext[i].Mul(&ext[i], &gammaInv)
			} else {
				ext[i].Mul(&ext[i], &deltaInv)
			}
		}
	})
	for i := nIn; i < nVars; i++ {
		if ext[i].IsZero() {
			return nil, fmt.Errorf("%w: aux %d has a zero l-query scalar", ErrUnconstrainedVariable, i-nIn)
		}
	}
	aScalars := nonZero(u)
	bScalars := nonZero(v)

	// Fixed-base multiplications. One G1 table serves h, ic, l, a, b_g1.
	_, _, g1, g2 := bls.Generators()
	nG1 := len(hScalars) + nVars + len(aScalars) + len(bScalars) + 3
	tab1 := newFixedBaseG1(&g1, nG1)
	q := &queries{
		h:   make([]bls.G1Affine, len(hScalars)),
		l:   make([]bls.G1Affine, nAux),
		a:   make([]bls.G1Affine, len(aScalars)),
		bg1: make([]bls.G1Affine, len(bScalars)),
		bg2: make([]bls.G2Affine, len(bScalars)),
	}
	ic := make([]bls.G1Affine, nIn)
	tab1.mul(q.h, hScalars)
	tab1.mul(ic, ext[:nIn])
	tab1.mul(q.l, ext[nIn:])
	tab1.mul(q.a, aScalars)
	tab1.mul(q.bg1, bScalars)
	var vkG1 [3]bls.G1Affine
	tab1.mul(vkG1[:], []fr.Element{tw.Alpha, tw.Beta, tw.Delta})
	tab1 = nil

	tab2 := newFixedBaseG2(&g2, len(bScalars)+3)
	tab2.mul(q.bg2, bScalars)
	var vkG2 [3]bls.G2Affine
	tab2.mul(vkG2[:], []fr.Element{tw.Beta, tw.Gamma, tw.Delta})

	vk := VerifyingKey{
		Alpha1: vkG1[0], Beta1: vkG1[1], Delta1: vkG1[2],
		Beta2: vkG2[0], Gamma2: vkG2[1], Delta2: vkG2[2],
		IC: ic,
	}
	return &Params{VK: vk, mem: q, checked: true}, nil
}

// validateR1CS checks the CSR shapes and variable ranges of r1cs.
func validateR1CS(r *cs.R1CS) error {
	if r == nil {
		return errors.New("groth16: setup: nil R1CS")
	}
	if r.NumInputs < 1 || r.NumAux < 0 {
		return fmt.Errorf("groth16: setup: R1CS has %d inputs (need ≥ 1 for ONE) and %d aux", r.NumInputs, r.NumAux)
	}
	rows := len(r.A.RowStart) - 1
	for _, mm := range []struct {
		name string
		m    *cs.Matrix
	}{{"A", &r.A}, {"B", &r.B}, {"C", &r.C}} {
		m := mm.m
		if len(m.RowStart)-1 != rows || rows < 0 {
			return fmt.Errorf("groth16: setup: R1CS matrix %s has %d rows, A has %d", mm.name, len(m.RowStart)-1, rows)
		}
		if len(m.Vars) != len(m.Coeffs) {
			return fmt.Errorf("groth16: setup: R1CS matrix %s: %d vars but %d coeffs", mm.name, len(m.Vars), len(m.Coeffs))
		}
		if m.RowStart[0] != 0 || m.RowStart[rows] != len(m.Vars) {
			return fmt.Errorf("groth16: setup: R1CS matrix %s: RowStart spans [%d,%d), have %d terms", mm.name, m.RowStart[0], m.RowStart[rows], len(m.Vars))
		}
		for j := 0; j < rows; j++ {
			if m.RowStart[j+1] < m.RowStart[j] {
				return fmt.Errorf("groth16: setup: R1CS matrix %s: RowStart decreases at row %d", mm.name, j)
			}
		}
		for k, v := range m.Vars {
			limit := r.NumInputs
			if v.IsAux() {
				limit = r.NumAux
			}
			if v.Index() >= limit {
				return fmt.Errorf("groth16: setup: R1CS matrix %s term %d: variable index %d out of range (%d)", mm.name, k, v.Index(), limit)
			}
		}
	}
	return nil
}

// evalAtTau sets out[var] = Σ_rows coeff·L_row(τ) for one matrix; inputs
// occupy out[:nIn], aux out[nIn:] (bellperson eval_at_tau).
func evalAtTau(out []fr.Element, m *cs.Matrix, lagrange []fr.Element, nIn int) {
	rows := len(m.RowStart) - 1
	for j := 0; j < rows; j++ {
		for k := m.RowStart[j]; k < m.RowStart[j+1]; k++ {
			v := m.Vars[k]
			idx := v.Index()
			if v.IsAux() {
				idx += nIn
			}
			var t fr.Element
			t.Mul(&m.Coeffs[k], &lagrange[j])
			out[idx].Add(&out[idx], &t)
		}
	}
}

// powersOf sets out[i] = x^i, in parallel chunks.
func powersOf(out []fr.Element, x *fr.Element) {
	parallelRange(len(out), func(lo, hi int) {
		var p fr.Element
		p.Exp(*x, new(big.Int).SetUint64(uint64(lo)))
		for i := lo; i < hi; i++ {
			out[i] = p
			p.Mul(&p, x)
		}
	})
}

// nonZero returns the non-zero elements of s in order.
func nonZero(s []fr.Element) []fr.Element {
	out := make([]fr.Element, 0, len(s))
	for i := range s {
		if !s[i].IsZero() {
			out = append(out, s[i])
		}
	}
	return out
}

// parallelRange splits [0,n) into GOMAXPROCS contiguous ranges.
func parallelRange(n int, f func(lo, hi int)) {
	if n <= 0 {
		return
	}
	workers := runtime.GOMAXPROCS(0)
	if n < 4096 || workers == 1 {
		f(0, n)
		return
	}
	chunk := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += chunk {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			f(lo, hi)
		}(lo, min(lo+chunk, n))
	}
	wg.Wait()
}
