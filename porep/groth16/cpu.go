// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"context"
	"fmt"
	"math/big"
	"math/bits"
	"runtime"
	"sync"
	"unsafe"

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
	// ChunkPoints is how many query points one MSM takes at a time (the
	// query is read from the .params chunk by chunk and the chunks' sums
	// added); ≤ 0 means ChunkFor's choice.
	ChunkPoints int
}

// DefaultChunkPoints is the CPU backend's largest MSM chunk in points: two
// chunk buffers of G1 points (96 bytes each in memory; G2 chunks hold half
// as many points in the same bytes) are all of a query the backend holds.
const DefaultChunkPoints = 1 << 20

// minChunkPoints is the smallest chunk ChunkFor picks for a query longer
// than it.
const minChunkPoints = 1 << 12

// ChunkFor is the CPU backend's default MSM chunk, in points, for params
// whose longest query has longest points: a quarter of it, within
// [2^12, DefaultChunkPoints], and never more than longest (at least 2) —
// so a mid-sized circuit (a 32 GiB WinningPoSt's 2^19 points) holds a
// quarter of a query rather than all of it.
func ChunkFor(longest int) int {
	return max(min(DefaultChunkPoints, max(longest/4, minChunkPoints), longest), 2)
}

var _ Backend = (*CPUBackend)(nil)

// consumeKey is the context key of WithAssignmentsConsumed.
type consumeKey struct{}

// WithAssignmentsConsumed returns a context under which a backend may use
// the assignments' A, B and C storage, up to their capacity, as scratch:
// the caller promises not to read A, B or C after QuerySums (Input, Aux
// and the densities stay intact). The CPU backend then computes H in
// place instead of in three domain-size copies.
func WithAssignmentsConsumed(ctx context.Context) context.Context {
	return context.WithValue(ctx, consumeKey{}, true)
}

// assignmentsConsumed reports WithAssignmentsConsumed.
func assignmentsConsumed(ctx context.Context) bool {
	v, _ := ctx.Value(consumeKey{}).(bool)
	return v
}

// QuerySums implements Backend. The queries are read one after the other
// (h, l, a, b_g1, b_g2), each chunk by chunk into two reused buffers (the
// next chunk decoded while the MSMs of this one run), and every chunk is
// used for every assignment before the next: no query is ever held whole.
// H goes one assignment at a time: its coefficients (in A's storage under
// WithAssignmentsConsumed, else in a fresh domain-size vector), then the h
// query's chunks.
func (b *CPUBackend) QuerySums(ctx context.Context, params *Params, as []*cs.Assignment) ([]Sums, error) {
	for i, a := range as {
		if err := ValidateAssignment(params, a); err != nil {
			return nil, fmt.Errorf("groth16: assignment %d: %w", i, err)
		}
	}
	r := &cpuRun{ctx: ctx, params: params, as: as, cfg: ecc.MultiExpConfig{NbTasks: b.NbTasks}, chunk: b.ChunkPoints}
	return r.run()
}

// cpuRun is one QuerySums call of the CPU backend.
type cpuRun struct {
	ctx    context.Context
	params *Params
	as     []*cs.Assignment
	cfg    ecc.MultiExpConfig
	chunk  int // points per chunk

	n  int               // points per G1 chunk (G2: n/2), once allocated
	g1 [2][]bls.G1Affine // chunk buffers; the G2 ones share their memory
	g2 [2][]bls.G2Affine
	sc []fr.Element // one chunk's scalars (A, B)

	release []func() // of the buffers' memory (scratchBytes)
}

func (r *cpuRun) run() ([]Sums, error) {
	defer r.free()
	out := make([]Sums, len(r.as))
	p := r.params
	if m := p.DomainSize(); m > 1 {
		dom := fft.NewDomain(uint64(m), fft.WithoutPrecompute())
		consume := assignmentsConsumed(r.ctx)
		r.alloc()
		// One assignment at a time: its H coefficients, then the h query
		// read for it alone (re-reading it costs a decode per assignment,
		// holding every assignment's coefficients would cost 32·m bytes
		// each without WithAssignmentsConsumed).
		for i, a := range r.as {
			if err := r.ctx.Err(); err != nil {
				return nil, err
			}
			ReportStage(r.ctx, "H polynomial")
			coef := hCoefficients(dom, a.A, a.B, a.C, consume)
			ReportStage(r.ctx, "H MSM")
			one := *r
			one.as = r.as[i : i+1]
			if err := one.g1Sums(qH, func(_, first, n int) []fr.Element { return coef[first : first+n] },
				func(int) *bls.G1Affine { return &out[i].H }); err != nil {
				return nil, err
			}
		}
	}
	ReportStage(r.ctx, "L MSM")
	if err := r.g1Sums(qL, func(i, first, n int) []fr.Element { return r.as[i].Aux[first : first+n] },
		func(i int) *bls.G1Affine { return &out[i].L }); err != nil {
		return nil, err
	}
	ReportStage(r.ctx, "A MSM")
	cur := make([]denseCursor, len(r.as))
	for i, a := range r.as {
		cur[i] = denseCursor{in: a.Input, aux: a.Aux, auxD: &a.ADensityAux}
	}
	if err := r.g1Sums(qA, r.denseScalars(cur), func(i int) *bls.G1Affine { return &out[i].A }); err != nil {
		return nil, err
	}
	ReportStage(r.ctx, "B_G1 MSM")
	bCursors := func() {
		for i, a := range r.as {
			cur[i] = denseCursor{in: a.Input, inD: &a.BDensityInput, aux: a.Aux, auxD: &a.BDensityAux}
		}
	}
	bCursors()
	if err := r.g1Sums(qBG1, r.denseScalars(cur), func(i int) *bls.G1Affine { return &out[i].BG1 }); err != nil {
		return nil, err
	}
	ReportStage(r.ctx, "B_G2 MSM")
	bCursors() // B_G2's scalars are B_G1's, rebuilt chunk by chunk
	if err := r.g2Sums(r.denseScalars(cur), func(i int) *bls.G2Affine { return &out[i].BG2 }); err != nil {
		return nil, err
	}
	return out, nil
}

// denseScalars returns the scalars of a density-filtered query's chunk
// from each assignment's cursor, into r.sc (chunks come in order).
func (r *cpuRun) denseScalars(cur []denseCursor) func(i, first, n int) []fr.Element {
	return func(i, _, n int) []fr.Element {
		sc := r.sc[:n]
		cur[i].fill(sc)
		return sc
	}
}

// g1Sums sets res(i) = Σ query_j·scalars(i)_j over G1 query q, chunk by
// chunk: scalars(i, first, n) are assignment i's scalars of points
// first…first+n−1 (valid until the next call).
func (r *cpuRun) g1Sums(q int, scalars func(i, first, n int) []fr.Element, res func(i int) *bls.G1Affine) error {
	r.alloc()
	return chunkSums[bls.G1Affine](r, q, r.n, r.g1, scalars, res, (*bls.G1Jac).AddMixed, (*bls.G1Affine).FromJacobian)
}

// g2Sums is g1Sums for the b_g2 query.
func (r *cpuRun) g2Sums(scalars func(i, first, n int) []fr.Element, res func(i int) *bls.G2Affine) error {
	r.alloc()
	return chunkSums[bls.G2Affine](r, qBG2, r.n/2, r.g2, scalars, res, (*bls.G2Jac).AddMixed, (*bls.G2Affine).FromJacobian)
}

// gcDomainMin is the domain from which the H stage collects its FFTs'
// twiddles between rounds (a cycle costs milliseconds there: the vectors
// hold no pointers).
const gcDomainMin = 1 << 20

// gcChunkMin is the chunk from which the MSMs' scratch is collected after
// each chunk.
const gcChunkMin = 1 << 12

// chunkSums is g1Sums and g2Sums over chunks of n points in bufs: each
// chunk's MSM is added to the assignment's Jacobian sum (add), converted
// to affine (affine) at the end — the same group element as one MSM.
func chunkSums[P any, PT affinePoint[P], J any](r *cpuRun, q, n int, bufs [2][]P, scalars func(i, first, n int) []fr.Element, res func(i int) *P, add func(*J, *P) *J, affine func(*P, *J) *P) error {
	acc := make([]J, len(r.as))
	err := queryChunks(r.params, q, 0, r.params.Sections()[q].Count, n, bufs, func(first int, pts []P) error {
		var part P
		for i := range r.as {
			if err := r.ctx.Err(); err != nil {
				return err
			}
			if err := msm[P, PT](&part, pts, scalars(i, first, len(pts)), r.cfg); err != nil {
				return fmt.Errorf("groth16: assignment %d: %s msm: %w", i, queryNames[q], err)
			}
			add(&acc[i], &part)
		}
		if len(pts) >= gcChunkMin {
			// MultiExp's scratch (digits, buckets: ~170 bytes per point
			// at 2^20 points) is garbage now; collecting it here keeps
			// the heap at what is live instead of letting GOGC double it
			// (a cycle costs milliseconds: the big vectors hold no
			// pointers).
			runtime.GC()
		}
		return nil
	})
	for i := range acc {
		affine(res(i), &acc[i])
	}
	return err
}

// alloc makes the chunk buffers once: two of r.n G1 points — ChunkFor of
// the longest query, or min(ChunkPoints, longest) when set — (the second
// only when a query spans several chunks),
// viewed also as G2 points, and r.n scalars. Memory-backed and preloaded
// params need no point buffer.
func (r *cpuRun) alloc() {
	if r.sc != nil {
		return
	}
	p := r.params
	longest := 0
	for _, s := range p.Sections() {
		longest = max(longest, s.Count)
	}
	n := ChunkFor(longest)
	if r.chunk > 0 {
		n = max(min(r.chunk, longest), 2) // ≥ 2: a G2 chunk is half a G1 one
	}
	r.n = n
	b := r.scratch(n * int(unsafe.Sizeof(fr.Element{})))
	r.sc = unsafe.Slice((*fr.Element)(unsafe.Pointer(unsafe.SliceData(b))), n)
	nbuf := 1
	switch {
	case p.decoded() != nil:
		nbuf = 0
	case longest > n:
		nbuf = 2
	}
	for k := 0; k < nbuf; k++ {
		b := r.scratch(n * int(unsafe.Sizeof(bls.G1Affine{})))
		r.g1[k] = unsafe.Slice((*bls.G1Affine)(unsafe.Pointer(unsafe.SliceData(b))), n)
		r.g2[k] = unsafe.Slice((*bls.G2Affine)(unsafe.Pointer(unsafe.SliceData(b))), n/2)
	}
}

// scratch returns n bytes of scratchBytes, released by free.
func (r *cpuRun) scratch(n int) []byte {
	b, release := scratchBytes(n)
	r.release = append(r.release, release)
	return b
}

// free releases the buffers; nothing may use them after.
func (r *cpuRun) free() {
	r.g1, r.g2, r.sc = [2][]bls.G1Affine{}, [2][]bls.G2Affine{}, nil
	for _, f := range r.release {
		f()
	}
	r.release = nil
}

// denseCursor walks a density-filtered scalar vector (bellperson's
// density-filtered exponents): the inputs (all, or those whose inD bit is
// set), then the aux values whose auxD bit is set, in order.
type denseCursor struct {
	in   []fr.Element
	inD  *cs.Density // nil: every input
	aux  []fr.Element
	auxD *cs.Density
	pos  int // next variable over in ‖ aux
}

// fill writes the next len(dst) scalars into dst. ValidateAssignment has
// checked the popcounts against the query lengths, so the vector never
// ends early; if it did, the rest of dst is zero.
func (c *denseCursor) fill(dst []fr.Element) {
	k := 0
	nIn := len(c.in)
	for k < len(dst) && c.pos < nIn {
		if c.inD == nil || densityBit(c.inD, c.pos) {
			dst[k] = c.in[c.pos]
			k++
		}
		c.pos++
	}
	words := c.auxD.Words
	for k < len(dst) {
		j := c.pos - nIn
		if j >= len(c.aux) {
			clear(dst[k:])
			return
		}
		w := words[j/64] >> (j % 64)
		if w == 0 {
			c.pos += 64 - j%64
			continue
		}
		j += bits.TrailingZeros64(w)
		if j >= len(c.aux) {
			c.pos = nIn + len(c.aux)
			continue
		}
		dst[k] = c.aux[j]
		k++
		c.pos = nIn + j + 1
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
// evaluations (length ≤ m, zero-padded), as bellperson execute_fft: iFFT
// of a, b, c; FFT on the coset g·⟨ω⟩ with g = 7 (the Fr multiplicative
// generator, as bellperson/ec-gpu and gnark); pointwise (a·b − c)/Z(g·ω^i)
// with Z constant g^m − 1 on the coset; inverse coset FFT; drop the top
// coefficient. Inputs are not modified.
func HCoefficients(dom *fft.Domain, a, b, c []fr.Element) []fr.Element {
	return hCoefficients(dom, a, b, c, false)
}

// hCoefficients is HCoefficients; with inPlace, a, b and c are used as the
// FFTs' storage wherever their capacity reaches m (the result is then in
// a's array), and their contents are lost. The order of the transforms
// (DIF iFFT, bit reversal, DIF coset FFT; DIT inverse coset FFT) needs no
// domain-size table, so dom may be made WithoutPrecompute.
func hCoefficients(dom *fft.Domain, a, b, c []fr.Element, inPlace bool) []fr.Element {
	m := int(dom.Cardinality)
	var vecs [3][]fr.Element
	for k, v := range [3][]fr.Element{a, b, c} {
		if inPlace && cap(v) >= m {
			vecs[k] = v[:m]
			clear(vecs[k][len(v):])
		} else {
			vecs[k] = make([]fr.Element, m)
			copy(vecs[k], v)
		}
	}
	// Three vectors at once, one transform at a time: each transform of a
	// domain made WithoutPrecompute allocates its own twiddles (4·m bytes),
	// garbage when it returns, which the collector would not reclaim before
	// the heap doubles (the assignments are most of it). Collecting between
	// the rounds keeps three sets alive instead of seven allocated.
	each := func(f func(v []fr.Element)) {
		var wg sync.WaitGroup
		for k := range vecs {
			wg.Add(1)
			go func(v []fr.Element) {
				defer wg.Done()
				f(v)
			}(vecs[k])
		}
		wg.Wait()
		if m >= gcDomainMin {
			runtime.GC()
		}
	}
	each(func(v []fr.Element) { dom.FFTInverse(v, fft.DIF) })
	each(func(v []fr.Element) {
		utils.BitReverse(v)
		dom.FFT(v, fft.DIF, fft.OnCoset())
	})
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
	dom.FFTInverse(va, fft.DIT, fft.OnCoset())
	return va[:m-1]
}
