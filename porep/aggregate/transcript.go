// SPDX-License-Identifier: Apache-2.0 OR MIT

package aggregate

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// transcriptPrefix is bellperson's transcript.rs PREFIX.
const transcriptPrefix = "snarkpack-v1"

// transcript is bellperson's Fiat–Shamir Transcript: SHA-256 over
// "snarkpack-v1" ‖ tag ‖ bincode(values…). Values are serialized as
// bincode 1.x (little-endian, u64 lengths) serializes the blstrs types:
// Fr as its 32 canonical LE bytes, G1/G2 (affine or projective) as the
// compressed 48/96-byte point, Gt as twelve LE Fp (see gtTranscriptSize),
// a byte slice as u64 LE length ‖ bytes.
type transcript struct {
	h   hash.Hash
	buf []byte
}

func newTranscript(tag string) *transcript {
	t := &transcript{h: sha256.New()}
	t.h.Write([]byte(transcriptPrefix))
	t.h.Write([]byte(tag))
	return t
}

func (t *transcript) fr(x *fr.Element) *transcript {
	b := x.Bytes() // big-endian
	var le [fr.Bytes]byte
	for i := range le {
		le[i] = b[fr.Bytes-1-i]
	}
	t.h.Write(le[:])
	return t
}

func (t *transcript) g1(p *bls.G1Affine) *transcript {
	b := p.Bytes()
	t.h.Write(b[:])
	return t
}

func (t *transcript) g2(p *bls.G2Affine) *transcript {
	b := p.Bytes()
	t.h.Write(b[:])
	return t
}

func (t *transcript) gt(x *bls.GT) *transcript {
	t.buf = appendGtTranscript(t.buf[:0], x)
	t.h.Write(t.buf)
	return t
}

func (t *transcript) bytes(b []byte) *transcript {
	var l [8]byte
	binary.LittleEndian.PutUint64(l[:], uint64(len(b)))
	t.h.Write(l[:])
	t.h.Write(b)
	return t
}

// challenge is Transcript::into_challenge: append a big-endian u64
// counter (from 1) to the running hash, take the digest as a little-endian
// integer with its top bit cleared (Fr has 255 bits), and retry while it
// is ≥ r, zero or one.
func (t *transcript) challenge() fr.Element {
	var ctr [8]byte
	for n := uint64(1); ; n++ {
		binary.BigEndian.PutUint64(ctr[:], n)
		t.h.Write(ctr[:])
		d := t.h.Sum(nil) // Sum does not change the running state
		var le [32]byte
		copy(le[:], d)
		le[31] &= 0x7f
		c, err := fr.LittleEndian.Element(&le)
		if err != nil || c.IsZero() || c.IsOne() {
			continue
		}
		return c
	}
}
