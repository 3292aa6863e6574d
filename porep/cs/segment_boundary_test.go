// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// shapedSeg is a random sub-circuit of exactly nAux aux, nIn input
// variables and nC constraints (any of them may be 0). Its constraints read
// the shared prefix and its own variables through Enforce, EnforceEvaluated
// and EnforceEvaluatedLC; with dense set, every variable it allocates is
// marked in every density, else a random few (the first and the last of
// its range among the candidates), so that bits land on both sides of
// every word boundary of the segment's range.
func shapedSeg(sys ConstraintSystem, seed uint64, nAux, nIn, nC int, prefix []Variable, dense bool) {
	rng := rand.New(rand.NewPCG(seed, 5))
	own := []Variable{}
	val := func() *fr.Element {
		var v fr.Element
		v.SetUint64(uint64(rng.IntN(3)))
		return &v
	}
	pick := func() Variable {
		if len(own) > 0 && rng.IntN(2) == 0 {
			return own[rng.IntN(len(own))]
		}
		return prefix[rng.IntN(len(prefix))]
	}
	enforced := 0
	enforce := func(mark []Variable) {
		if enforced == nC {
			return
		}
		enforced++
		var va, vb, vc fr.Element
		switch k := rng.IntN(3); {
		case k == 0 || len(mark) > 2:
			var a, b LC
			for _, v := range mark {
				a = append(a, Term{frOne, v})
				b = append(b, Term{frMinusOne, v})
			}
			x := pick()
			// A cancelling pair: never dense by itself.
			a = append(a, Term{frOne, x}, Term{frMinusOne, x})
			sys.Enforce(a, b, LC{{frOne, pick()}})
		case k == 1:
			a := [3]Variable{NoVar, NoVar, NoVar}
			b := [2]Variable{NoVar, NoVar}
			copy(a[:], mark)
			copy(b[:], mark)
			va.SetUint64(rng.Uint64())
			vb.SetUint64(rng.Uint64())
			vc.Mul(&va, &vb)
			sys.(EvaluatedEnforcer).EnforceEvaluated(&va, &vb, &vc, a, b)
		default:
			var a LC
			for _, v := range mark {
				a = append(a, Term{frOne, v})
			}
			b := [2]Variable{NoVar, NoVar}
			copy(b[:], mark)
			sys.(EvaluatedEnforcer).EnforceEvaluatedLC(&va, &vb, &vc, a, b)
		}
	}
	for i := 0; i < max(nAux, nIn, nC); i++ {
		var mark []Variable
		if i < nAux {
			v := sys.Alloc(val())
			own = append(own, v)
			if dense || i == 0 || i == nAux-1 || rng.IntN(5) == 0 {
				mark = append(mark, v)
			}
		}
		if i < nIn {
			v := sys.AllocInput(val())
			own = append(own, v)
			if dense || i == 0 || i == nIn-1 || rng.IntN(5) == 0 {
				mark = append(mark, v)
			}
		}
		if rng.IntN(4) == 0 {
			mark = append(mark, prefix[rng.IntN(len(prefix))])
		}
		if !dense && rng.IntN(3) == 0 {
			mark = mark[:0]
		}
		if len(mark) > 0 && enforced == nC {
			// No row left to mark them in: the shape decides.
			continue
		}
		enforce(mark)
	}
	for enforced < nC {
		enforce(nil)
	}
}

// TestSplitBoundaries: segments whose ranges start and end on and off
// 64-bit word boundaries (prefixes of 0–129 aux and 1–66 inputs; segments
// of 0, 1, 63, 64, 65 and 128 aux and 0, 1, 64, 65 inputs), synthesized
// concurrently into fresh and into dirty pooled storage, give the
// sequential densities word for word (no bit lost or added at a boundary),
// and the sequential witness and a/b/c.
func TestSplitBoundaries(t *testing.T) {
	for _, pre := range [][2]int{{0, 1}, {1, 1}, {63, 2}, {64, 64}, {65, 65}, {129, 66}} {
		for _, auxN := range []int{0, 1, 63, 64, 65, 128} {
			for _, inN := range []int{0, 1, 64, 65} {
				for _, nSeg := range []int{1, 3} {
					name := fmt.Sprintf("prefix%d+%d/seg%dx%d+%d", pre[0], pre[1], nSeg, auxN, inN)
					t.Run(name, func(t *testing.T) { checkSplitShape(t, pre, auxN, inN, nSeg) })
				}
			}
		}
	}
}

func checkSplitShape(t *testing.T, pre [2]int, auxN, inN, nSeg int) {
	nC := 40 + max(auxN, inN)
	prefixOf := func(sys ConstraintSystem) []Variable {
		vars := []Variable{One}
		for i := 0; i < pre[0]; i++ {
			vars = append(vars, sys.Alloc(&frOne))
		}
		for i := 1; i < pre[1]; i++ {
			vars = append(vars, sys.AllocInput(&frOne))
		}
		// Mark every other prefix variable, so that segments find some
		// shared bits set and set others.
		for i := 1; i < len(vars); i += 2 {
			sys.Enforce(LC{{frOne, vars[i]}}, LC{{frOne, vars[i]}}, nil)
		}
		return vars
	}
	seg := SizeHint{Constraints: nC, Aux: auxN, Inputs: inN}
	nPre := (pre[0] + pre[1]) / 2 // prefixOf's constraints
	hint := SizeHint{Constraints: nPre + nSeg*nC, Aux: pre[0] + nSeg*auxN, Inputs: pre[1] + nSeg*inN}
	sequential := func(dense bool) *Assignment {
		p := NewProvingAssignment(SizeHint{})
		prefix := prefixOf(p)
		for i := 0; i < nSeg; i++ {
			shapedSeg(p, uint64(i), auxN, inN, nC, prefix, dense)
		}
		return p.Assignment()
	}
	parallel := func(p *ProvingAssignment, dense bool) *Assignment {
		prefix := prefixOf(p)
		return splitRun(t, p, nSeg, seg, func(i int, s *Segment) {
			shapedSeg(s, uint64(i), auxN, inN, nC, prefix, dense)
		})
	}
	same := func(what string, got, want *Assignment) {
		t.Helper()
		for i, pair := range [3][2]Density{
			{got.ADensityAux, want.ADensityAux},
			{got.BDensityInput, want.BDensityInput},
			{got.BDensityAux, want.BDensityAux},
		} {
			if pair[0].BitLen != pair[1].BitLen || !slices.Equal(pair[0].Words, pair[1].Words) {
				t.Fatalf("%s: density %d = %d bits %x, want %d bits %x", what, i,
					pair[0].BitLen, pair[0].Words, pair[1].BitLen, pair[1].Words)
			}
		}
		if got.WitnessDigest() != want.WitnessDigest() || got.ABCDigest() != want.ABCDigest() {
			t.Fatalf("%s: witness or a/b/c differ", what)
		}
	}
	wantSparse, wantDense := sequential(false), sequential(true)
	same("fresh", parallel(NewProvingAssignment(SizeHint{}), false), wantSparse)
	// Pooled: a dense assignment leaves every word of the kept bitmaps set.
	var pool BufferPool
	a := parallel(pool.NewProvingAssignment(hint), true)
	same("pooled dense", a, wantDense)
	pool.Release(a)
	a = parallel(pool.NewProvingAssignment(hint), false)
	same("pooled after dense", a, wantSparse)
	pool.Release(a)
	a = parallel(pool.NewProvingAssignment(hint), true)
	same("pooled dense after sparse", a, wantDense)
}

// TestOrShifted: every offset 0–129 and source length 0–3 words, against
// a bit-by-bit OR.
func TestOrShifted(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for off := 0; off < 130; off++ {
		for n := 0; n <= 3*64; n += 1 + rng.IntN(9) {
			src := make([]uint64, (n+63)/64)
			for k := 0; k < n; k++ {
				if rng.IntN(2) == 0 || k == 0 || k == n-1 {
					src[k>>6] |= 1 << (k & 63)
				}
			}
			dst := make([]uint64, (off+n+63)/64)
			for i := range dst {
				dst[i] = rng.Uint64() & rng.Uint64()
			}
			want := slices.Clone(dst)
			for k := 0; k < n; k++ {
				if src[k>>6]>>(k&63)&1 != 0 {
					want[(off+k)>>6] |= 1 << ((off + k) & 63)
				}
			}
			orShifted(dst, off, src)
			if !slices.Equal(dst, want) {
				t.Fatalf("off %d, %d bits: %x, want %x", off, n, dst, want)
			}
		}
	}
}
