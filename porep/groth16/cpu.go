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
// a, b_g1, b_g2: the stages of cpuStages) and used for every assignment
// before the next is loaded, so at most one decoded query is alive.
func (b *CPUBackend) QuerySums(ctx context.Context, params *Params, as []*cs.Assignment) ([]Sums, error) {
	for i, a := range as {
		if err := ValidateAssignment(params, a); err != nil {
			return nil, fmt.Errorf("groth16: assignment %d: %w", i, err)
		}
	}
	out := make([]Sums, len(as))
	cfg := ecc.MultiExpConfig{NbTasks: b.NbTasks}
	for _, st := range cpuStages(ctx, params, as, out, cfg) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if st.report != "" {
			ReportStage(ctx, st.report)
		}
		run, err := st.load()
		if err != nil {
			return nil, err
		}
		for i := range as {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if err := run(i); err != nil {
				return nil, fmt.Errorf("groth16: assignment %d: %s msm: %w", i, st.query, err)
			}
		}
	}
	return out, nil
}

// queryStage is one query's pass over the assignments: load decodes the
// query and returns the MSM of assignment i against it (result into that
// assignment's Sums); the decoded query is dropped when the stage ends.
type queryStage struct {
	query  string // "h", "l", "a", "b_g1", "b_g2" (in errors)
	report string // the ReportStage label; "" when the stage reports per assignment
	load   func() (func(i int) error, error)
}

// cpuStages lists QuerySums' stages, writing into out: H (skipped for a
// domain of one: no h query), L dense over aux, A with inputs dense and aux
// filtered by the A-aux density, B in G1 and G2 with inputs filtered by the
// B-input density, then aux by the B-aux density (one scalar vector per
// assignment, built in the B_G1 stage, reused by B_G2).
func cpuStages(ctx context.Context, params *Params, as []*cs.Assignment, out []Sums, cfg ecc.MultiExpConfig) []queryStage {
	var stages []queryStage
	if m := params.DomainSize(); m > 1 {
		var dom *fft.Domain
		stages = append(stages, queryStage{"h", "", msmStage(
			func() ([]bls.G1Affine, error) { dom = fft.NewDomain(uint64(m)); return params.H() },
			func(i int) []fr.Element {
				ReportStage(ctx, "H polynomial")
				coef := HCoefficients(dom, as[i].A, as[i].B, as[i].C)
				ReportStage(ctx, "H MSM")
				return coef
			},
			func(i int) *bls.G1Affine { return &out[i].H }, cfg)})
	}
	bScalars := make([][]fr.Element, len(as))
	return append(stages,
		queryStage{"l", "L MSM", msmStage(params.L,
			func(i int) []fr.Element { return as[i].Aux },
			func(i int) *bls.G1Affine { return &out[i].L }, cfg)},
		queryStage{"a", "A MSM", msmStage(params.A,
			func(i int) []fr.Element {
				sc := make([]fr.Element, 0, params.NumA())
				sc = append(sc, as[i].Input...)
				return appendDense(sc, as[i].Aux, &as[i].ADensityAux)
			},
			func(i int) *bls.G1Affine { return &out[i].A }, cfg)},
		queryStage{"b_g1", "B_G1 MSM", msmStage(params.BG1,
			func(i int) []fr.Element {
				sc := make([]fr.Element, 0, params.NumBG1())
				sc = appendDense(sc, as[i].Input, &as[i].BDensityInput)
				bScalars[i] = appendDense(sc, as[i].Aux, &as[i].BDensityAux)
				return bScalars[i]
			},
			func(i int) *bls.G1Affine { return &out[i].BG1 }, cfg)},
		queryStage{"b_g2", "B_G2 MSM", msmStage(params.BG2,
			func(i int) []fr.Element { return bScalars[i] },
			func(i int) *bls.G2Affine { return &out[i].BG2 }, cfg)},
	)
}

// msmStage is a queryStage's load: decode the query, then per assignment
// Σ query_j·scalars(i)_j into res(i).
func msmStage[P any, PT affinePoint[P]](query func() ([]P, error), scalars func(i int) []fr.Element, res func(i int) *P, cfg ecc.MultiExpConfig) func() (func(int) error, error) {
	return func() (func(int) error, error) {
		q, err := query()
		if err != nil {
			return nil, err
		}
		return func(i int) error { return msm[P, PT](res(i), q, scalars(i), cfg) }, nil
	}
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

// affinePoint is *bls.G1Affine or *bls.G2Affine: what msm needs of a point.
type affinePoint[P any] interface {
	*P
	MultiExp(points []P, scalars []fr.Element, cfg ecc.MultiExpConfig) (*P, error)
}

// msm sets res = Σ points_i·scalars_i (gnark MultiExp), the identity for no
// points; the lengths must match.
func msm[P any, PT affinePoint[P]](res *P, points []P, scalars []fr.Element, cfg ecc.MultiExpConfig) error {
	if len(points) != len(scalars) {
		return fmt.Errorf("%d points but %d scalars", len(points), len(scalars))
	}
	if len(points) == 0 {
		var zero P
		*res = zero
		return nil
	}
	_, err := PT(res).MultiExp(points, scalars, cfg)
	return err
}

// msmG1 and msmG2 are msm in G1 and G2.
var (
	msmG1 = msm[bls.G1Affine, *bls.G1Affine]
	msmG2 = msm[bls.G2Affine, *bls.G2Affine]
)

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
