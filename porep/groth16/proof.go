// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"fmt"
	"runtime"
	"sync"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
)

// ProofSize is the encoded size of one proof: compressed A (48) ‖ B (96) ‖
// C (48), bellperson Proof::write.
const ProofSize = G1CompressedSize + G2CompressedSize + G1CompressedSize // 192

// Proof is a Groth16 proof (bellperson src/groth16/proof.rs).
type Proof struct {
	A bls.G1Affine
	B bls.G2Affine
	C bls.G1Affine
}

// Bytes returns the 192-byte encoding: compressed zcash points A ‖ B ‖ C.
func (p *Proof) Bytes() [ProofSize]byte {
	var out [ProofSize]byte
	a, b, c := p.A.Bytes(), p.B.Bytes(), p.C.Bytes()
	copy(out[0:48], a[:])
	copy(out[48:144], b[:])
	copy(out[144:ProofSize], c[:])
	return out
}

// SetBytes decodes exactly 192 bytes into p. It rejects bad flags,
// non-canonical coordinates, off-curve and non-subgroup points and the
// point at infinity (bellperson Proof::read). Errors are *FormatError with
// Section "proof" and Index 0 = A, 1 = B, 2 = C.
func (p *Proof) SetBytes(b []byte) error {
	return p.setBytes(b, "", 0)
}

func (p *Proof) setBytes(b []byte, name string, base int64) error {
	if len(b) != ProofSize {
		return &FormatError{name, SectionProof, -1, base, fmt.Errorf("%w: proof is %d bytes, want %d", ErrTruncated, len(b), ProofSize)}
	}
	// G2 first, as bellperson read_many does (the costlier check).
	if err := DecodeG2Compressed(&p.B, b[48:144], RejectInfinity); err != nil {
		return &FormatError{name, SectionProof, 1, base + 48, err}
	}
	if err := DecodeG1Compressed(&p.A, b[0:48], RejectInfinity); err != nil {
		return &FormatError{name, SectionProof, 0, base, err}
	}
	if err := DecodeG1Compressed(&p.C, b[144:ProofSize], RejectInfinity); err != nil {
		return &FormatError{name, SectionProof, 2, base + 144, err}
	}
	return nil
}

// EncodeProofs concatenates the proofs' encodings in order (a multi-
// partition seal proof, rust-fil-proofs MultiProof::write).
func EncodeProofs(proofs []Proof) []byte {
	out := make([]byte, 0, len(proofs)*ProofSize)
	for i := range proofs {
		b := proofs[i].Bytes()
		out = append(out, b[:]...)
	}
	return out
}

// DecodeProofs decodes a concatenation of proofs; len(b) must be a
// non-zero multiple of 192. Proofs are decoded in parallel; the error of
// the first bad proof (lowest offset) is returned, naming its offset.
func DecodeProofs(b []byte) ([]Proof, error) {
	if len(b) == 0 || len(b)%ProofSize != 0 {
		return nil, &FormatError{"", SectionProof, -1, 0, fmt.Errorf("%w: %d bytes is not a non-zero multiple of %d", ErrTruncated, len(b), ProofSize)}
	}
	n := len(b) / ProofSize
	out := make([]Proof, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i := 0; i < n; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = out[i].setBytes(b[i*ProofSize:(i+1)*ProofSize], "", int64(i*ProofSize))
		}(i)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
