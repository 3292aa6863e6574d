// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"

	"github.com/cuseal/cuseal/porep/cs"
)

// wholeQuerySums is the CPU backend as it was before chunking, the
// reference of TestChunkedQuerySums: every query decoded whole, H from
// copies of a, b, c over a precomputed domain, the density-filtered
// scalar vectors built whole, one MSM per query.
func wholeQuerySums(t *testing.T, p *Params, a *cs.Assignment) Sums {
	t.Helper()
	var s Sums
	cfg := ecc.MultiExpConfig{}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	h, err := p.H()
	must(err)
	must(msmG1(&s.H, h, HCoefficients(fft.NewDomain(uint64(p.DomainSize())), a.A, a.B, a.C), cfg))
	l, err := p.L()
	must(err)
	must(msmG1(&s.L, l, a.Aux, cfg))
	q, err := p.A()
	must(err)
	must(msmG1(&s.A, q, appendDense(slices.Clone(a.Input), a.Aux, &a.ADensityAux), cfg))
	bsc := appendDense(appendDense(nil, a.Input, &a.BDensityInput), a.Aux, &a.BDensityAux)
	bg1, err := p.BG1()
	must(err)
	must(msmG1(&s.BG1, bg1, bsc, cfg))
	bg2, err := p.BG2()
	must(err)
	must(msmG2(&s.BG2, bg2, bsc, cfg))
	return s
}

// paramsFileOf writes p to a file and opens it (closed at the test's end).
func paramsFileOf(t *testing.T, p *Params, checked bool) *Params {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.params")
	if err := WriteParamsFile(path, p); err != nil {
		t.Fatal(err)
	}
	fp, err := OpenParams(path, checked)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fp.Close() })
	return fp
}

// cloneAssignment copies a with its own A, B, C storage of capacity
// max(capacity, len): C's stays short, so that H in place also meets a
// vector it must copy.
func cloneAssignment(a *cs.Assignment, capacity int) *cs.Assignment {
	c := *a
	c.A = append(make([]fr.Element, 0, max(capacity, len(a.A))), a.A...)
	c.B = append(make([]fr.Element, 0, max(capacity, len(a.B))), a.B...)
	c.C = slices.Clone(a.C)
	return &c
}

// TestChunkedQuerySums: the CPU backend's sums with chunks so small that
// every query spans many of them (chunk boundaries in the middle of the
// density-filtered A and B queries, G2 chunks of one point), from
// memory-backed, file-backed (two buffers, the next chunk decoded while
// the MSMs run) and preloaded params, with and without the assignments
// consumed (H in A's storage), equal the whole-query sums; and the proofs
// are the same bytes as the default chunk's.
func TestChunkedQuerySums(t *testing.T) {
	mem := sharedParams(t)
	file := paramsFileOf(t, mem, true)
	pre := paramsFileOf(t, mem, false)
	if err := pre.Preload(); err != nil {
		t.Fatal(err)
	}
	a1, _ := testCircuit.assignment(t)
	c2 := testCircuit
	c2.valueSeed = 5
	a2, _ := c2.assignment(t)
	want := []Sums{wholeQuerySums(t, mem, a1), wholeQuerySums(t, mem, a2)}
	rs := []Randomness{RandomnessFromSeed(seed32(4), 0), RandomnessFromSeed(seed32(4), 1)}
	wantProofs, err := Prove(context.Background(), &CPUBackend{}, mem, []*cs.Assignment{a1, a2}, rs)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		p       *Params
		chunk   int
		consume bool
	}{
		{"memory", mem, 5, false},
		{"memory", mem, 0, true},
		{"file", file, 5, true},
		{"file", file, 64, false},
		{"preloaded", pre, 7, true},
	} {
		pc, chunk, consume := c, c.chunk, c.consume
		t.Run(fmt.Sprintf("%s/chunk=%d/consumed=%v", pc.name, chunk, consume), func(t *testing.T) {
			m := pc.p.DomainSize()
			as := []*cs.Assignment{cloneAssignment(a1, m), cloneAssignment(a2, m)}
			ctx := context.Background()
			if consume {
				ctx = WithAssignmentsConsumed(ctx)
			}
			b := &CPUBackend{ChunkPoints: chunk}
			got, err := b.QuerySums(ctx, pc.p, as)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("assignment %d: sums differ from the whole-query sums", i)
				}
			}
			if !consume && (!slices.Equal(as[0].A, a1.A) || !slices.Equal(as[0].C, a1.C)) {
				t.Fatal("A or C modified without WithAssignmentsConsumed")
			}
			proofs, err := Prove(context.Background(), b, pc.p, []*cs.Assignment{a1, a2}, rs)
			if err != nil {
				t.Fatal(err)
			}
			for i := range proofs {
				g, w := proofs[i].Bytes(), wantProofs[i].Bytes()
				if !bytes.Equal(g[:], w[:]) {
					t.Fatalf("proof %d differs from the default chunk's", i)
				}
			}
		})
	}
}

// TestG1G2Chunks: the chunk iterator yields the query's points in order
// for any range and chunk size, with one buffer or two, and refuses bad
// arguments; an error of fn stops it.
func TestG1G2Chunks(t *testing.T) {
	mem := sharedParams(t)
	file := paramsFileOf(t, mem, false)
	wantL, _ := mem.L()
	wantB2, _ := mem.BG2()
	for _, p := range []*Params{mem, file} {
		for _, n := range []int{1, 5, 64, len(wantL) + 3} {
			for _, two := range []bool{false, true} {
				bufs := [2][]bls.G1Affine{make([]bls.G1Affine, n)}
				bufs2 := [2][]bls.G2Affine{make([]bls.G2Affine, n)}
				if two {
					bufs[1], bufs2[1] = make([]bls.G1Affine, n), make([]bls.G2Affine, n)
				}
				lo, hi := 3, len(wantL)-2
				var got []bls.G1Affine
				err := p.G1Chunks(SectionL, lo, hi, bufs, func(first int, pts []bls.G1Affine) error {
					if first != lo+len(got) || len(pts) > n {
						return fmt.Errorf("chunk at %d of %d points after %d", first, len(pts), len(got))
					}
					got = append(got, pts...)
					return nil
				})
				if err != nil || !slices.Equal(got, wantL[lo:hi]) {
					t.Fatalf("%s: L [%d, %d) in chunks of %d (two buffers: %v): %d points, %v", p.Name(), lo, hi, n, two, len(got), err)
				}
				var got2 []bls.G2Affine
				err = p.G2Chunks(0, len(wantB2), bufs2, func(_ int, pts []bls.G2Affine) error {
					got2 = append(got2, pts...)
					return nil
				})
				if err != nil || !slices.Equal(got2, wantB2) {
					t.Fatalf("%s: b_g2 in chunks of %d: %d points, %v", p.Name(), n, len(got2), err)
				}
				stop := errors.New("stop")
				calls := 0
				err = p.G1Chunks(SectionH, 0, mem.NumH(), bufs, func(int, []bls.G1Affine) error { calls++; return stop })
				if !errors.Is(err, stop) || calls != 1 {
					t.Fatalf("fn's error: %v after %d calls", err, calls)
				}
			}
		}
	}
	buf := [2][]bls.G1Affine{make([]bls.G1Affine, 4)}
	for _, c := range []struct {
		sec    string
		lo, hi int
		bufs   [2][]bls.G1Affine
	}{
		{SectionBG2, 0, 1, buf},
		{"x", 0, 1, buf},
		{SectionL, -1, 1, buf},
		{SectionL, 2, 1, buf},
		{SectionL, 0, len(wantL) + 1, buf},
		{SectionL, 0, 1, [2][]bls.G1Affine{}},
		{SectionL, 0, 1, [2][]bls.G1Affine{buf[0], make([]bls.G1Affine, 2)}},
	} {
		if err := file.G1Chunks(c.sec, c.lo, c.hi, c.bufs, func(int, []bls.G1Affine) error { return nil }); err == nil {
			t.Errorf("G1Chunks(%q, %d, %d, buffers of %d and %d) accepted", c.sec, c.lo, c.hi, len(c.bufs[0]), len(c.bufs[1]))
		}
	}
}
