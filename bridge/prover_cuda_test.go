// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cuda && cgo

package bridge

import (
	"errors"
	"math/big"
	"math/rand"
	"strings"
	"sync"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"
	"github.com/consensys/gnark-crypto/utils"
)

// proverFixture is a random Groth16-shaped instance: an SRS of random
// points and circuits whose c = a·b row by row (so H is a polynomial), with
// densities shared by all circuits and witnesses rich in 0 and 1.
type proverFixture struct {
	h, l, a, bg1 []bls12381.G1Affine
	bg2          []bls12381.G2Affine
	circuits     []Circuit
	m            int
}

func randFr(rng *rand.Rand) fr.Element {
	var x fr.Element
	x.SetBigInt(new(big.Int).Rand(rng, fr.Modulus()))
	return x
}

// witness returns 0, 1 or a random element with the given odds (percent).
func witness(rng *rand.Rand, p0, p1 int) fr.Element {
	var x fr.Element
	switch r := rng.Intn(100); {
	case r < p0:
	case r < p0+p1:
		x.SetOne()
	default:
		x = randFr(rng)
	}
	return x
}

func randG1s(rng *rand.Rand, n int) []bls12381.G1Affine {
	_, _, g1, _ := bls12381.Generators()
	ks := make([]fr.Element, n)
	for i := range ks {
		ks[i] = randFr(rng)
	}
	return bls12381.BatchScalarMultiplicationG1(&g1, ks)
}

func randG2s(rng *rand.Rand, n int) []bls12381.G2Affine {
	_, _, _, g2 := bls12381.Generators()
	ks := make([]fr.Element, n)
	for i := range ks {
		ks[i] = randFr(rng)
	}
	return bls12381.BatchScalarMultiplicationG2(&g2, ks)
}

func newProverFixture(rng *rand.Rand, nIn, nAux, lg, nCons, nCirc, p0, p1 int) *proverFixture {
	f := &proverFixture{m: 1 << lg}
	words := func(n int) []uint64 { return make([]uint64, (n+63)/64) }
	aAux, bIn, bAux := words(nAux), words(nIn), words(nAux)
	popA, popB := 0, 0
	for j := 0; j < nAux; j++ {
		if rng.Intn(3) != 0 {
			aAux[j/64] |= 1 << (j % 64)
			popA++
		}
		if rng.Intn(2) != 0 {
			bAux[j/64] |= 1 << (j % 64)
			popB++
		}
	}
	for i := 0; i < nIn; i++ {
		if i == 0 || rng.Intn(2) != 0 {
			bIn[i/64] |= 1 << (i % 64)
			popB++
		}
	}
	f.h = randG1s(rng, f.m-1)
	f.l = randG1s(rng, nAux)
	f.a = randG1s(rng, nIn+popA)
	f.bg1 = randG1s(rng, popB)
	f.bg2 = randG2s(rng, popB)
	for k := 0; k < nCirc; k++ {
		c := Circuit{
			ADensityAux:   Density{aAux, nAux},
			BDensityInput: Density{bIn, nIn},
			BDensityAux:   Density{bAux, nAux},
		}
		for i := 0; i < nCons; i++ {
			a, b := witness(rng, 20, 20), witness(rng, 20, 20)
			var cc fr.Element
			cc.Mul(&a, &b)
			c.A, c.B, c.C = append(c.A, a), append(c.B, b), append(c.C, cc)
		}
		var one fr.Element
		one.SetOne()
		c.Input = append(c.Input, one)
		for i := 1; i < nIn; i++ {
			c.Input = append(c.Input, witness(rng, p0, p1))
		}
		for j := 0; j < nAux; j++ {
			c.Aux = append(c.Aux, witness(rng, p0, p1))
		}
		f.circuits = append(f.circuits, c)
	}
	return f
}

func bit(d Density, i int) bool { return d.Words[i/64]>>(i%64)&1 == 1 }

// hCoefficients: iFFT, coset FFT (generator 7), (a·b − c)/(7^m − 1), inverse
// coset FFT, first m − 1 coefficients — gnark-crypto's fft, independent of
// the native NTT.
func hCoefficients(m int, a, b, c []fr.Element) []fr.Element {
	dom := fft.NewDomain(uint64(m))
	v := [3][]fr.Element{make([]fr.Element, m), make([]fr.Element, m), make([]fr.Element, m)}
	copy(v[0], a)
	copy(v[1], b)
	copy(v[2], c)
	for k := range v {
		dom.FFTInverse(v[k], fft.DIF)
		dom.FFT(v[k], fft.DIT, fft.OnCoset())
	}
	var den, one fr.Element
	one.SetOne()
	den.Exp(dom.FrMultiplicativeGen, big.NewInt(int64(m)))
	den.Sub(&den, &one).Inverse(&den)
	for i := 0; i < m; i++ {
		v[0][i].Mul(&v[0][i], &v[1][i]).Sub(&v[0][i], &v[2][i]).Mul(&v[0][i], &den)
	}
	dom.FFTInverse(v[0], fft.DIF, fft.OnCoset())
	utils.BitReverse(v[0])
	return v[0][:m-1]
}

type affineSums struct {
	H, L, A, BG1 bls12381.G1Affine
	BG2          bls12381.G2Affine
}

func (f *proverFixture) reference(t *testing.T, c *Circuit) affineSums {
	t.Helper()
	var r affineSums
	cfg := ecc.MultiExpConfig{}
	must := func(_ any, err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if f.m > 1 {
		must(r.H.MultiExp(f.h, hCoefficients(f.m, c.A, c.B, c.C), cfg))
	}
	must(r.L.MultiExp(f.l, c.Aux, cfg))
	sa := append([]fr.Element(nil), c.Input...)
	var sb []fr.Element
	for j := range c.Aux {
		if bit(c.ADensityAux, j) {
			sa = append(sa, c.Aux[j])
		}
	}
	for i := range c.Input {
		if bit(c.BDensityInput, i) {
			sb = append(sb, c.Input[i])
		}
	}
	for j := range c.Aux {
		if bit(c.BDensityAux, j) {
			sb = append(sb, c.Aux[j])
		}
	}
	must(r.A.MultiExp(f.a, sa, cfg))
	must(r.BG1.MultiExp(f.bg1, sb, cfg))
	must(r.BG2.MultiExp(f.bg2, sb, cfg))
	return r
}

func toAffine(q *QuerySums) affineSums {
	var r affineSums
	r.H.FromJacobian(&q.H)
	r.L.FromJacobian(&q.L)
	r.A.FromJacobian(&q.A)
	r.BG1.FromJacobian(&q.BG1)
	r.BG2.FromJacobian(&q.BG2)
	return r
}

func (f *proverFixture) srs(t *testing.T, opts SRSOptions) *SRS {
	t.Helper()
	s, err := NewSRS(f.h, f.l, f.a, f.bg1, f.bg2, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func checkSums(t *testing.T, what string, got []QuerySums, want []affineSums, skipBG2 bool) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d results, want %d", what, len(got), len(want))
	}
	for i := range got {
		g := toAffine(&got[i])
		w := want[i]
		if skipBG2 {
			if !g.BG2.IsInfinity() {
				t.Errorf("%s circuit %d: BG2 not infinity with SkipBG2", what, i)
			}
			g.BG2 = w.BG2
		}
		if g != w {
			t.Errorf("%s circuit %d: sums differ:\n H %v %v\n L %v %v\n A %v %v\n BG1 %v %v\n BG2 %v", what, i,
				g.H.Equal(&w.H), "", g.L.Equal(&w.L), "", g.A.Equal(&w.A), "", g.BG1.Equal(&w.BG1), "", g.BG2.Equal(&w.BG2))
		}
	}
}

// TestQuerySumsHost runs the native prover in host emulation (the kernel
// bodies over the same grids as on a GPU) against gnark-crypto MSMs and FFTs.
func TestQuerySumsHost(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	cases := []struct {
		name                                string
		nIn, nAux, lg, nCons, nCirc, p0, p1 int
	}{
		{"tiny", 2, 5, 3, 7, 1, 30, 30},
		{"sparse-batch", 4, 300, 9, 400, 3, 30, 50},
		{"dense", 3, 200, 8, 256, 2, 3, 3},
		{"no-aux", 3, 0, 2, 3, 1, 30, 30},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newProverFixture(rng, c.nIn, c.nAux, c.lg, c.nCons, c.nCirc, c.p0, c.p1)
			s := f.srs(t, SRSOptions{Validate: true})
			want := make([]affineSums, len(f.circuits))
			for i := range f.circuits {
				want[i] = f.reference(t, &f.circuits[i])
			}
			for _, o := range []ProveOptions{{}, {Split: SplitNever}, {Split: SplitAlways}, {SkipBG2: true}, {MSMWindow: 5}} {
				got, tm, err := s.QuerySums(HostDevice, f.circuits, o)
				if err != nil {
					t.Fatalf("%+v: %v", o, err)
				}
				checkSums(t, c.name+"/"+o.Split.String(), got, want, o.SkipBG2)
				if o.Split == SplitAlways && !(tm.Split[0] && tm.Split[1] && tm.Split[2]) {
					t.Errorf("SplitAlways: timings report split %v", tm.Split)
				}
				if !tm.Resident || tm.Total <= 0 {
					t.Errorf("timings: %+v", tm)
				}
			}
		})
	}
}

func TestQuerySumsConcurrentHost(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	f := newProverFixture(rng, 3, 100, 7, 100, 2, 30, 40)
	s := f.srs(t, SRSOptions{})
	want := []affineSums{f.reference(t, &f.circuits[0]), f.reference(t, &f.circuits[1])}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	results := make([][]QuerySums, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			h, err := s.Clone() // each goroutine its own reference
			if err != nil {
				errs[g] = err
				return
			}
			defer h.Close()
			results[g], _, errs[g] = h.QuerySums(HostDevice, f.circuits, ProveOptions{})
		}(g)
	}
	wg.Wait()
	for g := range errs {
		if errs[g] != nil {
			t.Fatal(errs[g])
		}
		checkSums(t, "concurrent", results[g], want, false)
	}
}

func TestQuerySumsErrors(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	f := newProverFixture(rng, 3, 130, 8, 200, 2, 30, 40)
	s := f.srs(t, SRSOptions{})
	code := func(err error) int {
		var e *Error
		if errors.As(err, &e) {
			return e.Code
		}
		return -1
	}

	// Same popcount, different bits: rejected by the bitwise comparison.
	cs := append([]Circuit(nil), f.circuits...)
	w := append([]uint64(nil), cs[1].BDensityAux.Words...)
	for j := 0; j+1 < cs[1].BDensityAux.BitLen; j++ {
		if bit(cs[1].BDensityAux, j) != bit(cs[1].BDensityAux, j+1) {
			w[j/64] ^= 1 << (j % 64)
			w[(j+1)/64] ^= 1 << ((j + 1) % 64)
			break
		}
	}
	cs[1].BDensityAux = Density{w, cs[1].BDensityAux.BitLen}
	_, _, err := s.QuerySums(HostDevice, cs, ProveOptions{})
	if code(err) != CodeInvalidArgument || !strings.Contains(err.Error(), "circuit 1: b_aux density differs from circuit 0's") {
		t.Errorf("density mismatch: %v", err)
	}

	// Wrong aux count for the SRS.
	cs = []Circuit{f.circuits[0]}
	cs[0].Aux = cs[0].Aux[:len(cs[0].Aux)-1]
	_, _, err = s.QuerySums(HostDevice, cs, ProveOptions{})
	if code(err) != CodeInvalidArgument {
		t.Errorf("short aux: %v", err)
	}
	// Too many constraints for the domain.
	cs = []Circuit{f.circuits[0]}
	big := make([]fr.Element, f.m+1)
	cs[0].A, cs[0].B, cs[0].C = big, big, big
	_, _, err = s.QuerySums(HostDevice, cs, ProveOptions{})
	if code(err) != CodeInvalidArgument || !strings.Contains(err.Error(), "exceed the domain size") {
		t.Errorf("too many constraints: %v", err)
	}
	// Density words shorter than the bit length.
	cs = []Circuit{f.circuits[0]}
	cs[0].BDensityAux = Density{nil, 130}
	if _, _, err = s.QuerySums(HostDevice, cs, ProveOptions{}); err == nil || !strings.Contains(err.Error(), "b_aux density has 0 words for 130 bits") {
		t.Errorf("short density: %v", err)
	}
	// Bad split mode; no device behind an index.
	if _, _, err = s.QuerySums(HostDevice, f.circuits, ProveOptions{Split: 9}); code(err) != CodeInvalidArgument {
		t.Errorf("split mode 9: %v", err)
	}
	if _, _, err = s.QuerySums(63, f.circuits, ProveOptions{}); err == nil {
		t.Errorf("device 63 accepted")
	} else if !errors.Is(err, ErrNoDevice) && !errors.Is(err, ErrNoCUDA) {
		t.Errorf("device 63: %v", err)
	}
	// Empty batch is fine.
	if r, _, err := s.QuerySums(HostDevice, nil, ProveOptions{}); err != nil || len(r) != 0 {
		t.Errorf("empty batch: %v %d", err, len(r))
	}
}

// TestSRSPinReported: with PinHost the SRS is either pinned or SRSInfo says
// why not (without a device: always the latter); the library prints nothing.
func TestSRSPinReported(t *testing.T) {
	rng := rand.New(rand.NewSource(16))
	f := newProverFixture(rng, 1, 10, 4, 10, 1, 30, 30)
	s, err := NewSRS(f.h, f.l, f.a, f.bg1, f.bg2, SRSOptions{PinHost: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	in, err := s.Info()
	if err != nil {
		t.Fatal(err)
	}
	if in.Pinned == (in.PinSkipped != "") {
		t.Fatalf("pinned %v but PinSkipped %q", in.Pinned, in.PinSkipped)
	}
	if n, _ := DeviceCount(); n == 0 && in.Pinned {
		t.Fatal("pinned without a CUDA device")
	}
	t.Logf("pinned %v (%v), skipped: %q", in.Pinned, in.PinTime, in.PinSkipped)
}

func TestSRSHandle(t *testing.T) {
	rng := rand.New(rand.NewSource(14))
	f := newProverFixture(rng, 2, 10, 4, 10, 1, 30, 30)
	s, err := NewSRS(f.h, f.l, f.a, f.bg1, f.bg2, SRSOptions{Validate: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.Clone()
	if err != nil {
		t.Fatal(err)
	}
	in, err := c.Info()
	if err != nil || in.Refs != 2 || in.NH != 15 || in.NL != 10 || in.NBG2 != uint64(len(f.bg2)) || in.HostBytes == 0 || in.Pinned || in.PinSkipped != "" {
		t.Fatalf("info %+v %v", in, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Info(); err == nil {
		t.Error("Info after Close succeeded")
	}
	if in, _ := c.Info(); in.Refs != 1 {
		t.Errorf("refs after one close: %d", in.Refs)
	}
	if _, _, err := c.QuerySums(HostDevice, f.circuits, ProveOptions{}); err != nil {
		t.Errorf("clone outlives the original: %v", err)
	}
	c.Close()
	c.Close() // twice: no-op

	// Validation names the query and index.
	bad := append([]bls12381.G1Affine(nil), f.a...)
	bad[1].Y.Double(&bad[1].Y)
	if _, err := NewSRS(f.h, f.l, bad, f.bg1, f.bg2, SRSOptions{Validate: true}); err == nil || !strings.Contains(err.Error(), "srs a[1]: point not on curve") {
		t.Errorf("bad point: %v", err)
	}
	inf := append([]bls12381.G1Affine(nil), f.l...)
	inf[3] = bls12381.G1Affine{}
	if _, err := NewSRS(f.h, inf, f.a, f.bg1, f.bg2, SRSOptions{Validate: true}); err == nil || !strings.Contains(err.Error(), "srs l[3]: point at infinity") {
		t.Errorf("infinity: %v", err)
	}
	if _, err := NewSRS(f.h[:14], f.l, f.a, f.bg1, f.bg2, SRSOptions{}); err == nil || !strings.Contains(err.Error(), "power of two") {
		t.Errorf("h length: %v", err)
	}
	if _, err := NewSRS(f.h, f.l, f.a, f.bg1, f.bg2[1:], SRSOptions{}); err == nil {
		t.Error("b_g1/b_g2 length mismatch accepted")
	}
}

func requireProverDevice(t *testing.T) int {
	t.Helper()
	v, err := Version()
	if err != nil {
		t.Fatal(err)
	}
	if !v.BuiltWithCUDA {
		t.Skip("skipping GPU test: native library built without CUDA (CUSEAL_CUDA=OFF)")
	}
	n, err := DeviceCount()
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Skip("skipping GPU test: no CUDA device found")
	}
	return 0
}

// TestQuerySumsGPU: the prover on device 0 against gnark-crypto, every split
// mode, pinned SRS, two concurrent calls on the device, then streamed
// (non-resident) after an eviction.
func TestQuerySumsGPU(t *testing.T) {
	dev := requireProverDevice(t)
	rng := rand.New(rand.NewSource(15))
	f := newProverFixture(rng, 5, 5000, 13, 7000, 3, 30, 40)
	s := f.srs(t, SRSOptions{Validate: true, PinHost: true})
	want := make([]affineSums, len(f.circuits))
	for i := range f.circuits {
		want[i] = f.reference(t, &f.circuits[i])
	}
	for _, o := range []ProveOptions{{}, {Split: SplitNever}, {Split: SplitAlways}, {SkipBG2: true}} {
		got, tm, err := s.QuerySums(dev, f.circuits, o)
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		checkSums(t, "gpu/"+o.Split.String(), got, want, o.SkipBG2)
		t.Logf("gpu %+v: %+v", o, tm)
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	res := make([][]QuerySums, 2)
	for g := range errs {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			res[g], _, errs[g] = s.QuerySums(dev, f.circuits, ProveOptions{})
		}(g)
	}
	wg.Wait()
	for g := range errs {
		if errs[g] != nil {
			t.Fatal(errs[g])
		}
		checkSums(t, "gpu concurrent", res[g], want, false)
	}
	if in, _ := s.Info(); in.ResidentMask&1 == 0 {
		t.Errorf("SRS not resident after GPU calls: %+v", in)
	}
	if err := s.Evict(dev); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CUSEAL_SRS_RESIDENT", "0")
	got, tm, err := s.QuerySums(dev, f.circuits, ProveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tm.Resident {
		t.Error("CUSEAL_SRS_RESIDENT=0 still resident")
	}
	checkSums(t, "gpu streamed", got, want, false)
}

// encodeG1s / encodeG2s write points as .params sections (uncompressed
// zcash, gnark-crypto RawBytes).
func encodeG1s(ps []bls12381.G1Affine) []byte {
	var out []byte
	for i := range ps {
		b := ps[i].RawBytes()
		out = append(out, b[:]...)
	}
	return out
}

func encodeG2s(ps []bls12381.G2Affine) []byte {
	var out []byte
	for i := range ps {
		b := ps[i].RawBytes()
		out = append(out, b[:]...)
	}
	return out
}

// TestSRSFromEncoded: the native decoder of .params sections gives the same
// SRS (the same sums) as gnark-decoded points, and rejects bad encodings
// naming query, index and byte offset.
func TestSRSFromEncoded(t *testing.T) {
	rng := rand.New(rand.NewSource(16))
	f := newProverFixture(rng, 3, 200, 8, 200, 2, 30, 40)
	h, l, a, b1, b2 := encodeG1s(f.h), encodeG1s(f.l), encodeG1s(f.a), encodeG1s(f.bg1), encodeG2s(f.bg2)
	s, err := NewSRSFromEncoded(h, l, a, b1, b2, SRSOptions{Validate: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, _, err := s.QuerySums(HostDevice, f.circuits, ProveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []affineSums{f.reference(t, &f.circuits[0]), f.reference(t, &f.circuits[1])}
	checkSums(t, "encoded", got, want, false)

	bad := func(name string, mut func(h, l, a, b1, b2 []byte) ([]byte, []byte, []byte, []byte, []byte), msg string) {
		t.Helper()
		c := func(b []byte) []byte { return append([]byte(nil), b...) }
		hh, ll, aa, bb1, bb2 := mut(c(h), c(l), c(a), c(b1), c(b2))
		_, err := NewSRSFromEncoded(hh, ll, aa, bb1, bb2, SRSOptions{Validate: true})
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: got %v, want %q", name, err, msg)
		}
	}
	bad("compressed flag", func(h, l, a, b1, b2 []byte) ([]byte, []byte, []byte, []byte, []byte) {
		l[96*4] |= 0x80
		return h, l, a, b1, b2
	}, "srs l[4] (byte 384 of the section): bad zcash encoding flags")
	bad("infinity", func(h, l, a, b1, b2 []byte) ([]byte, []byte, []byte, []byte, []byte) {
		for i := 0; i < 96; i++ {
			a[96+i] = 0
		}
		a[96] = 0x40
		return h, l, a, b1, b2
	}, "srs a[1] (byte 96 of the section): point at infinity")
	bad("non-canonical", func(h, l, a, b1, b2 []byte) ([]byte, []byte, []byte, []byte, []byte) {
		for i := 1; i < 48; i++ {
			b2[192*2+48+i] = 0xff // x.c0 of b_g2[2] ≥ p
		}
		b2[192*2+48] = 0x1f
		return h, l, a, b1, b2
	}, "srs b_g2[2] (byte 384 of the section): non-canonical coordinate")
	bad("off curve", func(h, l, a, b1, b2 []byte) ([]byte, []byte, []byte, []byte, []byte) {
		h[96*7+95] ^= 1
		return h, l, a, b1, b2
	}, "srs h[7]: point not on curve")
	bad("ragged", func(h, l, a, b1, b2 []byte) ([]byte, []byte, []byte, []byte, []byte) {
		return h, l, a, b1[:len(b1)-1], b2
	}, "section b_g1 has")
}
