// SPDX-License-Identifier: Apache-2.0 OR MIT

package aggregate

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/groth16"
)

const vkName = "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.vk"

func readPublics(t testing.TB, dir string) [][]fr.Element {
	t.Helper()
	m := readMeta(t, dir)
	var out [][]fr.Element
	for _, p := range m.Partition {
		v := make([]fr.Element, len(p.PublicInputs))
		for i, h := range p.PublicInputs {
			b := unhex(t, h)
			var a [32]byte
			copy(a[:], b)
			e, err := fr.LittleEndian.Element(&a)
			if err != nil {
				t.Fatal(err)
			}
			v[i] = e
		}
		out = append(out, v)
	}
	return out
}

type verifyCase struct {
	dir     string
	include []byte
	public  [][]fr.Element
	vk      *groth16.VerifyingKey
	golden  []byte
	vsrs    *VerifierSRS
}

func loadVerifyCase(t *testing.T, ni bool) verifyCase {
	t.Helper()
	var c verifyCase
	if ni {
		c.dir = "agg-2KiB-ni-s12"
		c.include, _ = niCase(t)
		c.public = readPublics(t, "2KiB-ni-s12")
		for len(c.public) < 16 {
			c.public = append(c.public, c.public[len(c.public)-1])
		}
	} else {
		c.dir = "agg-2KiB-s10-s14"
		c.include, _ = interactiveCase(t)
		c.public = append(readPublics(t, "2KiB-s10"), readPublics(t, "2KiB-s14")...)
	}
	var err error
	if c.vk, err = groth16.ReadVerifyingKeyFile(filepath.Join(goldenDir, "2KiB-s10", vkName)); err != nil {
		t.Fatal(err)
	}
	if c.golden, err = os.ReadFile(filepath.Join(goldenDir, c.dir, "aggregate.bin")); err != nil {
		t.Fatal(err)
	}
	if _, c.vsrs, err = loadGoldenSRS(t).Specialize(len(c.public)); err != nil {
		t.Fatal(err)
	}
	return c
}

func (c *verifyCase) verify(b []byte, include []byte, public [][]fr.Element) error {
	p, err := ParseAggregateProof(b)
	if err != nil {
		return err
	}
	return Verify(c.vsrs, c.vk, public, include, p)
}

// TestVerifyGolden: bellperson's aggregates verify, and any change of the
// statement or of a proof value makes them fail with ErrInvalidAggregate.
func TestVerifyGolden(t *testing.T) {
	for _, ni := range []bool{false, true} {
		c := loadVerifyCase(t, ni)
		if err := c.verify(c.golden, c.include, c.public); err != nil {
			t.Fatalf("%s: bellperson's aggregate rejected: %v", c.dir, err)
		}
		// Another transcript include (e.g. another seed).
		inc := append([]byte(nil), c.include...)
		inc[0] ^= 1
		if err := c.verify(c.golden, inc, c.public); !errors.Is(err, ErrInvalidAggregate) {
			t.Errorf("%s: other include: err = %v", c.dir, err)
		}
		// Another public input.
		pub := make([][]fr.Element, len(c.public))
		copy(pub, c.public)
		pub[1] = append([]fr.Element(nil), pub[1]...)
		pub[1][0].SetUint64(12345)
		if err := c.verify(c.golden, c.include, pub); !errors.Is(err, ErrInvalidAggregate) {
			t.Errorf("%s: other public input: err = %v", c.dir, err)
		}
		// Swapped valid elements: com_ab.0 ↔ com_ab.1, final_vkey.0 ↔ final_vkey.1,
		// the two z_c of round 0.
		swaps := []struct {
			name       string
			off1, off2 int
			size       int
		}{
			{"com_ab", 0, GtCompressedSize, GtCompressedSize},
			{"ip_ab/com_c.1", 4 * GtCompressedSize, 3 * GtCompressedSize, GtCompressedSize},
		}
		l := logProofs(len(c.public))
		zc0 := 5*GtCompressedSize + 48 + 4 + l*10*GtCompressedSize
		swaps = append(swaps, struct {
			name       string
			off1, off2 int
			size       int
		}{"z_c[0]", zc0, zc0 + 48, 48})
		end := len(c.golden)
		swaps = append(swaps, []struct {
			name       string
			off1, off2 int
			size       int
		}{
			{"wkey_opening", end - 96, end - 48, 48},
			{"vkey_opening", end - 288, end - 192, 96},
			{"final_wkey", end - 384, end - 336, 48},
			{"final_vkey", end - 576, end - 480, 96},
			{"final_a/final_c", end - 768, end - 624, 48},
		}...)
		for _, s := range swaps {
			b := append([]byte(nil), c.golden...)
			if string(b[s.off1:s.off1+s.size]) == string(b[s.off2:s.off2+s.size]) {
				continue // equal values (for n = 2 both v openings are h·x)
			}
			tmp := append([]byte(nil), b[s.off1:s.off1+s.size]...)
			copy(b[s.off1:], b[s.off2:s.off2+s.size])
			copy(b[s.off2:], tmp)
			if err := c.verify(b, c.include, c.public); !errors.Is(err, ErrInvalidAggregate) {
				t.Errorf("%s: swapped %s: err = %v", c.dir, s.name, err)
			}
		}
		// A shape mismatch is an error, not an invalid aggregate.
		if err := c.verify(c.golden, c.include, c.public[:len(c.public)-1]); err == nil || errors.Is(err, ErrInvalidAggregate) {
			t.Errorf("%s: too few inputs: err = %v", c.dir, err)
		}
	}
}

// TestVerifyOwnAggregate: cuseal's aggregate of the NI partitions verifies
// (cross-check of prover and verifier beyond the golden bytes), including
// an aggregate padded from 3 to 4 proofs.
func TestVerifyOwnAggregate(t *testing.T) {
	c := loadVerifyCase(t, true)
	_, proofs := niCase(t)
	proofs = proofs[:3]
	public := c.public[:3]
	proofs = append(proofs, proofs[2])
	public = append(public, public[2])
	pk, vsrs, err := loadGoldenSRS(t).Specialize(4)
	if err != nil {
		t.Fatal(err)
	}
	agg, err := Aggregate(pk, []byte("x"), proofs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := agg.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseAggregateProof(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(vsrs, c.vk, public, []byte("x"), p); err != nil {
		t.Fatal(err)
	}
	// Proofs in another order than the inputs: invalid.
	proofs[0], proofs[1] = proofs[1], proofs[0]
	agg, _ = Aggregate(pk, []byte("x"), proofs)
	if err := Verify(vsrs, c.vk, public, []byte("x"), agg); !errors.Is(err, ErrInvalidAggregate) {
		t.Fatalf("reordered proofs: err = %v", err)
	}
}

func TestParseAggregateProofErrors(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join(goldenDir, "agg-2KiB-s10-s14", "aggregate.bin"))
	if err != nil {
		t.Fatal(err)
	}
	mut := func(off int, x byte) []byte {
		b := append([]byte(nil), golden...)
		b[off] ^= x
		return b
	}
	nproofsOff := 5*GtCompressedSize + 48
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "com_ab.0 at byte offset 0: malformed aggregate proof: truncated"},
		{"truncated", golden[:len(golden)-10], "wkey_opening.1 at byte offset 5188"},
		{"trailing", append(append([]byte(nil), golden...), 0), "end of proof at byte offset 5236"},
		{"gt not canonical", mut(47, 0xff), "com_ab.0 at byte offset 0"},
		{"gt not in subgroup", mut(GtCompressedSize+3, 0x01), "com_ab.1 at byte offset 288"},
		{"nproofs", mut(nproofsOff, 0x04), "nproofs at byte offset 1488: malformed aggregate proof: nproofs 6"},
		{"agg_c", mut(5*GtCompressedSize+10, 0x55), "agg_c at byte offset 1440"},
	}
	for _, c := range cases {
		_, err := ParseAggregateProof(c.data)
		var pe *ProofError
		if err == nil || !errors.As(err, &pe) || !errors.Is(err, ErrMalformedProof) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v, want one line containing %q", c.name, err, c.want)
		}
	}
}

// TestParseAggregateProofInfinity: AggregateProof::read reads points with
// blstrs from_compressed (groth16.AllowInfinity): agg_c at infinity parses
// and re-encodes to the same bytes; a malformed infinity is an error.
func TestParseAggregateProofInfinity(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join(goldenDir, "agg-2KiB-s10-s14", "aggregate.bin"))
	if err != nil {
		t.Fatal(err)
	}
	off := 5 * GtCompressedSize // agg_c
	b := append([]byte(nil), golden...)
	copy(b[off:off+48], make([]byte, 48))
	b[off] = 0xc0
	p, err := ParseAggregateProof(b)
	if err != nil {
		t.Fatalf("agg_c at infinity: %v", err)
	}
	if !p.AggC.IsInfinity() {
		t.Fatal("agg_c did not decode to infinity")
	}
	if enc, err := p.Bytes(); err != nil || !bytes.Equal(enc, b) {
		t.Fatalf("re-encoding: err = %v, same bytes = %v", err, bytes.Equal(enc, b))
	}
	b[off+1] = 1
	if _, err := ParseAggregateProof(b); err == nil || !strings.Contains(err.Error(), "agg_c at byte offset 1440") {
		t.Fatalf("malformed infinity: err = %v", err)
	}
}

// TestFakeProofsAggregate: FakeProofs are valid Groth16 proofs (checked
// one by one with the groth16 verifier), and their aggregate verifies for
// 2 and 8 proofs.
func TestFakeProofsAggregate(t *testing.T) {
	var seed [32]byte
	vk, proofs, public := FakeProofs(seed, 8)
	pvk, err := groth16.PrepareVerifyingKey(vk)
	if err != nil {
		t.Fatal(err)
	}
	for i := range proofs {
		if err := pvk.Verify(&proofs[i], public[i]); err != nil {
			t.Fatalf("fake proof %d: %v", i, err)
		}
	}
	for _, n := range []int{2, 8} {
		pk, vsrs, err := loadGoldenSRS(t).Specialize(n)
		if err != nil {
			t.Fatal(err)
		}
		agg, err := Aggregate(pk, nil, proofs[:n])
		if err != nil {
			t.Fatal(err)
		}
		if err := Verify(vsrs, vk, public[:n], nil, agg); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
	}
}
