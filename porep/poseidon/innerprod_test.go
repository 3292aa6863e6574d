// SPDX-License-Identifier: Apache-2.0 OR MIT

package poseidon

import (
	"math/big"
	"math/rand/v2"
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
	// Largest raw limbs (the Montgomery representation itself): q−1, and
	// every limb but the top one all ones. These reach the carries into the
	// accumulator's top limb and the reduction's that random elements reach
	// about once in 2^64 calls.
	rawMax := fr.Element{0xffffffff00000000, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48}
	rawOnes := fr.Element{^uint64(0), ^uint64(0), ^uint64(0), 0x73eda753299d7d47}
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
				case 3:
					a[i], b[i] = rawMax, rawMax
				case 4:
					a[i], b[i] = rawOnes, rawMax
				case 5: // raw q−1 against 0 and q−1 in turn
					a[i] = rawMax
					b[i] = [2]fr.Element{{}, rawMax}[i%2]
				case 6:
					a[i], b[i] = rawOnes, rawOnes
				default:
					a[i].SetRandom()
					b[i].SetRandom()
				}
			}
			want := mulAddLoop(a, b)
			if got := innerProduct(a, b); got != want {
				t.Fatalf("haveADX %v, n=%d case %d: innerProduct = %s, the Mul/Add loop %s", haveADX, n, k, got.String(), want.String())
			}
		}
	}
}

// mulAddLoop is the reference: Σ a[i]·b[i] term by term, each reduced.
func mulAddLoop(a, b []fr.Element) (sum fr.Element) {
	var p fr.Element
	for i := range a {
		p.Mul(&a[i], &b[i])
		sum.Add(&sum, &p)
	}
	return sum
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

// TestInnerProductCarries crafts sums whose raw value has runs of all-ones
// limbs (limbs 4–7, 5–7, 6–7 or 7, with the top limb 0, 1 or 2): there the
// reduction's carries run up through the nine-limb accumulator, which
// random elements reach about once in 2^64 calls. Each sum is k products of
// raw q−1 with itself, two of raw q−1 with a quotient, and a remainder
// times raw 1 — at most twelve terms.
func TestInnerProductCarries(t *testing.T) {
	q := fr.Modulus()
	qm1 := new(big.Int).Sub(q, big.NewInt(1))
	sq := new(big.Int).Mul(qm1, qm1)
	raw := func(x *big.Int) (e fr.Element) {
		for i, w := range x.Bits() {
			e[i] = uint64(w)
		}
		return e
	}
	one := fr.Element{1, 0, 0, 0}
	rng := rand.New(rand.NewPCG(39, 40))
	checked := 0
	for _, ones := range [][2]int{{4, 7}, {5, 7}, {6, 7}, {7, 7}, {4, 6}, {5, 5}} {
		for top := uint64(0); top <= 2; top++ {
			for range 40 {
				var limbs [9]uint64
				for i := range 4 {
					limbs[i] = rng.Uint64()
				}
				for i := 4; i < 8; i++ {
					if i >= ones[0] && i <= ones[1] {
						limbs[i] = ^uint64(0)
					} else {
						limbs[i] = rng.Uint64()
					}
				}
				limbs[8] = top
				v := new(big.Int)
				for i := 8; i >= 0; i-- {
					v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(limbs[i]))
				}
				k := new(big.Int).Quo(v, sq).Int64() - 1
				if k < 0 {
					k = 0
				}
				if k > maxADXTerms-3 {
					continue // past twelve terms' reach
				}
				r := new(big.Int).Sub(v, new(big.Int).Mul(big.NewInt(k), sq))
				var a, b []fr.Element
				for range k {
					a, b = append(a, raw(qm1)), append(b, raw(qm1))
				}
				for range 2 {
					d := new(big.Int).Quo(r, qm1)
					if d.Cmp(qm1) > 0 {
						d.Set(qm1)
					}
					r.Sub(r, new(big.Int).Mul(d, qm1))
					a, b = append(a, raw(qm1)), append(b, raw(d))
				}
				if r.Sign() < 0 || r.Cmp(q) >= 0 {
					t.Fatalf("crafting %x: remainder %v out of range", v, r)
				}
				a, b = append(a, raw(r)), append(b, one)
				want := mulAddLoop(a, b)
				if got := innerProduct(a, b); got != want {
					t.Fatalf("raw sum %x (%d terms): innerProduct = %s, the Mul/Add loop %s", v, len(a), got.String(), want.String())
				}
				checked++
			}
		}
	}
	if checked < 400 {
		t.Fatalf("only %d crafted sums checked", checked)
	}
}
