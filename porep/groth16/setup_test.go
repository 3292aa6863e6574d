// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"errors"
	"math/big"
	"testing"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"

	"github.com/cuseal/cuseal/porep/cs"
)

// naiveOmega returns the primitive m-th root of unity bellperson uses:
// ROOT_OF_UNITY = 7^((r−1)/2^32) squared (32 − log m) times, i.e.
// 7^((r−1)/m), computed here from the definition with math/big.
func naiveOmega(m int) fr.Element {
	r := fr.Modulus()
	e := new(big.Int).Sub(r, big.NewInt(1))
	e.Div(e, big.NewInt(int64(m)))
	var w fr.Element
	w.SetUint64(7)
	w.Exp(w, e)
	return w
}

// naiveLagrange evaluates L_j(x) = Π_{k≠j} (x − ω^k)/(ω^j − ω^k) directly.
func naiveLagrange(m int, x fr.Element) []fr.Element {
	omega := naiveOmega(m)
	pts := make([]fr.Element, m)
	pts[0].SetOne()
	for i := 1; i < m; i++ {
		pts[i].Mul(&pts[i-1], &omega)
	}
	out := make([]fr.Element, m)
	for j := 0; j < m; j++ {
		var num, den fr.Element
		num.SetOne()
		den.SetOne()
		for k := 0; k < m; k++ {
			if k == j {
				continue
			}
			var t fr.Element
			t.Sub(&x, &pts[k])
			num.Mul(&num, &t)
			t.Sub(&pts[j], &pts[k])
			den.Mul(&den, &t)
		}
		den.Inverse(&den)
		out[j].Mul(&num, &den)
	}
	return out
}

func g1Base(s fr.Element) bls.G1Affine {
	var p bls.G1Affine
	p.ScalarMultiplicationBase(s.BigInt(new(big.Int)))
	return p
}

func g2Base(s fr.Element) bls.G2Affine {
	var p bls.G2Affine
	p.ScalarMultiplicationBase(s.BigInt(new(big.Int)))
	return p
}

// TestSetupMatchesNaive recomputes every point of a tiny circuit's
// parameters independently: Lagrange basis by the product formula with ω
// from its definition, QAP sums per variable, and gnark's generic scalar
// multiplication instead of our fixed-base tables.
func TestSetupMatchesNaive(t *testing.T) {
	for _, c := range []randomCircuit{
		{shapeSeed: 3, valueSeed: 1, nPub: 2, nAux0: 3, nCons: 9}, // 12 rows → m = 16
		{shapeSeed: 4, valueSeed: 1, nPub: 0, nAux0: 2, nCons: 7}, // 8 rows → m = 8 exactly
		{shapeSeed: 5, valueSeed: 1, nPub: 1, nAux0: 1, nCons: 1}, // 3 rows → m = 4
	} {
		r := c.r1cs(t)
		tw := ToxicWasteFromSeed(seed32(byte(c.shapeSeed)))
		p, err := Setup(r, tw)
		if err != nil {
			t.Fatal(err)
		}
		n := r.NumConstraints()
		m := 1
		for m < n {
			m *= 2
		}
		if p.DomainSize() != m {
			t.Fatalf("domain %d, want %d for %d rows", p.DomainSize(), m, n)
		}
		L := naiveLagrange(m, tw.Tau)
		nv := r.NumInputs + r.NumAux
		u, v, w := make([]fr.Element, nv), make([]fr.Element, nv), make([]fr.Element, nv)
		for _, mm := range []struct {
			mat *cs.Matrix
			out []fr.Element
		}{{&r.A, u}, {&r.B, v}, {&r.C, w}} {
			for j := 0; j < n; j++ {
				vars, coeffs := mm.mat.Row(j)
				for k, vr := range vars {
					idx := vr.Index()
					if vr.IsAux() {
						idx += r.NumInputs
					}
					var t fr.Element
					t.Mul(&coeffs[k], &L[j])
					mm.out[idx].Add(&mm.out[idx], &t)
				}
			}
		}
		var gInv, dInv fr.Element
		gInv.Inverse(&tw.Gamma)
		dInv.Inverse(&tw.Delta)
		// vk
		if want := g1Base(tw.Alpha); !p.VK.Alpha1.Equal(&want) {
			t.Error("alpha_g1")
		}
		if want := g1Base(tw.Beta); !p.VK.Beta1.Equal(&want) {
			t.Error("beta_g1")
		}
		if want := g1Base(tw.Delta); !p.VK.Delta1.Equal(&want) {
			t.Error("delta_g1")
		}
		if want := g2Base(tw.Beta); !p.VK.Beta2.Equal(&want) {
			t.Error("beta_g2")
		}
		if want := g2Base(tw.Gamma); !p.VK.Gamma2.Equal(&want) {
			t.Error("gamma_g2")
		}
		if want := g2Base(tw.Delta); !p.VK.Delta2.Equal(&want) {
			t.Error("delta_g2")
		}
		// h: τ^i (τ^m − 1)/δ
		h, _ := p.H()
		if len(h) != m-1 {
			t.Fatalf("|h| = %d, want %d", len(h), m-1)
		}
		var zt, ti, one fr.Element
		one.SetOne()
		zt.Exp(tw.Tau, big.NewInt(int64(m)))
		zt.Sub(&zt, &one)
		ti.SetOne()
		for i := range h {
			var s fr.Element
			s.Mul(&ti, &zt).Mul(&s, &dInv)
			if want := g1Base(s); !h[i].Equal(&want) {
				t.Errorf("h[%d]", i)
			}
			ti.Mul(&ti, &tw.Tau)
		}
		// ic / l
		ext := func(i int, inv *fr.Element) fr.Element {
			var e, t fr.Element
			e.Mul(&u[i], &tw.Beta)
			t.Mul(&v[i], &tw.Alpha)
			e.Add(&e, &t).Add(&e, &w[i]).Mul(&e, inv)
			return e
		}
		if len(p.VK.IC) != r.NumInputs {
			t.Fatalf("|ic| = %d, want %d", len(p.VK.IC), r.NumInputs)
		}
		for i := 0; i < r.NumInputs; i++ {
			if want := g1Base(ext(i, &gInv)); !p.VK.IC[i].Equal(&want) {
				t.Errorf("ic[%d]", i)
			}
		}
		l, _ := p.L()
		for i := 0; i < r.NumAux; i++ {
			if want := g1Base(ext(r.NumInputs+i, &dInv)); !l[i].Equal(&want) {
				t.Errorf("l[%d]", i)
			}
		}
		// a, b_g1, b_g2: zero polynomials dropped
		a, _ := p.A()
		bg1, _ := p.BG1()
		bg2, _ := p.BG2()
		var wantA, wantB1 []bls.G1Affine
		var wantB2 []bls.G2Affine
		for i := 0; i < nv; i++ {
			if !u[i].IsZero() {
				wantA = append(wantA, g1Base(u[i]))
			}
			if !v[i].IsZero() {
				wantB1 = append(wantB1, g1Base(v[i]))
				wantB2 = append(wantB2, g2Base(v[i]))
			}
		}
		if len(a) != len(wantA) || len(bg1) != len(wantB1) || len(bg2) != len(wantB2) {
			t.Fatalf("query sizes a %d/%d b_g1 %d/%d b_g2 %d/%d", len(a), len(wantA), len(bg1), len(wantB1), len(bg2), len(wantB2))
		}
		if len(wantA) == nv || len(wantB1) == nv {
			t.Errorf("test circuit has no density gaps (a %d, b %d of %d vars)", len(wantA), len(wantB1), nv)
		}
		for i := range a {
			if !a[i].Equal(&wantA[i]) {
				t.Errorf("a[%d]", i)
			}
		}
		for i := range bg1 {
			if !bg1[i].Equal(&wantB1[i]) || !bg2[i].Equal(&wantB2[i]) {
				t.Errorf("b[%d]", i)
			}
		}
	}
}

// TestSetupDomainOmega: gnark's FFT domain generator is bellperson's ω.
func TestSetupDomainOmega(t *testing.T) {
	for _, m := range []int{2, 8, 1024, 1 << 20} {
		d := fft.NewDomain(uint64(m), fft.WithoutPrecompute())
		if want := naiveOmega(m); !d.Generator.Equal(&want) {
			t.Fatalf("m=%d: gnark generator differs from 7^((r-1)/m)", m)
		}
		var g fr.Element
		g.SetUint64(7)
		if !d.FrMultiplicativeGen.Equal(&g) {
			t.Fatalf("coset shift is not 7")
		}
	}
}

// TestHCoefficients checks A(x)·B(x) − C(x) = H(x)·Z(x) at a random point,
// with A, B, C interpolated by the naive Lagrange formula.
func TestHCoefficients(t *testing.T) {
	c := randomCircuit{shapeSeed: 21, valueSeed: 3, nPub: 2, nAux0: 4, nCons: 40} // 43 rows → m = 64
	a, _ := c.assignment(t)
	m := 64
	dom := fft.NewDomain(uint64(m))
	h := HCoefficients(dom, a.A, a.B, a.C)
	if len(h) != m-1 {
		t.Fatalf("|h| = %d", len(h))
	}
	var x fr.Element
	x.SetUint64(123456789)
	L := naiveLagrange(m, x)
	eval := func(vals []fr.Element) fr.Element {
		var s fr.Element
		for j := range vals {
			var t fr.Element
			t.Mul(&vals[j], &L[j])
			s.Add(&s, &t)
		}
		return s
	}
	ax, bx, cx := eval(a.A), eval(a.B), eval(a.C)
	var lhs, hx, zx, one fr.Element
	lhs.Mul(&ax, &bx).Sub(&lhs, &cx)
	for i := len(h) - 1; i >= 0; i-- {
		hx.Mul(&hx, &x).Add(&hx, &h[i])
	}
	one.SetOne()
	zx.Exp(x, big.NewInt(int64(m))).Sub(&zx, &one)
	hx.Mul(&hx, &zx)
	if !lhs.Equal(&hx) {
		t.Fatal("A·B − C ≠ H·Z at a random point")
	}
}

func TestSetupRejects(t *testing.T) {
	c := randomCircuit{shapeSeed: 3, valueSeed: 1, nPub: 1, nAux0: 2, nCons: 5}
	r := c.r1cs(t)
	// an aux variable that appears nowhere
	r2 := *r
	r2.NumAux++
	if _, err := Setup(&r2, ToxicWasteFromSeed(seed32(1))); !errors.Is(err, ErrUnconstrainedVariable) {
		t.Fatalf("unconstrained aux: got %v", err)
	}
	tw := ToxicWasteFromSeed(seed32(1))
	tw.Delta = fr.Element{}
	if _, err := Setup(r, tw); err == nil {
		t.Fatal("zero δ accepted")
	}
	r3 := *r
	r3.B.RowStart = r3.B.RowStart[:len(r3.B.RowStart)-1]
	if _, err := Setup(&r3, ToxicWasteFromSeed(seed32(1))); err == nil {
		t.Fatal("row-count mismatch accepted")
	}
	r4 := *r
	r4.NumInputs = 0
	if _, err := Setup(&r4, ToxicWasteFromSeed(seed32(1))); err == nil {
		t.Fatal("variable out of range accepted")
	}
}

// TestFixedBase compares the windowed tables with gnark's generic scalar
// multiplication on edge scalars (0, 1, r−1, all-ones digits) and random
// ones, for several window sizes.
func TestFixedBase(t *testing.T) {
	_, _, g1, g2 := bls.Generators()
	var minus1, big1 fr.Element
	minus1.SetOne()
	minus1.Neg(&minus1)
	big1.SetString("0x3fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff")
	scalars := []fr.Element{{}, minus1, big1}
	var one fr.Element
	one.SetOne()
	scalars = append(scalars, one)
	for i := 0; i < 40; i++ {
		var s fr.Element
		s.SetRandom()
		scalars = append(scalars, s)
	}
	for _, n := range []int{10, 5000, 200000} { // different window sizes
		t1 := newFixedBaseG1(&g1, n)
		t2 := newFixedBaseG2(&g2, n)
		out1 := make([]bls.G1Affine, len(scalars))
		out2 := make([]bls.G2Affine, len(scalars))
		t1.mul(out1, scalars)
		t2.mul(out2, scalars)
		for i := range scalars {
			if want := g1Base(scalars[i]); !out1[i].Equal(&want) {
				t.Fatalf("n=%d c=%d: G1 scalar %d", n, t1.c, i)
			}
			if want := g2Base(scalars[i]); !out2[i].Equal(&want) {
				t.Fatalf("n=%d c=%d: G2 scalar %d", n, t2.c, i)
			}
		}
	}
}

// Golden toxic waste and proof randomness for seed 0x00,0x01,…,0x1f,
// computed independently with Python's hashlib from docs/digests.md §5/§6:
//
//	d = sha256(b"cuseal-toxic-v1" + seed + b"tau").digest(); d[31] &= 0x3f
//	tau = int.from_bytes(d, "little")
//
// (and likewise for the other labels / for cuseal-rs-v1 with u64le(k)).
var (
	goldenToxic = map[string]string{
		"tau":   toxicTauHex,
		"alpha": toxicAlphaHex,
		"delta": toxicDeltaHex,
	}
)

func TestToxicWasteAndRandomnessGolden(t *testing.T) {
	tw := ToxicWasteFromSeed(seed32(0))
	got := map[string]fr.Element{"tau": tw.Tau, "alpha": tw.Alpha, "delta": tw.Delta}
	for label, want := range goldenToxic {
		e := got[label]
		if s := "0x" + e.Text(16); s != want {
			t.Errorf("%s = %s, want %s", label, s, want)
		}
	}
	rs := RandomnessFromSeed(seed32(0), 3)
	if s := "0x" + rs.R.Text(16); s != rsR3Hex {
		t.Errorf("r_3 = %s, want %s", s, rsR3Hex)
	}
	if s := "0x" + rs.S.Text(16); s != rsS3Hex {
		t.Errorf("s_3 = %s, want %s", s, rsS3Hex)
	}
}

const (
	toxicTauHex   = "0x34e4896f146710ee22eddb3fa77f96b592ec316f4ca833ac34ac1afe5384e4ec"
	toxicAlphaHex = "0x2a52444eacea291b5b99c624687fa79e154de29f2e2b5fd09b34f4537316a0d9"
	toxicDeltaHex = "0x24056378bd3034cc8a168441d447534f0a929cb97e5bfecb2f8a4b15c151614c"
	rsR3Hex       = "0x15e4f351d261394b0be209bbad45c2082dd467a03dce5a0a283bd12530ca18d"
	rsS3Hex       = "0x1e55800b0e68acd7141c38c4543c9ce04210181a8adca8970863ee2b186ceabe"
)
