// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

// The PoSt API against rust-fil-proofs' reference vectors, which live with
// the circuit in post/testdata (see post/testdata/README.md): challenges,
// proofs from the vanilla bytes byte-identical to bellperson's with r, s
// from rs_seed, verification, and bad input.

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/internal/testpost"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/post"
)

var postGoldenDir = filepath.Join("post", "testdata")

// postMeta is the part of a post-* meta.json read here.
type postMeta struct {
	RegisteredProof struct {
		FFIID int64 `json:"ffi_id"`
	} `json:"registered_proof"`
	Miner      abi.ActorID `json:"miner"`
	Randomness string      `json:"randomness"`
	Sectors    []struct {
		SectorNumber abi.SectorNumber `json:"sector_number"`
		CommR        string           `json:"comm_r"`
	} `json:"sectors"`
	Challenges []struct {
		SectorNumber abi.SectorNumber `json:"sector_number"`
		Challenges   []uint64         `json:"challenges"`
	} `json:"challenges"`
	Vanilla []struct {
		File string `json:"file"`
	} `json:"vanilla"`
	VKFile    string `json:"vk_file"`
	ToxicSeed string `json:"toxic_seed"`
	RSSeed    string `json:"rs_seed"`
	ProofFile string `json:"proof_file"`
}

type postGolden struct {
	folder  string
	m       postMeta
	proof   abi.RegisteredPoStProof
	rnd     abi.PoStRandomness
	vanilla [][]byte
	want    []byte // proof.bin
	sectors []proof.SectorInfo
}

func loadPostGolden(t testing.TB, folder string) *postGolden {
	t.Helper()
	g := &postGolden{folder: folder}
	raw, err := os.ReadFile(filepath.Join(postGoldenDir, folder, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &g.m); err != nil {
		t.Fatal(err)
	}
	g.proof = abi.RegisteredPoStProof(g.m.RegisteredProof.FFIID)
	r := seed32(t, "randomness", g.m.Randomness)
	g.rnd = r[:]
	for _, f := range g.m.Vanilla {
		b, err := os.ReadFile(filepath.Join(postGoldenDir, folder, f.File))
		if err != nil {
			t.Fatal(err)
		}
		g.vanilla = append(g.vanilla, b)
	}
	if g.want, err = os.ReadFile(filepath.Join(postGoldenDir, folder, g.m.ProofFile)); err != nil {
		t.Fatal(err)
	}
	for _, s := range g.m.Sectors {
		c := seed32(t, "comm_r", s.CommR)
		sealed, err := commcid.ReplicaCommitmentV1ToCID(c[:])
		if err != nil {
			t.Fatal(err)
		}
		g.sectors = append(g.sectors, proof.SectorInfo{SealProof: abi.RegisteredSealProof_StackedDrg2KiBV1_1, SectorNumber: s.SectorNumber, SealedCID: sealed})
	}
	return g
}

// postParamsDir returns a directory holding g's test parameters under their
// official names (testpost.ParamsDir: the .params from the toxic seed, the
// shipped .vk).
func postParamsDir(t *testing.T, g *postGolden) string {
	t.Helper()
	return testpost.ParamsDir(t, g.proof, seed32(t, "toxic_seed", g.m.ToxicSeed), filepath.Join(postGoldenDir, g.folder, g.m.VKFile))
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPoStChallengesGolden: the two challenge functions against
// rust-fil-proofs.
func TestPoStChallengesGolden(t *testing.T) {
	for _, folder := range []string{"post-window-2KiB-s21", "post-winning-2KiB-s22"} {
		g := loadPostGolden(t, folder)
		var ids []abi.SectorNumber
		for _, s := range g.m.Sectors {
			ids = append(ids, s.SectorNumber)
		}
		fc, err := GeneratePoStFallbackSectorChallenges(g.proof, g.m.Miner, g.rnd, ids)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(fc.Sectors, ids) || len(fc.Challenges) != len(g.m.Challenges) {
			t.Fatalf("%s: sectors %v (%d challenged), want %v", folder, fc.Sectors, len(fc.Challenges), ids)
		}
		for _, w := range g.m.Challenges {
			if !slices.Equal(fc.Challenges[w.SectorNumber], w.Challenges) {
				t.Errorf("%s: sector %d: %v, rust-fil-proofs %v", folder, w.SectorNumber, fc.Challenges[w.SectorNumber], w.Challenges)
			}
		}
	}
	g := loadPostGolden(t, "post-winning-2KiB-s22")
	idx, err := GenerateWinningPoStSectorChallenge(g.proof, g.m.Miner, g.rnd, 1)
	if err != nil || !slices.Equal(idx, []uint64{0}) {
		t.Errorf("winning sector challenge of 1 sector: %v, %v", idx, err)
	}
	if _, err := GenerateWinningPoStSectorChallenge(abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1, 1000, g.rnd, 1); !errors.Is(err, ErrBadInput) {
		t.Errorf("window type: %v", err)
	}
}

// TestPoStBadInput: every defect is ErrBadInput (or ErrParamsNotFound) with
// a message naming it, before any parameter file is needed.
func TestPoStBadInput(t *testing.T) {
	w := loadPostGolden(t, "post-window-2KiB-s21")
	win := loadPostGolden(t, "post-winning-2KiB-s22")
	empty := t.TempDir()
	short := append([]byte(nil), w.vanilla[0][:100]...)
	otherRnd := slices.Clone(w.rnd)
	otherRnd[0] ^= 1
	badRnd := slices.Clone(w.rnd)
	badRnd[31] = 0xff
	opts := []Option{WithParamsDir(empty), WithBackend(BackendCPU)}
	window := func(p abi.RegisteredPoStProof, rnd abi.PoStRandomness, vs [][]byte) error {
		_, err := GenerateWindowPoStWithVanilla(p, 1000, rnd, vs, opts...)
		return err
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"truncated", window(w.proof, w.rnd, [][]byte{w.vanilla[0], short}), "vanilla proof 1 (100 bytes, StackedDrgWindow2KiBV1_1 wants 5680): vanilla proof: sector_proofs[0].inclusion_proofs[0].leaf at byte 92: truncated"},
		{"other size", window(abi.RegisteredPoStProof_StackedDrgWindow8MiBV1_1, w.rnd, w.vanilla), "vanilla proof 0 (5680 bytes, StackedDrgWindow8MiBV1_1 wants 15280)"},
		{"winning vanilla", window(w.proof, w.rnd, win.vanilla), "inclusion_proofs.len at byte 48: 66 elements, want 10"},
		{"other randomness", window(w.proof, otherRnd, w.vanilla), "sector 21000 challenge 0: inclusion proof for leaf 44"},
		{"short randomness", window(w.proof, w.rnd[:31], w.vanilla), "PoSt randomness is 31 bytes, want 32"},
		{"non-canonical randomness", window(w.proof, badRnd, w.vanilla), "not a canonical field element"},
		{"winning type", window(win.proof, w.rnd, w.vanilla), "StackedDrgWinning2KiBV1 is a WinningPoSt proof, want WindowPoSt"},
		{"legacy type", window(abi.RegisteredPoStProof_StackedDrgWindow2KiBV1, w.rnd, w.vanilla), "legacy WindowPoSt V1"},
		{"no proofs", window(w.proof, w.rnd, nil), "no vanilla proofs"},
		{"duplicate sector", window(w.proof, w.rnd, [][]byte{w.vanilla[1], w.vanilla[1]}), "both for sector 21001"},
		{"missing params", window(w.proof, w.rnd, w.vanilla), "parameter file not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
				t.Fatalf("%v; want %q", tc.err, tc.want)
			}
			if tc.name == "missing params" {
				if !errors.Is(tc.err, ErrParamsNotFound) {
					t.Errorf("%v is not ErrParamsNotFound", tc.err)
				}
			} else if !errors.Is(tc.err, ErrBadInput) {
				t.Errorf("%v is not ErrBadInput", tc.err)
			}
		})
	}
	if _, err := GenerateWinningPoStWithVanilla(win.proof, 1000, win.rnd, [][]byte{win.vanilla[0], win.vanilla[0]}, opts...); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "2 vanilla proofs, want 1") {
		t.Errorf("two winning proofs: %v", err)
	}
	three := [][]byte{w.vanilla[0], w.vanilla[1], w.vanilla[0]}
	if _, err := GenerateSinglePartitionWindowPoStWithVanilla(w.proof, 1000, w.rnd, three, 0, opts...); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "3 vanilla proofs for one partition, at most 2") {
		t.Errorf("three sectors in one partition: %v", err)
	}

	if _, err := MergeWindowPoStPartitionProofs(w.proof, []PartitionProof{{PoStProof: w.proof, ProofBytes: w.want[:100]}}); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "partition proof 0: 100 bytes of proof type 10, want 192 bytes of StackedDrgWindow2KiBV1_1") {
		t.Errorf("merge of a short proof: %v", err)
	}
	if _, err := MergeWindowPoStPartitionProofs(w.proof, []PartitionProof{{PoStProof: win.proof, ProofBytes: w.want}}); !errors.Is(err, ErrBadInput) {
		t.Errorf("merge of a winning proof: %v", err)
	}
	if _, err := MergeWindowPoStPartitionProofs(win.proof, nil); !errors.Is(err, ErrBadInput) {
		t.Errorf("merge for a winning type: %v", err)
	}

	// Verification: a .vk of another circuit, wrong lengths, wrong sectors.
	vkDir := t.TempDir()
	wcfg, _ := post.ConfigFor(win.proof)
	_, winVK, _ := wcfg.ParameterPaths(vkDir)
	copyFile(t, filepath.Join(postGoldenDir, w.folder, w.m.VKFile), winVK) // the window key under the winning name
	winInfo := proof.WinningPoStVerifyInfo{Randomness: win.rnd, Proofs: []proof.PoStProof{{PoStProof: win.proof, ProofBytes: win.want}}, ChallengedSectors: win.sectors, Prover: 1000}
	if _, err := VerifyWinningPoSt(winInfo, WithParamsDir(vkDir)); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "vk has 23 IC points, the StackedDrgWinning2KiBV1 circuit has 133 public inputs") {
		t.Errorf("vk of another circuit: %v", err)
	}
	winInfo.Proofs[0].ProofBytes = win.want[:191]
	if _, err := VerifyWinningPoSt(winInfo, WithParamsDir(vkDir)); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "proof is 191 bytes, want 192") {
		t.Errorf("short proof: %v", err)
	}
	winInfo.Proofs[0].ProofBytes = win.want
	winInfo.ChallengedSectors = w.sectors
	if _, err := VerifyWinningPoSt(winInfo, WithParamsDir(vkDir)); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "2 challenged sectors, want 1") {
		t.Errorf("two winning sectors: %v", err)
	}
	wInfo := proof.WindowPoStVerifyInfo{Randomness: w.rnd, Proofs: []proof.PoStProof{{PoStProof: w.proof, ProofBytes: w.want}}, ChallengedSectors: []proof.SectorInfo{w.sectors[0], w.sectors[0]}, Prover: 1000}
	if _, err := VerifyWindowPoSt(wInfo, WithParamsDir(vkDir)); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "challenged sector 21000 is listed twice") {
		t.Errorf("duplicate sector: %v", err)
	}
	wInfo.ChallengedSectors = []proof.SectorInfo{w.sectors[0], w.sectors[1]}
	wInfo.ChallengedSectors[1].SealProof = abi.RegisteredSealProof_StackedDrg8MiBV1_1
	if _, err := VerifyWindowPoSt(wInfo, WithParamsDir(vkDir)); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "challenged sector 21001 is sealed with StackedDrg8MiBV1_1 (8MiB)") {
		t.Errorf("sector of another size: %v", err)
	}
	wInfo.ChallengedSectors = w.sectors
	if _, err := VerifyWindowPoSt(wInfo, WithParamsDir(empty)); !errors.Is(err, ErrParamsNotFound) {
		t.Errorf("missing vk: %v", err)
	}
}

// TestPoStGolden proves both reference vectors from their vanilla bytes on
// the CPU with r, s from rs_seed: the proofs must be proof.bin, verify, and
// a changed proof or randomness must not. -short skips it (parameter
// generation on first use, then CPU proofs of tens of seconds on 2 cores).
func TestPoStGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: PoSt test parameters and CPU proofs")
	}
	t.Run("window", func(t *testing.T) {
		g := loadPostGolden(t, "post-window-2KiB-s21")
		dir := postParamsDir(t, g)
		opts := []Option{WithParamsDir(dir), WithBackend(BackendCPU), WithDeterministicRandomness(seed32(t, "rs_seed", g.m.RSSeed))}
		got, err := GenerateWindowPoStWithVanilla(g.proof, g.m.Miner, g.rnd, g.vanilla, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].PoStProof != g.proof || !bytes.Equal(got[0].ProofBytes, g.want) {
			t.Fatalf("proof %x (%d), bellperson %x", got[0].ProofBytes, got[0].PoStProof, g.want)
		}
		info := proof.WindowPoStVerifyInfo{Randomness: g.rnd, Proofs: got, ChallengedSectors: g.sectors, Prover: g.m.Miner}
		checkVerify(t, "window", func(i proof.WindowPoStVerifyInfo) (bool, error) { return VerifyWindowPoSt(i, WithParamsDir(dir)) }, info,
			func(i *proof.WindowPoStVerifyInfo) *[]byte { return &i.Proofs[0].ProofBytes }, func(i *proof.WindowPoStVerifyInfo) *abi.PoStRandomness { return &i.Randomness })
		// The sectors in another order are the same BTreeMap.
		info.ChallengedSectors = []proof.SectorInfo{g.sectors[1], g.sectors[0]}
		if ok, err := VerifyWindowPoSt(info, WithParamsDir(dir)); !ok || err != nil {
			t.Errorf("sectors listed in reverse: %v, %v", ok, err)
		}
		part, err := GenerateSinglePartitionWindowPoStWithVanilla(g.proof, g.m.Miner, g.rnd, g.vanilla, 0, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(part.ProofBytes, g.want) {
			t.Errorf("single partition proof %x, bellperson %x", part.ProofBytes, g.want)
		}
		merged, err := MergeWindowPoStPartitionProofs(g.proof, []PartitionProof{*part})
		if err != nil || merged.PoStProof != g.proof || !bytes.Equal(merged.ProofBytes, g.want) {
			t.Errorf("merged single partition: %+v, %v", merged, err)
		}
	})
	t.Run("window three sectors", func(t *testing.T) {
		// Replicas made here (post.NewVanillaProof over a tree R): two
		// partitions, the second padded; the single-partition call gives
		// partition 1's bytes, and merging gives the whole proof.
		g := loadPostGolden(t, "post-window-2KiB-s21")
		dir := postParamsDir(t, g)
		cfg, err := post.ConfigFor(g.proof)
		if err != nil {
			t.Fatal(err)
		}
		ids := []abi.SectorNumber{31, 32, 33}
		fc, err := GeneratePoStFallbackSectorChallenges(g.proof, 1000, g.rnd, ids)
		if err != nil {
			t.Fatal(err)
		}
		var vanilla [][]byte
		var sectors []proof.SectorInfo
		for i, id := range ids {
			leaves := make([]fr.Element, cfg.Leaves())
			for j := range leaves {
				leaves[j].SetUint64(uint64(1000*i + j + 1))
			}
			tree, err := poseidon.BuildTree(leaves, cfg.Shape.Base, cfg.Shape.Sub, cfg.Shape.Top)
			if err != nil {
				t.Fatal(err)
			}
			var commC fr.Element
			commC.SetUint64(uint64(i + 5))
			v, err := post.NewVanillaProof(&cfg, id, tree, commC, fc.Challenges[id])
			if err != nil {
				t.Fatal(err)
			}
			vanilla = append(vanilla, v.Bytes())
			sealed, err := commcid.ReplicaCommitmentV1ToCID(v.CommR[:])
			if err != nil {
				t.Fatal(err)
			}
			sectors = append(sectors, proof.SectorInfo{SealProof: abi.RegisteredSealProof_StackedDrg2KiBV1_1, SectorNumber: id, SealedCID: sealed})
		}
		opts := []Option{WithParamsDir(dir), WithBackend(BackendCPU), WithDeterministicRandomness([32]byte{9})}
		full, err := GenerateWindowPoStWithVanilla(g.proof, 1000, g.rnd, vanilla, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if len(full[0].ProofBytes) != 2*groth16.ProofSize {
			t.Fatalf("%d proof bytes for 3 sectors, want 2 partitions", len(full[0].ProofBytes))
		}
		info := proof.WindowPoStVerifyInfo{Randomness: g.rnd, Proofs: full, ChallengedSectors: sectors, Prover: 1000}
		if ok, err := VerifyWindowPoSt(info, WithParamsDir(dir)); !ok || err != nil {
			t.Fatalf("VerifyWindowPoSt: %v, %v", ok, err)
		}
		info.ChallengedSectors = sectors[:2] // a partition's worth of bytes too many
		if _, err := VerifyWindowPoSt(info, WithParamsDir(dir)); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "proof is 384 bytes, want 192") {
			t.Errorf("two sectors for two partitions: %v", err)
		}
		part1, err := GenerateSinglePartitionWindowPoStWithVanilla(g.proof, 1000, g.rnd, vanilla[2:], 1, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(part1.ProofBytes, full[0].ProofBytes[groth16.ProofSize:]) {
			t.Errorf("single partition 1 %x, partition 1 of the whole %x", part1.ProofBytes, full[0].ProofBytes[groth16.ProofSize:])
		}
		part0 := PartitionProof{PoStProof: g.proof, ProofBytes: full[0].ProofBytes[:groth16.ProofSize]}
		merged, err := MergeWindowPoStPartitionProofs(g.proof, []PartitionProof{part0, *part1})
		if err != nil || !bytes.Equal(merged.ProofBytes, full[0].ProofBytes) {
			t.Errorf("merged: %v", err)
		}
	})
	t.Run("winning", func(t *testing.T) {
		g := loadPostGolden(t, "post-winning-2KiB-s22")
		dir := postParamsDir(t, g)
		got, err := GenerateWinningPoStWithVanilla(g.proof, g.m.Miner, g.rnd, g.vanilla,
			WithParamsDir(dir), WithBackend(BackendCPU), WithDeterministicRandomness(seed32(t, "rs_seed", g.m.RSSeed)))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].PoStProof != g.proof || !bytes.Equal(got[0].ProofBytes, g.want) {
			t.Fatalf("proof %x, bellperson %x", got[0].ProofBytes, g.want)
		}
		info := proof.WinningPoStVerifyInfo{Randomness: g.rnd, Proofs: got, ChallengedSectors: g.sectors, Prover: g.m.Miner}
		checkVerify(t, "winning", func(i proof.WinningPoStVerifyInfo) (bool, error) { return VerifyWinningPoSt(i, WithParamsDir(dir)) }, info,
			func(i *proof.WinningPoStVerifyInfo) *[]byte { return &i.Proofs[0].ProofBytes }, func(i *proof.WinningPoStVerifyInfo) *abi.PoStRandomness { return &i.Randomness })
	})
}

// checkVerify: info verifies; with another valid proof (A and C swapped
// keeps the points on the curve) or other randomness it does not.
func checkVerify[I any](t *testing.T, what string, verify func(I) (bool, error), info I, proofBytes func(*I) *[]byte, rnd func(*I) *abi.PoStRandomness) {
	t.Helper()
	if ok, err := verify(info); !ok || err != nil {
		t.Fatalf("%s: bellperson's proof does not verify: %v, %v", what, ok, err)
	}
	orig := *proofBytes(&info)
	swapped := append(append(append([]byte(nil), orig[144:192]...), orig[48:144]...), orig[0:48]...)
	*proofBytes(&info) = swapped
	if ok, err := verify(info); ok || err != nil {
		t.Errorf("%s: A and C swapped: %v, %v; want false, nil", what, ok, err)
	}
	*proofBytes(&info) = orig
	r := slices.Clone(*rnd(&info))
	r[0] ^= 1
	*rnd(&info) = r
	if ok, err := verify(info); ok || err != nil {
		t.Errorf("%s: other randomness: %v, %v; want false, nil", what, ok, err)
	}
}
