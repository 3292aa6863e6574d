// SPDX-License-Identifier: Apache-2.0 OR MIT

package aggregate

import (
	"errors"
	"fmt"
	"sync"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/groth16"
)

// Aggregate is bellperson's aggregate_proofs with AggregateVersion::V2:
// it proves, for n = len(proofs) (a power of two ≥ 2, equal to pk.N), the
// TIPP relation Z = ∏ e(A_i, B_i^{r^i}) and the MIPP relation
// C' = Σ C_i·r^i under the commitments com_ab and com_c, with r drawn from
// the transcript and include (everything outside the proofs that the
// transcript must bind; Filecoin passes a SHA-256 of seeds and comm_rs).
// The result is deterministic.
func Aggregate(pk *ProverSRS, include []byte, proofs []groth16.Proof) (*AggregateProof, error) {
	n := len(proofs)
	if n < 2 {
		return nil, errors.New("aggregate: aggregating less than 2 proofs is not allowed")
	}
	if n&(n-1) != 0 {
		return nil, fmt.Errorf("aggregate: %d proofs is not a power of two (pad first)", n)
	}
	if pk.N != n || len(pk.VKeyA) != n || len(pk.WKeyA) != n {
		return nil, fmt.Errorf("aggregate: prover SRS is specialized to %d proofs, not %d", pk.N, n)
	}
	a := make([]bls.G1Affine, n)
	b := make([]bls.G2Affine, n)
	c := make([]bls.G1Affine, n)
	for i := range proofs {
		a[i], b[i], c[i] = proofs[i].A, proofs[i].B, proofs[i].C
	}
	p := &AggregateProof{NProofs: uint32(n)}

	// Commitments: com_ab = (∏ e(A,v1)e(w1,B), ∏ e(A,v2)e(w2,B)),
	// com_c = (∏ e(C,v1), ∏ e(C,v2)) (commit.rs pair / single_g1).
	var g errGroup
	g.do(func() (err error) { p.ComAB[0], err = pairConcat(a, pk.VKeyA, pk.WKeyA, b); return })
	g.do(func() (err error) { p.ComAB[1], err = pairConcat(a, pk.VKeyB, pk.WKeyB, b); return })
	g.do(func() (err error) { p.ComC[0], err = pairProd(c, pk.VKeyA); return })
	g.do(func() (err error) { p.ComC[1], err = pairProd(c, pk.VKeyB); return })
	if err := g.wait(); err != nil {
		return nil, err
	}
	hcom := newTranscript("hcom").gt(&p.ComAB[0]).gt(&p.ComAB[1]).gt(&p.ComC[0]).gt(&p.ComC[1]).challenge()
	r := newTranscript("random-r").fr(&hcom).bytes(include).challenge()

	rVec := powers(n, &r)
	rInv := fr.BatchInvert(rVec)
	bR := scaleG2(b, rVec)
	g.do(func() (err error) { p.IPAB, err = pairProd(a, bR); return })
	g.do(func() (err error) { p.AggC, err = msmG1(c, rVec); return })
	if err := g.wait(); err != nil {
		return nil, err
	}
	wA, wB := scaleG1(pk.WKeyA, rInv), scaleG1(pk.WKeyB, rInv)

	chal, chalInv, extra, err := p.gipa(a, bR, c, rVec, pk.VKeyA, pk.VKeyB, wA, wB, &hcom)
	if err != nil {
		return nil, err
	}

	// KZG openings of the final commitment keys (prove_tipp_mipp).
	rShift := rVec[1]
	var rShiftInv fr.Element
	rShiftInv.Inverse(&rShift)
	chal, chalInv = reversed(chal), reversed(chalInv)
	z := p.kzgChallenge(&extra)

	// v: f_v(X) = ∏ (1 + x_{l−j}^{-1} X^{2^j}), opened in G2 over h^{α^i}, h^{β^i}.
	fv := polyCoeffsFromTranscript(chalInv, oneFr())
	qv := kzgQuotient(fv, &z)
	// w: f_w(X) = X^n · ∏ (1 + x_{l−j} (r⁻¹X)^{2^j}), opened in G1.
	fwTail := polyCoeffsFromTranscript(chal, &rShiftInv)
	fw := make([]fr.Element, n, 2*n)
	fw = append(fw, fwTail...)
	qw := kzgQuotient(fw, &z)
	g.do(func() (err error) { p.VKeyOpening[0], err = msmG2(pk.HAlpha[:len(qv)], qv); return })
	g.do(func() (err error) { p.VKeyOpening[1], err = msmG2(pk.HBeta[:len(qv)], qv); return })
	g.do(func() (err error) { p.WKeyOpening[0], err = msmG1(pk.GAlpha[:len(qw)], qw); return })
	g.do(func() (err error) { p.WKeyOpening[1], err = msmG1(pk.GBeta[:len(qw)], qw); return })
	if err := g.wait(); err != nil {
		return nil, err
	}
	return p, nil
}

func oneFr() *fr.Element {
	var o fr.Element
	o.SetOne()
	return &o
}

// kzgChallenge is the V2 "random-z" transcript.
func (p *AggregateProof) kzgChallenge(extra *fr.Element) fr.Element {
	return newTranscript("random-z").fr(extra).
		g2(&p.FinalVKey[0]).g2(&p.FinalVKey[1]).g1(&p.FinalWKey[0]).g1(&p.FinalWKey[1]).
		g1(&p.FinalA).g2(&p.FinalB).g1(&p.FinalC).challenge()
}

// roundChallenge is the V2 transcript of GIPA round i ("gipa-i", chained
// on the previous c⁻¹).
func (p *AggregateProof) roundChallenge(i int, prev *fr.Element) fr.Element {
	t := newTranscript(fmt.Sprintf("gipa-%d", i)).fr(prev).
		gt(&p.ZAB[i][0]).gt(&p.ZAB[i][1]).g1(&p.ZC[i][0]).g1(&p.ZC[i][1]).
		gt(&p.CommsAB[i][0][0]).gt(&p.CommsAB[i][0][1]).gt(&p.CommsAB[i][1][0]).gt(&p.CommsAB[i][1][1]).
		gt(&p.CommsC[i][0][0]).gt(&p.CommsC[i][0][1]).gt(&p.CommsC[i][1][0]).gt(&p.CommsC[i][1][1])
	return t.challenge()
}

// extraChallenge is the "gipa-extra-link" transcript binding the GIPA
// rounds to the KZG openings.
func (p *AggregateProof) extraChallenge(last *fr.Element) fr.Element {
	l := len(p.ZAB) - 1
	return newTranscript("gipa-extra-link").fr(last).
		g1(&p.FinalA).g2(&p.FinalB).g1(&p.FinalC).
		gt(&p.ZAB[l][0]).gt(&p.ZAB[l][1]).g1(&p.ZC[l][0]).g1(&p.ZC[l][1]).
		gt(&p.CommsAB[l][0][0]).gt(&p.CommsAB[l][0][1]).gt(&p.CommsAB[l][1][0]).gt(&p.CommsAB[l][1][1]).
		gt(&p.CommsC[l][0][0]).gt(&p.CommsC[l][0][1]).gt(&p.CommsC[l][1][0]).gt(&p.CommsC[l][1][1]).
		challenge()
}

// firstChallenge is the "gipa-0" transcript over hcom, ip_ab, agg_c and r.
func (p *AggregateProof) firstChallenge(hcom, rShift *fr.Element) fr.Element {
	return newTranscript("gipa-0").fr(hcom).gt(&p.IPAB).g1(&p.AggC).fr(rShift).challenge()
}

// gipa runs the TIPP/MIPP recursion (bellperson gipa_tipp_mipp, V2),
// filling the round values and finals of p; it returns the challenges x_i,
// their inverses and the extra link challenge.
func (p *AggregateProof) gipa(a []bls.G1Affine, b []bls.G2Affine, c []bls.G1Affine, r []fr.Element,
	vA, vB []bls.G2Affine, wA, wB []bls.G1Affine, hcom *fr.Element) (chal, chalInv []fr.Element, extra fr.Element, err error) {
	cInv := p.firstChallenge(hcom, &r[1])
	var g errGroup
	for i := 0; len(a) > 1; i++ {
		h := len(a) / 2
		aL, aR, bL, bR, cL, cR := a[:h], a[h:], b[:h], b[h:], c[:h], c[h:]
		rL, rR := r[:h], r[h:]
		vAL, vAR, vBL, vBR := vA[:h], vA[h:], vB[:h], vB[h:]
		wAL, wAR, wBL, wBR := wA[:h], wA[h:], wB[:h], wB[h:]
		var tabL, tabR, tucL, tucR GtPair
		var zab [2]bls.GT
		var zc [2]bls.G1Affine
		// TIPP: T_L = pair(v_L, w_R; A_R, B_L), T_R = pair(v_R, w_L; A_L, B_R).
		g.do(func() (err error) { tabL[0], err = pairConcat(aR, vAL, wAR, bL); return })
		g.do(func() (err error) { tabL[1], err = pairConcat(aR, vBL, wBR, bL); return })
		g.do(func() (err error) { tabR[0], err = pairConcat(aL, vAR, wAL, bR); return })
		g.do(func() (err error) { tabR[1], err = pairConcat(aL, vBR, wBL, bR); return })
		g.do(func() (err error) { zab[0], err = pairProd(aR, bL); return })
		g.do(func() (err error) { zab[1], err = pairProd(aL, bR); return })
		// MIPP: Z_L = C_R^{r_L}, Z_R = C_L^{r_R}; U_L = single(v_L, C_R), U_R = single(v_R, C_L).
		g.do(func() (err error) { zc[0], err = msmG1(cR, rL); return })
		g.do(func() (err error) { zc[1], err = msmG1(cL, rR); return })
		g.do(func() (err error) { tucL[0], err = pairProd(cR, vAL); return })
		g.do(func() (err error) { tucL[1], err = pairProd(cR, vBL); return })
		g.do(func() (err error) { tucR[0], err = pairProd(cL, vAR); return })
		g.do(func() (err error) { tucR[1], err = pairProd(cL, vBR); return })
		if err = g.wait(); err != nil {
			return nil, nil, extra, err
		}
		p.CommsAB = append(p.CommsAB, [2]GtPair{tabL, tabR})
		p.CommsC = append(p.CommsC, [2]GtPair{tucL, tucR})
		p.ZAB = append(p.ZAB, zab)
		p.ZC = append(p.ZC, zc)
		// V2: round 0 is "gipa-0" again, chained on the first challenge.
		cInv = p.roundChallenge(i, &cInv)
		var cx fr.Element
		cx.Inverse(&cInv)

		a = foldG1(aL, aR, &cx)
		b = foldG2(bL, bR, &cInv)
		c = foldG1(cL, cR, &cx)
		nr := make([]fr.Element, h)
		for j := range nr {
			nr[j].Mul(&rR[j], &cInv)
			nr[j].Add(&nr[j], &rL[j])
		}
		r = nr
		vA, vB = foldG2(vAL, vAR, &cInv), foldG2(vBL, vBR, &cInv)
		wA, wB = foldG1(wAL, wAR, &cx), foldG1(wBL, wBR, &cx)
		chal = append(chal, cx)
		chalInv = append(chalInv, cInv)
	}
	p.FinalA, p.FinalB, p.FinalC = a[0], b[0], c[0]
	p.FinalVKey = [2]bls.G2Affine{vA[0], vB[0]}
	p.FinalWKey = [2]bls.G1Affine{wA[0], wB[0]}
	extra = p.extraChallenge(&chal[len(chal)-1])
	return chal, chalInv, extra, nil
}

// errGroup runs functions concurrently and keeps the first error.
type errGroup struct {
	wg  sync.WaitGroup
	mu  sync.Mutex
	err error
}

func (g *errGroup) do(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.mu.Lock()
			if g.err == nil {
				g.err = err
			}
			g.mu.Unlock()
		}
	}()
}

func (g *errGroup) wait() error {
	g.wg.Wait()
	g.mu.Lock()
	defer g.mu.Unlock()
	err := g.err
	g.err = nil
	return err
}
