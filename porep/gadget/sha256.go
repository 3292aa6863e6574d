// SPDX-License-Identifier: Apache-2.0 OR MIT

package gadget

import (
	"fmt"

	"github.com/cuseal/cuseal/porep/cs"
)

var sha256K = [64]uint32{
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

var sha256IV = [8]uint32{
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
}

// SHA256IV returns the SHA-256 initial state as constants (get_sha256_iv).
func SHA256IV() [8]UInt32 {
	var iv [8]UInt32
	for i := range iv {
		iv[i] = UInt32Constant(sha256IV[i])
	}
	return iv
}

// shaScratch holds the per-compression working set, reused across blocks.
type shaScratch struct {
	w      [64]UInt32
	kconst [64]UInt32
	kinit  bool
	padded []Boolean
	t      [4]UInt32
}

// maybe is sha256.rs's Maybe: a Concrete value or a Deferred addmany.
type maybe struct {
	concrete bool
	val      UInt32
	ops      [8]UInt32
	n        int
}

// compute returns the value, performing the deferred addmany of the
// operands followed by extra (Maybe::compute; Concrete ignores extra).
func (s *synth) compute(m *maybe, extra *UInt32) UInt32 {
	if m.concrete {
		return m.val
	}
	var ptrs [10]*UInt32
	n := 0
	for i := 0; i < m.n; i++ {
		ptrs[n] = &m.ops[i]
		n++
	}
	if extra != nil {
		ptrs[n] = extra
		n++
	}
	return s.addmany(ptrs[:n])
}

// compress mirrors sha256_compression_function: one 512-bit block (bits in
// SHA-256 order) into state, with its own MultiEq (flushed at the end).
func (s *synth) compress(block []Boolean, state *[8]UInt32) {
	sc := &s.sha
	if !sc.kinit {
		for i := range sc.kconst {
			sc.kconst[i] = UInt32Constant(sha256K[i])
		}
		sc.kinit = true
	}
	w := &sc.w
	for i := 0; i < 16; i++ {
		w[i] = UInt32FromBitsBE(block[32*i : 32*i+32])
	}
	s.meq.bitsUsed = 0
	s.meq.lhs, s.meq.rhs = s.meq.lhs[:0], s.meq.rhs[:0]
	s.meq.lhsOne.SetZero()
	s.meq.hasOne = false
	s.meq.val.SetZero()

	t := &sc.t
	for i := 16; i < 64; i++ {
		// s0 = rotr7 ⊕ rotr18 ⊕ shr3 of w[i−15]
		r7, r18, sh3 := w[i-15].Rotr(7), w[i-15].Rotr(18), w[i-15].Shr(3)
		s.xor32(&t[0], &r7, &r18)
		s.xor32(&t[1], &t[0], &sh3)
		// s1 = rotr17 ⊕ rotr19 ⊕ shr10 of w[i−2]
		r17, r19, sh10 := w[i-2].Rotr(17), w[i-2].Rotr(19), w[i-2].Shr(10)
		s.xor32(&t[0], &r17, &r19)
		s.xor32(&t[2], &t[0], &sh10)
		w[i] = s.addmany([]*UInt32{&w[i-16], &t[1], &w[i-7], &t[2]})
	}

	a := maybe{concrete: true, val: state[0]}
	e := maybe{concrete: true, val: state[4]}
	b, c, d := state[1], state[2], state[3]
	f, g, h := state[5], state[6], state[7]
	var s1, ch, s0, maj UInt32
	for i := 0; i < 64; i++ {
		newE := s.compute(&e, nil)
		r6, r11, r25 := newE.Rotr(6), newE.Rotr(11), newE.Rotr(25)
		s.xor32(&t[0], &r6, &r11)
		s.xor32(&s1, &t[0], &r25)
		s.ch32(&ch, &newE, &f, &g)
		// temp1 = [h, S1, ch, K[i], w[i]]
		newA := s.compute(&a, nil)
		r2, r13, r22 := newA.Rotr(2), newA.Rotr(13), newA.Rotr(22)
		s.xor32(&t[0], &r2, &r13)
		s.xor32(&s0, &t[0], &r22)
		s.maj32(&maj, &newA, &b, &c)

		temp1 := [5]UInt32{h, s1, ch, sc.kconst[i], w[i]}
		h = g
		g = f
		f = newE
		e.concrete, e.n = false, 6
		copy(e.ops[:5], temp1[:])
		e.ops[5] = d
		d = c
		c = b
		b = newA
		a.concrete, a.n = false, 7
		copy(a.ops[:5], temp1[:])
		a.ops[5], a.ops[6] = s0, maj
	}
	h0v := s.compute(&a, &state[0])
	h1 := s.addmany([]*UInt32{&state[1], &b})
	h2 := s.addmany([]*UInt32{&state[2], &c})
	h3 := s.addmany([]*UInt32{&state[3], &d})
	h4 := s.compute(&e, &state[4])
	h5 := s.addmany([]*UInt32{&state[5], &f})
	h6 := s.addmany([]*UInt32{&state[6], &g})
	h7 := s.addmany([]*UInt32{&state[7], &h})
	s.finishMultiEq()
	*state = [8]UInt32{h0v, h1, h2, h3, h4, h5, h6, h7}
}

// SHA256Compression mirrors sha256_compression_function: block must hold
// 512 bits, state is updated in place.
func SHA256Compression(sys cs.ConstraintSystem, block []Boolean, state *[8]UInt32) error {
	if len(block) != 512 {
		return fmt.Errorf("gadget: sha256 compression: block has %d bits, want 512", len(block))
	}
	s := acquire(sys)
	defer release(s)
	sys.Push("sha256 compression")
	s.compress(block, state)
	sys.Pop()
	return nil
}

// SHA256 mirrors bellperson sha256(): pads the message (bits in SHA-256
// order, MSB-first per byte; length a multiple of 8) with constants, runs
// the compressions from the constant IV and returns the 256-bit digest,
// big-endian (h0..h7, each most significant bit first).
func SHA256(sys cs.ConstraintSystem, msg []Boolean) ([]Boolean, error) {
	out := make([]Boolean, 0, 256)
	return AppendSHA256(sys, out, msg)
}

// AppendSHA256 is SHA256 appending the digest bits to dst.
func AppendSHA256(sys cs.ConstraintSystem, dst, msg []Boolean) ([]Boolean, error) {
	if len(msg)%8 != 0 {
		return dst, fmt.Errorf("gadget: sha256: message has %d bits, not a multiple of 8", len(msg))
	}
	s := acquire(sys)
	defer release(s)
	p := append(s.sha.padded[:0], msg...)
	p = append(p, Constant(true))
	for (len(p)+64)%512 != 0 {
		p = append(p, Constant(false))
	}
	l := uint64(len(msg))
	for i := 63; i >= 0; i-- {
		p = append(p, Constant(l>>uint(i)&1 == 1))
	}
	s.sha.padded = p
	sys.Push("sha256")
	defer sys.Pop()
	state := SHA256IV()
	for off := 0; off < len(p); off += 512 {
		s.compress(p[off:off+512], &state)
	}
	for i := range state {
		dst = state[i].AppendBitsBE(dst)
	}
	return dst, nil
}
