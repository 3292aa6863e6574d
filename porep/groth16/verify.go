// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc"
	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// g2Lines are the precomputed Miller-loop lines of a fixed G2 point.
type g2Lines = [2][len(bls.LoopCounter) - 1]bls.LineEvaluationAff

// PreparedVerifyingKey is a verifying key with the pairing work that does
// not depend on the proof done once (bellperson prepare_verifying_key):
// e(α₁, β₂) and the Miller-loop lines of −γ₂, −δ₂ and β₂.
type PreparedVerifyingKey struct {
	VK        VerifyingKey
	alphaBeta bls.GT
	lines     []g2Lines // −γ₂, −δ₂, β₂
}

// PrepareVerifyingKey precomputes the fixed pairing data of vk.
func PrepareVerifyingKey(vk *VerifyingKey) (*PreparedVerifyingKey, error) {
	if len(vk.IC) == 0 {
		return nil, errors.New("groth16: verifying key has no ic points")
	}
	ab, err := bls.Pair([]bls.G1Affine{vk.Alpha1}, []bls.G2Affine{vk.Beta2})
	if err != nil {
		return nil, fmt.Errorf("groth16: prepare vk: %w", err)
	}
	var negGamma, negDelta bls.G2Affine
	negGamma.Neg(&vk.Gamma2)
	negDelta.Neg(&vk.Delta2)
	return &PreparedVerifyingKey{
		VK:        *vk,
		alphaBeta: ab,
		lines:     []g2Lines{bls.PrecomputeLines(negGamma), bls.PrecomputeLines(negDelta), bls.PrecomputeLines(vk.Beta2)},
	}, nil
}

// linesCopy returns a copy of the first k precomputed line sets: gnark's
// MillerLoopFixedQ scales the lines it is given in place (by the G1
// point's coordinates), so the originals must never be passed to it — that
// would corrupt the key for the next call and race between goroutines.
func (pvk *PreparedVerifyingKey) linesCopy(k int) []g2Lines {
	out := make([]g2Lines, k)
	copy(out, pvk.lines[:k])
	return out
}

// checkProofPoints rejects proofs whose points are off the curve or outside
// the subgroup (possible only for proofs built in memory: DecodeProofs
// already checks).
func checkProofPoints(p *Proof) error {
	if !p.A.IsInSubGroup() || !p.C.IsInSubGroup() || !p.B.IsInSubGroup() {
		return fmt.Errorf("%w: proof point not in the prime-order subgroup", ErrInvalidProof)
	}
	return nil
}

// inputAcc returns IC[0]·c0 + Σ IC[j+1]·x_j.
func (pvk *PreparedVerifyingKey) inputAcc(c0 *fr.Element, x []fr.Element) (bls.G1Affine, error) {
	sc := make([]fr.Element, len(pvk.VK.IC))
	sc[0] = *c0
	copy(sc[1:], x)
	var acc bls.G1Affine
	if _, err := acc.MultiExp(pvk.VK.IC, sc, ecc.MultiExpConfig{}); err != nil {
		return acc, err
	}
	return acc, nil
}

// Verify checks one proof against the public inputs (without the leading
// ONE): e(A, B)·e(Σ x_i·IC_i, −γ₂)·e(C, −δ₂) = e(α₁, β₂). It returns nil for
// a valid proof, an error wrapping ErrInvalidProof for an invalid one, and
// another error if the input count does not match the key.
func (pvk *PreparedVerifyingKey) Verify(proof *Proof, public []fr.Element) error {
	if len(public)+1 != len(pvk.VK.IC) {
		return fmt.Errorf("groth16: verify: %d public inputs, verifying key expects %d", len(public), len(pvk.VK.IC)-1)
	}
	if err := checkProofPoints(proof); err != nil {
		return err
	}
	var one fr.Element
	one.SetOne()
	acc, err := pvk.inputAcc(&one, public)
	if err != nil {
		return fmt.Errorf("groth16: verify: %w", err)
	}
	f1, err := bls.MillerLoop([]bls.G1Affine{proof.A}, []bls.G2Affine{proof.B})
	if err != nil {
		return fmt.Errorf("groth16: verify: %w", err)
	}
	f2, err := bls.MillerLoopFixedQ([]bls.G1Affine{acc, proof.C}, pvk.linesCopy(2))
	if err != nil {
		return fmt.Errorf("groth16: verify: %w", err)
	}
	f1.Mul(&f1, &f2)
	if got := bls.FinalExponentiation(&f1); !got.Equal(&pvk.alphaBeta) {
		return ErrInvalidProof
	}
	return nil
}

// VerifyBatch checks many proofs with one multi-pairing: with random
// 128-bit z_i (crypto/rand),
//
//	Π e(z_i·A_i, B_i) · e(Σ z_i·acc_i, −γ₂) · e(Σ z_i·C_i, −δ₂) · e(−(Σ z_i)·α₁, β₂) = 1
//
// (zcash spec appendix B.2, bellperson verify_proofs_batch). A nil result
// means all proofs are valid except with probability ≤ 2^-128; an error
// wrapping ErrInvalidProof means at least one is invalid.
func (pvk *PreparedVerifyingKey) VerifyBatch(proofs []Proof, publics [][]fr.Element) error {
	if len(proofs) != len(publics) {
		return fmt.Errorf("groth16: verify batch: %d proofs but %d public-input vectors", len(proofs), len(publics))
	}
	if len(proofs) == 0 {
		return errors.New("groth16: verify batch: no proofs")
	}
	if len(proofs) == 1 {
		return pvk.Verify(&proofs[0], publics[0])
	}
	nPub := len(pvk.VK.IC) - 1
	for i := range proofs {
		if len(publics[i]) != nPub {
			return fmt.Errorf("groth16: verify batch: proof %d has %d public inputs, verifying key expects %d", i, len(publics[i]), nPub)
		}
		if err := checkProofPoints(&proofs[i]); err != nil {
			return fmt.Errorf("proof %d: %w", i, err)
		}
	}
	z := make([]fr.Element, len(proofs))
	for i := range z {
		if err := randomBatchScalar(&z[i]); err != nil {
			return err
		}
	}
	// Σ z_i and Σ_i z_i·x_ij per input j.
	var zSum fr.Element
	comb := make([]fr.Element, nPub)
	for i := range proofs {
		zSum.Add(&zSum, &z[i])
		for j := range publics[i] {
			var t fr.Element
			t.Mul(&z[i], &publics[i][j])
			comb[j].Add(&comb[j], &t)
		}
	}
	acc, err := pvk.inputAcc(&zSum, comb)
	if err != nil {
		return fmt.Errorf("groth16: verify batch: %w", err)
	}
	cs := make([]bls.G1Affine, len(proofs))
	as := make([]bls.G1Affine, len(proofs))
	bs := make([]bls.G2Affine, len(proofs))
	for i := range proofs {
		cs[i] = proofs[i].C
		as[i].ScalarMultiplication(&proofs[i].A, z[i].BigInt(new(big.Int)))
		bs[i] = proofs[i].B
	}
	var cAcc bls.G1Affine
	if _, err := cAcc.MultiExp(cs, z, ecc.MultiExpConfig{}); err != nil {
		return fmt.Errorf("groth16: verify batch: %w", err)
	}
	var alphaAcc bls.G1Affine
	var negSum fr.Element
	negSum.Neg(&zSum)
	alphaAcc.ScalarMultiplication(&pvk.VK.Alpha1, negSum.BigInt(new(big.Int)))

	f1, err := bls.MillerLoop(as, bs)
	if err != nil {
		return fmt.Errorf("groth16: verify batch: %w", err)
	}
	f2, err := bls.MillerLoopFixedQ([]bls.G1Affine{acc, cAcc, alphaAcc}, pvk.linesCopy(3))
	if err != nil {
		return fmt.Errorf("groth16: verify batch: %w", err)
	}
	f1.Mul(&f1, &f2)
	got := bls.FinalExponentiation(&f1)
	var one bls.GT
	one.SetOne()
	if !got.Equal(&one) {
		return ErrInvalidProof
	}
	return nil
}
