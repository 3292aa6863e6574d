// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
)

// vkFixedSize is the size of the six fixed vk points: 3×96 + 3×192.
const vkFixedSize = 3*G1UncompressedSize + 3*G2UncompressedSize // 864

// VerifyingKey is a Groth16 verifying key, field for field bellperson's
// VerifyingKey (src/groth16/verifying_key.rs). IC has one point per public
// input plus one for ONE (IC[0]).
type VerifyingKey struct {
	Alpha1 bls.G1Affine
	Beta1  bls.G1Affine
	Beta2  bls.G2Affine
	Gamma2 bls.G2Affine
	Delta1 bls.G1Affine
	Delta2 bls.G2Affine
	IC     []bls.G1Affine
}

// EncodedSize is the byte length of vk's encoding: 864 + 4 + 96·len(IC).
func (vk *VerifyingKey) EncodedSize() int {
	return vkFixedSize + 4 + G1UncompressedSize*len(vk.IC)
}

// Bytes returns the `.vk` encoding (= bellperson VerifyingKey::write, and
// the prefix of a `.params` file): α₁ β₁ β₂ γ₂ δ₁ δ₂ uncompressed, then a
// big-endian u32 IC count and the IC points uncompressed.
func (vk *VerifyingKey) Bytes() []byte {
	out := make([]byte, 0, vk.EncodedSize())
	out = appendG1(out, &vk.Alpha1)
	out = appendG1(out, &vk.Beta1)
	out = appendG2(out, &vk.Beta2)
	out = appendG2(out, &vk.Gamma2)
	out = appendG1(out, &vk.Delta1)
	out = appendG2(out, &vk.Delta2)
	out = binary.BigEndian.AppendUint32(out, uint32(len(vk.IC)))
	for i := range vk.IC {
		out = appendG1(out, &vk.IC[i])
	}
	return out
}

// WriteTo writes vk.Bytes() to w.
func (vk *VerifyingKey) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(vk.Bytes())
	return int64(n), err
}

func appendG1(out []byte, p *bls.G1Affine) []byte {
	b := p.RawBytes()
	return append(out, b[:]...)
}

func appendG2(out []byte, p *bls.G2Affine) []byte {
	b := p.RawBytes()
	return append(out, b[:]...)
}

// parseVK decodes a verifying key from the start of data (subgroup-checked,
// as bellperson VerifyingKey::read) and returns it with the number of bytes
// consumed. Identity points are rejected everywhere (bellperson rejects them
// in ic; an identity α, β, γ or δ makes the key useless, so we reject it
// too). Errors are *FormatError naming file, section and offset.
func parseVK(data []byte, file string) (*VerifyingKey, int, error) {
	vk := new(VerifyingKey)
	off := 0
	g1 := func(p *bls.G1Affine, idx int) error {
		if len(data)-off < G1UncompressedSize {
			return &FormatError{file, SectionVK, idx, int64(off), fmt.Errorf("%w: need %d bytes, %d left", ErrTruncated, G1UncompressedSize, len(data)-off)}
		}
		if err := decodeG1Uncompressed(p, data[off:], true); err != nil {
			return &FormatError{file, SectionVK, idx, int64(off), err}
		}
		off += G1UncompressedSize
		return nil
	}
	g2 := func(p *bls.G2Affine, idx int) error {
		if len(data)-off < G2UncompressedSize {
			return &FormatError{file, SectionVK, idx, int64(off), fmt.Errorf("%w: need %d bytes, %d left", ErrTruncated, G2UncompressedSize, len(data)-off)}
		}
		if err := decodeG2Uncompressed(p, data[off:], true); err != nil {
			return &FormatError{file, SectionVK, idx, int64(off), err}
		}
		off += G2UncompressedSize
		return nil
	}
	// Index within the vk section: 0 α₁, 1 β₁, 2 β₂, 3 γ₂, 4 δ₁, 5 δ₂.
	if err := g1(&vk.Alpha1, 0); err != nil {
		return nil, 0, err
	}
	if err := g1(&vk.Beta1, 1); err != nil {
		return nil, 0, err
	}
	if err := g2(&vk.Beta2, 2); err != nil {
		return nil, 0, err
	}
	if err := g2(&vk.Gamma2, 3); err != nil {
		return nil, 0, err
	}
	if err := g1(&vk.Delta1, 4); err != nil {
		return nil, 0, err
	}
	if err := g2(&vk.Delta2, 5); err != nil {
		return nil, 0, err
	}
	count, next, err := readCount(data, off, file, SectionIC, G1UncompressedSize)
	if err != nil {
		return nil, 0, err
	}
	off = next
	vk.IC = make([]bls.G1Affine, count)
	for i := range vk.IC {
		if err := decodeG1Uncompressed(&vk.IC[i], data[off:], true); err != nil {
			return nil, 0, &FormatError{file, SectionIC, i, int64(off), err}
		}
		off += G1UncompressedSize
	}
	return vk, off, nil
}

// readCount reads the u32 big-endian count of a section at off and checks
// that count elements of elemSize bytes follow. It returns the count and
// the offset of the first element.
func readCount(data []byte, off int, file, section string, elemSize int) (int, int, error) {
	count, err := checkCount(data[min(off, len(data)):], int64(off), int64(len(data)), file, section, elemSize)
	return count, off + 4, err
}

// checkCount is readCount over b, the bytes from off on (at least 4 when
// the file has them), in a file of size bytes.
func checkCount(b []byte, off, size int64, file, section string, elemSize int) (int, error) {
	if size-off < 4 {
		return 0, &FormatError{file, section, -1, off, fmt.Errorf("%w: missing u32 count (%d bytes left)", ErrTruncated, size-off)}
	}
	count := int64(binary.BigEndian.Uint32(b))
	need := count * int64(elemSize)
	if have := size - off - 4; need > have {
		return 0, &FormatError{file, section, -1, off, fmt.Errorf("%w: count %d needs %d bytes, %d left", ErrTruncated, count, need, have)}
	}
	return int(count), nil
}

// ParseVerifyingKey decodes a `.vk` file's bytes. The data must be exactly
// one verifying key (no trailing bytes). name is used in errors.
func ParseVerifyingKey(data []byte, name string) (*VerifyingKey, error) {
	vk, n, err := parseVK(data, name)
	if err != nil {
		return nil, err
	}
	if n != len(data) {
		return nil, &FormatError{name, SectionIC, -1, int64(n), fmt.Errorf("%w: %d bytes after the verifying key", ErrTrailingData, len(data)-n)}
	}
	return vk, nil
}

// ReadVerifyingKeyFile reads and decodes a `.vk` file (subgroup-checked,
// as rust-fil-proofs read_cached_verifying_key).
func ReadVerifyingKeyFile(path string) (*VerifyingKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("groth16: read verifying key: %w", err)
	}
	return ParseVerifyingKey(data, path)
}

// WriteVerifyingKeyFile writes vk to path atomically (temporary file in the
// same directory, then rename), so a failure never leaves a partial file.
func WriteVerifyingKeyFile(path string, vk *VerifyingKey) error {
	return writeFileAtomic(path, func(w io.Writer) error {
		_, err := vk.WriteTo(w)
		return err
	})
}
