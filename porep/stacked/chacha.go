// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"encoding/binary"
	"math/bits"
)

// chachaBlock computes one ChaCha block with the given number of double
// rounds (4 for ChaCha8, 10 for ChaCha20): key = 32 bytes, 64-bit block
// counter in words 12–13, 64-bit nonce/stream in words 14–15. This is the
// layout of rand_chacha 0.3 (ChaCha8Rng::from_seed uses a zero stream), whose
// keystream equals the standard ChaCha keystream word for word.
// Go's math/rand/v2 ChaCha8 permutes and re-keys its output and is not
// compatible.
func chachaBlock(out *[16]uint32, key *[8]uint32, counter, stream uint64, doubleRounds int) {
	const c0, c1, c2, c3 = 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574
	x0, x1, x2, x3 := uint32(c0), uint32(c1), uint32(c2), uint32(c3)
	x4, x5, x6, x7 := key[0], key[1], key[2], key[3]
	x8, x9, x10, x11 := key[4], key[5], key[6], key[7]
	x12, x13 := uint32(counter), uint32(counter>>32)
	x14, x15 := uint32(stream), uint32(stream>>32)
	s12, s13, s14, s15 := x12, x13, x14, x15
	qr := func(a, b, c, d uint32) (uint32, uint32, uint32, uint32) {
		a += b
		d = bits.RotateLeft32(d^a, 16)
		c += d
		b = bits.RotateLeft32(b^c, 12)
		a += b
		d = bits.RotateLeft32(d^a, 8)
		c += d
		b = bits.RotateLeft32(b^c, 7)
		return a, b, c, d
	}
	for i := 0; i < doubleRounds; i++ {
		x0, x4, x8, x12 = qr(x0, x4, x8, x12)
		x1, x5, x9, x13 = qr(x1, x5, x9, x13)
		x2, x6, x10, x14 = qr(x2, x6, x10, x14)
		x3, x7, x11, x15 = qr(x3, x7, x11, x15)
		x0, x5, x10, x15 = qr(x0, x5, x10, x15)
		x1, x6, x11, x12 = qr(x1, x6, x11, x12)
		x2, x7, x8, x13 = qr(x2, x7, x8, x13)
		x3, x4, x9, x14 = qr(x3, x4, x9, x14)
	}
	out[0], out[1], out[2], out[3] = x0+c0, x1+c1, x2+c2, x3+c3
	out[4], out[5], out[6], out[7] = x4+key[0], x5+key[1], x6+key[2], x7+key[3]
	out[8], out[9], out[10], out[11] = x8+key[4], x9+key[5], x10+key[6], x11+key[7]
	out[12], out[13], out[14], out[15] = x12+s12, x13+s13, x14+s14, x15+s15
}

// chacha8Rng reproduces rand_chacha 0.3 ChaCha8Rng seeded with from_seed and
// read with gen::<u64>() (rand_core BlockRng::next_u64: low word first).
// It keeps one block at a time; BlockRng buffers four, which yields the same
// word sequence because words are consumed in pairs from an even offset.
type chacha8Rng struct {
	key     [8]uint32
	buf     [16]uint32
	counter uint64
	idx     int
}

func (r *chacha8Rng) seed(seed *[32]byte) {
	for i := range r.key {
		r.key[i] = binary.LittleEndian.Uint32(seed[4*i:])
	}
	r.counter = 0
	r.idx = 16
}

func (r *chacha8Rng) u64() uint64 {
	if r.idx >= 16 {
		chachaBlock(&r.buf, &r.key, r.counter, 0, 4)
		r.counter++
		r.idx = 0
	}
	v := uint64(r.buf[r.idx]) | uint64(r.buf[r.idx+1])<<32
	r.idx += 2
	return v
}
