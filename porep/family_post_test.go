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

	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testpost"
)

// postGolden is a PoSt reference vector (testpost.Load) and the leaf
// challenges its meta.json records, which only the challenge tests read.
type postGolden struct {
	*testpost.Vector
	challenges []struct {
		SectorNumber abi.SectorNumber `json:"sector_number"`
		Challenges   []uint64         `json:"challenges"`
	}
}

func loadPostGolden(t testing.TB, folder string) *postGolden {
	t.Helper()
	g := &postGolden{Vector: testpost.Load(t, folder)}
	raw, err := os.ReadFile(filepath.Join(g.Dir, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Challenges *[]struct {
			SectorNumber abi.SectorNumber `json:"sector_number"`
			Challenges   []uint64         `json:"challenges"`
		} `json:"challenges"`
	}
	m.Challenges = &g.challenges
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return g
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
		for _, s := range g.Sectors {
			ids = append(ids, s.SectorNumber)
		}
		fc, err := GeneratePoStFallbackSectorChallenges(g.Proof, g.Miner, g.Randomness, ids)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(fc.Sectors, ids) || len(fc.Challenges) != len(g.challenges) {
			t.Fatalf("%s: sectors %v (%d challenged), want %v", folder, fc.Sectors, len(fc.Challenges), ids)
		}
		for _, w := range g.challenges {
			if !slices.Equal(fc.Challenges[w.SectorNumber], w.Challenges) {
				t.Errorf("%s: sector %d: %v, rust-fil-proofs %v", folder, w.SectorNumber, fc.Challenges[w.SectorNumber], w.Challenges)
			}
		}
	}
	g := loadPostGolden(t, "post-winning-2KiB-s22")
	idx, err := GenerateWinningPoStSectorChallenge(g.Proof, g.Miner, g.Randomness, 1)
	if err != nil || !slices.Equal(idx, []uint64{0}) {
		t.Errorf("winning sector challenge of 1 sector: %v, %v", idx, err)
	}
	if _, err := GenerateWinningPoStSectorChallenge(abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1, 1000, g.Randomness, 1); !errors.Is(err, ErrBadInput) {
		t.Errorf("window type: %v", err)
	}
}

// TestPoStBadInput: every defect is ErrBadInput (or ErrParamsNotFound) with
// a message naming it, before any parameter file is needed.
func TestPoStBadInput(t *testing.T) {
	w := loadPostGolden(t, "post-window-2KiB-s21")
	win := loadPostGolden(t, "post-winning-2KiB-s22")
	empty := t.TempDir()
	short := append([]byte(nil), w.Vanilla[0][:100]...)
	otherRnd := slices.Clone(w.Randomness)
	otherRnd[0] ^= 1
	badRnd := slices.Clone(w.Randomness)
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
		{"truncated", window(w.Proof, w.Randomness, [][]byte{w.Vanilla[0], short}), "vanilla proof 1 (100 bytes, StackedDrgWindow2KiBV1_1 wants 5680): vanilla proof: sector_proofs[0].inclusion_proofs[0].leaf at byte 92: truncated"},
		{"other size", window(abi.RegisteredPoStProof_StackedDrgWindow8MiBV1_1, w.Randomness, w.Vanilla), "vanilla proof 0 (5680 bytes, StackedDrgWindow8MiBV1_1 wants 15280)"},
		{"winning vanilla", window(w.Proof, w.Randomness, win.Vanilla), "inclusion_proofs.len at byte 48: 66 elements, want 10"},
		{"other randomness", window(w.Proof, otherRnd, w.Vanilla), "sector 21000 challenge 0: inclusion proof for leaf 44"},
		{"short randomness", window(w.Proof, w.Randomness[:31], w.Vanilla), "randomness: 31 bytes, want 32"},
		{"non-canonical randomness", window(w.Proof, badRnd, w.Vanilla), "not a canonical field element"},
		{"winning type", window(win.Proof, w.Randomness, w.Vanilla), "StackedDrgWinning2KiBV1 is a WinningPoSt proof, want WindowPoSt"},
		{"legacy type", window(abi.RegisteredPoStProof_StackedDrgWindow2KiBV1, w.Randomness, w.Vanilla), "legacy WindowPoSt V1"},
		{"no proofs", window(w.Proof, w.Randomness, nil), "no vanilla proofs"},
		{"duplicate sector", window(w.Proof, w.Randomness, [][]byte{w.Vanilla[1], w.Vanilla[1]}), "both for sector 21001"},
		{"sectors out of order", window(w.Proof, w.Randomness, [][]byte{w.Vanilla[1], w.Vanilla[0]}), "vanilla proof 1 (sector 21000) after vanilla proof 0 (sector 21001): WindowPoSt wants ascending sector numbers"},
		{"partition out of order", func() error {
			_, err := GenerateSinglePartitionWindowPoStWithVanilla(w.Proof, 1000, w.Randomness, [][]byte{w.Vanilla[1], w.Vanilla[0]}, 0, opts...)
			return err
		}(), "vanilla proof 1 (sector 21000) after vanilla proof 0 (sector 21001)"},
		{"job out of order", func() error {
			_, err := PrepareWindowPoStPartition(w.Proof, 1000, w.Randomness, [][]byte{w.Vanilla[1], w.Vanilla[0]}, 0, opts...)
			return err
		}(), "vanilla proof 1 (sector 21000) after vanilla proof 0 (sector 21001)"},
		{"job duplicate sector", func() error {
			_, err := PrepareWindowPoStPartition(w.Proof, 1000, w.Randomness, [][]byte{w.Vanilla[0], w.Vanilla[0]}, 0, opts...)
			return err
		}(), "vanilla proofs 0 and 1 are both for sector 21000"},
		{"missing params", window(w.Proof, w.Randomness, w.Vanilla), "parameter file not found"},
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
	if _, err := GenerateWinningPoStWithVanilla(win.Proof, 1000, win.Randomness, [][]byte{win.Vanilla[0], win.Vanilla[0]}, opts...); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "2 vanilla proofs, want 1") {
		t.Errorf("two winning proofs: %v", err)
	}
	three := [][]byte{w.Vanilla[0], w.Vanilla[1], w.Vanilla[0]}
	if _, err := GenerateSinglePartitionWindowPoStWithVanilla(w.Proof, 1000, w.Randomness, three, 0, opts...); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "3 vanilla proofs for one partition, at most 2") {
		t.Errorf("three sectors in one partition: %v", err)
	}

	if _, err := MergeWindowPoStPartitionProofs(w.Proof, []PartitionProof{{PoStProof: w.Proof, ProofBytes: w.Want[:100]}}); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "partition proof 0: 100 bytes of proof type 10, want 192 bytes of StackedDrgWindow2KiBV1_1") {
		t.Errorf("merge of a short proof: %v", err)
	}
	if _, err := MergeWindowPoStPartitionProofs(w.Proof, []PartitionProof{{PoStProof: win.Proof, ProofBytes: w.Want}}); !errors.Is(err, ErrBadInput) {
		t.Errorf("merge of a winning proof: %v", err)
	}
	if _, err := MergeWindowPoStPartitionProofs(win.Proof, nil); !errors.Is(err, ErrBadInput) {
		t.Errorf("merge for a winning type: %v", err)
	}

	// Verification: a .vk of another circuit, wrong lengths, wrong sectors.
	vkDir := t.TempDir()
	wcfg, _ := post.ConfigFor(win.Proof)
	_, winVK, _ := wcfg.ParameterPaths(vkDir)
	copyFile(t, w.VKFile, winVK) // the window key under the winning name
	winInfo := proof.WinningPoStVerifyInfo{Randomness: win.Randomness, Proofs: []proof.PoStProof{{PoStProof: win.Proof, ProofBytes: win.Want}}, ChallengedSectors: win.Sectors, Prover: 1000}
	if _, err := VerifyWinningPoSt(winInfo, WithParamsDir(vkDir)); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "vk has 23 IC points, the StackedDrgWinning2KiBV1 circuit has 133 public inputs") {
		t.Errorf("vk of another circuit: %v", err)
	}
	winInfo.Proofs[0].ProofBytes = win.Want[:191]
	if _, err := VerifyWinningPoSt(winInfo, WithParamsDir(vkDir)); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "proof is 191 bytes, want 192") {
		t.Errorf("short proof: %v", err)
	}
	winInfo.Proofs[0].ProofBytes = win.Want
	winInfo.ChallengedSectors = w.Sectors
	if _, err := VerifyWinningPoSt(winInfo, WithParamsDir(vkDir)); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "2 challenged sectors, want 1") {
		t.Errorf("two winning sectors: %v", err)
	}
	wInfo := proof.WindowPoStVerifyInfo{Randomness: w.Randomness, Proofs: []proof.PoStProof{{PoStProof: w.Proof, ProofBytes: w.Want}}, ChallengedSectors: []proof.SectorInfo{w.Sectors[0], w.Sectors[0]}, Prover: 1000}
	if _, err := VerifyWindowPoSt(wInfo, WithParamsDir(vkDir)); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "challenged sector 21000 is listed twice") {
		t.Errorf("duplicate sector: %v", err)
	}
	wInfo.ChallengedSectors = []proof.SectorInfo{w.Sectors[0], w.Sectors[1]}
	wInfo.ChallengedSectors[1].SealProof = abi.RegisteredSealProof_StackedDrg8MiBV1_1
	if _, err := VerifyWindowPoSt(wInfo, WithParamsDir(vkDir)); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "challenged sector 21001 is sealed with StackedDrg8MiBV1_1 (8MiB)") {
		t.Errorf("sector of another size: %v", err)
	}
	wInfo.ChallengedSectors = w.Sectors
	if _, err := VerifyWindowPoSt(wInfo, WithParamsDir(empty)); !errors.Is(err, ErrParamsNotFound) {
		t.Errorf("missing vk: %v", err)
	}
}

// TestPoStGolden proves both reference vectors from their vanilla bytes on
// the CPU with r, s from rs_seed: the proofs must be proof.bin, verify, and
// a changed proof or randomness must not. Long tier (parameter
// generation on first use, then CPU proofs of tens of seconds on 2 cores).
func TestPoStGolden(t *testing.T) {
	testenv.Long(t, "PoSt test parameters and CPU proofs")
	t.Run("window", func(t *testing.T) {
		g := loadPostGolden(t, "post-window-2KiB-s21")
		dir := g.ParamsDir(t)
		opts := []Option{WithParamsDir(dir), WithBackend(BackendCPU), WithDeterministicRandomness(g.RSSeed)}
		got, err := GenerateWindowPoStWithVanilla(g.Proof, g.Miner, g.Randomness, g.Vanilla, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].PoStProof != g.Proof || !bytes.Equal(got[0].ProofBytes, g.Want) {
			t.Fatalf("proof %x (%d), bellperson %x", got[0].ProofBytes, got[0].PoStProof, g.Want)
		}
		info := proof.WindowPoStVerifyInfo{Randomness: g.Randomness, Proofs: got, ChallengedSectors: g.Sectors, Prover: g.Miner}
		checkVerify(t, "window", func(i proof.WindowPoStVerifyInfo) (bool, error) { return VerifyWindowPoSt(i, WithParamsDir(dir)) }, info,
			func(i *proof.WindowPoStVerifyInfo) *[]byte { return &i.Proofs[0].ProofBytes }, func(i *proof.WindowPoStVerifyInfo) *abi.PoStRandomness { return &i.Randomness })
		// The sectors in another order are the same BTreeMap.
		info.ChallengedSectors = []proof.SectorInfo{g.Sectors[1], g.Sectors[0]}
		if ok, err := VerifyWindowPoSt(info, WithParamsDir(dir)); !ok || err != nil {
			t.Errorf("sectors listed in reverse: %v, %v", ok, err)
		}
		part, err := GenerateSinglePartitionWindowPoStWithVanilla(g.Proof, g.Miner, g.Randomness, g.Vanilla, 0, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(part.ProofBytes, g.Want) {
			t.Errorf("single partition proof %x, bellperson %x", part.ProofBytes, g.Want)
		}
		merged, err := MergeWindowPoStPartitionProofs(g.Proof, []PartitionProof{*part})
		if err != nil || merged.PoStProof != g.Proof || !bytes.Equal(merged.ProofBytes, g.Want) {
			t.Errorf("merged single partition: %+v, %v", merged, err)
		}
	})
	t.Run("window three sectors", func(t *testing.T) {
		// Replicas made here (post.NewVanillaProof over a tree R): two
		// partitions, the second padded; the single-partition call gives
		// partition 1's bytes, and merging gives the whole proof.
		g := loadPostGolden(t, "post-window-2KiB-s21")
		dir := g.ParamsDir(t)
		cfg, err := post.ConfigFor(g.Proof)
		if err != nil {
			t.Fatal(err)
		}
		ids := []abi.SectorNumber{31, 32, 33}
		fc, err := GeneratePoStFallbackSectorChallenges(g.Proof, 1000, g.Randomness, ids)
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
		full, err := GenerateWindowPoStWithVanilla(g.Proof, 1000, g.Randomness, vanilla, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if len(full[0].ProofBytes) != 2*groth16.ProofSize {
			t.Fatalf("%d proof bytes for 3 sectors, want 2 partitions", len(full[0].ProofBytes))
		}
		info := proof.WindowPoStVerifyInfo{Randomness: g.Randomness, Proofs: full, ChallengedSectors: sectors, Prover: 1000}
		if ok, err := VerifyWindowPoSt(info, WithParamsDir(dir)); !ok || err != nil {
			t.Fatalf("VerifyWindowPoSt: %v, %v", ok, err)
		}
		info.ChallengedSectors = sectors[:2] // a partition's worth of bytes too many
		if _, err := VerifyWindowPoSt(info, WithParamsDir(dir)); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "proof is 384 bytes, want 192") {
			t.Errorf("two sectors for two partitions: %v", err)
		}
		part1, err := GenerateSinglePartitionWindowPoStWithVanilla(g.Proof, 1000, g.Randomness, vanilla[2:], 1, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(part1.ProofBytes, full[0].ProofBytes[groth16.ProofSize:]) {
			t.Errorf("single partition 1 %x, partition 1 of the whole %x", part1.ProofBytes, full[0].ProofBytes[groth16.ProofSize:])
		}
		part0 := PartitionProof{PoStProof: g.Proof, ProofBytes: full[0].ProofBytes[:groth16.ProofSize]}
		merged, err := MergeWindowPoStPartitionProofs(g.Proof, []PartitionProof{part0, *part1})
		if err != nil || !bytes.Equal(merged.ProofBytes, full[0].ProofBytes) {
			t.Errorf("merged: %v", err)
		}
	})
	t.Run("winning", func(t *testing.T) {
		g := loadPostGolden(t, "post-winning-2KiB-s22")
		dir := g.ParamsDir(t)
		got, err := GenerateWinningPoStWithVanilla(g.Proof, g.Miner, g.Randomness, g.Vanilla,
			WithParamsDir(dir), WithBackend(BackendCPU), WithDeterministicRandomness(g.RSSeed))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].PoStProof != g.Proof || !bytes.Equal(got[0].ProofBytes, g.Want) {
			t.Fatalf("proof %x, bellperson %x", got[0].ProofBytes, g.Want)
		}
		info := proof.WinningPoStVerifyInfo{Randomness: g.Randomness, Proofs: got, ChallengedSectors: g.Sectors, Prover: g.Miner}
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
