// SPDX-License-Identifier: Apache-2.0 OR MIT

package seal

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/stacked"
)

func randomData(t testing.TB, dir string, n uint64, seed uint64) string {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	p := filepath.Join(dir, "data.bin")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func fixed32(b byte) []byte { return bytes.Repeat([]byte{b}, 32) }

// sealAndCommit seals random data for cfg and returns the C1 JSON bytes.
func sealAndCommit(t *testing.T, cfg stacked.SectorConfig, seed uint64) ([]byte, SealResult) {
	t.Helper()
	dir := t.TempDir()
	data := randomData(t, dir, UnpaddedSize(cfg.SectorSize), seed)
	out := filepath.Join(dir, "sector")
	ctx := context.Background()
	res, err := Seal(ctx, cfg, data, out, 1000, 7, fixed32(3))
	if err != nil {
		t.Fatal(err)
	}
	c1, err := CommitPhase1(ctx, cfg, res.CommR, res.CommD, out, 7, 1000, fixed32(3), fixed32(9))
	if err != nil {
		t.Fatal(err)
	}
	return c1, res
}

func checkC1(t *testing.T, cfg stacked.SectorConfig, c1 []byte) *stacked.C1Output {
	t.Helper()
	var out *stacked.C1Output
	var err error
	if cfg.Registered {
		var got stacked.SectorConfig
		out, got, err = stacked.ParseC1(c1)
		if err == nil && got != cfg {
			t.Fatalf("ParseC1 config %s, want %s", got.Name, cfg.Name)
		}
	} else {
		out, err = stacked.ParseC1ForConfig(c1, &cfg)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Marshal(), c1) {
		t.Fatal("marshal(parse(c1)) differs from c1")
	}
	if err := VerifyC1(out, &cfg); err != nil {
		t.Fatal(err)
	}
	if err := ValidateReplicaID(out, &cfg, stacked.ProverID(1000), 7); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSealC1VerifyRegistered(t *testing.T) {
	for _, p := range []abi.RegisteredSealProof{
		abi.RegisteredSealProof_StackedDrg2KiBV1,
		abi.RegisteredSealProof_StackedDrg2KiBV1_1,
		abi.RegisteredSealProof_StackedDrg2KiBV1_1_Feat_SyntheticPoRep,
		abi.RegisteredSealProof_StackedDrg2KiBV1_2_Feat_NiPoRep,
	} {
		cfg, err := stacked.ConfigFor(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(cfg.Name, func(t *testing.T) {
			c1, _ := sealAndCommit(t, cfg, uint64(p)+1)
			out := checkC1(t, cfg, c1)
			if len(out.VanillaProofs) != cfg.Partitions {
				t.Fatalf("%d partitions", len(out.VanillaProofs))
			}
			// Public inputs: 3 + 18 per challenge, challenge values first.
			pi, err := out.PublicInputs(&cfg, nil, cfg.Partitions-1)
			if err != nil {
				t.Fatal(err)
			}
			if len(pi) != cfg.NumPublicInputs()-1 {
				t.Fatalf("%d public inputs", len(pi))
			}
			last := out.VanillaProofs[cfg.Partitions-1]
			c0 := stacked.FrFromUint64(last[0].Challenge())
			if !pi[3].Equal(&c0) || !pi[3+15].Equal(&c0) || !pi[3+16].Equal(&c0) || !pi[3+17].Equal(&c0) {
				t.Fatal("public inputs do not carry the challenge")
			}
			p1 := stacked.FrFromUint64(uint64(last[0].ReplicaColumnProofs.ExpParents[7].Column.Index))
			if !pi[3+14].Equal(&p1) {
				t.Fatal("public input of the last expander parent")
			}
		})
	}
}

func TestSealC1VerifyTestShapes(t *testing.T) {
	for _, tc := range []struct {
		size  uint64
		shape stacked.TreeShape
	}{{4 << 10, stacked.Shape820}, {16 << 10, stacked.Shape880}, {32 << 10, stacked.Shape882},
		// Other supported arities: base 2 and 4, sub 2/4/8, top 2/4.
		{2 << 10, stacked.TreeShape{Base: 2}}, {2 << 10, stacked.TreeShape{Base: 4, Sub: 4}},
		{16 << 10, stacked.TreeShape{Base: 8, Sub: 4, Top: 2}}, {4 << 10, stacked.TreeShape{Base: 2, Sub: 8, Top: 4}}} {
		cfg, err := stacked.NewTestConfig(tc.size, tc.shape, [32]byte{44}, stacked.APIVersion1_1_0)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(cfg.Name, func(t *testing.T) {
			c1, _ := sealAndCommit(t, cfg, tc.size)
			out := checkC1(t, cfg, c1)
			want := stacked.ProofSingle
			if tc.shape.Top > 0 {
				want = stacked.ProofTop
			} else if tc.shape.Sub > 0 {
				want = stacked.ProofSub
			}
			if k := out.VanillaProofs[0][0].CommRLastProof.Kind; k != want {
				t.Fatalf("comm_r_last proof variant %s, want %s", k, want)
			}
		})
	}
}

// TestVerifyC1RejectsTampering flips single values in a valid C1 and expects
// VerifyC1 to fail, naming the right place.
func TestVerifyC1RejectsTampering(t *testing.T) {
	cfg, _ := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	c1, _ := sealAndCommit(t, cfg, 99)
	for _, tc := range []struct {
		name, want string
		mut        func(o *stacked.C1Output)
	}{
		{"comm_d leaf", "comm_d_proofs", func(o *stacked.C1Output) { o.VanillaProofs[0][1].CommDProofs.Leaf[0] ^= 1 }},
		{"column row", "c_x", func(o *stacked.C1Output) { o.VanillaProofs[0][0].ReplicaColumnProofs.CX.Column.Rows[1][3] ^= 4 }},
		{"labeling parent", "labeling_proofs[1].parents[20]", func(o *stacked.C1Output) { o.VanillaProofs[0][0].LabelingProofs[1].Parents[20][0] ^= 1 }},
		{"encoding parent", "encoding_proof.parents[36]", func(o *stacked.C1Output) { o.VanillaProofs[0][1].EncodingProof.Parents[36][5] ^= 1 }},
		{"r_last sibling", "comm_r_last_proof", func(o *stacked.C1Output) {
			o.VanillaProofs[0][0].CommRLastProof.Base[1].Hashes[2][0] ^= 1
		}},
		{"seed", "labeling_proofs[0].node", func(o *stacked.C1Output) { o.Seed[0] ^= 1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := stacked.DecodeC1(c1)
			if err != nil {
				t.Fatal(err)
			}
			tc.mut(o)
			err = VerifyC1(o, &cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want mention of %s", err, tc.want)
			}
		})
	}
}

func TestSealBadInputs(t *testing.T) {
	cfg, _ := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	ctx := context.Background()
	dir := t.TempDir()
	good := randomData(t, dir, UnpaddedSize(2048), 1)
	// Wrong size names both acceptable sizes.
	short := filepath.Join(dir, "short.bin")
	os.WriteFile(short, make([]byte, 100), 0o644)
	if _, err := Seal(ctx, cfg, short, filepath.Join(dir, "o1"), 1, 1, fixed32(1)); err == nil || !strings.Contains(err.Error(), "2032") || !strings.Contains(err.Error(), "2048") {
		t.Fatalf("short data: %v", err)
	}
	// Missing file.
	if _, err := Seal(ctx, cfg, filepath.Join(dir, "nope"), filepath.Join(dir, "o2"), 1, 1, fixed32(1)); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("missing data: %v", err)
	}
	// Padded-size file that is not Fr32-padded.
	bad := filepath.Join(dir, "badpad.bin")
	b := make([]byte, 2048)
	b[32*5+31] = 0xff
	os.WriteFile(bad, b, 0o644)
	if _, err := Seal(ctx, cfg, bad, filepath.Join(dir, "o3"), 1, 1, fixed32(1)); err == nil || !strings.Contains(err.Error(), "node 5") {
		t.Fatalf("unpadded data at padded size: %v", err)
	}
	// Sizes beyond the test sealer's reach are refused up front.
	big, _ := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg32GiBV1_1)
	if _, err := Seal(ctx, big, good, filepath.Join(dir, "o5"), 1, 1, fixed32(1)); err == nil || !strings.Contains(err.Error(), "synthetic.C1") {
		t.Fatalf("32 GiB seal: %v", err)
	}
	// Ticket length.
	if _, err := Seal(ctx, cfg, good, filepath.Join(dir, "o4"), 1, 1, []byte{1, 2}); err == nil || !strings.Contains(err.Error(), "ticket") {
		t.Fatalf("short ticket: %v", err)
	}
	// Non-empty output directory: error, existing file untouched.
	od := filepath.Join(dir, "busy")
	os.MkdirAll(od, 0o755)
	os.WriteFile(filepath.Join(od, "keep.txt"), []byte("mine"), 0o644)
	_, err := Seal(ctx, cfg, good, od, 1, 1, fixed32(1))
	if !errors.Is(err, ErrOutDirNotEmpty) || !strings.Contains(err.Error(), "keep.txt") {
		t.Fatalf("busy out dir: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(od, "keep.txt")); string(got) != "mine" {
		t.Fatal("existing file was modified")
	}
	if ents, _ := os.ReadDir(od); len(ents) != 1 {
		t.Fatalf("out dir has %d entries after a refused seal", len(ents))
	}
	// Padded input gives the same commitments as its unpadded form.
	raw, _ := os.ReadFile(good)
	padded := make([]byte, 2048)
	if err := Fr32Pad(padded, raw); err != nil {
		t.Fatal(err)
	}
	pp := filepath.Join(dir, "padded.bin")
	os.WriteFile(pp, padded, 0o644)
	r1, err := Seal(ctx, cfg, good, filepath.Join(dir, "u"), 1, 1, fixed32(1))
	if err != nil {
		t.Fatal(err)
	}
	r2, err := Seal(ctx, cfg, pp, filepath.Join(dir, "p"), 1, 1, fixed32(1))
	if err != nil {
		t.Fatal(err)
	}
	if r1.CommR != r2.CommR || r1.CommD != r2.CommD {
		t.Fatal("padded and unpadded inputs seal differently")
	}
	// C1 with mismatched arguments.
	if _, err := CommitPhase1(ctx, cfg, r1.CommR, r1.CommD, filepath.Join(dir, "u"), 2, 1, fixed32(1), fixed32(2)); err == nil || !strings.Contains(err.Error(), "sector 2") {
		t.Fatalf("wrong sector: %v", err)
	}
	if _, err := CommitPhase1(ctx, cfg, r1.CommR, r1.CommD, filepath.Join(dir, "u"), 1, 1, fixed32(2), fixed32(2)); err == nil || !strings.Contains(err.Error(), "ticket") {
		t.Fatalf("wrong ticket: %v", err)
	}
	if _, err := CommitPhase1(ctx, cfg, r1.CommD, r1.CommD, filepath.Join(dir, "u"), 1, 1, fixed32(1), fixed32(2)); err == nil || !strings.Contains(err.Error(), "sealed CID") {
		t.Fatalf("comm_d as sealed CID: %v", err)
	}
	if _, err := CommitPhase1(ctx, cfg, r1.CommR, r1.CommD, filepath.Join(dir, "u"), 1, 1, fixed32(1), []byte{1}); err == nil || !strings.Contains(err.Error(), "seed") {
		t.Fatalf("short seed: %v", err)
	}
	other, _ := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1)
	if _, err := CommitPhase1(ctx, other, r1.CommR, r1.CommD, filepath.Join(dir, "u"), 1, 1, fixed32(1), fixed32(2)); err == nil || !strings.Contains(err.Error(), "StackedDrg2KiBV1_1") {
		t.Fatalf("wrong config: %v", err)
	}
}

func TestFr32PadRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	in := make([]byte, 127*8)
	for i := range in {
		in[i] = byte(r.Uint32())
	}
	out := make([]byte, 128*8)
	if err := Fr32Pad(out, in); err != nil {
		t.Fatal(err)
	}
	// First node: bytes 0..30 verbatim, byte 31 keeps its low 6 bits; node 1
	// starts with the two bits that did not fit (lotus fr32.Pad layout).
	if !bytes.Equal(out[:31], in[:31]) || out[31] != in[31]&0x3f || out[32] != (in[31]>>6|in[32]<<2) {
		t.Fatal("fr32 layout")
	}
	for i := 31; i < len(out); i += 32 {
		if out[i]&0xc0 != 0 {
			t.Fatalf("node %d top bits set", i/32)
		}
	}
	back := make([]byte, len(in))
	if err := Fr32Unpad(back, out); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back, in) {
		t.Fatal("unpad(pad(x)) != x")
	}
}

// TestSealStreamedLayers forces the large-sector path (layers re-read from
// files for the column hashes) and requires the same commitments.
func TestSealStreamedLayers(t *testing.T) {
	cfg, _ := stacked.NewTestConfig(16<<10, stacked.Shape880, [32]byte{44}, stacked.APIVersion1_1_0)
	dir := t.TempDir()
	data := randomData(t, dir, UnpaddedSize(cfg.SectorSize), 3)
	ctx := context.Background()
	r1, err := Seal(ctx, cfg, data, filepath.Join(dir, "mem"), 5, 6, fixed32(7))
	if err != nil {
		t.Fatal(err)
	}
	old := memLayersLimit
	memLayersLimit = 0
	defer func() { memLayersLimit = old }()
	r2, err := Seal(ctx, cfg, data, filepath.Join(dir, "files"), 5, 6, fixed32(7))
	if err != nil {
		t.Fatal(err)
	}
	if r1.CommR != r2.CommR || r1.CommC != r2.CommC {
		t.Fatal("streamed layers give other commitments")
	}
	// Cancelled context: error, no output left behind.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Seal(cctx, cfg, data, filepath.Join(dir, "cancelled"), 5, 6, fixed32(7)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled seal: %v", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "cancelled")); len(ents) != 0 {
		t.Fatalf("cancelled seal left %d entries", len(ents))
	}
}

// TestCommitPhase1RebuildsTrees: without the stored inner nodes C1 rebuilds
// the trees and produces the same output; a corrupted layer file makes C1's
// self-check fail instead of emitting bad proofs.
func TestCommitPhase1RebuildsTrees(t *testing.T) {
	cfg, _ := stacked.NewTestConfig(32<<10, stacked.Shape882, [32]byte{44}, stacked.APIVersion1_1_0)
	dir := t.TempDir()
	data := randomData(t, dir, UnpaddedSize(cfg.SectorSize), 4)
	out := filepath.Join(dir, "s")
	ctx := context.Background()
	res, err := Seal(ctx, cfg, data, out, 1, 2, fixed32(3))
	if err != nil {
		t.Fatal(err)
	}
	c1a, err := CommitPhase1(ctx, cfg, res.CommR, res.CommD, out, 2, 1, fixed32(3), fixed32(4))
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(out, FileTreeCNodes))
	os.Remove(filepath.Join(out, FileTreeRNodes))
	c1b, err := CommitPhase1(ctx, cfg, res.CommR, res.CommD, out, 2, 1, fixed32(3), fixed32(4))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(c1a, c1b) {
		t.Fatal("C1 differs when trees are rebuilt")
	}
	lf := filepath.Join(out, FileLayer(1))
	b, _ := os.ReadFile(lf)
	for i := range b {
		b[i] ^= 0x01
	}
	os.WriteFile(lf, b, 0o644)
	if _, err := CommitPhase1(ctx, cfg, res.CommR, res.CommD, out, 2, 1, fixed32(3), fixed32(4)); err == nil || !strings.Contains(err.Error(), "self-check") {
		t.Fatalf("corrupted layer: %v", err)
	}
}
