// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cuda && cgo

package bridge

import (
	"math/rand"
	"strings"
	"testing"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// TestKernelsNamedInBuild: a CUDA library's build text names its GPU kernel set (what
// `cuseal info --json` reports as "kernels"); CUSEAL_KERNELS=reference changes it.
func TestKernelsNamedInBuild(t *testing.T) {
	v, err := Version()
	if err != nil {
		t.Fatal(err)
	}
	if !v.BuiltWithCUDA {
		t.Skip("skipping: native library built without CUDA (no GPU kernel set)")
	}
	if !strings.Contains(v.Build, "kernels ") {
		t.Fatalf("build %q names no kernel set", v.Build)
	}
	t.Setenv("CUSEAL_KERNELS", "reference")
	v, err = Version()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(v.Build, "kernels reference") {
		t.Fatalf("CUSEAL_KERNELS=reference: build %q does not say so", v.Build)
	}
}

// TestKernelSetsAgreeGPU: on device 0, the default kernel set (sppark's in a CUDA build)
// and our reference kernels (CUSEAL_KERNELS=reference) give the same G1/G2 MSMs at 2^16 /
// 2^12 and the same NTTs at 2^20, every order and coset.
func TestKernelSetsAgreeGPU(t *testing.T) {
	requireDevice(t)
	rng := rand.New(rand.NewSource(testSeed + 11))
	p1, p2, s := randInputs(t, rng, 1<<12)
	n1 := 1 << 16
	P1 := make([]bls12381.G1Affine, n1)
	S1 := make([]fr.Element, n1)
	for i := range P1 {
		P1[i] = p1[(i*7919)%len(p1)]
		S1[i].SetRandom()
	}
	run := func(kernels string) (bls12381.G1Jac, bls12381.G2Jac, [][]fr.Element) {
		t.Setenv("CUSEAL_KERNELS", kernels)
		g1, err := MSMG1(P1, S1, 0)
		if err != nil {
			t.Fatalf("%s: G1: %v", kernels, err)
		}
		g2, err := MSMG2(p2, s, 0)
		if err != nil {
			t.Fatalf("%s: G2: %v", kernels, err)
		}
		var outs [][]fr.Element
		for _, o := range []NTTOptions{{}, {Out: BitReversed}, {In: BitReversed, Inverse: true},
			{Coset: true, Out: BitReversed}, {Coset: true, Inverse: true}} {
			x := make([]fr.Element, 1<<20)
			for i := range x {
				x[i].SetUint64(uint64(i)*0x9e3779b97f4a7c15 + 3)
			}
			if err := NTT(x, 0, o); err != nil {
				t.Fatalf("%s: NTT %+v: %v", kernels, o, err)
			}
			outs = append(outs, x)
		}
		return g1, g2, outs
	}
	a1, a2, an := run("auto")
	r1, r2, rn := run("reference")
	if !a1.Equal(&r1) {
		t.Error("G1 MSM 2^16: default kernels differ from the reference kernels")
	}
	if !a2.Equal(&r2) {
		t.Error("G2 MSM 2^12: default kernels differ from the reference kernels")
	}
	for k := range an {
		for i := range an[k] {
			if !an[k][i].Equal(&rn[k][i]) {
				t.Errorf("NTT case %d: default kernels differ from the reference at %d", k, i)
				break
			}
		}
	}
}
