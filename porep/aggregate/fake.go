// SPDX-License-Identifier: Apache-2.0 OR MIT

package aggregate

import (
	"crypto/sha256"
	"encoding/binary"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/groth16"
)

// FakeProofs returns, for benchmarks and tests, an INSECURE verifying key
// with one public input whose trapdoor is derived from seed, and n valid
// Groth16 proofs for it with their public inputs: with the trapdoor known,
// C = (a·b − α·β − IC(x)·γ)/δ makes any A = a·G1, B = b·G2 verify. No
// circuit and no parameters are needed, so aggregation can be measured for
// any n.
func FakeProofs(seed [32]byte, n int) (*groth16.VerifyingKey, []groth16.Proof, [][]fr.Element) {
	ctr := uint64(0)
	next := func() fr.Element {
		h := sha256.New()
		h.Write([]byte("cuseal-fake-proofs"))
		h.Write(seed[:])
		var c [8]byte
		binary.LittleEndian.PutUint64(c[:], ctr)
		ctr++
		h.Write(c[:])
		var d [32]byte
		h.Sum(d[:0])
		d[31] &= 0x3f
		e, _ := fr.LittleEndian.Element(&d)
		return e
	}
	alpha, beta, gamma, delta, ic0, ic1 := next(), next(), next(), next(), next(), next()
	_, _, g1, g2 := bls.Generators()
	mul1 := func(s fr.Element) bls.G1Affine {
		var p bls.G1Affine
		p.ScalarMultiplication(&g1, bigOf(&s))
		return p
	}
	mul2 := func(s fr.Element) bls.G2Affine {
		var p bls.G2Affine
		p.ScalarMultiplication(&g2, bigOf(&s))
		return p
	}
	var gammaInv, deltaInv fr.Element
	gammaInv.Inverse(&gamma)
	deltaInv.Inverse(&delta)
	// IC_i = ic_i/γ · G1 (as a real setup: the γ in e(IC(x), γ) cancels).
	var e0, e1 fr.Element
	e0.Mul(&ic0, &gammaInv)
	e1.Mul(&ic1, &gammaInv)
	vk := &groth16.VerifyingKey{
		Alpha1: mul1(alpha), Beta1: mul1(beta), Beta2: mul2(beta), Gamma2: mul2(gamma),
		Delta1: mul1(delta), Delta2: mul2(delta), IC: []bls.G1Affine{mul1(e0), mul1(e1)},
	}
	var ab fr.Element
	ab.Mul(&alpha, &beta)
	proofs := make([]groth16.Proof, n)
	public := make([][]fr.Element, n)
	as, bs, cs := make([]fr.Element, n), make([]fr.Element, n), make([]fr.Element, n)
	for i := 0; i < n; i++ {
		a, b, x := next(), next(), next()
		public[i] = []fr.Element{x}
		// c = (a·b − α·β − (ic0 + x·ic1)) / δ
		var c, t fr.Element
		c.Mul(&a, &b)
		c.Sub(&c, &ab)
		t.Mul(&x, &ic1)
		t.Add(&t, &ic0)
		c.Sub(&c, &t)
		c.Mul(&c, &deltaInv)
		as[i], bs[i], cs[i] = a, b, c
	}
	A := bls.BatchScalarMultiplicationG1(&g1, as)
	B := bls.BatchScalarMultiplicationG2(&g2, bs)
	C := bls.BatchScalarMultiplicationG1(&g1, cs)
	for i := range proofs {
		proofs[i] = groth16.Proof{A: A[i], B: B[i], C: C[i]}
	}
	return vk, proofs, public
}
