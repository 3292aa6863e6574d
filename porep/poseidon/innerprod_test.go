// SPDX-License-Identifier: Apache-2.0 OR MIT

package poseidon

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// TestInnerProduct holds innerProduct to a Mul/Add loop for every length the
// permutation uses (t = 2…37) and past the assembly's twelve-term chunk,
// on random elements and on the largest ones (q−1, where the unreduced sum
// and the final subtractions are at their bounds).
func TestInnerProduct(t *testing.T) {
	if !haveADX {
		t.Logf("no ADX/BMI2 here: innerProduct is gnark-crypto's InnerProduct, checked all the same")
	}
	checkInnerProduct(t)
	// The path a CPU without ADX takes, on this one too.
	defer func(was bool) { haveADX = was }(haveADX)
	haveADX = false
	checkInnerProduct(t)
}

func checkInnerProduct(t *testing.T) {
	t.Helper()
	var minusOne fr.Element
	minusOne.SetOne()
	minusOne.Neg(&minusOne)
	for n := 1; n <= MaxArity+1; n++ {
		a, b := make([]fr.Element, n), make([]fr.Element, n+1) // b may be longer
		for k := 0; k < 300; k++ {
			for i := range a {
				switch k {
				case 0:
					a[i], b[i] = minusOne, minusOne
				case 1:
					a[i].SetZero()
					b[i] = minusOne
				case 2:
					a[i] = minusOne
					b[i].SetUint64(uint64(i))
				default:
					a[i].SetRandom()
					b[i].SetRandom()
				}
			}
			var want, p fr.Element
			for i := range a {
				p.Mul(&a[i], &b[i])
				want.Add(&want, &p)
			}
			if got := innerProduct(a, b); got != want {
				t.Fatalf("haveADX %v, n=%d case %d: innerProduct = %s, the Mul/Add loop %s", haveADX, n, k, got.String(), want.String())
			}
		}
	}
}

func BenchmarkInnerProduct9(b *testing.B) {
	x, y := make(fr.Vector, 9), make(fr.Vector, 9)
	for i := range x {
		x[i].SetRandom()
		y[i].SetRandom()
	}
	var sink fr.Element
	b.Run("adx", func(b *testing.B) {
		for range b.N {
			sink = innerProduct(x, y)
		}
	})
	b.Run("gnark", func(b *testing.B) {
		for range b.N {
			sink = x.InnerProduct(y)
		}
	})
	_ = sink
}
