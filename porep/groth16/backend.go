// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"context"
	"fmt"
	"math/bits"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"

	"github.com/cuseal/cuseal/porep/cs"
)

// Sums are the five query sums of one circuit — everything a backend
// computes; Assemble turns them into a proof with (r, s). With a the
// assignment (inputs ‖ aux) and the density-filtered queries of the
// params (bellperson prover/native.rs):
//
//	H   = Σ_{i<m−1} h_i·hcoef_i   (hcoef = coefficients of (A·B−C)/Z)
//	L   = Σ_j l_j·aux_j
//	A   = Σ_i a_i·input_i + Σ_{j∈A-dense} a_{nIn+k}·aux_j
//	BG1 = Σ_{i∈B-dense inputs} b_g1_k·input_i + Σ_{j∈B-dense aux} b_g1_{pop+k}·aux_j
//	BG2 = the same over b_g2 (G2)
//
// pop = popcount of the B-input density. All points affine; identity is
// (0, 0) as in gnark-crypto.
type Sums struct {
	H, L, A, BG1 bls.G1Affine
	BG2          bls.G2Affine
}

// Backend computes query sums. Implementations: CPUBackend (this package,
// gnark-crypto) and the CUDA backend (bridge package). QuerySums returns
// one Sums per assignment, in order; it must not modify the assignments
// (except A, B and C under WithAssignmentsConsumed) or the params, must
// honour ctx cancellation between stages, and must
// reject assignments that do not fit params (ValidateAssignment) with an
// error wrapping ErrShape. Results must be bit-identical across backends
// (they are group elements, so any correct computation is).
type Backend interface {
	QuerySums(ctx context.Context, params *Params, assignments []*cs.Assignment) ([]Sums, error)
}

// ProofBackend is a Backend that builds whole proofs itself from (r, s)
// instead of returning query sums to the shared Assemble (supraseal-c2 does
// the assembly inside its native call). Prove and ProveAndVerify use
// ProveWith when a backend implements it; its proofs must equal Assemble's
// for the same (r, s) byte for byte, which is what cross-backend tests check.
type ProofBackend interface {
	Backend
	ProveWith(ctx context.Context, params *Params, assignments []*cs.Assignment, rs []Randomness) ([]Proof, error)
}

// ValidateAssignment verifies that a fits params: |Input| = |ic|, |Aux| = |l|,
// constraint count ≤ m = |h|+1 with |A| = |B| = |C|, density bit lengths
// equal to the variable counts (no stray bits past them), |a| = |Input| +
// popcount(A-aux), |b_g1| = |b_g2| = popcount(B-input) + popcount(B-aux).
// Errors wrap ErrShape and name the query and the mismatch.
func ValidateAssignment(params *Params, a *cs.Assignment) error {
	if a == nil {
		return fmt.Errorf("%w: nil assignment", ErrShape)
	}
	nIn, nAux := len(a.Input), len(a.Aux)
	if want := len(params.VK.IC); nIn != want {
		return fmt.Errorf("%w: ic: assignment has %d inputs (incl. ONE), params have %d", ErrShape, nIn, want)
	}
	if want := params.NumL(); nAux != want {
		return fmt.Errorf("%w: l: assignment has %d aux variables, params have %d", ErrShape, nAux, want)
	}
	n := len(a.A)
	if len(a.B) != n || len(a.C) != n {
		return fmt.Errorf("%w: h: evaluation lengths differ: |a|=%d |b|=%d |c|=%d", ErrShape, n, len(a.B), len(a.C))
	}
	if m := params.DomainSize(); n > m {
		return fmt.Errorf("%w: h: %d constraints exceed the domain size %d (|h| = %d)", ErrShape, n, m, m-1)
	}
	popA, err := densityPopcount(&a.ADensityAux, nAux, "A-aux")
	if err != nil {
		return err
	}
	popBIn, err := densityPopcount(&a.BDensityInput, nIn, "B-input")
	if err != nil {
		return err
	}
	popBAux, err := densityPopcount(&a.BDensityAux, nAux, "B-aux")
	if err != nil {
		return err
	}
	if want := params.NumA(); nIn+popA != want {
		return fmt.Errorf("%w: a: %d inputs + %d A-dense aux = %d, params have %d", ErrShape, nIn, popA, nIn+popA, want)
	}
	if want := params.NumBG1(); popBIn+popBAux != want {
		return fmt.Errorf("%w: b_g1: %d B-dense inputs + %d B-dense aux = %d, params have %d", ErrShape, popBIn, popBAux, popBIn+popBAux, want)
	}
	if want := params.NumBG2(); popBIn+popBAux != want {
		return fmt.Errorf("%w: b_g2: %d B-dense inputs + %d B-dense aux = %d, params have %d", ErrShape, popBIn, popBAux, popBIn+popBAux, want)
	}
	return nil
}

// densityPopcount checks d against the variable count and returns its
// popcount.
func densityPopcount(d *cs.Density, nVars int, name string) (int, error) {
	if d.BitLen != nVars {
		return 0, fmt.Errorf("%w: %s density has %d bits, want %d", ErrShape, name, d.BitLen, nVars)
	}
	words := (nVars + 63) / 64
	if len(d.Words) < words {
		return 0, fmt.Errorf("%w: %s density has %d words, want %d", ErrShape, name, len(d.Words), words)
	}
	pop := 0
	for i, w := range d.Words {
		if i >= words {
			if w != 0 {
				return 0, fmt.Errorf("%w: %s density has bits set past bit %d", ErrShape, name, nVars)
			}
			continue
		}
		if i == words-1 && nVars%64 != 0 && w>>(nVars%64) != 0 {
			return 0, fmt.Errorf("%w: %s density has bits set past bit %d", ErrShape, name, nVars)
		}
		pop += bits.OnesCount64(w)
	}
	return pop, nil
}

// densityBit reports bit i of d.
func densityBit(d *cs.Density, i int) bool {
	return d.Words[i/64]>>(i%64)&1 == 1
}
