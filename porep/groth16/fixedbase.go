package groth16

import (
	"runtime"
	"sync"
	"sync/atomic"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// Fixed-base scalar multiplication for parameter generation: one base,
// millions of scalars. The scalar is split into c-bit windows; window w of
// the table holds d·2^{c·w}·G for d = 1..2^c−1 in affine form, so k·G is
// the sum of one table entry per non-zero window — ⌈255/c⌉ mixed additions
// and no doublings. Results are batch-normalised to affine per chunk.
// (gnark's BatchScalarMultiplicationG1 runs ~45 µs/point here; this runs a
// few µs/point for large batches.)
// Points are accumulated in affine coordinates with batched inversions
// (see fixedBaseG1.mul).

const (
	frBits        = 255 // r < 2^255
	fbChunk       = 512 // points per work item (batch-normalisation unit)
	fbMaxWindowG1 = 16  // table: 16 windows × 65535 × 96 B ≈ 100 MB
	fbMaxWindowG2 = 15  // table: 17 windows × 32767 × 192 B ≈ 107 MB
)

// fbWindow picks the window size minimising table cost + per-point cost
// for n scalars: (windows · 2^c) + n · windows, capped at max.
func fbWindow(n, max int) int {
	best, bestCost := 1, -1.0
	for c := 2; c <= max; c++ {
		windows := float64((frBits + c - 1) / c)
		cost := windows*float64(int(1)<<c) + float64(n)*windows
		if bestCost < 0 || cost < bestCost {
			best, bestCost = c, cost
		}
	}
	return best
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
	workers := runtime.GOMAXPROCS(0)
	chunks := (n + fbChunk - 1) / fbChunk
	if workers > chunks {
		workers = chunks
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= chunks {
					return
				}
				lo := k * fbChunk
				f(w, lo, min(lo+fbChunk, n))
			}
		}(w)
	}
	wg.Wait()
}

// ---- G1 ----

type fixedBaseG1 struct {
	c, windows int
	table      []bls.G1Affine // window w, digit d at w·(2^c−1) + d−1
}

func newFixedBaseG1(base *bls.G1Affine, n int) *fixedBaseG1 {
	c := fbWindow(n, fbMaxWindowG1)
	t := &fixedBaseG1{c: c, windows: (frBits + c - 1) / c}
	per := 1<<c - 1
	t.table = make([]bls.G1Affine, t.windows*per)
	// window bases 2^{c·w}·G
	bases := make([]bls.G1Affine, t.windows)
	var acc bls.G1Jac
	acc.FromAffine(base)
	for w := 0; w < t.windows; w++ {
		bases[w].FromJacobian(&acc)
		for i := 0; i < c; i++ {
			acc.DoubleAssign()
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
			jac := make([]bls.G1Jac, per)
			jac[0].FromAffine(&bases[w])
			for d := 1; d < per; d++ {
				jac[d] = jac[d-1]
				jac[d].AddMixed(&bases[w])
			}
			batchNormalizeG1(t.table[w*per:(w+1)*per], jac, make([]fp.Element, per))
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
func (t *fixedBaseG1) mul(out []bls.G1Affine, scalars []fr.Element) {
	per := 1<<t.c - 1
	workers := runtime.GOMAXPROCS(0)
	scratch := make([]*fbScratchG1, workers)
	forEachChunk(len(scalars), func(wk, lo, hi int) {
		if scratch[wk] == nil {
			scratch[wk] = &fbScratchG1{}
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
				var dx fp.Element
				dx.Sub(&tp.X, &acc[i].X)
				if dx.IsZero() {
					acc[i].Add(&acc[i], tp)
					continue
				}
				sc.idx[m], sc.tp[m], sc.dx[m] = int32(i), tp, dx
				m++
			}
			batchInvertFp(sc.dx[:m], sc.prefix[:m])
			for k := 0; k < m; k++ {
				p, tp := &acc[sc.idx[k]], sc.tp[k]
				var lambda, x3, y3 fp.Element
				lambda.Sub(&tp.Y, &p.Y).Mul(&lambda, &sc.dx[k])
				x3.Square(&lambda).Sub(&x3, &p.X).Sub(&x3, &tp.X)
				y3.Sub(&p.X, &x3).Mul(&y3, &lambda).Sub(&y3, &p.Y)
				p.X, p.Y = x3, y3
			}
		}
		for i := 0; i < n; i++ {
			if sc.inf[i] {
				acc[i] = bls.G1Affine{}
			}
		}
	})
}

// fbScratchG1 is one worker's scratch space for a chunk.
type fbScratchG1 struct {
	bits       [fbChunk][4]uint64
	inf        [fbChunk]bool
	idx        [fbChunk]int32
	tp         [fbChunk]*bls.G1Affine
	dx, prefix [fbChunk]fp.Element
}

// batchInvertFp replaces each (non-zero) x[i] by its inverse with one field
// inversion.
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

// batchNormalizeG1 converts Jacobian points to affine with one inversion
// (Montgomery's trick); Z = 0 maps to the affine identity (0, 0).
func batchNormalizeG1(out []bls.G1Affine, in []bls.G1Jac, prefix []fp.Element) {
	var acc fp.Element
	acc.SetOne()
	for i := range in {
		prefix[i] = acc
		if !in[i].Z.IsZero() {
			acc.Mul(&acc, &in[i].Z)
		}
	}
	var inv fp.Element
	inv.Inverse(&acc)
	for i := len(in) - 1; i >= 0; i-- {
		if in[i].Z.IsZero() {
			out[i] = bls.G1Affine{}
			continue
		}
		var zinv, zinv2 fp.Element
		zinv.Mul(&inv, &prefix[i])
		inv.Mul(&inv, &in[i].Z)
		zinv2.Square(&zinv)
		out[i].X.Mul(&in[i].X, &zinv2)
		out[i].Y.Mul(&in[i].Y, &zinv2).Mul(&out[i].Y, &zinv)
	}
}

// ---- G2 ----

type fixedBaseG2 struct {
	c, windows int
	table      []bls.G2Affine
}

func newFixedBaseG2(base *bls.G2Affine, n int) *fixedBaseG2 {
	c := fbWindow(n, fbMaxWindowG2)
	t := &fixedBaseG2{c: c, windows: (frBits + c - 1) / c}
	per := 1<<c - 1
	t.table = make([]bls.G2Affine, t.windows*per)
	bases := make([]bls.G2Affine, t.windows)
	var acc bls.G2Jac
	acc.FromAffine(base)
	for w := 0; w < t.windows; w++ {
		bases[w].FromJacobian(&acc)
		for i := 0; i < c; i++ {
			acc.DoubleAssign()
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
			jac := make([]bls.G2Jac, per)
			jac[0].FromAffine(&bases[w])
			for d := 1; d < per; d++ {
				jac[d] = jac[d-1]
				jac[d].AddMixed(&bases[w])
			}
			batchNormalizeG2(t.table[w*per:(w+1)*per], jac, make([]bls.E2, per))
		}(w)
	}
	wg.Wait()
	return t
}

func (t *fixedBaseG2) mul(out []bls.G2Affine, scalars []fr.Element) {
	per := 1<<t.c - 1
	workers := runtime.GOMAXPROCS(0)
	scratch := make([]*fbScratchG2, workers)
	forEachChunk(len(scalars), func(wk, lo, hi int) {
		if scratch[wk] == nil {
			scratch[wk] = &fbScratchG2{}
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
				var dx bls.E2
				dx.Sub(&tp.X, &acc[i].X)
				if dx.IsZero() {
					acc[i].Add(&acc[i], tp)
					continue
				}
				sc.idx[m], sc.tp[m], sc.dx[m] = int32(i), tp, dx
				m++
			}
			batchInvertE2(sc.dx[:m], sc.prefix[:m])
			for k := 0; k < m; k++ {
				p, tp := &acc[sc.idx[k]], sc.tp[k]
				var lambda, x3, y3 bls.E2
				lambda.Sub(&tp.Y, &p.Y).Mul(&lambda, &sc.dx[k])
				x3.Square(&lambda).Sub(&x3, &p.X).Sub(&x3, &tp.X)
				y3.Sub(&p.X, &x3).Mul(&y3, &lambda).Sub(&y3, &p.Y)
				p.X, p.Y = x3, y3
			}
		}
		for i := 0; i < n; i++ {
			if sc.inf[i] {
				acc[i] = bls.G2Affine{}
			}
		}
	})
}

type fbScratchG2 struct {
	bits       [fbChunk][4]uint64
	inf        [fbChunk]bool
	idx        [fbChunk]int32
	tp         [fbChunk]*bls.G2Affine
	dx, prefix [fbChunk]bls.E2
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

func batchNormalizeG2(out []bls.G2Affine, in []bls.G2Jac, prefix []bls.E2) {
	var acc bls.E2
	acc.SetOne()
	for i := range in {
		prefix[i] = acc
		if !in[i].Z.IsZero() {
			acc.Mul(&acc, &in[i].Z)
		}
	}
	var inv bls.E2
	inv.Inverse(&acc)
	for i := len(in) - 1; i >= 0; i-- {
		if in[i].Z.IsZero() {
			out[i] = bls.G2Affine{}
			continue
		}
		var zinv, zinv2 bls.E2
		zinv.Mul(&inv, &prefix[i])
		inv.Mul(&inv, &in[i].Z)
		zinv2.Square(&zinv)
		out[i].X.Mul(&in[i].X, &zinv2)
		out[i].Y.Mul(&in[i].Y, &zinv2).Mul(&out[i].Y, &zinv)
	}
}
