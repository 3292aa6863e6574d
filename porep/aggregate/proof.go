// SPDX-License-Identifier: Apache-2.0 OR MIT

package aggregate

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/cuseal/cuseal/porep/groth16"
)

// GtPair is the output of both SnarkPack commitment schemes, (T, U)
// (bellperson commit::Output).
type GtPair [2]bls.GT

// AggregateProof is bellperson's AggregateProof with its TippMippProof and
// GipaProof flattened. Per GIPA round k (log2 n rounds): CommsAB[k] =
// (T_ab,L, T_ab,R), CommsC[k] = (U_c,L, U_c,R), ZAB[k] = (Z_L, Z_R),
// ZC[k] = (Z_L, Z_R).
type AggregateProof struct {
	ComAB, ComC GtPair
	IPAB        bls.GT
	AggC        bls.G1Affine

	NProofs   uint32
	CommsAB   [][2]GtPair
	CommsC    [][2]GtPair
	ZAB       [][2]bls.GT
	ZC        [][2]bls.G1Affine
	FinalA    bls.G1Affine
	FinalB    bls.G2Affine
	FinalC    bls.G1Affine
	FinalVKey [2]bls.G2Affine
	FinalWKey [2]bls.G1Affine

	VKeyOpening [2]bls.G2Affine
	WKeyOpening [2]bls.G1Affine
}

// ProofSize returns the encoded size of an aggregate of n (a power of two)
// proofs: 5 Gt + G1 + u32 + log2(n)·(10 Gt + 2 G1) + finals and openings.
func ProofSize(n int) int {
	l := bits.Len(uint(n)) - 1
	return 5*GtCompressedSize + g1Size + 4 + l*(10*GtCompressedSize+2*g1Size) +
		(g1Size + g2Size + g1Size + 2*g2Size + 2*g1Size) + (2*g2Size + 2*g1Size)
}

// logProofs is bellperson's log_proofs: ceil(log2(n)).
func logProofs(n int) int { return bits.Len(uint(n - 1)) }

// Bytes is AggregateProof::write: Gt compressed (blstrs torus
// compression, 288 bytes), G1/G2 compressed, nproofs u32 little-endian.
func (p *AggregateProof) Bytes() ([]byte, error) {
	l := logProofs(int(p.NProofs))
	if p.NProofs < 2 || len(p.CommsAB) != l || len(p.CommsC) != l || len(p.ZAB) != l || len(p.ZC) != l {
		return nil, fmt.Errorf("aggregate: malformed proof: nproofs %d with %d/%d/%d/%d rounds", p.NProofs, len(p.CommsAB), len(p.CommsC), len(p.ZAB), len(p.ZC))
	}
	out := make([]byte, 0, ProofSize(int(p.NProofs)))
	var err error
	gt := func(x *bls.GT) {
		if err == nil {
			out, err = appendGtCompressed(out, x)
		}
	}
	g1 := func(x *bls.G1Affine) { b := x.Bytes(); out = append(out, b[:]...) }
	g2 := func(x *bls.G2Affine) { b := x.Bytes(); out = append(out, b[:]...) }
	gt(&p.ComAB[0])
	gt(&p.ComAB[1])
	gt(&p.ComC[0])
	gt(&p.ComC[1])
	gt(&p.IPAB)
	g1(&p.AggC)
	out = binary.LittleEndian.AppendUint32(out, p.NProofs)
	for _, v := range [][][2]GtPair{p.CommsAB, p.CommsC} {
		for k := range v {
			gt(&v[k][0][0])
			gt(&v[k][0][1])
			gt(&v[k][1][0])
			gt(&v[k][1][1])
		}
	}
	for k := range p.ZAB {
		gt(&p.ZAB[k][0])
		gt(&p.ZAB[k][1])
	}
	for k := range p.ZC {
		g1(&p.ZC[k][0])
		g1(&p.ZC[k][1])
	}
	g1(&p.FinalA)
	g2(&p.FinalB)
	g1(&p.FinalC)
	g2(&p.FinalVKey[0])
	g2(&p.FinalVKey[1])
	g1(&p.FinalWKey[0])
	g1(&p.FinalWKey[1])
	g2(&p.VKeyOpening[0])
	g2(&p.VKeyOpening[1])
	g1(&p.WKeyOpening[0])
	g1(&p.WKeyOpening[1])
	if err != nil {
		return nil, fmt.Errorf("aggregate: encode: %w", err)
	}
	return out, nil
}

// ProofError locates a defect in an aggregate proof's bytes.
type ProofError struct {
	Field  string
	Offset int
	Err    error
}

func (e *ProofError) Error() string {
	return fmt.Sprintf("aggregate proof: %s at byte offset %d: %v", e.Field, e.Offset, e.Err)
}

func (e *ProofError) Unwrap() error { return e.Err }

// ErrMalformedProof is wrapped by every ProofError.
var ErrMalformedProof = errors.New("malformed aggregate proof")

// ParseAggregateProof decodes AggregateProof::read's format. Beyond
// bellperson's read it requires nproofs to be a power of two in [2,
// MaxSRSSize] (its verifier's parsing_check) and no bytes after the proof.
// Every Gt must be a valid compression of an element of the order-r
// subgroup, every point on the curve and in the subgroup (the point at
// infinity is allowed, as blstrs from_compressed).
func ParseAggregateProof(data []byte) (*AggregateProof, error) {
	p := &AggregateProof{}
	off := 0
	var perr error
	fail := func(field string, err error) {
		if perr == nil {
			perr = &ProofError{field, off, fmt.Errorf("%w: %v", ErrMalformedProof, err)}
		}
	}
	need := func(field string, k int) bool {
		if perr != nil {
			return false
		}
		if len(data)-off < k {
			fail(field, fmt.Errorf("%w: %d bytes left, want %d", errTruncated, len(data)-off, k))
			return false
		}
		return true
	}
	gt := func(field string, x *bls.GT) {
		if need(field, GtCompressedSize) {
			if err := decodeGtCompressed(x, data[off:]); err != nil {
				fail(field, err)
				return
			}
			off += GtCompressedSize
		}
	}
	g1 := func(field string, x *bls.G1Affine) {
		if need(field, g1Size) {
			if err := groth16.DecodeG1Compressed(x, data[off:], groth16.AllowInfinity); err != nil {
				fail(field, err)
				return
			}
			off += g1Size
		}
	}
	g2 := func(field string, x *bls.G2Affine) {
		if need(field, g2Size) {
			if err := groth16.DecodeG2Compressed(x, data[off:], groth16.AllowInfinity); err != nil {
				fail(field, err)
				return
			}
			off += g2Size
		}
	}
	gt("com_ab.0", &p.ComAB[0])
	gt("com_ab.1", &p.ComAB[1])
	gt("com_c.0", &p.ComC[0])
	gt("com_c.1", &p.ComC[1])
	gt("ip_ab", &p.IPAB)
	g1("agg_c", &p.AggC)
	if !need("nproofs", 4) {
		return nil, perr
	}
	p.NProofs = binary.LittleEndian.Uint32(data[off:])
	if n := p.NProofs; n < 2 || n > MaxSRSSize || n&(n-1) != 0 {
		fail("nproofs", fmt.Errorf("nproofs %d is not a power of two in [2, %d]", n, MaxSRSSize))
		return nil, perr
	}
	off += 4
	l := logProofs(int(p.NProofs))
	if want := ProofSize(int(p.NProofs)); len(data) != want {
		// Report where the data ends, or where the excess begins.
		if len(data) > want {
			off = want
			fail("end of proof", fmt.Errorf("%d trailing bytes after a %d-proof aggregate of %d bytes", len(data)-want, p.NProofs, want))
			return nil, perr
		}
	}
	p.CommsAB = make([][2]GtPair, l)
	p.CommsC = make([][2]GtPair, l)
	p.ZAB = make([][2]bls.GT, l)
	p.ZC = make([][2]bls.G1Affine, l)
	for i, v := range [][][2]GtPair{p.CommsAB, p.CommsC} {
		fname := [2]string{"comms_ab", "comms_c"}[i]
		for k := 0; k < l; k++ {
			gt(fmt.Sprintf("%s[%d].0.0", fname, k), &v[k][0][0])
			gt(fmt.Sprintf("%s[%d].0.1", fname, k), &v[k][0][1])
			gt(fmt.Sprintf("%s[%d].1.0", fname, k), &v[k][1][0])
			gt(fmt.Sprintf("%s[%d].1.1", fname, k), &v[k][1][1])
		}
	}
	for k := 0; k < l; k++ {
		gt(fmt.Sprintf("z_ab[%d].0", k), &p.ZAB[k][0])
		gt(fmt.Sprintf("z_ab[%d].1", k), &p.ZAB[k][1])
	}
	for k := 0; k < l; k++ {
		g1(fmt.Sprintf("z_c[%d].0", k), &p.ZC[k][0])
		g1(fmt.Sprintf("z_c[%d].1", k), &p.ZC[k][1])
	}
	g1("final_a", &p.FinalA)
	g2("final_b", &p.FinalB)
	g1("final_c", &p.FinalC)
	g2("final_vkey.0", &p.FinalVKey[0])
	g2("final_vkey.1", &p.FinalVKey[1])
	g1("final_wkey.0", &p.FinalWKey[0])
	g1("final_wkey.1", &p.FinalWKey[1])
	g2("vkey_opening.0", &p.VKeyOpening[0])
	g2("vkey_opening.1", &p.VKeyOpening[1])
	g1("wkey_opening.0", &p.WKeyOpening[0])
	g1("wkey_opening.1", &p.WKeyOpening[1])
	if perr != nil {
		return nil, perr
	}
	return p, nil
}
