// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"reflect"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/stacked"
)

// TestParseReference parses the reference partition proof, re-encodes it
// byte for byte and compares its values with meta.json: comm_c, the TreeR
// roots, the leaves and the path indexes (= the challenges).
func TestParseReference(t *testing.T) {
	m, cfg, data := loadRef(t)
	if len(data) != PartitionProofSize(cfg) || len(data) != m.Vanilla.Files[0].Size {
		t.Fatalf("reference is %d bytes, PartitionProofSize %d, meta %d", len(data), PartitionProofSize(cfg), m.Vanilla.Files[0].Size)
	}
	p, err := ParsePartitionProof(data, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(p.Bytes(), data) {
		t.Fatal("Bytes() differs from the parsed bytes")
	}
	hexOf := func(d *stacked.Domain) string { return hex.EncodeToString(d[:]) }
	if hexOf(&p.CommC) != m.CommC {
		t.Errorf("comm_c %x, want %s", p.CommC[:], m.CommC)
	}
	part := m.Partition[0]
	for i, w := range part.Challenges {
		cp := &p.ChallengeProofs[i]
		if hexOf(&cp.ProofROld.Root) != part.RootROld || hexOf(&cp.ProofRNew.Root) != part.RootRNew || hexOf(&cp.ProofDNew.Root) != m.CommDNew {
			t.Errorf("challenge %d: roots %x %x %x", i, cp.ProofROld.Root[:], cp.ProofDNew.Root[:], cp.ProofRNew.Root[:])
		}
		if hexOf(&cp.ProofROld.Leaf) != w.LeafROld || hexOf(&cp.ProofDNew.Leaf) != w.LeafDNew || hexOf(&cp.ProofRNew.Leaf) != w.LeafRNew {
			t.Errorf("challenge %d: leaves differ from meta", i)
		}
		b := cfg.Shape
		if cp.ProofROld.PathIndex(b.Base, b.Sub, b.Top) != w.C || cp.ProofRNew.PathIndex(b.Base, b.Sub, b.Top) != w.C || cp.ProofDNew.PathIndex(2, 0, 0) != w.C {
			t.Errorf("challenge %d: path indexes differ from c = %d", i, w.C)
		}
	}
}

// TestParseBadInput feeds defective bytes to ParsePartitionProof: each must
// fail with the named field and byte offset.
func TestParseBadInput(t *testing.T) {
	_, cfg, data := loadRef(t)
	// Offsets in the 2 KiB layout: comm_c 0, apex_leafs.len 32, apex leaves
	// 40…295, challenge_proofs.len 296, challenge 0 at 304 (proof_r_old:
	// variant 304, root 308, leaf 340, path.len 372, path[0].hashes.len
	// 380, hashes 388…611, index 612, path[1] 620…).
	const cp0 = 304
	const proofR = 556
	const proofD = 364
	with := func(off int, b []byte) []byte {
		out := bytes.Clone(data)
		copy(out[off:], b)
		return out
	}
	u64 := func(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
	u32 := func(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
	nonCanonical := bytes.Repeat([]byte{0xff}, 32)
	cfg64, _ := ConfigFor(4)
	tests := []struct {
		name string
		data []byte
		cfg  *Config
		want string
	}{
		{"empty", nil, cfg, "comm_c at byte 0: truncated"},
		{"truncated comm_c", data[:20], cfg, "comm_c at byte 0: truncated: 20 bytes left, need 32"},
		{"truncated last index", data[:len(data)-3], cfg, "challenge_proofs[9].proof_r_new.path[1].index at byte 15056: truncated"},
		{"trailing", append(bytes.Clone(data), 0), cfg, "end at byte 15064: 1 trailing bytes"},
		{"non-canonical comm_c", with(0, nonCanonical), cfg, "comm_c at byte 0: ffff"},
		{"apex count", with(32, u64(7)), cfg, "apex_leafs.len at byte 32: 7 elements, want 8"},
		{"non-canonical apex leaf", with(40+32*3, nonCanonical), cfg, "apex_leafs[3] at byte 136: "},
		{"challenge count", with(296, u64(11)), cfg, "challenge_proofs.len at byte 296: 11 elements, want 10"},
		{"tree R variant", with(cp0, u32(1)), cfg, "challenge_proofs[0].proof_r_old.variant at byte 304: tag 1 (Sub), want 0 (Single) for TreeR 8-0-0 of 2KiB"},
		{"tree R levels", with(cp0+68, u64(3)), cfg, "challenge_proofs[0].proof_r_old.path.len at byte 372: 3 elements, want 2"},
		{"tree R siblings", with(cp0+76, u64(6)), cfg, "challenge_proofs[0].proof_r_old.path[0].hashes.len at byte 380: 6 elements, want 7"},
		{"tree R index", with(cp0+308, u64(8)), cfg, "challenge_proofs[0].proof_r_old.path[0].index at byte 612: 8, want < 8 (arity)"},
		{"tree D levels", with(cp0+proofR+68, u64(30)), cfg, "challenge_proofs[0].proof_d_new.path.len at byte 928: 30 elements, want 6"},
		{"tree D index", with(cp0+proofR+76+8+32, u64(2)), cfg, "challenge_proofs[0].proof_d_new.path[0].index at byte 976: 2, want < 2 (arity)"},
		{"tree D leaf", with(cp0+proofR+36, nonCanonical), cfg, "challenge_proofs[0].proof_d_new.leaf at byte 896: "},
		{"tree R new root", with(cp0+proofR+proofD+4, nonCanonical), cfg, "challenge_proofs[0].proof_r_new.root at byte 1228: "},
		{"wrong size (64 GiB config)", data, &cfg64, "apex_leafs.len at byte 32: 8 elements, want 128"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParsePartitionProof(tc.data, tc.cfg)
			if err == nil || p != nil {
				t.Fatalf("accepted (%v)", err)
			}
			if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestCheckPartitionProof: the reference proof passes vanilla.rs verify's
// checks; wrong commitments, a wrong partition and tampered proofs fail
// with the reason.
func TestCheckPartitionProof(t *testing.T) {
	m, cfg, data := loadRef(t)
	commROld, commDNew, commRNew := hexFr(t, "comm_r_old", m.CommROld), hexFr(t, "comm_d_new", m.CommDNew), hexFr(t, "comm_r_new", m.CommRNew)
	parse := func() *PartitionProof {
		p, err := ParsePartitionProof(data, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if err := CheckPartitionProof(cfg, 0, &commROld, &commDNew, &commRNew, parse()); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name             string
		k                int
		rOld, dNew, rNew *fr.Element
		tamper           func(p *PartitionProof)
		want             string
	}{
		{"swapped comm_r", 0, &commRNew, &commDNew, &commROld, nil, "comm_r_old"},
		{"other comm_d_new", 0, &commROld, &commROld, &commRNew, nil, "challenge 0 (node 11): TreeDNew proof root"},
		{"partition 1", 1, &commROld, &commDNew, &commRNew, nil, "partition 1 out of range"},
		{"leaf_r_new", 0, &commROld, &commDNew, &commRNew, func(p *PartitionProof) { p.ChallengeProofs[2].ProofRNew.Leaf[0] ^= 1 }, "challenge 2 (node 4): TreeRNew path hashes"},
		{"apex leaf", 0, &commROld, &commDNew, &commRNew, func(p *PartitionProof) { p.ApexLeafs[5][0] ^= 1 }, "not in apex tree row"},
		{"TreeD index", 0, &commROld, &commDNew, &commRNew, func(p *PartitionProof) { p.ChallengeProofs[1].ProofDNew.Base[0].Index ^= 1 }, "challenge 1 (node 8): TreeDNew proof is for node 9"},
	}
	for _, tc := range tests {
		p := parse()
		if tc.tamper != nil {
			tc.tamper(p)
		}
		err := CheckPartitionProof(cfg, tc.k, tc.rOld, tc.dNew, tc.rNew, p)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestPartitionProofRoundTrip builds a partition proof of every registered
// size with the configured shapes (Single, Sub and Top TreeR variants;
// arbitrary canonical values), encodes it, checks the size against
// update-circuit.md §3.2 (PartitionProofSize) and parses it back to the same
// value.
func TestPartitionProofRoundTrip(t *testing.T) {
	n := byte(0)
	next := func() (d stacked.Domain) {
		n++
		d[0], d[1] = n, 0x5a
		return d
	}
	path := func(arities []int) []stacked.PathElement {
		out := make([]stacked.PathElement, len(arities))
		for i, a := range arities {
			out[i].Index = uint64(i % a)
			for j := 0; j < a-1; j++ {
				out[i].Hashes = append(out[i].Hashes, next())
			}
		}
		return out
	}
	for _, cfg := range Configs() {
		rs, ds := cfg.treeRShape(), cfg.treeDShape()
		proof := func(s treeShape) stacked.MerkleProof {
			p := stacked.MerkleProof{Kind: s.kind, Root: next(), Leaf: next(), Base: path(s.base)}
			if s.kind != stacked.ProofSingle {
				p.Sub = path(s.sub)
			}
			if s.kind == stacked.ProofTop {
				p.Top = path(s.top)
			}
			return p
		}
		p := &PartitionProof{CommC: next()}
		for i := 0; i < cfg.ApexLeafCount; i++ {
			p.ApexLeafs = append(p.ApexLeafs, next())
		}
		for i := 0; i < cfg.ChallengeCount; i++ {
			p.ChallengeProofs = append(p.ChallengeProofs, ChallengeProof{ProofROld: proof(rs), ProofDNew: proof(ds), ProofRNew: proof(rs)})
		}
		b := p.Bytes()
		if len(b) != PartitionProofSize(&cfg) {
			t.Errorf("%s: %d bytes, PartitionProofSize %d", cfg.Name, len(b), PartitionProofSize(&cfg))
		}
		back, err := ParsePartitionProof(b, &cfg)
		if err != nil {
			t.Fatalf("%s: %v", cfg.Name, err)
		}
		if !reflect.DeepEqual(back, p) {
			t.Errorf("%s: parsed proof differs from the encoded one", cfg.Name)
		}
	}
}
