// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
)

// Encoded sizes of BLS12-381 points in the zcash/IETF format.
const (
	G1UncompressedSize = bls.SizeOfG1AffineUncompressed // 96
	G2UncompressedSize = bls.SizeOfG2AffineUncompressed // 192
	G1CompressedSize   = bls.SizeOfG1AffineCompressed   // 48
	G2CompressedSize   = bls.SizeOfG2AffineCompressed   // 96
)

// zcash flag bits in the most significant byte.
const (
	flagCompressed = 0x80
	flagInfinity   = 0x40
	flagSort       = 0x20
	flagMask       = flagCompressed | flagInfinity | flagSort
)

// readFp decodes a 48-byte big-endian coordinate with the flag bits of the
// first byte cleared when clearFlags is set; values ≥ p are rejected (blst
// BLST_BAD_ENCODING).
func readFp(z *fp.Element, b []byte, clearFlags bool) error {
	var buf [fp.Bytes]byte
	copy(buf[:], b[:fp.Bytes])
	if clearFlags {
		buf[0] &^= flagMask
	}
	e, err := fp.BigEndian.Element(&buf)
	if err != nil {
		return ErrNonCanonical
	}
	*z = e
	return nil
}

// checkUncompressed checks the length and flag bits of a size-byte
// uncompressed encoding at the start of b: short input, bad flags (including
// a malformed infinity encoding) and the point at infinity are errors.
func checkUncompressed(b []byte, size int) error {
	if len(b) < size {
		return ErrTruncated
	}
	switch b[0] & flagMask {
	case 0:
		return nil
	case flagInfinity:
		if b[0]&^flagMask != 0 {
			return ErrBadFlags
		}
		for _, x := range b[1:size] {
			if x != 0 {
				return ErrBadFlags
			}
		}
		return ErrPointAtInfinity
	default:
		// compressed or sort bit set in an uncompressed slot
		return ErrBadFlags
	}
}

// Infinity is a compressed decoder's rule for the point at infinity. The
// two rules are bellperson's, not a choice of ours: Proof::read (and the vk's
// ic) refuse the identity after blstrs has decoded it, while GenericSRS::read
// and AggregateProof::read take blstrs from_compressed as it is, which
// accepts the well-formed infinity encoding (flags 0xc0, every other bit 0).
type Infinity bool

const (
	// RejectInfinity: the point at infinity is ErrPointAtInfinity, whatever
	// its other bits (bellperson Proof::read).
	RejectInfinity Infinity = false
	// AllowInfinity: the well-formed infinity encoding decodes to gnark's
	// infinity (0, 0); one with any other bit set is ErrBadFlags (blst
	// BLST_BAD_ENCODING). For the SnarkPack SRS and aggregate proofs.
	AllowInfinity Infinity = true
)

// checkCompressed checks the length and flag bits of a size-byte compressed
// encoding at the start of b: the compressed bit must be set (the sort bit
// may be). It reports isInf for a well-formed infinity encoding that inf
// allows; the caller then has no coordinates to read.
func checkCompressed(b []byte, size int, inf Infinity) (isInf bool, err error) {
	if len(b) < size {
		return false, ErrTruncated
	}
	switch b[0] & flagMask {
	case flagCompressed, flagCompressed | flagSort:
		return false, nil
	case flagCompressed | flagInfinity:
		if inf == RejectInfinity {
			return false, ErrPointAtInfinity
		}
		if b[0]&^flagMask != 0 {
			return false, ErrBadFlags
		}
		for _, x := range b[1:size] {
			if x != 0 {
				return false, ErrBadFlags
			}
		}
		return true, nil
	default:
		return false, ErrBadFlags
	}
}

// decodeG1Uncompressed sets p from a 96-byte uncompressed zcash encoding.
// It rejects bad flags, the point at infinity, non-canonical coordinates and
// off-curve points; with checked it also rejects points outside the
// prime-order subgroup (blstrs from_uncompressed vs _unchecked).
func decodeG1Uncompressed(p *bls.G1Affine, b []byte, checked bool) error {
	if err := checkUncompressed(b, G1UncompressedSize); err != nil {
		return err
	}
	if err := readFp(&p.X, b[0:48], true); err != nil {
		return err
	}
	if err := readFp(&p.Y, b[48:96], false); err != nil {
		return err
	}
	// (0,0) is gnark's in-memory infinity; with no infinity flag it is
	// simply an off-curve pair, and IsOnCurve would accept it.
	if p.X.IsZero() && p.Y.IsZero() || !p.IsOnCurve() {
		return ErrNotOnCurve
	}
	if checked && !p.IsInSubGroup() {
		return ErrNotInSubgroup
	}
	return nil
}

// decodeG2Uncompressed is decodeG1Uncompressed for G2 (192 bytes,
// coordinates ordered c1 ‖ c0 as in the zcash format).
func decodeG2Uncompressed(p *bls.G2Affine, b []byte, checked bool) error {
	if err := checkUncompressed(b, G2UncompressedSize); err != nil {
		return err
	}
	if err := readFp(&p.X.A1, b[0:48], true); err != nil {
		return err
	}
	if err := readFp(&p.X.A0, b[48:96], false); err != nil {
		return err
	}
	if err := readFp(&p.Y.A1, b[96:144], false); err != nil {
		return err
	}
	if err := readFp(&p.Y.A0, b[144:192], false); err != nil {
		return err
	}
	if p.X.IsZero() && p.Y.IsZero() || !p.IsOnCurve() {
		return ErrNotOnCurve
	}
	if checked && !p.IsInSubGroup() {
		return ErrNotInSubgroup
	}
	return nil
}

// DecodeG1Compressed sets p from a 48-byte compressed zcash encoding at the
// start of b as blstrs G1Affine::from_compressed: it rejects bad flags,
// a non-canonical x (≥ p), an x with no curve point and points outside the
// prime-order subgroup; the point at infinity follows inf. Errors are this
// package's sentinels (ErrTruncated, ErrBadFlags, ErrPointAtInfinity,
// ErrNonCanonical, ErrNotOnCurve, ErrNotInSubgroup).
func DecodeG1Compressed(p *bls.G1Affine, b []byte, inf Infinity) error {
	isInf, err := checkCompressed(b, G1CompressedSize, inf)
	if err != nil {
		return err
	}
	*p = bls.G1Affine{}
	if isInf {
		return nil
	}
	var x fp.Element
	if err := readFp(&x, b[:48], true); err != nil {
		return err
	}
	if _, err := p.SetBytes(b[:G1CompressedSize]); err != nil {
		// canonical x and good flags: only "no square root" or subgroup remain
		return classifyDecodeErr(p.IsOnCurve())
	}
	return nil
}

// DecodeG2Compressed is DecodeG1Compressed for G2 (96 bytes, x = c1 ‖ c0).
func DecodeG2Compressed(p *bls.G2Affine, b []byte, inf Infinity) error {
	isInf, err := checkCompressed(b, G2CompressedSize, inf)
	if err != nil {
		return err
	}
	*p = bls.G2Affine{}
	if isInf {
		return nil
	}
	var x fp.Element
	if err := readFp(&x, b[0:48], true); err != nil {
		return err
	}
	if err := readFp(&x, b[48:96], false); err != nil {
		return err
	}
	if _, err := p.SetBytes(b[:G2CompressedSize]); err != nil {
		return classifyDecodeErr(p.IsOnCurve())
	}
	return nil
}

// classifyDecodeErr maps a gnark compressed-decoding failure (after the
// canonical-x check, on a zeroed p) to our sentinels: gnark leaves Y zero
// when no square root exists (no curve point has y = 0: the cofactors are
// odd), and sets it before the subgroup check.
func classifyDecodeErr(onCurve bool) error {
	if onCurve {
		return ErrNotInSubgroup
	}
	return ErrNotOnCurve
}
