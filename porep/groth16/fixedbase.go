// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"runtime"
	"sync"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/cuseal/cuseal/internal/parallel"
)

// Fixed-base scalar multiplication for parameter generation: one base,
// millions of scalars. The scalar is split into c-bit windows; window w of
// the table holds d·2^{c·w}·G for d = 1..2^c−1 in affine form, so k·G is
// the sum of one table entry per non-zero window — ⌈255/c⌉ mixed additions
// and no doublings. Results are batch-normalised to affine per chunk.
// (Several times faster than gnark's BatchScalarMultiplicationG1 for large
// batches: docs/BENCHMARKS.md, "Figures cited by code comments".)
// Points are accumulated in affine coordinates with batched inversions
// (see fixedBase.mul). One generic implementation serves G1 (coordinates
// in fp) and G2 (coordinates in E2); g1 and g2 adapt the point types.

const (
	frBits  = 255 // r < 2^255
	fbChunk = 512 // points per work item (batch-normalisation unit)
	// The largest windows (BenchmarkFixedBaseLarge, docs/BENCHMARKS.md,
	// "Test-parameter generation"): G2 points per CPU-second rose ~28 %
	// from 17 windows of 15 bits to 14 of 19. G1's rose 1–18 % from 16
	// windows of 16 bits to 13 of 20 (the larger windows' cache misses eat
	// most of the 19 % fewer additions), and a 2 KiB setup with 17-bit G1
	// windows took more CPU than with 16: G1 stays at 16 bits.
	fbMaxWindowG1 = 16 // table: 16 windows × (2^16−1) × 96 B ≈ 101 MB
	fbMaxWindowG2 = 19 // table: 14 windows × (2^19−1) × 192 B ≈ 1.41 GB
	// fbEntryCost weighs one table entry against one batched affine
	// addition of mul: building it (a Jacobian mixed addition and its share
	// of the normalisation) costs 1.5–2.7 additions (measured), doubled for
	// the table's memory: a 2 KiB PoRep setup's G2 table keeps 15-bit
	// windows (107 MB) for its 0.69M points.
	fbEntryCost = 4
	// fbBuildChunk is how many entries of one window are normalised at a
	// time while the table is built (scratch per worker).
	fbBuildChunk = 1 << 14
)

// fbWindow picks the window size minimising table cost + per-point cost
// for n scalars: fbEntryCost · windows · 2^c + n · windows, capped at max.
func fbWindow(n, max int) int {
	best, bestCost := 1, -1.0
	for c := 2; c <= max; c++ {
		windows := float64((frBits + c - 1) / c)
		cost := fbEntryCost*windows*float64(int(1)<<c) + float64(n)*windows
		if bestCost < 0 || cost < bestCost {
			best, bestCost = c, cost
		}
	}
	return best
}

// fbTableBytes is the size of the table newFixedBase builds for n scalars
// with windows of at most maxWindow bits and points of pointSize bytes.
func fbTableBytes(n, maxWindow, pointSize int) uint64 {
	c := fbWindow(n, maxWindow)
	return uint64((frBits+c-1)/c) * uint64(1<<c-1) * uint64(pointSize)
}

// scalarDigit returns the c-bit digit of the canonical scalar s at window w.
func scalarDigit(s *[4]uint64, w, c int) uint64 {
	pos := w * c
	word, bit := pos/64, pos%64
	if word >= 4 {
		return 0
	}
	v := s[word] >> bit
	if bit+c > 64 && word+1 < 4 {
		v |= s[word+1] << (64 - bit)
	}
	return v & (1<<c - 1)
}

// forEachChunk runs f over [0,n) in chunks of fbChunk on GOMAXPROCS
// goroutines; each goroutine gets its own worker index for scratch space.
func forEachChunk(n int, f func(worker, lo, hi int)) {
	chunks := (n + fbChunk - 1) / fbChunk
	_ = parallel.Dynamic(chunks, 0, func(w, k int) error {
		lo := k * fbChunk
		f(w, lo, min(lo+fbChunk, n))
		return nil
	})
}

// fbField is the coordinate-field arithmetic the fixed-base code uses:
// fp.Element for G1, bls.E2 for G2.
type fbField[F any] interface {
	*F
	SetOne() *F
	IsZero() bool
	Sub(x, y *F) *F
	Mul(x, y *F) *F
	Square(x *F) *F
	Inverse(x *F) *F
}

// fbGroup adapts one group's affine (A) and Jacobian (J) point types, with
// coordinates in F, to the fixed-base code: Go generics cannot reach struct
// fields or call methods that are not in a constraint, so the few point
// operations go through these methods of an empty type.
type fbGroup[A, J, F any] interface {
	xy(p *A) (x, y *F)
	xyz(p *J) (x, y, z *F)
	fromAffine(p *J, q *A)
	toAffine(p *A, q *J)
	double(p *J)
	addMixed(p *J, q *A)
	add(p, q *A) // p = p + q, any operands
	// subX sets dx = q.x − p.x and reports whether it is non-zero.
	subX(dx *F, q, p *A) bool
	// addBatch sets acc[idx[k]] += q[k] for all k, given
	// dx[k] = q[k].x − acc[idx[k]].x ≠ 0 (overwritten; prefix is scratch).
	addBatch(acc []A, idx []int32, q []*A, dx, prefix []F)
}

// g1 and g2 are the fbGroup adapters for G1 and G2. subX and addBatch carry
// the hot loop's field arithmetic, so they are written out per group:
// through the generic field constraint each fp operation would be an
// indirect call (measured slower in BenchmarkFixedBase: docs/BENCHMARKS.md).
type (
	g1 struct{}
	g2 struct{}
)

func (g1) xy(p *bls.G1Affine) (x, y *fp.Element)    { return &p.X, &p.Y }
func (g1) xyz(p *bls.G1Jac) (x, y, z *fp.Element)   { return &p.X, &p.Y, &p.Z }
func (g1) fromAffine(p *bls.G1Jac, q *bls.G1Affine) { p.FromAffine(q) }
func (g1) toAffine(p *bls.G1Affine, q *bls.G1Jac)   { p.FromJacobian(q) }
func (g1) double(p *bls.G1Jac)                      { p.DoubleAssign() }
func (g1) addMixed(p *bls.G1Jac, q *bls.G1Affine)   { p.AddMixed(q) }
func (g1) add(p, q *bls.G1Affine)                   { p.Add(p, q) }
func (g2) xy(p *bls.G2Affine) (x, y *bls.E2)        { return &p.X, &p.Y }
func (g2) xyz(p *bls.G2Jac) (x, y, z *bls.E2)       { return &p.X, &p.Y, &p.Z }
func (g2) fromAffine(p *bls.G2Jac, q *bls.G2Affine) { p.FromAffine(q) }
func (g2) toAffine(p *bls.G2Affine, q *bls.G2Jac)   { p.FromJacobian(q) }
func (g2) double(p *bls.G2Jac)                      { p.DoubleAssign() }
func (g2) addMixed(p *bls.G2Jac, q *bls.G2Affine)   { p.AddMixed(q) }
func (g2) add(p, q *bls.G2Affine)                   { p.Add(p, q) }

// fixedBase is the windowed table of one base point.
type fixedBase[A, J, F any, PF fbField[F], G fbGroup[A, J, F]] struct {
	c, windows int
	table      []A       // window w, digit d at w·(2^c−1) + d−1
	scratch    sync.Pool // *fbScratch[A, F], reused across mul calls
}

type (
	fixedBaseG1 = fixedBase[bls.G1Affine, bls.G1Jac, fp.Element, *fp.Element, g1]
	fixedBaseG2 = fixedBase[bls.G2Affine, bls.G2Jac, bls.E2, *bls.E2, g2]
)

func newFixedBaseG1(base *bls.G1Affine, n int) *fixedBaseG1 {
	return newFixedBase[bls.G1Affine, bls.G1Jac, fp.Element, *fp.Element, g1](base, n, fbMaxWindowG1)
}

func newFixedBaseG2(base *bls.G2Affine, n int) *fixedBaseG2 {
	return newFixedBase[bls.G2Affine, bls.G2Jac, bls.E2, *bls.E2, g2](base, n, fbMaxWindowG2)
}

// newFixedBase builds the table of base for n scalars, windows of at most
// maxWindow bits.
func newFixedBase[A, J, F any, PF fbField[F], G fbGroup[A, J, F]](base *A, n, maxWindow int) *fixedBase[A, J, F, PF, G] {
	var g G
	c := fbWindow(n, maxWindow)
	t := &fixedBase[A, J, F, PF, G]{c: c, windows: (frBits + c - 1) / c}
	per := 1<<c - 1
	t.table = make([]A, t.windows*per)
	// window bases 2^{c·w}·G
	bases := make([]A, t.windows)
	var acc J
	g.fromAffine(&acc, base)
	for w := 0; w < t.windows; w++ {
		g.toAffine(&bases[w], &acc)
		for i := 0; i < c; i++ {
			g.double(&acc)
		}
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for w := 0; w < t.windows; w++ {
		wg.Add(1)
		sem <- struct{}{}
		go func(w int) {
			defer wg.Done()
			defer func() { <-sem }()
			// d·base for d = 1..per, fbBuildChunk at a time.
			jac := make([]J, min(per, fbBuildChunk))
			prefix := make([]F, len(jac))
			var acc J
			g.fromAffine(&acc, &bases[w])
			for lo := 0; lo < per; lo += len(jac) {
				n := min(len(jac), per-lo)
				for d := 0; d < n; d++ {
					jac[d] = acc
					g.addMixed(&acc, &bases[w])
				}
				batchNormalize[A, J, F, PF, G](t.table[w*per+lo:w*per+lo+n], jac[:n], prefix[:n])
			}
		}(w)
	}
	wg.Wait()
	return t
}

// mul sets out[i] = scalars[i]·G (affine; zero scalars give the identity).
//
// Accumulation is in affine coordinates, one window at a time across a
// chunk, with one batched inversion per window (Montgomery's trick): an
// affine addition then costs ~5M+1S instead of 7M+4S for a Jacobian mixed
// addition, and no final normalisation is needed. The partial sums never
// meet the doubling or inverse case: after window w the accumulator is
// k·G with 0 < k < 2^{c·w} ≤ the next entry's multiple, and all partial
// sums of a scalar < r stay in (0, r). A zero difference is still handled
// (generic affine Add) rather than trusted away.
func (t *fixedBase[A, J, F, PF, G]) mul(out []A, scalars []fr.Element) {
	var g G
	per := 1<<t.c - 1
	workers := runtime.GOMAXPROCS(0)
	scratch := make([]*fbScratch[A, F], workers)
	defer func() {
		for _, sc := range scratch {
			if sc != nil {
				t.scratch.Put(sc)
			}
		}
	}()
	forEachChunk(len(scalars), func(wk, lo, hi int) {
		if scratch[wk] == nil {
			if sc, ok := t.scratch.Get().(*fbScratch[A, F]); ok {
				scratch[wk] = sc
			} else {
				scratch[wk] = &fbScratch[A, F]{}
			}
		}
		sc := scratch[wk]
		n := hi - lo
		acc := out[lo:hi]
		for i := 0; i < n; i++ {
			sc.bits[i] = scalars[lo+i].Bits()
			sc.inf[i] = true
		}
		for w := 0; w < t.windows; w++ {
			m := 0
			for i := 0; i < n; i++ {
				d := scalarDigit(&sc.bits[i], w, t.c)
				if d == 0 {
					continue
				}
				tp := &t.table[w*per+int(d)-1]
				if sc.inf[i] {
					acc[i] = *tp
					sc.inf[i] = false
					continue
				}
				if !g.subX(&sc.dx[m], tp, &acc[i]) {
					g.add(&acc[i], tp)
					continue
				}
				sc.idx[m], sc.tp[m] = int32(i), tp
				m++
			}
			g.addBatch(acc, sc.idx[:m], sc.tp[:m], sc.dx[:m], sc.prefix[:m])
		}
		for i := 0; i < n; i++ {
			if sc.inf[i] {
				var zero A
				acc[i] = zero
			}
		}
	})
}

// fbScratch is one worker's scratch space for a chunk.
type fbScratch[A, F any] struct {
	bits       [fbChunk][4]uint64
	inf        [fbChunk]bool
	idx        [fbChunk]int32
	tp         [fbChunk]*A
	dx, prefix [fbChunk]F
}

// batchNormalize converts Jacobian points to affine with one inversion
// (Montgomery's trick); Z = 0 maps to the affine identity (0, 0).
func batchNormalize[A, J, F any, PF fbField[F], G fbGroup[A, J, F]](out []A, in []J, prefix []F) {
	var g G
	var acc F
	PF(&acc).SetOne()
	for i := range in {
		prefix[i] = acc
		if _, _, z := g.xyz(&in[i]); !PF(z).IsZero() {
			PF(&acc).Mul(&acc, z)
		}
	}
	// Declared once: in a generic function each escapes to the heap, and
	// one allocation per point would double a table's build in garbage.
	var inv, zinv, zinv2 F
	var zero A
	PF(&inv).Inverse(&acc)
	for i := len(in) - 1; i >= 0; i-- {
		x, y, z := g.xyz(&in[i])
		if PF(z).IsZero() {
			out[i] = zero
			continue
		}
		PF(&zinv).Mul(&inv, &prefix[i])
		PF(&inv).Mul(&inv, z)
		PF(&zinv2).Square(&zinv)
		ox, oy := g.xy(&out[i])
		PF(ox).Mul(x, &zinv2)
		PF(oy).Mul(y, &zinv2)
		PF(oy).Mul(oy, &zinv)
	}
}

func (g1) subX(dx *fp.Element, q, p *bls.G1Affine) bool {
	return !dx.Sub(&q.X, &p.X).IsZero()
}

func (g2) subX(dx *bls.E2, q, p *bls.G2Affine) bool {
	return !dx.Sub(&q.X, &p.X).IsZero()
}

// addBatch: affine additions with one batched inversion of the dx.
func (g1) addBatch(acc []bls.G1Affine, idx []int32, q []*bls.G1Affine, dx, prefix []fp.Element) {
	batchInvertFp(dx, prefix)
	for k := range idx {
		p, tp := &acc[idx[k]], q[k]
		var lambda, x3, y3 fp.Element
		lambda.Sub(&tp.Y, &p.Y).Mul(&lambda, &dx[k])
		x3.Square(&lambda).Sub(&x3, &p.X).Sub(&x3, &tp.X)
		y3.Sub(&p.X, &x3).Mul(&y3, &lambda).Sub(&y3, &p.Y)
		p.X, p.Y = x3, y3
	}
}

func (g2) addBatch(acc []bls.G2Affine, idx []int32, q []*bls.G2Affine, dx, prefix []bls.E2) {
	batchInvertE2(dx, prefix)
	for k := range idx {
		p, tp := &acc[idx[k]], q[k]
		var lambda, x3, y3 bls.E2
		lambda.Sub(&tp.Y, &p.Y).Mul(&lambda, &dx[k])
		x3.Square(&lambda).Sub(&x3, &p.X).Sub(&x3, &tp.X)
		y3.Sub(&p.X, &x3).Mul(&y3, &lambda).Sub(&y3, &p.Y)
		p.X, p.Y = x3, y3
	}
}

// batchInvertFp and batchInvertE2 replace each (non-zero) x[i] by its
// inverse with one field inversion.
func batchInvertFp(x, prefix []fp.Element) {
	if len(x) == 0 {
		return
	}
	var acc fp.Element
	acc.SetOne()
	for i := range x {
		prefix[i] = acc
		acc.Mul(&acc, &x[i])
	}
	acc.Inverse(&acc)
	for i := len(x) - 1; i >= 0; i-- {
		var inv fp.Element
		inv.Mul(&acc, &prefix[i])
		acc.Mul(&acc, &x[i])
		x[i] = inv
	}
}

func batchInvertE2(x, prefix []bls.E2) {
	if len(x) == 0 {
		return
	}
	var acc bls.E2
	acc.SetOne()
	for i := range x {
		prefix[i] = acc
		acc.Mul(&acc, &x[i])
	}
	acc.Inverse(&acc)
	for i := len(x) - 1; i >= 0; i-- {
		var inv bls.E2
		inv.Mul(&acc, &prefix[i])
		acc.Mul(&acc, &x[i])
		x[i] = inv
	}
}
