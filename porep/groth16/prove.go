// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
)

// Assemble builds a proof from the query sums and the blinding (r, s) —
// the one assembly shared by all backends (bellperson prover/native.rs):
//
//	A = α₁ + ΣA + r·δ₁
//	B = β₂ + ΣB_G2 + s·δ₂
//	C = s·ΣA + r·ΣB_G1 + r·s·δ₁ + s·α₁ + r·β₁ + ΣH + ΣL
//
// It fails if δ₁ or δ₂ is the identity (bellperson UnexpectedIdentity).
func Assemble(vk *VerifyingKey, sums *Sums, rs *Randomness) (Proof, error) {
	if vk.Delta1.IsInfinity() || vk.Delta2.IsInfinity() {
		return Proof{}, errors.New("groth16: assemble: δ is the identity (subverted CRS)")
	}
	r, s := rs.R.BigInt(new(big.Int)), rs.S.BigInt(new(big.Int))
	var rsProd fr.Element
	rsProd.Mul(&rs.R, &rs.S)
	rsBig := rsProd.BigInt(new(big.Int))

	var t1 bls.G1Jac
	// A
	var a bls.G1Jac
	a.FromAffine(&vk.Delta1)
	a.ScalarMultiplication(&a, r)
	a.AddMixed(&vk.Alpha1)
	a.AddMixed(&sums.A)
	// B
	var b bls.G2Jac
	b.FromAffine(&vk.Delta2)
	b.ScalarMultiplication(&b, s)
	b.AddMixed(&vk.Beta2)
	b.AddMixed(&sums.BG2)
	// C
	var c bls.G1Jac
	c.FromAffine(&sums.A)
	c.ScalarMultiplication(&c, s)
	t1.FromAffine(&sums.BG1)
	t1.ScalarMultiplication(&t1, r)
	c.AddAssign(&t1)
	t1.FromAffine(&vk.Delta1)
	t1.ScalarMultiplication(&t1, rsBig)
	c.AddAssign(&t1)
	t1.FromAffine(&vk.Alpha1)
	t1.ScalarMultiplication(&t1, s)
	c.AddAssign(&t1)
	t1.FromAffine(&vk.Beta1)
	t1.ScalarMultiplication(&t1, r)
	c.AddAssign(&t1)
	c.AddMixed(&sums.H)
	c.AddMixed(&sums.L)

	var p Proof
	p.A.FromJacobian(&a)
	p.B.FromJacobian(&b)
	p.C.FromJacobian(&c)
	return p, nil
}

// Prove runs backend on the assignments and assembles one proof each with
// rs[i] (a ProofBackend builds the proofs itself); len(rs) must equal len(assignments). It does not verify the
// proofs; ProveAndVerify does.
func Prove(ctx context.Context, backend Backend, params *Params, assignments []*cs.Assignment, rs []Randomness) ([]Proof, error) {
	if len(rs) != len(assignments) {
		return nil, fmt.Errorf("groth16: prove: %d assignments but %d randomness pairs", len(assignments), len(rs))
	}
	if pb, ok := backend.(ProofBackend); ok {
		proofs, err := pb.ProveWith(ctx, params, assignments, rs)
		if err == nil && len(proofs) != len(assignments) {
			err = fmt.Errorf("groth16: prove: backend returned %d proofs for %d assignments", len(proofs), len(assignments))
		}
		return proofs, err
	}
	sums, err := backend.QuerySums(ctx, params, assignments)
	if err != nil {
		return nil, err
	}
	if len(sums) != len(assignments) {
		return nil, fmt.Errorf("groth16: prove: backend returned %d sums for %d assignments", len(sums), len(assignments))
	}
	proofs := make([]Proof, len(assignments))
	for i := range sums {
		if proofs[i], err = Assemble(&params.VK, &sums[i], &rs[i]); err != nil {
			return nil, err
		}
	}
	return proofs, nil
}

// ProveAndVerify is Prove followed by a batch verification of all proofs
// against params.VK with each assignment's public inputs (Input[1:]).
func ProveAndVerify(ctx context.Context, backend Backend, params *Params, assignments []*cs.Assignment, rs []Randomness) ([]Proof, error) {
	proofs, err := Prove(ctx, backend, params, assignments, rs)
	if err != nil {
		return nil, err
	}
	pvk, err := PrepareVerifyingKey(&params.VK)
	if err != nil {
		return nil, err
	}
	publics := make([][]fr.Element, len(assignments))
	for i, a := range assignments {
		publics[i] = a.Input[1:]
	}
	if err := pvk.VerifyBatch(proofs, publics); err != nil {
		return nil, fmt.Errorf("groth16: self-check after proving: %w", err)
	}
	return proofs, nil
}
