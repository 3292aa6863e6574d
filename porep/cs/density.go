// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import "math/bits"

// bitmap is a growable LSB-first bit vector: one bit per allocated variable
// of one kind, set when the variable is first seen with a non-zero merged
// coefficient (ec-gpu-gen's DensityTracker: add_element / inc).
type bitmap struct {
	words []uint64
	n     int // bit length
	ones  int // popcount, maintained incrementally
}

func newBitmap(capBits int) bitmap {
	return bitmap{words: make([]uint64, 0, (capBits+63)/64)}
}

// add appends one clear bit.
func (m *bitmap) add() {
	if m.n&63 == 0 {
		m.words = append(m.words, 0)
	}
	m.n++
}

// has reports whether bit i is set.
func (m *bitmap) has(i int) bool { return m.words[i>>6]&(1<<(uint(i)&63)) != 0 }

// set sets bit i (which must be < n).
func (m *bitmap) set(i int) {
	w := &m.words[i>>6]
	b := uint64(1) << (uint(i) & 63)
	if *w&b == 0 {
		*w |= b
		m.ones++
	}
}

// density returns a copy-free view as a Density.
func (m *bitmap) density() Density { return Density{Words: m.words, BitLen: m.n} }

// PopCount returns the number of set bits of d.
func (d Density) PopCount() int {
	n := 0
	for _, w := range d.Words {
		n += bits.OnesCount64(w)
	}
	return n
}

// Has reports whether bit i of d is set.
func (d Density) Has(i int) bool { return d.Words[i>>6]&(1<<(uint(i)&63)) != 0 }
