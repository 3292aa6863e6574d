// SPDX-License-Identifier: Apache-2.0 OR MIT

package aggregate

import (
	"fmt"
	"math/big"
	"runtime"
	"sync"

	"github.com/consensys/gnark-crypto/ecc"
	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/cuseal/cuseal/internal/parallel"
)

// pairProd returns ∏ e(P_i, Q_i): Miller loops over GOMAXPROCS chunks,
// one final exponentiation (bellperson inner_product::pairing).
func pairProd(P []bls.G1Affine, Q []bls.G2Affine) (bls.GT, error) {
	if len(P) != len(Q) {
		return bls.GT{}, fmt.Errorf("aggregate: pairing of %d G1 and %d G2 points", len(P), len(Q))
	}
	workers := min(runtime.GOMAXPROCS(0), (len(P)+7)/8)
	if workers <= 1 {
		return bls.Pair(P, Q)
	}
	ml := make([]bls.GT, 0, workers)
	errs := make([]error, 0, workers)
	var mu sync.Mutex
	parallel.For(len(P), (len(P)+workers-1)/workers, func(lo, hi int) {
		r, err := bls.MillerLoop(P[lo:hi], Q[lo:hi])
		mu.Lock()
		ml = append(ml, r)
		errs = append(errs, err)
		mu.Unlock()
	})
	var acc bls.GT
	acc.SetOne()
	for i := range ml {
		if errs[i] != nil {
			return bls.GT{}, errs[i]
		}
		acc.Mul(&acc, &ml[i])
	}
	return bls.FinalExponentiation(&acc), nil
}

// pairConcat returns ∏ e(P1_i, Q1_i) · ∏ e(P2_i, Q2_i).
func pairConcat(P1 []bls.G1Affine, Q1 []bls.G2Affine, P2 []bls.G1Affine, Q2 []bls.G2Affine) (bls.GT, error) {
	P := append(append(make([]bls.G1Affine, 0, len(P1)+len(P2)), P1...), P2...)
	Q := append(append(make([]bls.G2Affine, 0, len(Q1)+len(Q2)), Q1...), Q2...)
	return pairProd(P, Q)
}

func msmG1(points []bls.G1Affine, scalars []fr.Element) (bls.G1Affine, error) {
	var r bls.G1Affine
	if len(points) != len(scalars) {
		return r, fmt.Errorf("aggregate: G1 MSM of %d points and %d scalars", len(points), len(scalars))
	}
	_, err := r.MultiExp(points, scalars, ecc.MultiExpConfig{})
	return r, err
}

func msmG2(points []bls.G2Affine, scalars []fr.Element) (bls.G2Affine, error) {
	var r bls.G2Affine
	if len(points) != len(scalars) {
		return r, fmt.Errorf("aggregate: G2 MSM of %d points and %d scalars", len(points), len(scalars))
	}
	_, err := r.MultiExp(points, scalars, ecc.MultiExpConfig{})
	return r, err
}

func bigOf(x *fr.Element) *big.Int {
	var b big.Int
	return x.BigInt(&b)
}

// foldG1 returns out_i = left_i + right_i·x (bellperson compress / Key::compress).
func foldG1(left, right []bls.G1Affine, x *fr.Element) []bls.G1Affine {
	out := make([]bls.G1Affine, len(left))
	xb := bigOf(x)
	_ = parallel.Each(len(left), func(i int) error {
		var t bls.G1Affine
		t.ScalarMultiplication(&right[i], xb)
		out[i].Add(&left[i], &t)
		return nil
	})
	return out
}

func foldG2(left, right []bls.G2Affine, x *fr.Element) []bls.G2Affine {
	out := make([]bls.G2Affine, len(left))
	xb := bigOf(x)
	_ = parallel.Each(len(left), func(i int) error {
		var t bls.G2Affine
		t.ScalarMultiplication(&right[i], xb)
		out[i].Add(&left[i], &t)
		return nil
	})
	return out
}

// scaleG1 returns p_i·s_i.
func scaleG1(p []bls.G1Affine, s []fr.Element) []bls.G1Affine {
	out := make([]bls.G1Affine, len(p))
	_ = parallel.Each(len(p), func(i int) error {
		out[i].ScalarMultiplication(&p[i], bigOf(&s[i]))
		return nil
	})
	return out
}

func scaleG2(p []bls.G2Affine, s []fr.Element) []bls.G2Affine {
	out := make([]bls.G2Affine, len(p))
	_ = parallel.Each(len(p), func(i int) error {
		out[i].ScalarMultiplication(&p[i], bigOf(&s[i]))
		return nil
	})
	return out
}

// powers returns 1, x, x², …, x^{n−1} (bellperson structured_scalar_power).
func powers(n int, x *fr.Element) []fr.Element {
	p := make([]fr.Element, n)
	p[0].SetOne()
	for i := 1; i < n; i++ {
		p[i].Mul(&p[i-1], x)
	}
	return p
}

// polyCoeffsFromTranscript returns the coefficients of
// ∏_j (1 + x_j·(r·X)^{2^j}) for the challenges x_j in the order given
// (bellperson polynomial_coefficients_from_transcript; it is given the
// challenges reversed).
func polyCoeffsFromTranscript(xs []fr.Element, r *fr.Element) []fr.Element {
	coeffs := make([]fr.Element, 1, 1<<len(xs))
	coeffs[0].SetOne()
	pw := *r
	for i := range xs {
		if i > 0 {
			pw.Square(&pw)
		}
		var m fr.Element
		m.Mul(&xs[i], &pw)
		n := len(coeffs)
		for j := 0; j < n; j++ {
			var c fr.Element
			c.Mul(&coeffs[j], &m)
			coeffs = append(coeffs, c)
		}
	}
	return coeffs
}

// polyEvalProductForm evaluates the same polynomial at z in product form
// (bellperson polynomial_evaluation_product_form_from_transcript).
func polyEvalProductForm(xs []fr.Element, z, r *fr.Element) fr.Element {
	var pzr, one, res, t fr.Element
	one.SetOne()
	pzr.Mul(z, r)
	t.Mul(&xs[0], &pzr)
	res.Add(&one, &t)
	for _, x := range xs[1:] {
		pzr.Square(&pzr)
		t.Mul(&x, &pzr)
		t.Add(&t, &one)
		res.Mul(&res, &t)
	}
	return res
}

// kzgQuotient returns the coefficients of (f(X) − f(z)) / (X − z) by
// synthetic division (the exact quotient bellperson's long division
// yields; the remainder is zero when y = f(z)).
func kzgQuotient(f []fr.Element, z *fr.Element) []fr.Element {
	n := len(f)
	q := make([]fr.Element, n-1)
	q[n-2] = f[n-1]
	for k := n - 2; k >= 1; k-- {
		var t fr.Element
		t.Mul(z, &q[k])
		q[k-1].Add(&f[k], &t)
	}
	return q
}

func reversed(xs []fr.Element) []fr.Element {
	out := make([]fr.Element, len(xs))
	for i := range xs {
		out[len(xs)-1-i] = xs[i]
	}
	return out
}
