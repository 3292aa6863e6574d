// SPDX-License-Identifier: Apache-2.0 OR MIT

package poseidon

import (
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// Grain LFSR parameters fixed by neptune 11 (src/lib.rs round_constants):
// GF(p) field (1), x^5 S-box (1), 255-bit field size.
const (
	grainField     = 1
	grainSBox      = 1
	grainFieldSize = 255
)

// grain is the 80-bit Grain LFSR of the Poseidon reference scripts
// (create_rcs_grain.sage), as ported in neptune src/round_constants.rs.
// state[0] is the oldest bit.
type grain struct {
	state [80]bool
	head  int // index of state[0] in the ring buffer
}

func newGrain(t, rf, rp int) *grain {
	g := new(grain)
	pos := 0
	put := func(width int, v uint64) {
		for i := width - 1; i >= 0; i-- {
			g.state[pos] = (v>>uint(i))&1 != 0
			pos++
		}
	}
	put(2, grainField)
	put(4, grainSBox)
	put(12, grainFieldSize)
	put(12, uint64(t))
	put(10, uint64(rf))
	put(10, uint64(rp))
	put(30, 1<<30-1)
	for i := 0; i < 160; i++ {
		g.step()
	}
	return g
}

func (g *grain) bit(i int) bool { return g.state[(g.head+i)%80] }

// step computes b = s62 ⊕ s51 ⊕ s38 ⊕ s23 ⊕ s13 ⊕ s0, shifts the register
// left by one and appends b.
func (g *grain) step() bool {
	b := g.bit(62) != g.bit(51) != g.bit(38) != g.bit(23) != g.bit(13) != g.bit(0)
	g.state[g.head] = b // the slot of the dropped s0 becomes the newest bit
	g.head = (g.head + 1) % 80
	return b
}

// next is the self-shrinking output: draw x; while x = 0 discard one bit and
// draw x again; then return the following bit.
func (g *grain) next() bool {
	x := g.step()
	for !x {
		g.step()
		x = g.step()
	}
	return g.step()
}

// roundConstants returns the (R_F + R_P)·t Grain round constants for width t.
// Each candidate is 255 output bits read MSB-first as a big-endian integer;
// candidates ≥ p are rejected.
func roundConstants(t, rf, rp int) []fr.Element {
	g := newGrain(t, rf, rp)
	out := make([]fr.Element, (rf+rp)*t)
	var buf [32]byte
	var v big.Int
	p := fr.Modulus()
	for i := range out {
		for {
			for k := range buf {
				nbits := 8
				if k == 0 {
					nbits = grainFieldSize % 8 // first byte takes 7 bits
				}
				var b byte
				for j := 0; j < nbits; j++ {
					b <<= 1
					if g.next() {
						b |= 1
					}
				}
				buf[k] = b
			}
			v.SetBytes(buf[:])
			if v.Cmp(p) < 0 {
				out[i].SetBigInt(&v)
				break
			}
		}
	}
	return out
}
