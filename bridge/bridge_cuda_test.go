// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cuda && cgo

package bridge

import (
	"errors"
	"math/big"
	"math/rand"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"
)

const testSeed = 7

// randInputs returns n points (random multiples of the generator, with
// repeats, negations and infinity) and n scalars (random, with 0, 1, -1).
func randInputs(t testing.TB, rng *rand.Rand, n int) ([]bls12381.G1Affine, []bls12381.G2Affine, []fr.Element) {
	t.Helper()
	_, _, g1, g2 := bls12381.Generators()
	p1 := make([]bls12381.G1Affine, n)
	p2 := make([]bls12381.G2Affine, n)
	s := make([]fr.Element, n)
	for i := 0; i < n; i++ {
		k := new(big.Int).Rand(rng, fr.Modulus())
		switch {
		case i > 0 && i%9 == 4:
			p1[i], p2[i] = p1[i-1], p2[i-1]
		case i > 0 && i%10 == 6:
			p1[i].Neg(&p1[i-1])
			p2[i].Neg(&p2[i-1])
		case i%17 == 8:
			// infinity: zero value
		default:
			p1[i].ScalarMultiplication(&g1, k)
			p2[i].ScalarMultiplication(&g2, k)
		}
		switch i % 6 {
		case 0:
			s[i].SetZero()
		case 1:
			s[i].SetOne()
		case 2:
			s[i].SetOne()
			s[i].Neg(&s[i])
		default:
			s[i].SetBigInt(new(big.Int).Rand(rng, fr.Modulus()))
		}
	}
	return p1, p2, s
}

// referenceG1 is Σ s_i·P_i by scalar multiplication and addition.
func referenceG1(p []bls12381.G1Affine, s []fr.Element) bls12381.G1Affine {
	var acc bls12381.G1Jac
	acc.X.SetOne()
	acc.Y.SetOne()
	for i := range p {
		var pj, t bls12381.G1Jac
		pj.FromAffine(&p[i])
		var k big.Int
		s[i].BigInt(&k)
		t.ScalarMultiplication(&pj, &k)
		acc.AddAssign(&t)
	}
	var a bls12381.G1Affine
	a.FromJacobian(&acc)
	return a
}

func referenceG2(p []bls12381.G2Affine, s []fr.Element) bls12381.G2Affine {
	var acc bls12381.G2Jac
	acc.X.SetOne()
	acc.Y.SetOne()
	for i := range p {
		var pj, t bls12381.G2Jac
		pj.FromAffine(&p[i])
		var k big.Int
		s[i].BigInt(&k)
		t.ScalarMultiplication(&pj, &k)
		acc.AddAssign(&t)
	}
	var a bls12381.G2Affine
	a.FromJacobian(&acc)
	return a
}

func TestVersion(t *testing.T) {
	v, err := Version()
	if err != nil {
		t.Fatal(err)
	}
	if v.ABIVersion != ABIVersion {
		t.Fatalf("ABI %d, want %d", v.ABIVersion, ABIVersion)
	}
	t.Logf("native library: %+v", v)
	n, err := DeviceCount()
	if err != nil {
		t.Fatal(err)
	}
	if !v.BuiltWithCUDA && n != 0 {
		t.Fatalf("library without CUDA reports %d devices", n)
	}
	devs, err := Devices()
	if err != nil || len(devs) != n {
		t.Fatalf("Devices: %v, %d entries for %d devices", err, len(devs), n)
	}
}

func TestMSMG1Host(t *testing.T) {
	rng := rand.New(rand.NewSource(testSeed))
	p, _, s := randInputs(t, rng, 300)
	for _, n := range []int{0, 1, 2, 7, 64, 300} {
		want := referenceG1(p[:n], s[:n])
		for _, o := range []MSMOptions{{}, {WindowBits: 3}, {WindowBits: 8, ChunkPoints: 50}} {
			got, err := MSMG1Host(p[:n], s[:n], o)
			if err != nil {
				t.Fatalf("n=%d %+v: %v", n, o, err)
			}
			var ga bls12381.G1Affine
			ga.FromJacobian(&got)
			if !ga.Equal(&want) {
				t.Fatalf("n=%d %+v: MSMG1Host differs from Σ s·P", n, o)
			}
		}
	}
	// Cross-check with gnark-crypto's own MSM on inputs without infinity.
	var q []bls12381.G1Affine
	var sc []fr.Element
	_, _, g1, _ := bls12381.Generators()
	for i := 0; i < 500; i++ {
		var pt bls12381.G1Affine
		pt.ScalarMultiplication(&g1, big.NewInt(int64(i+1)*7919))
		var e fr.Element
		e.SetBigInt(new(big.Int).Rand(rng, fr.Modulus()))
		q, sc = append(q, pt), append(sc, e)
	}
	var want bls12381.G1Jac
	if _, err := want.MultiExp(q, sc, ecc.MultiExpConfig{}); err != nil {
		t.Fatal(err)
	}
	got, err := MSMG1Host(q, sc, MSMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equal(&want) {
		t.Fatal("MSMG1Host differs from gnark-crypto MultiExp")
	}
}

func TestMSMG2Host(t *testing.T) {
	rng := rand.New(rand.NewSource(testSeed + 1))
	_, p, s := randInputs(t, rng, 100)
	for _, n := range []int{0, 1, 5, 100} {
		want := referenceG2(p[:n], s[:n])
		got, err := MSMG2Host(p[:n], s[:n], MSMOptions{WindowBits: 6})
		if err != nil {
			t.Fatal(err)
		}
		var ga bls12381.G2Affine
		ga.FromJacobian(&got)
		if !ga.Equal(&want) {
			t.Fatalf("n=%d: MSMG2Host differs from Σ s·P", n)
		}
	}
}

func TestMSMErrors(t *testing.T) {
	p := make([]bls12381.G1Affine, 3)
	s := make([]fr.Element, 2)
	if _, err := MSMG1Host(p, s, MSMOptions{}); err == nil {
		t.Fatal("length mismatch accepted")
	}
	_, err := MSMG1Host(p, s[:0], MSMOptions{})
	if err == nil {
		t.Fatal("length mismatch accepted")
	}
	s = make([]fr.Element, 3)
	_, err = MSMG1Host(p, s, MSMOptions{WindowBits: 40})
	var ne *Error
	if !errors.As(err, &ne) || ne.Code != CodeInvalidArgument {
		t.Fatalf("window 40: %v", err)
	}
	n, _ := DeviceCount()
	_, err = MSMG1(p, s, n) // one past the last device
	if !errors.Is(err, ErrNoDevice) && !errors.Is(err, ErrNoCUDA) {
		t.Fatalf("device %d: %v", n, err)
	}
}

// TestNTTHost compares with gnark-crypto's fft.Domain (same ω and coset).
func TestNTTHost(t *testing.T) {
	rng := rand.New(rand.NewSource(testSeed + 2))
	for _, lg := range []uint{0, 1, 4, 10, 14} {
		n := 1 << lg
		x := make([]fr.Element, n)
		for i := range x {
			x[i].SetBigInt(new(big.Int).Rand(rng, fr.Modulus()))
		}
		d := fft.NewDomain(uint64(n))
		for _, coset := range []bool{false, true} {
			want := append([]fr.Element(nil), x...)
			if coset {
				d.FFT(want, fft.DIF, fft.OnCoset()) // natural in, bit-reversed out
			} else {
				d.FFT(want, fft.DIF)
			}
			got := append([]fr.Element(nil), x...)
			if err := NTTHost(got, NTTOptions{Out: BitReversed, Coset: coset}); err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if !got[i].Equal(&want[i]) {
					t.Fatalf("2^%d coset=%v: element %d differs from gnark-crypto FFT", lg, coset, i)
				}
			}
			if err := NTTHost(got, NTTOptions{Inverse: true, In: BitReversed, Coset: coset}); err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if !got[i].Equal(&x[i]) {
					t.Fatalf("2^%d coset=%v: round trip differs at %d", lg, coset, i)
				}
			}
		}
	}
	if err := NTTHost(make([]fr.Element, 3), NTTOptions{}); err == nil {
		t.Fatal("length 3 accepted")
	}
}

func TestBufferHost(t *testing.T) {
	b, err := NewBuffer(HostDevice, 64*fr.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	x := make([]fr.Element, 32)
	for i := range x {
		x[i].SetUint64(uint64(i * i))
	}
	if err := b.UploadFr(16, x); err != nil {
		t.Fatal(err)
	}
	if err := b.NTT(16, 5, NTTOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := b.NTT(16, 5, NTTOptions{Inverse: true}); err != nil {
		t.Fatal(err)
	}
	y := make([]fr.Element, 32)
	if err := b.DownloadFr(16, y); err != nil {
		t.Fatal(err)
	}
	for i := range x {
		if !x[i].Equal(&y[i]) {
			t.Fatalf("round trip differs at %d", i)
		}
	}
	if err := b.NTT(48, 5, NTTOptions{}); err == nil {
		t.Fatal("NTT past the end accepted")
	}
	if err := b.Free(); err != nil {
		t.Fatal(err)
	}
	if err := b.UploadFr(0, x); err == nil {
		t.Fatal("upload after Free accepted")
	}
}

// requireDevice skips GPU tests with the reason when no device is usable.
func requireDevice(t testing.TB) {
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
}

func TestMSMGPU(t *testing.T) {
	requireDevice(t)
	rng := rand.New(rand.NewSource(testSeed + 3))
	p1, p2, s := randInputs(t, rng, 2000)
	for _, n := range []int{0, 1, 3, 100, 2000} {
		w1 := referenceG1(p1[:n], s[:n])
		g1, err := MSMG1(p1[:n], s[:n], 0)
		if err != nil {
			t.Fatal(err)
		}
		var a1 bls12381.G1Affine
		a1.FromJacobian(&g1)
		if !a1.Equal(&w1) {
			t.Fatalf("G1 n=%d: GPU differs from Σ s·P", n)
		}
		if n > 300 {
			continue
		}
		w2 := referenceG2(p2[:n], s[:n])
		g2, err := MSMG2(p2[:n], s[:n], 0)
		if err != nil {
			t.Fatal(err)
		}
		var a2 bls12381.G2Affine
		a2.FromJacobian(&g2)
		if !a2.Equal(&w2) {
			t.Fatalf("G2 n=%d: GPU differs from Σ s·P", n)
		}
	}
}

func TestNTTGPU(t *testing.T) {
	requireDevice(t)
	for _, lg := range []uint{1, 12, 20} {
		n := 1 << lg
		x := make([]fr.Element, n)
		for i := range x {
			x[i].SetUint64(uint64(i)*0x9e3779b97f4a7c15 + 1)
		}
		want := append([]fr.Element(nil), x...)
		fft.NewDomain(uint64(n)).FFT(want, fft.DIF, fft.OnCoset())
		got := append([]fr.Element(nil), x...)
		if err := NTT(got, 0, NTTOptions{Out: BitReversed, Coset: true}); err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if !got[i].Equal(&want[i]) {
				t.Fatalf("2^%d: GPU NTT differs from gnark-crypto at %d", lg, i)
			}
		}
	}
}
