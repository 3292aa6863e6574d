// SPDX-License-Identifier: Apache-2.0 OR MIT

package aggregate

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/porep/groth16"
)

const goldenDir = "../../testdata/golden"

func srsSeed() [32]byte {
	var s [32]byte
	for i := range s {
		s[i] = 0x53
	}
	return s
}

func goldenSRSPath() string { return filepath.Join(goldenDir, "agg-srs", SRSFileName) }

// TestGenerateTestSRSGolden: the SRS from seed 53…53, size 64, equals the
// file bellperson's GenericSRS::write produced for the reference vectors.
func TestGenerateTestSRSGolden(t *testing.T) {
	want, err := os.ReadFile(goldenSRSPath())
	if err != nil {
		t.Fatal(err)
	}
	s, err := GenerateTestSRS(srsSeed(), 64)
	if err != nil {
		t.Fatal(err)
	}
	got := s.Bytes()
	if !bytes.Equal(got, want) {
		t.Fatalf("generated SRS (%d bytes) differs from %s (%d bytes)", len(got), goldenSRSPath(), len(want))
	}
	// Round trip through the reader and the digest of the file.
	r, err := ReadSRSFile(goldenSRSPath())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(r.Bytes(), want) {
		t.Fatal("ReadSRSFile → Bytes does not reproduce the file")
	}
	dir := t.TempDir()
	path, err := WriteTestSRSFile(dir, srsSeed(), 64)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("SRS file mode: %v, %v; want 0644 like .params/.vk", fi.Mode().Perm(), err)
	}
	d1, _ := groth16.FileDigest(path)
	d2, _ := groth16.FileDigest(goldenSRSPath())
	if d1 != d2 || len(d1) != 32 {
		t.Fatalf("digest %s vs golden %s", d1, d2)
	}
	if _, err := WriteTestSRSFile(dir, srsSeed(), 64); err == nil {
		t.Fatal("WriteTestSRSFile overwrote an existing file")
	}
}

func TestParseSRSMaxLenAndSpecialize(t *testing.T) {
	data, err := os.ReadFile(goldenSRSPath())
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseSRS(data, "x", 40)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.GAlpha) != 40 || len(s.HBeta) != 40 {
		t.Fatalf("maxLen not applied: %d %d", len(s.GAlpha), len(s.HBeta))
	}
	full, _ := ParseSRS(data, "x", ReadMaxLen)
	if !full.HBeta[39].Equal(&s.HBeta[39]) {
		t.Fatal("truncated read gives other points")
	}
	pk, vk, err := full.Specialize(16)
	if err != nil {
		t.Fatal(err)
	}
	if len(pk.GAlpha) != 32 || len(pk.WKeyA) != 16 || !pk.WKeyA[0].Equal(&full.GAlpha[16]) || !vk.HAlphaD.Equal(&full.HAlpha[128-16]) {
		t.Fatal("specialization picks wrong powers")
	}
	for _, n := range []int{0, 1, 3, 128} {
		if _, _, err := full.Specialize(n); err == nil {
			t.Fatalf("Specialize(%d) accepted", n)
		}
	}
}

// TestParseSRSInfinity: the SRS reader takes blstrs G1Affine::from_bytes as
// it is (groth16.AllowInfinity): a well-formed infinity encoding is a point,
// a malformed one an error naming the point.
func TestParseSRSInfinity(t *testing.T) {
	data, err := os.ReadFile(goldenSRSPath())
	if err != nil {
		t.Fatal(err)
	}
	off := 4 + 128*48 + 4 + 5*48 // g_beta_powers[5]
	b := append([]byte(nil), data...)
	copy(b[off:off+48], make([]byte, 48))
	b[off] = 0xc0
	s, err := ParseSRS(b, "f.srs", ReadMaxLen)
	if err != nil {
		t.Fatalf("infinity in g_beta_powers[5]: %v", err)
	}
	if !s.GBeta[5].IsInfinity() || s.GBeta[4].IsInfinity() {
		t.Fatal("g_beta_powers[5] is not the only infinity")
	}
	b[off+47] = 1
	_, err = ParseSRS(b, "f.srs", ReadMaxLen)
	if want := "g_beta_powers[5] at byte offset 6392: bad zcash encoding flags"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("malformed infinity: err = %v, want %q", err, want)
	}
}

func TestParseSRSErrors(t *testing.T) {
	data, err := os.ReadFile(goldenSRSPath())
	if err != nil {
		t.Fatal(err)
	}
	mut := func(f func(b []byte) []byte) []byte {
		b := append([]byte(nil), data...)
		return f(b)
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "g_alpha_powers length at byte offset 0"},
		{"truncated", data[:1000], "g_alpha_powers length at byte offset 0: truncated"},
		{"huge count", mut(func(b []byte) []byte { binary.BigEndian.PutUint32(b, MaxSRSSize+1); return b }), "invalid SRS vector length"},
		{"bad g_beta point", mut(func(b []byte) []byte { b[4+128*48+4+5*48+7] ^= 0xff; return b }), "g_beta_powers[5] at byte offset 6392"},
		{"bad h_beta flags", mut(func(b []byte) []byte { b[4+128*48+4+128*48+4+128*96+4] &^= 0x80; return b }), "h_beta_powers[0] at byte offset"},
		{"truncated h_beta", data[:len(data)-1], "h_beta_powers length at byte offset"},
	}
	for _, c := range cases {
		_, err := ParseSRS(c.data, "f.srs", ReadMaxLen)
		var se *SRSError
		if err == nil || !errors.As(err, &se) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v, want one line containing %q", c.name, err, c.want)
		}
	}
}

// TestReadSRSFileTruncated: ReadSRSFile reads with pread, so an SRS file
// cut short (as an interrupted download leaves it, or one truncated while
// read) is an error naming the file and the vector, never a fault.
func TestReadSRSFileTruncated(t *testing.T) {
	want, err := os.ReadFile(goldenSRSPath())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cut.srs")
	if err := os.WriteFile(path, want[:len(want)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadSRSFile(path)
	if !errors.Is(err, errTruncated) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "_powers") {
		t.Fatalf("half an SRS file: %v", err)
	}
}
