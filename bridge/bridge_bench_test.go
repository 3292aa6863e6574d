// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cuda && cgo

package bridge

import (
	"fmt"
	"math/big"
	"testing"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// benchInputs builds n G1 points (a few distinct multiples of the generator,
// repeated; the MSM cost does not depend on the points) and n random scalars.
func benchInputs(n int) ([]bls12381.G1Affine, []bls12381.G2Affine, []fr.Element) {
	_, _, g1, g2 := bls12381.Generators()
	base1 := make([]bls12381.G1Affine, 64)
	base2 := make([]bls12381.G2Affine, 64)
	for i := range base1 {
		base1[i].ScalarMultiplication(&g1, big.NewInt(int64(i)*1000003+17))
		base2[i].ScalarMultiplication(&g2, big.NewInt(int64(i)*1000003+17))
	}
	p1 := make([]bls12381.G1Affine, n)
	p2 := make([]bls12381.G2Affine, n)
	s := make([]fr.Element, n)
	for i := range p1 {
		p1[i] = base1[i%64]
		p2[i] = base2[i%64]
		s[i].SetUint64(uint64(i) + 1)
		s[i].Exp(s[i], big.NewInt(65537)) // spread over all 255 bits, deterministic
	}
	return p1, p2, s
}

// GPU benchmarks: device 0, skipped without a device. Host-emulation timings
// are not GPU figures, so there are no host benchmarks here.
func BenchmarkMSMG1GPU(b *testing.B) {
	requireDevice(b)
	p, _, s := benchInputs(1 << 22)
	for _, lg := range []int{16, 20, 22} {
		b.Run(fmt.Sprintf("2^%d", lg), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := MSMG1(p[:1<<lg], s[:1<<lg], 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkMSMG2GPU(b *testing.B) {
	requireDevice(b)
	_, p, s := benchInputs(1 << 20)
	for _, lg := range []int{16, 20} {
		b.Run(fmt.Sprintf("2^%d", lg), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := MSMG2(p[:1<<lg], s[:1<<lg], 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkNTTGPU(b *testing.B) {
	requireDevice(b)
	for _, lg := range []int{16, 20, 24} {
		x := make([]fr.Element, 1<<lg)
		for i := range x {
			x[i].SetUint64(uint64(i))
		}
		b.Run(fmt.Sprintf("2^%d", lg), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := NTT(x, 0, NTTOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
