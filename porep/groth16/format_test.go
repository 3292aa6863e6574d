// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// tinyCircuit gives small params (a few KiB) for format tests.
var tinyCircuit = randomCircuit{shapeSeed: 31, valueSeed: 1, nPub: 2, nAux0: 3, nCons: 6}

func tinyParamsBytes(t testing.TB) (*Params, []byte) {
	t.Helper()
	p, err := Setup(tinyCircuit.r1cs(t), ToxicWasteFromSeed(seed32(6)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := p.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return p, buf.Bytes()
}

func randomG1(t testing.TB) bls.G1Affine {
	var s fr.Element
	s.SetRandom()
	return g1Base(s)
}

func randomG2(t testing.TB) bls.G2Affine {
	var s fr.Element
	s.SetRandom()
	return g2Base(s)
}

// TestPointEncodingRoundTrip: our decoders accept gnark-crypto's zcash
// encoders' output and return the same points; gnark decodes our proof
// encoding.
func TestPointEncodingRoundTrip(t *testing.T) {
	for i := 0; i < 20; i++ {
		p1, p2 := randomG1(t), randomG2(t)
		raw1, raw2 := p1.RawBytes(), p2.RawBytes()
		for _, checked := range []bool{false, true} {
			var q1 bls.G1Affine
			var q2 bls.G2Affine
			if err := decodeG1Uncompressed(&q1, raw1[:], checked); err != nil || !q1.Equal(&p1) {
				t.Fatalf("G1 uncompressed checked=%v: %v", checked, err)
			}
			if err := decodeG2Uncompressed(&q2, raw2[:], checked); err != nil || !q2.Equal(&p2) {
				t.Fatalf("G2 uncompressed checked=%v: %v", checked, err)
			}
		}
		pr := Proof{A: p1, B: p2, C: randomG1(t)}
		enc := pr.Bytes()
		// gnark decodes each part of our encoding
		var a, c bls.G1Affine
		var b bls.G2Affine
		if _, err := a.SetBytes(enc[0:48]); err != nil || !a.Equal(&pr.A) {
			t.Fatal("gnark decode of A")
		}
		if _, err := b.SetBytes(enc[48:144]); err != nil || !b.Equal(&pr.B) {
			t.Fatal("gnark decode of B")
		}
		if _, err := c.SetBytes(enc[144:ProofSize]); err != nil || !c.Equal(&pr.C) {
			t.Fatal("gnark decode of C")
		}
		// we decode gnark's compressed encoders' output
		ab, bb, cb := pr.A.Bytes(), pr.B.Bytes(), pr.C.Bytes()
		var got Proof
		if err := got.SetBytes(append(append(ab[:], bb[:]...), cb[:]...)); err != nil || got != pr {
			t.Fatalf("decode of gnark encoding: %v", err)
		}
	}
	// multi-partition: concatenation, in order
	ps := []Proof{{A: randomG1(t), B: randomG2(t), C: randomG1(t)}, {A: randomG1(t), B: randomG2(t), C: randomG1(t)}}
	enc := EncodeProofs(ps)
	if len(enc) != 2*ProofSize {
		t.Fatalf("%d bytes", len(enc))
	}
	dec, err := DecodeProofs(enc)
	if err != nil || len(dec) != 2 || dec[0] != ps[0] || dec[1] != ps[1] {
		t.Fatalf("DecodeProofs: %v", err)
	}
}

// corruption helpers on a 96/192-byte uncompressed encoding
func setNonCanonicalX(b []byte) {
	mod := fp.Modulus().Bytes() // 48 bytes big-endian, top bits clear
	copy(b[48-len(mod):48], mod)
	for i := 0; i < 48-len(mod); i++ {
		b[i] = 0
	}
}

func setInfinity(b []byte) {
	for i := range b {
		b[i] = 0
	}
	b[0] = 0x40
}

func notInG1() bls.G1Affine {
	var f fp.Element
	f.SetUint64(3)
	j := bls.GeneratePointNotInG1(f)
	var p bls.G1Affine
	p.FromJacobian(&j)
	return p
}

func notInG2() bls.G2Affine {
	var f bls.E2
	f.A0.SetUint64(5)
	f.A1.SetUint64(1)
	j := bls.GeneratePointNotInG2(f)
	var p bls.G2Affine
	p.FromJacobian(&j)
	return p
}

func TestPointDecodeRejects(t *testing.T) {
	g1, g2 := randomG1(t), randomG2(t)
	bad1, bad2 := notInG1(), notInG2()
	if !bad1.IsOnCurve() || bad1.IsInSubGroup() || !bad2.IsOnCurve() || bad2.IsInSubGroup() {
		t.Fatal("test points are not off-subgroup curve points")
	}
	type tc struct {
		name    string
		mut     func(b []byte)
		checked bool
		want    error
	}
	cases := []tc{
		{"infinity", setInfinity, false, ErrPointAtInfinity},
		{"infinity flag with data", func(b []byte) { b[0] |= 0x40 }, false, ErrBadFlags},
		{"compression flag", func(b []byte) { b[0] |= 0x80 }, false, ErrBadFlags},
		{"sort flag", func(b []byte) { b[0] |= 0x20 }, false, ErrBadFlags},
		{"non-canonical x", setNonCanonicalX, false, ErrNonCanonical},
		{"off curve", func(b []byte) { b[len(b)-1] ^= 1 }, false, ErrNotOnCurve},
		{"all zero", func(b []byte) {
			for i := range b {
				b[i] = 0
			}
		}, false, ErrNotOnCurve},
	}
	for _, c := range cases {
		r1, r2 := g1.RawBytes(), g2.RawBytes()
		c.mut(r1[:])
		c.mut(r2[:])
		var q1 bls.G1Affine
		var q2 bls.G2Affine
		if err := decodeG1Uncompressed(&q1, r1[:], c.checked); !errors.Is(err, c.want) {
			t.Errorf("G1 %s: got %v, want %v", c.name, err, c.want)
		}
		if err := decodeG2Uncompressed(&q2, r2[:], c.checked); !errors.Is(err, c.want) {
			t.Errorf("G2 %s: got %v, want %v", c.name, err, c.want)
		}
	}
	// subgroup: rejected only in checked mode
	r1, r2 := bad1.RawBytes(), bad2.RawBytes()
	var q1 bls.G1Affine
	var q2 bls.G2Affine
	if err := decodeG1Uncompressed(&q1, r1[:], true); !errors.Is(err, ErrNotInSubgroup) {
		t.Errorf("G1 non-subgroup checked: %v", err)
	}
	if err := decodeG1Uncompressed(&q1, r1[:], false); err != nil {
		t.Errorf("G1 non-subgroup unchecked: %v", err)
	}
	if err := decodeG2Uncompressed(&q2, r2[:], true); !errors.Is(err, ErrNotInSubgroup) {
		t.Errorf("G2 non-subgroup checked: %v", err)
	}
	if err := decodeG2Uncompressed(&q2, r2[:], false); err != nil {
		t.Errorf("G2 non-subgroup unchecked: %v", err)
	}
}

// TestCompressedDecodeInfinityRules: the two rules of the one compressed
// decoder differ only on the infinity flag. RejectInfinity (Proof::read)
// refuses it whatever follows; AllowInfinity (blstrs from_compressed, the
// SRS and aggregate proofs) decodes the well-formed encoding to infinity and
// refuses one with any other bit set, as blst. Every other encoding decodes
// alike under both rules.
func TestCompressedDecodeInfinityRules(t *testing.T) {
	g1, g2 := randomG1(t), randomG2(t)
	bad1, bad2 := notInG1(), notInG2()
	e1, e2 := g1.Bytes(), g2.Bytes()
	n1, n2 := bad1.Bytes(), bad2.Bytes()
	inf := func(n int, mut func(b []byte)) []byte {
		b := make([]byte, n)
		b[0] = 0xc0
		if mut != nil {
			mut(b)
		}
		return b
	}
	nonCanonical := func(n int) []byte {
		b := make([]byte, n)
		mod := fp.Modulus().Bytes()
		copy(b[48-len(mod):48], mod)
		b[0] |= 0x80
		return b
	}
	cases := []struct {
		name          string
		g1, g2        []byte
		reject, allow error // nil: decodes
		wantInfinity  bool  // under AllowInfinity
	}{
		{"point", e1[:], e2[:], nil, nil, false},
		{"infinity", inf(48, nil), inf(96, nil), ErrPointAtInfinity, nil, true},
		{"infinity, last byte set", inf(48, func(b []byte) { b[len(b)-1] = 1 }), inf(96, func(b []byte) { b[len(b)-1] = 1 }), ErrPointAtInfinity, ErrBadFlags, false},
		{"infinity, low bit of flag byte", inf(48, func(b []byte) { b[0] |= 1 }), inf(96, func(b []byte) { b[0] |= 1 }), ErrPointAtInfinity, ErrBadFlags, false},
		{"infinity with sort flag", inf(48, func(b []byte) { b[0] |= 0x20 }), inf(96, func(b []byte) { b[0] |= 0x20 }), ErrBadFlags, ErrBadFlags, false},
		{"uncompressed flag", append([]byte{e1[0] &^ 0x80}, e1[1:]...), append([]byte{e2[0] &^ 0x80}, e2[1:]...), ErrBadFlags, ErrBadFlags, false},
		{"non-canonical x", nonCanonical(48), nonCanonical(96), ErrNonCanonical, ErrNonCanonical, false},
		{"not in subgroup", n1[:], n2[:], ErrNotInSubgroup, ErrNotInSubgroup, false},
		{"truncated", e1[:47], e2[:95], ErrTruncated, ErrTruncated, false},
	}
	for _, c := range cases {
		for _, rule := range []Infinity{RejectInfinity, AllowInfinity} {
			want := c.reject
			if rule == AllowInfinity {
				want = c.allow
			}
			var p1 bls.G1Affine
			var p2 bls.G2Affine
			err1 := DecodeG1Compressed(&p1, c.g1, rule)
			err2 := DecodeG2Compressed(&p2, c.g2, rule)
			if !errors.Is(err1, want) || (want == nil) != (err1 == nil) {
				t.Errorf("%s, rule %v: G1 err = %v, want %v", c.name, rule, err1, want)
			}
			if !errors.Is(err2, want) || (want == nil) != (err2 == nil) {
				t.Errorf("%s, rule %v: G2 err = %v, want %v", c.name, rule, err2, want)
			}
			if err1 != nil || err2 != nil {
				continue
			}
			if c.wantInfinity {
				if !p1.IsInfinity() || !p2.IsInfinity() {
					t.Errorf("%s: decoded %v, %v, want infinity", c.name, p1, p2)
				}
			} else if !p1.Equal(&g1) || !p2.Equal(&g2) {
				t.Errorf("%s, rule %v: decoded another point", c.name, rule)
			}
		}
	}
}

func TestProofDecodeRejects(t *testing.T) {
	good := Proof{A: randomG1(t), B: randomG2(t), C: randomG1(t)}
	enc := good.Bytes()
	cases := []struct {
		name   string
		mut    func(b []byte)
		offset int64
		want   error
	}{
		{"A infinity", func(b []byte) { copy(b[0:48], make([]byte, 48)); b[0] = 0xc0 }, 0, ErrPointAtInfinity},
		{"B infinity", func(b []byte) { copy(b[48:144], make([]byte, 96)); b[48] = 0xc0 }, 48, ErrPointAtInfinity},
		{"C uncompressed flag", func(b []byte) { b[144] &^= 0x80 }, 144, ErrBadFlags},
		{"A non-canonical", func(b []byte) {
			mod := fp.Modulus().Bytes()
			copy(b[0:48], make([]byte, 48))
			copy(b[48-len(mod):48], mod)
			b[0] |= 0x80
		}, 0, ErrNonCanonical},
		{"C not in subgroup", func(b []byte) { x := notInG1(); c := x.Bytes(); copy(b[144:], c[:]) }, 144, ErrNotInSubgroup},
		{"B not in subgroup", func(b []byte) { x := notInG2(); c := x.Bytes(); copy(b[48:144], c[:]) }, 48, ErrNotInSubgroup},
	}
	for _, c := range cases {
		b := enc
		c.mut(b[:])
		// as the second proof of a pair: offsets are absolute
		two := append(append([]byte(nil), enc[:]...), b[:]...)
		_, err := DecodeProofs(two)
		var fe *FormatError
		if !errors.As(err, &fe) || !errors.Is(err, c.want) || fe.Offset != ProofSize+c.offset || fe.Section != SectionProof {
			t.Errorf("%s: got %v, want %v at offset %d", c.name, err, c.want, ProofSize+c.offset)
		}
	}
	// C with no curve point: find an x with no square root
	b := enc
	for x := uint64(1); ; x++ {
		var fx, y2 fp.Element
		fx.SetUint64(x)
		y2.Square(&fx).Mul(&y2, &fx)
		var four fp.Element
		four.SetUint64(4)
		y2.Add(&y2, &four)
		if y2.Legendre() == -1 {
			xb := fx.Bytes()
			copy(b[144:], xb[:])
			b[144] |= 0x80
			break
		}
	}
	var pr Proof
	if err := pr.SetBytes(b[:]); !errors.Is(err, ErrNotOnCurve) {
		t.Errorf("x without curve point: %v", err)
	}
	for _, n := range []int{0, 191, 193, 383} {
		if _, err := DecodeProofs(make([]byte, n)); !errors.Is(err, ErrTruncated) {
			t.Errorf("length %d: %v", n, err)
		}
	}
}

// boundary is a cut position and the error location it must produce.
type boundary struct {
	cut     int
	section string
	offset  int64
}

// truncationBoundaries lists every section/field boundary of a params
// encoding (and one byte before each), with the expected error location.
func truncationBoundaries(p *Params, size int) []boundary {
	var out []boundary
	vkSizes := []int{96, 96, 192, 192, 96, 192}
	off := 0
	for _, s := range vkSizes {
		out = append(out, boundary{off, SectionVK, int64(off)}, boundary{off + s - 1, SectionVK, int64(off)})
		off += s
	}
	// ic: count at 864
	out = append(out, boundary{off, SectionIC, int64(off)}, boundary{off + 3, SectionIC, int64(off)})
	icEnd := off + 4 + 96*len(p.VK.IC)
	for k := off + 4; k < icEnd; k += 96 {
		out = append(out, boundary{k, SectionIC, int64(off)}, boundary{k + 95, SectionIC, int64(off)})
	}
	for _, s := range p.Sections() {
		countOff := s.Offset - 4
		out = append(out, boundary{int(countOff), s.Name, countOff}, boundary{int(countOff) + 3, s.Name, countOff})
		for k := 0; k < s.Count; k++ {
			pos := int(s.Offset) + k*s.ElemSize
			out = append(out, boundary{pos + s.ElemSize - 1, s.Name, countOff})
		}
	}
	_ = size
	return out
}

func TestParamsTruncatedEverywhere(t *testing.T) {
	p, data := tinyParamsBytes(t)
	bs := truncationBoundaries(p, len(data))
	if len(bs) < 30 {
		t.Fatalf("only %d boundaries", len(bs))
	}
	for _, b := range bs {
		_, err := ParseParams(data[:b.cut], "tiny.params", false)
		var fe *FormatError
		if !errors.As(err, &fe) || !errors.Is(err, ErrTruncated) {
			t.Fatalf("cut at %d: got %v, want a truncation FormatError", b.cut, err)
		}
		if fe.Section != b.section || fe.Offset != b.offset || fe.File != "tiny.params" {
			t.Fatalf("cut at %d: error at %s/%d, want %s/%d: %v", b.cut, fe.Section, fe.Offset, b.section, b.offset, err)
		}
	}
	// the whole file parses; one extra byte does not
	if _, err := ParseParams(data, "tiny.params", true); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseParams(append(append([]byte(nil), data...), 0), "tiny.params", false); !errors.Is(err, ErrTrailingData) {
		t.Fatalf("trailing byte: %v", err)
	}
	// vk file: truncated and trailing
	vkb := p.VK.Bytes()
	if _, err := ParseVerifyingKey(vkb[:len(vkb)-1], "x.vk"); !errors.Is(err, ErrTruncated) {
		t.Fatalf("vk truncated: %v", err)
	}
	if _, err := ParseVerifyingKey(append(vkb, 1), "x.vk"); !errors.Is(err, ErrTrailingData) {
		t.Fatalf("vk trailing: %v", err)
	}
}

func TestParamsWrongCounts(t *testing.T) {
	p, data := tinyParamsBytes(t)
	for _, s := range p.Sections() {
		for _, delta := range []int{-1, 1, 1 << 20} {
			b := append([]byte(nil), data...)
			countOff := s.Offset - 4
			binary.BigEndian.PutUint32(b[countOff:], uint32(s.Count+delta))
			_, err := ParseParams(b, "tiny.params", false)
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("%s count %+d: got %v, want FormatError", s.Name, delta, err)
			}
			if !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrTrailingData) {
				t.Fatalf("%s count %+d: %v", s.Name, delta, err)
			}
		}
	}
	// ic count off by one
	b := append([]byte(nil), data...)
	binary.BigEndian.PutUint32(b[864:], uint32(len(p.VK.IC)+1))
	if _, err := ParseParams(b, "tiny.params", false); err == nil {
		t.Fatal("ic count +1 accepted")
	}
}

// TestParamsBadPoints corrupts one point per query and checks that the
// lazy decoder names file, section, index and byte offset.
func TestParamsBadPoints(t *testing.T) {
	p, data := tinyParamsBytes(t)
	secs := p.Sections()
	dir := t.TempDir()
	type tc struct {
		name    string
		q       int
		index   int
		mut     func(b []byte)
		checked bool
		want    error
	}
	nonSub1, nonSub2 := notInG1(), notInG2()
	cases := []tc{
		{"h non-canonical", qH, 1, setNonCanonicalX, false, ErrNonCanonical},
		{"l off-curve", qL, 0, func(b []byte) { b[95] ^= 1 }, false, ErrNotOnCurve},
		{"a infinity", qA, 2, setInfinity, false, ErrPointAtInfinity},
		{"b_g1 bad flags", qBG1, 0, func(b []byte) { b[0] |= 0x80 }, false, ErrBadFlags},
		{"b_g1 not in subgroup", qBG1, 1, func(b []byte) { r := nonSub1.RawBytes(); copy(b, r[:]) }, true, ErrNotInSubgroup},
		{"b_g2 not in subgroup", qBG2, 1, func(b []byte) { r := nonSub2.RawBytes(); copy(b, r[:]) }, true, ErrNotInSubgroup},
		{"b_g2 infinity", qBG2, 0, setInfinity, false, ErrPointAtInfinity},
	}
	for _, c := range cases {
		s := secs[c.q]
		if c.index >= s.Count {
			t.Fatalf("%s: section has only %d points", c.name, s.Count)
		}
		b := append([]byte(nil), data...)
		at := s.Offset + int64(c.index*s.ElemSize)
		c.mut(b[at : at+int64(s.ElemSize)])
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".params")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		fp, err := OpenParams(path, c.checked)
		if err != nil {
			t.Fatalf("%s: open: %v", c.name, err) // queries are decoded lazily
		}
		var derr error
		switch c.q {
		case qH:
			_, derr = fp.H()
		case qL:
			_, derr = fp.L()
		case qA:
			_, derr = fp.A()
		case qBG1:
			_, derr = fp.BG1()
		case qBG2:
			_, derr = fp.BG2()
		}
		var fe *FormatError
		if !errors.As(derr, &fe) || !errors.Is(derr, c.want) {
			t.Fatalf("%s: got %v, want %v", c.name, derr, c.want)
		}
		if perr := fp.Preload(); !errors.Is(perr, c.want) {
			t.Fatalf("%s: Preload: got %v, want %v", c.name, perr, c.want)
		}
		if fe.File != path || fe.Section != s.Name || fe.Index != c.index || fe.Offset != at {
			t.Fatalf("%s: located at %s %s[%d] @%d, want %s %s[%d] @%d", c.name, fe.File, fe.Section, fe.Index, fe.Offset, path, s.Name, c.index, at)
		}
		if !strings.Contains(derr.Error(), path) {
			t.Fatalf("%s: message %q does not name the file", c.name, derr)
		}
		// the subgroup cases pass unchecked
		if c.want == ErrNotInSubgroup {
			fu, _ := OpenParams(path, false)
			if c.q == qBG2 {
				_, derr = fu.BG2()
			} else {
				_, derr = fu.BG1()
			}
			if derr != nil {
				t.Fatalf("%s unchecked: %v", c.name, derr)
			}
			fu.Close()
		}
		fp.Close()
	}
	// vk points are always checked, at open time
	vkCases := []struct {
		name    string
		at      int
		size    int
		section string
		index   int
		mut     func(b []byte)
		want    error
	}{
		{"ic infinity", 868 + 96, 96, SectionIC, 1, setInfinity, ErrPointAtInfinity},
		{"beta_g2 not in subgroup", 192, 192, SectionVK, 2, func(b []byte) { r := nonSub2.RawBytes(); copy(b, r[:]) }, ErrNotInSubgroup},
		{"alpha_g1 non-canonical", 0, 96, SectionVK, 0, setNonCanonicalX, ErrNonCanonical},
		{"delta_g1 off curve", 576, 96, SectionVK, 4, func(b []byte) { b[95] ^= 1 }, ErrNotOnCurve},
	}
	for _, c := range vkCases {
		b := append([]byte(nil), data...)
		c.mut(b[c.at : c.at+c.size])
		_, err := ParseParams(b, "tiny.params", false)
		var fe *FormatError
		if !errors.As(err, &fe) || !errors.Is(err, c.want) || fe.Section != c.section || fe.Index != c.index || fe.Offset != int64(c.at) {
			t.Fatalf("%s: got %v", c.name, err)
		}
		_, err = ParseVerifyingKey(b[:p.VK.EncodedSize()], "x.vk")
		if !errors.Is(err, c.want) {
			t.Fatalf("%s in .vk: got %v", c.name, err)
		}
	}
}

func TestOpenParamsMissingAndEmpty(t *testing.T) {
	dir := t.TempDir()
	if _, err := OpenParams(filepath.Join(dir, "nope.params"), false); err == nil {
		t.Fatal("missing file opened")
	}
	empty := filepath.Join(dir, "empty.params")
	os.WriteFile(empty, nil, 0o644)
	if _, err := OpenParams(empty, false); !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), empty) {
		t.Fatalf("empty file: %v", err)
	}
}

// TestFileDigest: BLAKE2b-512("abc") from RFC 7693 appendix A starts
// ba80a53f981c4d0d6a2797b69f12f6e9; the digest rule keeps those 16 bytes.
func TestFileDigest(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "v28-test.params")
	os.WriteFile(path, []byte("abc"), 0o644)
	d, err := FileDigest(path)
	if err != nil || d != "ba80a53f981c4d0d6a2797b69f12f6e9" {
		t.Fatalf("digest %q, %v", d, err)
	}
	// parameters.json shape from rust-fil-proofs (2 KiB vk entry, docs/formats.md §4.2)
	js := `{"v28-test.params":{"cid":"Qm","digest":"ba80a53f981c4d0d6a2797b69f12f6e9","sector_size":2048},
	"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.vk":
	{"cid":"QmamahpFCstMUqHi2qGtVoDnRrsXhid86qsfvoyCTKJqHr","digest":"dc1ade9929ade1708238f155343044ac","sector_size":2048}}`
	table, err := ParseParametersJSON(strings.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifyFileDigest(path, table); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, []byte("abd"), 0o644)
	if err := VerifyFileDigest(path, table); err == nil || !strings.Contains(err.Error(), "ba80a53f981c4d0d6a2797b69f12f6e9") {
		t.Fatalf("modified file: %v", err)
	}
	other := filepath.Join(dir, "unknown.params")
	os.WriteFile(other, []byte("abc"), 0o644)
	if err := VerifyFileDigest(other, table); err == nil {
		t.Fatal("unlisted file accepted")
	}
	if _, err := ParseParametersJSON(strings.NewReader(`{"x":{"digest":"zz"}}`)); err == nil {
		t.Fatal("bad digest accepted")
	}
}

// Golden zcash/IETF encodings of the standard generators (the BLS12-381
// serialization spec; the G1 compressed form is the consensus-specs
// bls/sk_to_pk/sk_1 vector and the first g1_monomial entry of the Ethereum
// KZG trusted setup, the G2 one its first g2_monomial entry).
const (
	goldenG1Compressed   = "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
	goldenG1Uncompressed = "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb" +
		"08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1"
	goldenG2Compressed = "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e" +
		"024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
)

func TestGeneratorEncodingGolden(t *testing.T) {
	_, _, g1, g2 := bls.Generators()
	pr := Proof{A: g1, B: g2, C: g1}
	enc := pr.Bytes()
	if got := hex.EncodeToString(enc[0:48]); got != goldenG1Compressed {
		t.Errorf("G1 compressed %s", got)
	}
	if got := hex.EncodeToString(enc[48:144]); got != goldenG2Compressed {
		t.Errorf("G2 compressed %s", got)
	}
	vk := VerifyingKey{Alpha1: g1}
	if got := hex.EncodeToString(vk.Bytes()[0:96]); got != goldenG1Uncompressed {
		t.Errorf("G1 uncompressed %s", got)
	}
	raw, _ := hex.DecodeString(goldenG1Uncompressed)
	var q bls.G1Affine
	if err := decodeG1Uncompressed(&q, raw, true); err != nil || !q.Equal(&g1) {
		t.Errorf("decode golden G1: %v", err)
	}
	var dec Proof
	if err := dec.SetBytes(enc[:]); err != nil || dec != pr {
		t.Errorf("decode golden proof: %v", err)
	}
}
