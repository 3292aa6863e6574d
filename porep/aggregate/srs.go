// SPDX-License-Identifier: Apache-2.0 OR MIT

package aggregate

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/cuseal/cuseal/internal/parallel"
	"github.com/cuseal/cuseal/porep/groth16"
)

// SRSFileName is the official file name of the SnarkPack SRS
// (storage-proofs-core parameter_cache.rs SRS_SHARED_KEY_NAME, v28 prefix).
const SRSFileName = "v28-fil-inner-product-v1.srs"

// SRSDigest is the official file's digest (storage-proofs-core
// srs-inner-product.json: first 16 bytes of BLAKE2b-512, hex).
const SRSDigest = "ae20310138f5ba81451d723f858e3797"

// MaxSRSSize is the largest vector length a GenericSRS file may announce
// (bellperson srs.rs MAX_SRS_SIZE).
const MaxSRSSize = (2 << 19) + 1

// ReadMaxLen is how many points of each vector storage-proofs-core reads
// (read_cached_srs_key: read_mmap(.., (2 << 14) + 1)); the rest of each
// vector is skipped. It bounds aggregation to 16384 proofs.
const ReadMaxLen = (2 << 14) + 1

const (
	g1Size = bls.SizeOfG1AffineCompressed // 48
	g2Size = bls.SizeOfG2AffineCompressed // 96
)

var errTruncated = errors.New("truncated")

// GenericSRS is bellperson's GenericSRS: powers of two secrets α, β in G1
// and G2. The file stores the vectors in the order g_alpha, g_beta,
// h_alpha, h_beta, each a u32 big-endian count followed by compressed
// points.
type GenericSRS struct {
	GAlpha, GBeta []bls.G1Affine
	HAlpha, HBeta []bls.G2Affine
}

// SRSError locates a defect in an SRS file.
type SRSError struct {
	File   string
	Vector string // g_alpha_powers, …; "" for the file as a whole
	Index  int    // point index, or -1 (the count)
	Offset int64
	Err    error
}

func (e *SRSError) Error() string {
	file := e.File
	if file == "" {
		file = "<memory>"
	}
	switch {
	case e.Vector == "":
		return fmt.Sprintf("aggregate: SRS %s: byte offset %d: %v", file, e.Offset, e.Err)
	case e.Index < 0:
		return fmt.Sprintf("aggregate: SRS %s: %s length at byte offset %d: %v", file, e.Vector, e.Offset, e.Err)
	default:
		return fmt.Sprintf("aggregate: SRS %s: %s[%d] at byte offset %d: %v", file, e.Vector, e.Index, e.Offset, e.Err)
	}
}

func (e *SRSError) Unwrap() error { return e.Err }

var srsVectors = [4]string{"g_alpha_powers", "g_beta_powers", "h_alpha_powers", "h_beta_powers"}

// ParseSRS decodes a GenericSRS file image as bellperson's
// GenericSRS::read_mmap(data, maxLen) does: of each vector it decodes the
// first min(count, maxLen) points and skips the rest. Every point is
// checked (canonical, on the curve, in the subgroup; the point at infinity
// is allowed, as blstrs G1Affine::from_bytes); the announced counts
// must fit in the data. name is used in errors.
func ParseSRS(data []byte, name string, maxLen int) (*GenericSRS, error) {
	return parseSRS(bytes.NewReader(data), int64(len(data)), name, maxLen)
}

// parseSRS is ParseSRS over r, size bytes: it reads each count and the
// points it decodes, nothing else.
func parseSRS(r io.ReaderAt, size int64, name string, maxLen int) (*GenericSRS, error) {
	var s GenericSRS
	off := int64(0)
	read := func(b []byte, at int64, v int) error {
		if _, err := r.ReadAt(b, at); err != nil {
			return &SRSError{name, srsVectors[v], -1, at, fmt.Errorf("%w: %v (the file changed while it was read?)", errTruncated, err)}
		}
		return nil
	}
	for v := 0; v < 4; v++ {
		psize := g1Size
		if v >= 2 {
			psize = g2Size
		}
		if size-off < 4 {
			return nil, &SRSError{name, srsVectors[v], -1, off, fmt.Errorf("%w: %d bytes left, want a 4-byte count", errTruncated, size-off)}
		}
		var cb [4]byte
		if err := read(cb[:], off, v); err != nil {
			return nil, err
		}
		cnt := int(binary.BigEndian.Uint32(cb[:]))
		if cnt > MaxSRSSize {
			return nil, &SRSError{name, srsVectors[v], -1, off, fmt.Errorf("invalid SRS vector length %d (max %d)", cnt, MaxSRSSize)}
		}
		off += 4
		if need := int64(cnt * psize); size-off < need {
			return nil, &SRSError{name, srsVectors[v], -1, off - 4, fmt.Errorf("%w: count %d needs %d bytes, %d left", errTruncated, cnt, need, size-off)}
		}
		k := min(cnt, maxLen)
		data := make([]byte, k*psize)
		if err := read(data, off, v); err != nil {
			return nil, err
		}
		var err error
		switch v {
		case 0:
			s.GAlpha, err = decodeG1Vec(data, k, name, srsVectors[v], int(off))
		case 1:
			s.GBeta, err = decodeG1Vec(data, k, name, srsVectors[v], int(off))
		case 2:
			s.HAlpha, err = decodeG2Vec(data, k, name, srsVectors[v], int(off))
		case 3:
			s.HBeta, err = decodeG2Vec(data, k, name, srsVectors[v], int(off))
		}
		if err != nil {
			return nil, err
		}
		off += int64(cnt * psize)
	}
	return &s, nil
}

func decodeG1Vec(data []byte, k int, name, vec string, base int) ([]bls.G1Affine, error) {
	out := make([]bls.G1Affine, k)
	err := parallel.Each(k, func(i int) error {
		if err := groth16.DecodeG1Compressed(&out[i], data[i*g1Size:], groth16.AllowInfinity); err != nil {
			return &SRSError{name, vec, i, int64(base + i*g1Size), err}
		}
		return nil
	})
	return out, err
}

func decodeG2Vec(data []byte, k int, name, vec string, base int) ([]bls.G2Affine, error) {
	out := make([]bls.G2Affine, k)
	err := parallel.Each(k, func(i int) error {
		if err := groth16.DecodeG2Compressed(&out[i], data[i*g2Size:], groth16.AllowInfinity); err != nil {
			return &SRSError{name, vec, i, int64(base + i*g2Size), err}
		}
		return nil
	})
	return out, err
}

// ReadSRSFile reads path (pread: the counts and the points it decodes,
// never a mapping, so a file that shrinks meanwhile is an error, not a
// fault) and parses it as ParseSRS(.., ReadMaxLen), as storage-proofs-core
// read_cached_srs_key does.
func ReadSRSFile(path string) (*GenericSRS, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("aggregate: SRS: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("aggregate: SRS: %w", err)
	}
	if st.Size() == 0 {
		return nil, &SRSError{path, "", -1, 0, fmt.Errorf("%w: empty file", errTruncated)}
	}
	return parseSRS(f, st.Size(), path, ReadMaxLen)
}

// WriteTo writes the GenericSRS::write encoding.
func (s *GenericSRS) WriteTo(w io.Writer) (int64, error) {
	var buf bytes.Buffer
	s.appendTo(&buf)
	return buf.WriteTo(w)
}

// Bytes returns the GenericSRS::write encoding.
func (s *GenericSRS) Bytes() []byte {
	var buf bytes.Buffer
	s.appendTo(&buf)
	return buf.Bytes()
}

func (s *GenericSRS) appendTo(buf *bytes.Buffer) {
	var l [4]byte
	for _, v := range [2][]bls.G1Affine{s.GAlpha, s.GBeta} {
		binary.BigEndian.PutUint32(l[:], uint32(len(v)))
		buf.Write(l[:])
		for i := range v {
			b := v[i].Bytes()
			buf.Write(b[:])
		}
	}
	for _, v := range [2][]bls.G2Affine{s.HAlpha, s.HBeta} {
		binary.BigEndian.PutUint32(l[:], uint32(len(v)))
		buf.Write(l[:])
		for i := range v {
			b := v[i].Bytes()
			buf.Write(b[:])
		}
	}
}

// TestSRSSecrets derives α and β from a 32-byte seed as docs/digests.md §7
// (`cuseal-srs-v1`): mask(SHA-256("cuseal-srs-v1" ‖ seed ‖ label)) with the
// top two bits of the last byte cleared, read little-endian.
func TestSRSSecrets(seed [32]byte) (alpha, beta fr.Element) {
	derive := func(label string) fr.Element {
		h := sha256.New()
		h.Write([]byte("cuseal-srs-v1"))
		h.Write(seed[:])
		h.Write([]byte(label))
		var d [32]byte
		h.Sum(d[:0])
		d[31] &= 0x3f
		e, err := fr.LittleEndian.Element(&d)
		if err != nil {
			panic("aggregate: masked digest ≥ r (impossible: 2^254 < r)")
		}
		return e
	}
	return derive("alpha"), derive("beta")
}

// GenerateTestSRS builds the INSECURE test SRS of docs/digests.md §7 for
// `size` proofs: vectors of 2·size powers α^i, β^i (i = 0 … 2·size−1) times
// the standard generators, as bellperson's setup_fake_srs lays them out.
// Whoever knows the seed can forge aggregates.
func GenerateTestSRS(seed [32]byte, size int) (*GenericSRS, error) {
	if size < 1 || 2*size > MaxSRSSize {
		return nil, fmt.Errorf("aggregate: test SRS size %d out of range [1, %d]", size, MaxSRSSize/2)
	}
	alpha, beta := TestSRSSecrets(seed)
	powers := func(x fr.Element) []fr.Element {
		p := make([]fr.Element, 2*size)
		p[0].SetOne()
		for i := 1; i < len(p); i++ {
			p[i].Mul(&p[i-1], &x)
		}
		return p
	}
	pa, pb := powers(alpha), powers(beta)
	_, _, g1, g2 := bls.Generators()
	return &GenericSRS{
		GAlpha: bls.BatchScalarMultiplicationG1(&g1, pa),
		GBeta:  bls.BatchScalarMultiplicationG1(&g1, pb),
		HAlpha: bls.BatchScalarMultiplicationG2(&g2, pa),
		HBeta:  bls.BatchScalarMultiplicationG2(&g2, pb),
	}, nil
}

// WriteTestSRSFile writes GenerateTestSRS(seed, size) as dir/SRSFileName
// (WriteSRSFile).
func WriteTestSRSFile(dir string, seed [32]byte, size int) (string, error) {
	s, err := GenerateTestSRS(seed, size)
	if err != nil {
		return "", err
	}
	return WriteSRSFile(dir, s)
}

// WriteSRSFile writes s as dir/SRSFileName (mode 0644) through a temporary
// file in dir; it refuses to replace an existing file.
func WriteSRSFile(dir string, s *GenericSRS) (string, error) {
	path := filepath.Join(dir, SRSFileName)
	if _, err := os.Stat(path); err == nil {
		return path, fmt.Errorf("aggregate: %s exists; not overwriting it", path)
	}
	tmp, err := os.CreateTemp(dir, ".srs-*")
	if err != nil {
		return "", fmt.Errorf("aggregate: %w", err)
	}
	if _, err := s.WriteTo(tmp); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", fmt.Errorf("aggregate: write %s: %w", tmp.Name(), err)
	}
	// Readable by every user of a shared parameter directory, as the
	// .params and .vk files (CreateTemp makes 0600).
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", fmt.Errorf("aggregate: write %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("aggregate: write %s: %w", tmp.Name(), err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("aggregate: %w", err)
	}
	os.Remove(tmp.Name())
	return path, nil
}

// ProverSRS is the SRS specialized to n proofs (bellperson ProverSRS):
// powers 0…2n−1 in G1 for the KZG openings of w, 0…n−1 in G2 for v, and
// the commitment keys v = (h^{α^i}, h^{β^i})_{i<n}, w = (g^{α^{n+i}},
// g^{β^{n+i}})_{i<n}.
type ProverSRS struct {
	N             int
	GAlpha, GBeta []bls.G1Affine // 2n
	HAlpha, HBeta []bls.G2Affine // n
	VKeyA, VKeyB  []bls.G2Affine // n
	WKeyA, WKeyB  []bls.G1Affine // n
}

// VerifierSRS is bellperson's VerifierSRS for n proofs.
type VerifierSRS struct {
	N             int
	G             bls.G1Affine
	H             bls.G2Affine
	GAlpha, GBeta bls.G1Affine
	HAlpha, HBeta bls.G2Affine
	HAlphaD       bls.G2Affine // h^{α^{len−n}} (instance aggregation only)
}

// Specialize returns the prover and verifier keys for n proofs (bellperson
// GenericSRS::specialize). n must be a power of two ≥ 2 with 2n points in
// every vector.
func (s *GenericSRS) Specialize(n int) (*ProverSRS, *VerifierSRS, error) {
	if n < 2 || n&(n-1) != 0 {
		return nil, nil, fmt.Errorf("aggregate: cannot specialize the SRS to %d proofs: not a power of two ≥ 2", n)
	}
	have := min(len(s.GAlpha), len(s.GBeta), len(s.HAlpha), len(s.HBeta))
	if have < 2*n {
		return nil, nil, fmt.Errorf("aggregate: SRS too small for %d proofs: vectors hold %d points, need %d", n, have, 2*n)
	}
	pk := &ProverSRS{
		N:      n,
		GAlpha: s.GAlpha[:2*n], GBeta: s.GBeta[:2*n],
		HAlpha: s.HAlpha[:n], HBeta: s.HBeta[:n],
		VKeyA: s.HAlpha[:n], VKeyB: s.HBeta[:n],
		WKeyA: s.GAlpha[n : 2*n], WKeyB: s.GBeta[n : 2*n],
	}
	vk := &VerifierSRS{
		N: n, G: s.GAlpha[0], H: s.HAlpha[0],
		GAlpha: s.GAlpha[1], GBeta: s.GBeta[1],
		HAlpha: s.HAlpha[1], HBeta: s.HBeta[1],
		HAlphaD: s.HAlpha[len(s.GAlpha)-n],
	}
	return pk, vk, nil
}
