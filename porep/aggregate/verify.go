// SPDX-License-Identifier: Apache-2.0 OR MIT

package aggregate

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc"
	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/internal/parallel"
	"github.com/cuseal/cuseal/porep/groth16"
)

// ErrInvalidAggregate is wrapped by Verify when a check of the aggregate
// fails (the aggregate does not verify); other errors mean it could not be
// checked at all (shapes that do not fit).
var ErrInvalidAggregate = errors.New("aggregate: invalid aggregate proof")

func invalid(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidAggregate, fmt.Sprintf(format, a...))
}

// Verify checks an aggregate of n Groth16 proofs for the verifying key vk
// and the public inputs of each proof (ONE excluded), as bellperson's
// verify_aggregate_proof (V2) does: the GIPA rounds are folded with the
// transcript challenges, the final commitment keys are checked by their
// KZG openings against the SRS, the final TIPP/MIPP values are checked,
// and the aggregated Groth16 equation
// e(α, β)^{Σr^i} · e(Σ_i r^i·IC(x_i), γ) · e(C', δ) = Z_AB is checked.
// bellperson merges the pairing checks in one random linear combination;
// this verifier checks each on its own (no randomness, and the error names
// the check that failed), which accepts exactly the aggregates for which
// all the equations hold. (bellperson's accumulator also treats a right
// hand side equal to e(g1, g2) as "no constraint" — a sentinel for one —
// which no honest aggregate meets; cuseal checks the equation as written.)
// vsrs must be specialized to p.NProofs.
//
// The steps are bellperson verify.rs's functions: the shape checks
// (parsing_check and the public input lengths), gipa_verify_tipp_mipp
// (gipaVerify), verify_kzg_v/_w (kzgOpeningChecks), the final TIPP/MIPP
// checks of verify_tipp_mipp (finalChecks, zcHolds), the Groth16 equation
// of verify_aggregate_proof (groth16Equation), then every pairing check.
func Verify(vsrs *VerifierSRS, vk *groth16.VerifyingKey, public [][]fr.Element, include []byte, p *AggregateProof) error {
	if err := checkShapes(vsrs, vk, public, p); err != nil {
		return err
	}
	hcom := newTranscript("hcom").gt(&p.ComAB[0]).gt(&p.ComAB[1]).gt(&p.ComC[0]).gt(&p.ComC[1]).challenge()
	r := newTranscript("random-r").fr(&hcom).bytes(include).challenge()

	g := p.gipaVerify(&hcom, &r)
	checks := p.kzgOpeningChecks(vsrs, g, &r)
	checks = append(checks, p.finalChecks(g)...)
	eq, err := groth16Equation(vk, public, p, &r)
	if err != nil {
		return err
	}
	checks = append(checks, eq)
	if !p.zcHolds(g, &r) {
		return invalid("MIPP z_c ≠ final_c^final_r")
	}
	return pairAll(checks)
}

// checkShapes is bellperson's parsing_check plus the sizes Verify is
// given: vsrs specialized to n, one public input vector per proof, each of
// the length vk takes. A misfit is an error, not ErrInvalidAggregate.
func checkShapes(vsrs *VerifierSRS, vk *groth16.VerifyingKey, public [][]fr.Element, p *AggregateProof) error {
	n := int(p.NProofs)
	if n < 2 || n&(n-1) != 0 || len(p.CommsAB) != logProofs(n) || len(p.CommsC) != len(p.CommsAB) ||
		len(p.ZAB) != len(p.CommsAB) || len(p.ZC) != len(p.CommsAB) {
		return fmt.Errorf("%w: nproofs %d does not fit its %d GIPA rounds", ErrMalformedProof, n, len(p.CommsAB))
	}
	if vsrs.N != n {
		return fmt.Errorf("aggregate: verifier SRS is specialized to %d proofs, the aggregate holds %d", vsrs.N, n)
	}
	if len(public) != n {
		return fmt.Errorf("aggregate: %d public input vectors for an aggregate of %d proofs", len(public), n)
	}
	for i := range public {
		if len(public[i])+1 != len(vk.IC) {
			return fmt.Errorf("aggregate: proof %d has %d public inputs, the verifying key takes %d", i, len(public[i]), len(vk.IC)-1)
		}
	}
	return nil
}

// gipaFolded is bellperson's GipaTUZ with the challenges that made it: the
// proof's commitments and inner products folded through every GIPA round.
type gipaFolded struct {
	chal, chalInv []fr.Element // per round, in round order
	tab, uab, zab bls.GT       // TIPP: T, U of (A, B); Z = A^r·B
	tc, uc        bls.GT       // MIPP: T, U of C
	zc            bls.G1Jac    // MIPP: Z = C^r
}

// gipaVerify regenerates the round challenges from the transcript and
// folds each round's left values with c and right values with c⁻¹
// (gipa_verify_tipp_mipp).
func (p *AggregateProof) gipaVerify(hcom, r *fr.Element) *gipaFolded {
	l := len(p.CommsAB)
	g := &gipaFolded{chal: make([]fr.Element, l), chalInv: make([]fr.Element, l)}
	cInv := p.firstChallenge(hcom, r)
	for i := 0; i < l; i++ {
		cInv = p.roundChallenge(i, &cInv)
		g.chalInv[i] = cInv
		g.chal[i].Inverse(&cInv)
	}

	g.tab, g.uab, g.zab = p.ComAB[0], p.ComAB[1], p.IPAB
	g.tc, g.uc = p.ComC[0], p.ComC[1]
	g.zc.FromAffine(&p.AggC)
	mulExp := func(acc *bls.GT, x *bls.GT, e *fr.Element) {
		var t bls.GT
		t.CyclotomicExp(*x, bigOf(e))
		acc.Mul(acc, &t)
	}
	for i := 0; i < l; i++ {
		c, ci := &g.chal[i], &g.chalInv[i]
		mulExp(&g.tab, &p.CommsAB[i][0][0], c)
		mulExp(&g.tab, &p.CommsAB[i][1][0], ci)
		mulExp(&g.uab, &p.CommsAB[i][0][1], c)
		mulExp(&g.uab, &p.CommsAB[i][1][1], ci)
		mulExp(&g.zab, &p.ZAB[i][0], c)
		mulExp(&g.zab, &p.ZAB[i][1], ci)
		mulExp(&g.tc, &p.CommsC[i][0][0], c)
		mulExp(&g.tc, &p.CommsC[i][1][0], ci)
		mulExp(&g.uc, &p.CommsC[i][0][1], c)
		mulExp(&g.uc, &p.CommsC[i][1][1], ci)
		var t bls.G1Jac
		t.JointScalarMultiplication(&p.ZC[i][0], &p.ZC[i][1], bigOf(c), bigOf(ci))
		g.zc.AddAssign(&t)
	}
	return g
}

// pairingCheck is one equation Π e(P_i, Q_i) = want (want nil: = 1).
type pairingCheck struct {
	name string
	P    []bls.G1Affine
	Q    []bls.G2Affine
	want *bls.GT
}

// kzgOpeningChecks are the KZG openings of the final commitment keys at the
// transcript point z (verify_kzg_v, verify_kzg_w): v's polynomial has the
// challenges' inverses, w's the challenges with r⁻¹ and the shift z^n.
func (p *AggregateProof) kzgOpeningChecks(vsrs *VerifierSRS, g *gipaFolded, r *fr.Element) []pairingCheck {
	n := int(p.NProofs)
	extra := p.extraChallenge(&g.chal[len(g.chal)-1])
	z := p.kzgChallenge(&extra)
	neg1 := func(x bls.G1Affine) bls.G1Affine { x.Neg(&x); return x }
	neg2 := func(x bls.G2Affine) bls.G2Affine { x.Neg(&x); return x }
	sub1 := func(x *bls.G1Affine, gen *bls.G1Affine, s *fr.Element) bls.G1Affine {
		var t, o bls.G1Affine
		t.ScalarMultiplication(gen, bigOf(s))
		o.Sub(x, &t)
		return o
	}
	sub2 := func(x *bls.G2Affine, gen *bls.G2Affine, s *fr.Element) bls.G2Affine {
		var t, o bls.G2Affine
		t.ScalarMultiplication(gen, bigOf(s))
		o.Sub(x, &t)
		return o
	}
	var checks []pairingCheck
	// v: e(−g, v_j − h·f_v(z)) · e(g^{α|β} − g·z, π_j) = 1.
	fvz := polyEvalProductForm(reversed(g.chalInv), &z, oneFr())
	for j, base := range []bls.G1Affine{vsrs.GAlpha, vsrs.GBeta} {
		checks = append(checks, pairingCheck{fmt.Sprintf("KZG opening of final_vkey.%d", j),
			[]bls.G1Affine{neg1(vsrs.G), sub1(&base, &vsrs.G, &z)},
			[]bls.G2Affine{sub2(&p.FinalVKey[j], &vsrs.H, &fvz), p.VKeyOpening[j]}, nil})
	}
	// w: f_w(z) = z^n · f(z) with r⁻¹;
	// e(w_j − g·f_w(z), −h) · e(π_j, h^{α|β} − h·z) = 1.
	var rInv fr.Element
	rInv.Inverse(r)
	fwz := polyEvalProductForm(reversed(g.chal), &z, &rInv)
	var zn fr.Element
	zn.Exp(z, big.NewInt(int64(n)))
	fwz.Mul(&fwz, &zn)
	for j, base := range []bls.G2Affine{vsrs.HAlpha, vsrs.HBeta} {
		checks = append(checks, pairingCheck{fmt.Sprintf("KZG opening of final_wkey.%d", j),
			[]bls.G1Affine{sub1(&p.FinalWKey[j], &vsrs.G, &fwz), p.WKeyOpening[j]},
			[]bls.G2Affine{neg2(vsrs.H), sub2(&base, &vsrs.H, &z)}, nil})
	}
	return checks
}

// finalChecks are the pairing checks of the final TIPP and MIPP values
// against the folded commitments (verify_tipp_mipp's _check_z … _check_u).
func (p *AggregateProof) finalChecks(g *gipaFolded) []pairingCheck {
	return []pairingCheck{
		{"TIPP z_ab = e(final_a, final_b)", []bls.G1Affine{p.FinalA}, []bls.G2Affine{p.FinalB}, &g.zab},
		{"TIPP t_ab = e(final_a, v1)·e(w1, final_b)", []bls.G1Affine{p.FinalA, p.FinalWKey[0]}, []bls.G2Affine{p.FinalVKey[0], p.FinalB}, &g.tab},
		{"TIPP u_ab = e(final_a, v2)·e(w2, final_b)", []bls.G1Affine{p.FinalA, p.FinalWKey[1]}, []bls.G2Affine{p.FinalVKey[1], p.FinalB}, &g.uab},
		{"MIPP t_c = e(final_c, v1)", []bls.G1Affine{p.FinalC}, []bls.G2Affine{p.FinalVKey[0]}, &g.tc},
		{"MIPP u_c = e(final_c, v2)", []bls.G1Affine{p.FinalC}, []bls.G2Affine{p.FinalVKey[1]}, &g.uc},
	}
}

// zcHolds is MIPP's check without a pairing: final_c·final_r = Z_c, with
// final_r the challenges' inverses' product form at r (verify_tipp_mipp).
func (p *AggregateProof) zcHolds(g *gipaFolded, r *fr.Element) bool {
	finalR := polyEvalProductForm(reversed(g.chalInv), r, oneFr())
	var fc bls.G1Jac
	fc.FromAffine(&p.FinalC)
	fc.ScalarMultiplication(&fc, bigOf(&finalR))
	return fc.Equal(&g.zc)
}

// groth16Equation is the aggregated Groth16 equation of
// verify_aggregate_proof (its parts 3–5):
// e(α·Σr^i, β) · e(IC_0·Σr^i + Σ_k IC_k·Σ_j r^j·x_{j,k}, γ) · e(agg_c, δ) = ip_ab.
func groth16Equation(vk *groth16.VerifyingKey, public [][]fr.Element, p *AggregateProof, r *fr.Element) (pairingCheck, error) {
	n := int(p.NProofs)
	// Σ_{i<n} r^i = (r^n − 1)/(r − 1)
	var rSum, one, den fr.Element
	one.SetOne()
	rSum.Exp(*r, big.NewInt(int64(n)))
	rSum.Sub(&rSum, &one)
	den.Sub(r, &one)
	den.Inverse(&den)
	rSum.Mul(&rSum, &den)
	rPow := powers(n, r)
	nin := len(vk.IC) - 1
	sc := make([]fr.Element, len(vk.IC))
	sc[0] = rSum
	for k := 0; k < nin; k++ {
		for j := 0; j < n; j++ {
			var t fr.Element
			t.Mul(&public[j][k], &rPow[j])
			sc[k+1].Add(&sc[k+1], &t)
		}
	}
	var gic, alphaR bls.G1Affine
	if _, err := gic.MultiExp(vk.IC, sc, ecc.MultiExpConfig{}); err != nil {
		return pairingCheck{}, fmt.Errorf("aggregate: %w", err)
	}
	alphaR.ScalarMultiplication(&vk.Alpha1, bigOf(&rSum))
	return pairingCheck{"aggregated Groth16 equation",
		[]bls.G1Affine{alphaR, gic, p.AggC}, []bls.G2Affine{vk.Beta2, vk.Gamma2, vk.Delta2}, &p.IPAB}, nil
}

// pairAll evaluates the checks concurrently and returns the first failure
// in their order (ErrInvalidAggregate), or nil when all hold
// (bellperson PairingChecks::verify, one check at a time).
func pairAll(checks []pairingCheck) error {
	results := make([]error, len(checks))
	_ = parallel.Each(len(checks), func(i int) error {
		c := &checks[i]
		got, err := bls.Pair(c.P, c.Q)
		if err != nil {
			results[i] = fmt.Errorf("aggregate: %s: %w", c.name, err)
			return nil
		}
		if c.want == nil {
			if !got.IsOne() {
				results[i] = invalid("%s failed", c.name)
			}
		} else if !got.Equal(c.want) {
			results[i] = invalid("%s failed", c.name)
		}
		return nil
	})
	for _, err := range results {
		if err != nil {
			return err
		}
	}
	return nil
}
