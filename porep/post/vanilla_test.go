// SPDX-License-Identifier: Apache-2.0 OR MIT

package post

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/stacked"
)

func mustConfig(t testing.TB, p abi.RegisteredPoStProof) *Config {
	t.Helper()
	c, err := ConfigFor(p)
	if err != nil {
		t.Fatal(err)
	}
	return &c
}

func readVanilla(t testing.TB, folder, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", folder, file))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestParseVanillaGolden parses rust-fil-proofs' vanilla proofs, checks
// their sizes, their fields against meta.json's sectors and that Bytes
// re-encodes them byte for byte.
func TestParseVanillaGolden(t *testing.T) {
	for _, tc := range []struct {
		folder string
		proof  abi.RegisteredPoStProof
	}{
		{"post-window-2KiB-s21", abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1},
		{"post-winning-2KiB-s22", abi.RegisteredPoStProof_StackedDrgWinning2KiBV1},
	} {
		t.Run(tc.folder, func(t *testing.T) {
			cfg := mustConfig(t, tc.proof)
			m := loadMeta(t, tc.folder)
			if len(m.Vanilla) != len(m.Sectors) {
				t.Fatalf("%d vanilla files, %d sectors", len(m.Vanilla), len(m.Sectors))
			}
			for i, f := range m.Vanilla {
				raw := readVanilla(t, tc.folder, f.File)
				if len(raw) != f.Size || len(raw) != VanillaProofSize(cfg) {
					t.Fatalf("%s: %d bytes, meta.json %d, VanillaProofSize %d", f.File, len(raw), f.Size, VanillaProofSize(cfg))
				}
				v, err := ParseVanillaProof(raw, cfg)
				if err != nil {
					t.Fatalf("%s: %v", f.File, err)
				}
				s := m.Sectors[i]
				if uint64(v.SectorID) != f.SectorNumber || uint64(v.SectorID) != s.SectorNumber {
					t.Errorf("%s: sector_id %d, meta.json %d", f.File, v.SectorID, f.SectorNumber)
				}
				sp := &v.Sectors[0]
				for _, c := range []struct {
					name string
					got  stacked.Domain
					want string
				}{{"comm_r", v.CommR, s.CommR}, {"comm_c", sp.CommC, s.CommC}, {"comm_r_last", sp.CommRLast, s.CommRLast}} {
					if hexs(c.got[:]) != c.want {
						t.Errorf("%s: %s %x, meta.json %s", f.File, c.name, c.got, c.want)
					}
				}
				if !bytes.Equal(v.Bytes(), raw) {
					t.Errorf("%s: Bytes() does not reproduce the file", f.File)
				}
			}
		})
	}
}

// TestParseVanillaBadInput: every defect is an error naming the field and
// its byte offset, never a panic.
func TestParseVanillaBadInput(t *testing.T) {
	win := mustConfig(t, abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1)
	good := readVanilla(t, "post-window-2KiB-s21", "vanilla/000.bin")
	// Layout offsets of the 2 KiB window proof (§8): 8 sector_id, 32 comm_r,
	// 8 sector count; inclusion proof i starts at 56 + 8 + 556·i with u32
	// tag, root, leaf, u64 levels, then per level u64 n, 7·32, u64 index.
	const incl0 = 64
	set64 := func(off int, v uint64) func([]byte) []byte {
		return func(b []byte) []byte { binary.LittleEndian.PutUint64(b[off:], v); return b }
	}
	set32 := func(off int, v uint32) func([]byte) []byte {
		return func(b []byte) []byte { binary.LittleEndian.PutUint32(b[off:], v); return b }
	}
	nonCanon := func(off int) func([]byte) []byte {
		return func(b []byte) []byte {
			for i := 0; i < 32; i++ {
				b[off+i] = 0xff
			}
			return b
		}
	}
	cases := []struct {
		name string
		cfg  *Config
		mut  func([]byte) []byte
		want []string
	}{
		{"empty", win, func(b []byte) []byte { return nil }, []string{"sector_id at byte 0", "truncated"}},
		{"truncated comm_r", win, func(b []byte) []byte { return b[:20] }, []string{"comm_r at byte 8", "truncated: 12 bytes left, need 32"}},
		{"truncated end", win, func(b []byte) []byte { return b[:len(b)-1] }, []string{"sector_proofs[0].comm_r_last at byte 5648", "truncated"}},
		{"trailing", win, func(b []byte) []byte { return append(b, 0) }, []string{"end at byte 5680", "1 trailing bytes"}},
		{"two sector proofs", win, set64(40, 2), []string{"sector_proofs.len at byte 40", "2 elements, want 1"}},
		{"challenge count", win, set64(48, 9), []string{"sector_proofs[0].inclusion_proofs.len at byte 48", "9 elements, want 10"}},
		{"huge count", win, set64(48, 1<<62), []string{"inclusion_proofs.len", "want 10"}},
		{"variant Sub", win, set32(56, 1), []string{"sector_proofs[0].inclusion_proofs[0].variant at byte 56", "tag 1 (Sub), want 0 (Single) for tree 8-0-0 of 2KiB"}},
		{"variant unknown", win, set32(56, 7), []string{"inclusion_proofs[0].variant", "tag 7 (ProofKind(7))"}},
		{"root not canonical", win, nonCanon(incl0 - 8 + 4), []string{"inclusion_proofs[0].root at byte 60", "not a canonical field element"}},
		{"levels", win, set64(incl0-8+4+64, 3), []string{"inclusion_proofs[0].path.len at byte 124", "3 elements, want 2"}},
		{"siblings", win, set64(incl0-8+4+64+8, 1), []string{"inclusion_proofs[0].path[0].hashes.len at byte 132", "1 elements, want 7"}},
		{"index", win, set64(incl0-8+4+64+8+8+7*32, 8), []string{"inclusion_proofs[0].path[0].index at byte 364", "8, want < 8"}},
		{"second proof", win, set64(56+556+4+64+8+8+7*32+8+8+7*32, 9), []string{"inclusion_proofs[1].path[1].index at byte 1160"}},
		{"comm_c", win, nonCanon(56 + 10*556), []string{"sector_proofs[0].comm_c at byte 5616"}},
		// A 2 KiB window proof is too short for a 32 GiB tree (Sub).
		{"another size", mustConfig(t, abi.RegisteredPoStProof_StackedDrgWindow32GiBV1_1), nil, []string{"inclusion_proofs[0].variant at byte 56", "want 1 (Sub) for tree 8-8-0 of 32GiB"}},
		// …and has 10 inclusion proofs where winning wants 66.
		{"winning", mustConfig(t, abi.RegisteredPoStProof_StackedDrgWinning2KiBV1), nil, []string{"inclusion_proofs.len at byte 48", "10 elements, want 66"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := append([]byte(nil), good...)
			if tc.mut != nil {
				b = tc.mut(b)
			}
			v, err := ParseVanillaProof(b, tc.cfg)
			if err == nil {
				t.Fatalf("accepted (%d bytes)", len(b))
			}
			if v != nil {
				t.Errorf("returned a proof with the error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if !strings.HasPrefix(err.Error(), "vanilla proof: ") {
				t.Errorf("error %q lacks the vanilla proof prefix", err)
			}
		})
	}
}

// TestParseVanillaTruncations: every prefix of a valid proof is rejected
// as truncated, at the offset where it ends.
func TestParseVanillaTruncations(t *testing.T) {
	cfg := mustConfig(t, abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1)
	good := readVanilla(t, "post-window-2KiB-s21", "vanilla/001.bin")
	for n := 0; n < len(good); n++ {
		_, err := ParseVanillaProof(good[:n], cfg)
		if err == nil || !strings.Contains(err.Error(), "truncated") {
			t.Fatalf("prefix of %d bytes: %v", n, err)
		}
	}
}

// TestVanillaShapesRoundTrip encodes Sub (32 GiB) and Top (64 GiB) proofs
// with Bytes and parses them back: sizes, fields and the shape checks.
func TestVanillaShapesRoundTrip(t *testing.T) {
	for _, p := range []abi.RegisteredPoStProof{
		abi.RegisteredPoStProof_StackedDrgWindow8MiBV1_1,
		abi.RegisteredPoStProof_StackedDrgWindow32GiBV1_1,
		abi.RegisteredPoStProof_StackedDrgWinning64GiBV1,
	} {
		cfg := mustConfig(t, p)
		t.Run(cfg.Name, func(t *testing.T) {
			v := syntheticVanilla(cfg, 77, 5)
			raw := v.Bytes()
			if len(raw) != VanillaProofSize(cfg) {
				t.Fatalf("%d bytes, VanillaProofSize %d", len(raw), VanillaProofSize(cfg))
			}
			got, err := ParseVanillaProof(raw, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), raw) {
				t.Fatal("round trip differs")
			}
			p0 := &got.Sectors[0].InclusionProofs[0]
			if p0.Kind != cfg.ProofKind() || len(p0.Path()) != len(cfg.PathArities()) {
				t.Errorf("proof kind %s with %d levels, want %s with %d", p0.Kind, len(p0.Path()), cfg.ProofKind(), len(cfg.PathArities()))
			}
			// Cut the sub path's sibling count: named as sub_path.
			if cfg.Shape.Sub > 0 {
				off := 8 + 32 + 8 + 8 + 4 + 8 + cfg.BasePathLen*(8+7*32+8) + 8
				bad := append([]byte(nil), raw...)
				binary.LittleEndian.PutUint64(bad[off:], 3)
				_, err := ParseVanillaProof(bad, cfg)
				if err == nil || !strings.Contains(err.Error(), "inclusion_proofs[0].sub_path[0].hashes.len") {
					t.Errorf("bad sub path: %v", err)
				}
			}
		})
	}
}

// syntheticVanilla is a structurally valid vanilla proof of cfg's shape
// with deterministic canonical values (its Merkle paths do not verify).
func syntheticVanilla(cfg *Config, id uint64, seed byte) *VanillaProof {
	d := func(i int) stacked.Domain {
		var x stacked.Domain
		x[0], x[1], x[2] = seed, byte(i), byte(i>>8)
		return x
	}
	n := 0
	next := func() stacked.Domain { n++; return d(n) }
	path := func(levels, arity int) []stacked.PathElement {
		out := make([]stacked.PathElement, levels)
		for i := range out {
			out[i].Index = uint64((n + i) % arity)
			for j := 0; j < arity-1; j++ {
				out[i].Hashes = append(out[i].Hashes, next())
			}
		}
		return out
	}
	sp := SectorProof{CommC: next(), CommRLast: next()}
	for i := 0; i < cfg.ChallengeCount; i++ {
		p := stacked.MerkleProof{Kind: cfg.ProofKind(), Root: sp.CommRLast, Leaf: next(), Base: path(cfg.BasePathLen, cfg.Shape.Base)}
		if cfg.Shape.Sub > 0 {
			p.Sub = path(1, cfg.Shape.Sub)
		}
		if cfg.Shape.Top > 0 {
			p.Top = path(1, cfg.Shape.Top)
		}
		sp.InclusionProofs = append(sp.InclusionProofs, p)
	}
	return &VanillaProof{SectorID: abi.SectorNumber(id), CommR: next(), Sectors: []SectorProof{sp}}
}

// FuzzParseVanilla: arbitrary bytes never panic, and whatever parses
// re-encodes to the same bytes.
func FuzzParseVanilla(f *testing.F) {
	f.Add(readVanilla(f, "post-window-2KiB-s21", "vanilla/000.bin"))
	f.Add([]byte{})
	cfg := mustConfig(f, abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1)
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := ParseVanillaProof(b, cfg)
		if err != nil {
			return
		}
		if !bytes.Equal(v.Bytes(), b) {
			t.Fatal("parsed proof does not re-encode to its bytes")
		}
	})
}
