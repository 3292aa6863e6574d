// SPDX-License-Identifier: Apache-2.0 OR MIT

package aggregate

import (
	"errors"
	"fmt"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
)

// GtCompressedSize is the size of blstrs' compressed Gt encoding: one Fp6
// (six 48-byte little-endian Fp elements).
const GtCompressedSize = 6 * fp.Bytes // 288

// gtTranscriptSize is the bincode size of a blstrs Gt: twelve Fp elements
// (blstrs serde_impl.rs: Fp12 → Fp6 c0, c1 → Fp2 c0, c1, c2 → Fp c0, c1;
// each Fp as [u64; 6] little-endian = its 48 canonical LE bytes).
const gtTranscriptSize = 12 * fp.Bytes // 576

// gnark-crypto's E12 uses the same tower as blst (Fp2 = Fp[u]/(u²+1),
// Fp6 = Fp2[v]/(v³−(u+1)), Fp12 = Fp6[w]/(w²−v)) and computes the same
// optimal ate pairing, so a blstrs Gt maps coefficient for coefficient
// (tested against blstrs' Gt::generator in gt_test.go).

// putFpLE writes the canonical little-endian encoding of x into b[:48].
func putFpLE(b []byte, x *fp.Element) {
	be := x.Bytes()
	for i := 0; i < fp.Bytes; i++ {
		b[i] = be[fp.Bytes-1-i]
	}
}

// readFpLE decodes a canonical 48-byte little-endian Fp (blstrs
// Fp::from_bytes_le: values ≥ p are rejected).
func readFpLE(b []byte) (fp.Element, error) {
	var be [fp.Bytes]byte
	for i := 0; i < fp.Bytes; i++ {
		be[i] = b[fp.Bytes-1-i]
	}
	return fp.BigEndian.Element(&be)
}

func e6Coeffs(x *bls.E6) [6]*fp.Element {
	return [6]*fp.Element{&x.B0.A0, &x.B0.A1, &x.B1.A0, &x.B1.A1, &x.B2.A0, &x.B2.A1}
}

// appendGtTranscript appends the bincode encoding of a blstrs Gt.
func appendGtTranscript(out []byte, x *bls.GT) []byte {
	var buf [gtTranscriptSize]byte
	c0, c1 := e6Coeffs(&x.C0), e6Coeffs(&x.C1)
	for i := 0; i < 6; i++ {
		putFpLE(buf[i*fp.Bytes:], c0[i])
		putFpLE(buf[(6+i)*fp.Bytes:], c1[i])
	}
	return append(out, buf[:]...)
}

// errGtNotCompressible: blstrs' compress() inverts c1 and unwraps; an
// element with c1 = 0 (only ±1 in the cyclotomic subgroup) cannot be
// written.
//
//lint:ignore ST1005 "Gt" is the name of the target group, not a capitalized word
var errGtNotCompressible = errors.New("Gt element with c1 = 0 cannot be compressed")

// appendGtCompressed appends blstrs' Compress::write_compressed encoding:
// the torus compression b = (c0 + 1)·c1⁻¹ (Naehrig et al., "On compressible
// pairings", §4.1), its six Fp coefficients little-endian.
func appendGtCompressed(out []byte, x *bls.GT) ([]byte, error) {
	if x.C1.IsZero() {
		return out, errGtNotCompressible
	}
	var num, inv, b bls.E6
	num.Set(&x.C0)
	var one fp.Element
	one.SetOne()
	num.B0.A0.Add(&num.B0.A0, &one)
	inv.Inverse(&x.C1)
	b.Mul(&num, &inv)
	var buf [GtCompressedSize]byte
	for i, c := range e6Coeffs(&b) {
		putFpLE(buf[i*fp.Bytes:], c)
	}
	return append(out, buf[:]...), nil
}

// decodeGtCompressed reverses appendGtCompressed as blstrs
// read_compressed does: g = (b + w)/(b − w), which must lie in the
// order-r subgroup.
func decodeGtCompressed(x *bls.GT, data []byte) error {
	if len(data) < GtCompressedSize {
		return errTruncated
	}
	var b bls.E6
	for i, c := range e6Coeffs(&b) {
		v, err := readFpLE(data[i*fp.Bytes:])
		if err != nil {
			return fmt.Errorf("coefficient %d: non-canonical field element (≥ p)", i)
		}
		*c = v
	}
	var num, den bls.GT
	num.C0.Set(&b)
	num.C1.SetOne()
	den.C0.Set(&b)
	den.C1.SetOne()
	den.C1.Neg(&den.C1)
	if den.IsZero() {
		return errors.New("invalid Gt compression point")
	}
	den.Inverse(&den)
	x.Mul(&num, &den)
	if !x.IsInSubGroup() {
		return errors.New("invalid Gt compression point (not in the order-r subgroup)")
	}
	return nil
}
