// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"context"
	"fmt"
	"math/big"
	"sync"

	"github.com/consensys/gnark-crypto/ecc"
	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"
	"github.com/consensys/gnark-crypto/utils"

	"github.com/cuseal/cuseal/porep/cs"
)

// CPUBackend computes query sums on the CPU with gnark-crypto: the H
// polynomial by FFTs over fr, the five sums by Pippenger MSMs
// (MultiExp). The zero value is ready to use.
type CPUBackend struct {
	// NbTasks bounds the parallelism of each MSM (gnark-crypto
	// ecc.MultiExpConfig.NbTasks); 0 means gnark's default (2·NumCPU).
	NbTasks int
}

var _ Backend = (*CPUBackend)(nil)

// QuerySums implements Backend. Queries are decoded one at a time (h, l,
// a, b_g1, b_g2) and used for every assignment before the next is loaded,
// so at most one decoded query is alive.
func (b *CPUBackend) QuerySums(ctx context.Context, params *Params, as []*cs.Assignment) ([]Sums, error) {
	for i, a := range as {
		if err := ValidateAssignment(params, a); err != nil {
			return nil, fmt.Errorf("groth16: assignment %d: %w", i, err)
		}
	}
	out := make([]Sums, len(as))
	cfg := ecc.MultiExpConfig{NbTasks: b.NbTasks}

	// H: coefficients of (A·B − C)/Z, then Σ h_i·coef_i.
	if m := params.DomainSize(); m > 1 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hq, err := params.H()
		if err != nil {
			return nil, err
		}
		dom := fft.NewDomain(uint64(m))
		for i, a := range as {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			ReportStage(ctx, "H polynomial")
			coef := HCoefficients(dom, a.A, a.B, a.C)
			ReportStage(ctx, "H MSM")
			if err := msmG1(&out[i].H, hq, coef, cfg); err != nil {
				return nil, fmt.Errorf("groth16: assignment %d: h msm: %w", i, err)
			}
		}
	}

	// L: dense over aux.
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ReportStage(ctx, "L MSM")
	lq, err := params.L()
	if err != nil {
		return nil, err
	}
	for i, a := range as {
		if err := msmG1(&out[i].L, lq, a.Aux, cfg); err != nil {
			return nil, fmt.Errorf("groth16: assignment %d: l msm: %w", i, err)
		}
	}
	lq = nil

	// A: inputs dense, aux filtered by the A-aux density.
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ReportStage(ctx, "A MSM")
	aq, err := params.A()
	if err != nil {
		return nil, err
	}
	for i, a := range as {
		sc := make([]fr.Element, 0, len(aq))
		sc = append(sc, a.Input...)
		sc = appendDense(sc, a.Aux, &a.ADensityAux)
		if err := msmG1(&out[i].A, aq, sc, cfg); err != nil {
			return nil, fmt.Errorf("groth16: assignment %d: a msm: %w", i, err)
		}
	}
	aq = nil

	// B in G1 and G2: inputs filtered by B-input density, then aux by
	// B-aux density (offset = B-input popcount).
	bScalars := make([][]fr.Element, len(as))
	for i, a := range as {
		sc := make([]fr.Element, 0, params.NumBG1())
		sc = appendDense(sc, a.Input, &a.BDensityInput)
		bScalars[i] = appendDense(sc, a.Aux, &a.BDensityAux)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ReportStage(ctx, "B_G1 MSM")
	bq1, err := params.BG1()
	if err != nil {
		return nil, err
	}
	for i := range as {
		if err := msmG1(&out[i].BG1, bq1, bScalars[i], cfg); err != nil {
			return nil, fmt.Errorf("groth16: assignment %d: b_g1 msm: %w", i, err)
		}
	}
	bq1 = nil
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ReportStage(ctx, "B_G2 MSM")
	bq2, err := params.BG2()
	if err != nil {
		return nil, err
	}
	for i := range as {
		if err := msmG2(&out[i].BG2, bq2, bScalars[i], cfg); err != nil {
			return nil, fmt.Errorf("groth16: assignment %d: b_g2 msm: %w", i, err)
		}
	}
	return out, nil
}

// appendDense appends the values whose density bit is set, in order.
func appendDense(dst, vals []fr.Element, d *cs.Density) []fr.Element {
	for i := range vals {
		if densityBit(d, i) {
			dst = append(dst, vals[i])
		}
	}
	return dst
}

func msmG1(res *bls.G1Affine, points []bls.G1Affine, scalars []fr.Element, cfg ecc.MultiExpConfig) error {
	if len(points) != len(scalars) {
		return fmt.Errorf("%d points but %d scalars", len(points), len(scalars))
	}
	if len(points) == 0 {
		*res = bls.G1Affine{}
		return nil
	}
	_, err := res.MultiExp(points, scalars, cfg)
	return err
}

func msmG2(res *bls.G2Affine, points []bls.G2Affine, scalars []fr.Element, cfg ecc.MultiExpConfig) error {
	if len(points) != len(scalars) {
		return fmt.Errorf("%d points but %d scalars", len(points), len(scalars))
	}
	if len(points) == 0 {
		*res = bls.G2Affine{}
		return nil
	}
	_, err := res.MultiExp(points, scalars, cfg)
	return err
}

// HCoefficients returns the m−1 coefficients of H = (A·B − C)/Z over the
// domain dom (size m = |h|+1), where a, b, c are the constraint
// evaluations (length ≤ m, zero-padded). Steps as bellperson execute_fft:
// iFFT of a, b, c; FFT on the coset g·⟨ω⟩ with g = 7 (the Fr multiplicative
// generator, as bellperson/ec-gpu and gnark); pointwise (a·b − c)/Z(g·ω^i)
// with Z constant g^m − 1 on the coset; inverse coset FFT; drop the top
// coefficient. Inputs are not modified.
func HCoefficients(dom *fft.Domain, a, b, c []fr.Element) []fr.Element {
	m := int(dom.Cardinality)
	vecs := [3][]fr.Element{make([]fr.Element, m), make([]fr.Element, m), make([]fr.Element, m)}
	copy(vecs[0], a)
	copy(vecs[1], b)
	copy(vecs[2], c)
	var wg sync.WaitGroup
	for k := range vecs {
		wg.Add(1)
		go func(v []fr.Element) {
			defer wg.Done()
			dom.FFTInverse(v, fft.DIF)
			dom.FFT(v, fft.DIT, fft.OnCoset())
		}(vecs[k])
	}
	wg.Wait()
	var den, one fr.Element
	one.SetOne()
	den.Exp(dom.FrMultiplicativeGen, big.NewInt(int64(m)))
	den.Sub(&den, &one).Inverse(&den)
	va, vb, vc := vecs[0], vecs[1], vecs[2]
	parallelRange(m, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			va[i].Mul(&va[i], &vb[i]).Sub(&va[i], &vc[i]).Mul(&va[i], &den)
		}
	})
	dom.FFTInverse(va, fft.DIF, fft.OnCoset())
	utils.BitReverse(va)
	return va[:m-1]
}
