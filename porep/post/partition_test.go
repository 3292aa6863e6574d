// SPDX-License-Identifier: Apache-2.0 OR MIT

package post

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/testsupport/testcs"
)

// golden is one reference folder with its configuration.
type golden struct {
	folder string
	proof  abi.RegisteredPoStProof
}

var goldens = []golden{
	{"post-window-2KiB-s21", abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1},
	{"post-winning-2KiB-s22", abi.RegisteredPoStProof_StackedDrgWinning2KiBV1},
}

// loadGolden returns a folder's meta.json, its configuration (checked
// against meta.json) and its parsed vanilla proofs in file order.
func loadGolden(t testing.TB, g golden) (*refMeta, *Config, []*VanillaProof) {
	t.Helper()
	m := loadMeta(t, g.folder)
	cfg := mustConfig(t, g.proof)
	rp := m.RegisteredProof
	if int64(cfg.Proof) != rp.FFIID || cfg.Name != rp.FFIName || cfg.APIName != rp.APIName || cfg.APIVersion.String() != rp.APIVersion ||
		cfg.SectorSize != m.SectorSize || "merkletree-poseidon_hasher-"+cfg.Shape.String() != m.Tree ||
		cfg.ChallengeCount != m.PoStConfig.ChallengeCount || cfg.SectorCount != m.PoStConfig.SectorCount ||
		cfg.Slots != m.CircuitParams.SectorCount || cfg.SlotChallenges != m.CircuitParams.ChallengeCount ||
		cfg.ParameterIdentifier() != m.CircuitParams.Identifier || cfg.CacheIdentifier() != m.CacheIdentifier ||
		cfg.ParameterFileStem()+".params" != m.ParamsFile || cfg.ParameterFileStem()+".vk" != m.VKFile {
		t.Fatalf("config %+v differs from %s/meta.json", cfg, g.folder)
	}
	var vps []*VanillaProof
	for _, f := range m.Vanilla {
		v, err := ParseVanillaProof(readVanilla(t, g.folder, f.File), cfg)
		if err != nil {
			t.Fatalf("%s: %v", f.File, err)
		}
		vps = append(vps, v)
	}
	return m, cfg, vps
}

// TestGoldenChallenges: GeneratePoStFallbackSectorChallenges and the
// winning sector challenge against rust-fil-proofs' values.
func TestGoldenChallenges(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.folder, func(t *testing.T) {
			m, cfg, _ := loadGolden(t, g)
			rnd := hex32(t, "randomness", m.Randomness)
			sectors := make([]abi.SectorNumber, len(m.ChallengedSectors))
			for i, s := range m.ChallengedSectors {
				sectors[i] = abi.SectorNumber(s)
			}
			got, err := SectorChallenges(cfg, rnd, sectors)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(m.Challenges) {
				t.Fatalf("%d sectors challenged, rust-fil-proofs %d", len(got), len(m.Challenges))
			}
			for _, w := range m.Challenges {
				if !slices.Equal(got[abi.SectorNumber(w.SectorNumber)], w.Challenges) {
					t.Errorf("sector %d: %v, rust-fil-proofs %v", w.SectorNumber, got[abi.SectorNumber(w.SectorNumber)], w.Challenges)
				}
			}
			if w := m.WinningSectorChallenge; w != nil {
				idx, err := WinningSectorChallenge(rnd, hex32(t, "prover_id", m.ProverID), w.SectorSetLen)
				if err != nil {
					t.Fatal(err)
				}
				if len(w.Indices) != 1 || idx != w.Indices[0] {
					t.Errorf("winning sector index %d, rust-fil-proofs %v", idx, w.Indices)
				}
			}
		})
	}
}

// TestWinningSectorChallengeFormula checks the hash layout of
// generate_sector_challenge on a set larger than the golden one (whose
// single sector makes every index 0): prover_id ‖ randomness ‖ u64le(0).
func TestWinningSectorChallengeFormula(t *testing.T) {
	var rnd, prover [32]byte
	rnd[0], prover[0] = 1, 0xe8
	got, err := WinningSectorChallenge(rnd, prover, 1<<40)
	if err != nil {
		t.Fatal(err)
	}
	// Swapping the two 32-byte values must change the index (the order
	// matters), and the index is below the set size.
	swapped, _ := WinningSectorChallenge(prover, rnd, 1<<40)
	if got == swapped || got >= 1<<40 {
		t.Errorf("index %d, swapped %d", got, swapped)
	}
	for _, bad := range []struct {
		rnd, prover [32]byte
		n           uint64
		want        string
	}{
		{rnd, prover, 0, "no eligible sectors"},
		{[32]byte{31: 0xff}, prover, 1, "randomness"},
		{rnd, [32]byte{31: 0x80}, 1, "prover_id"},
	} {
		if _, err := WinningSectorChallenge(bad.rnd, bad.prover, bad.n); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%v: want error naming %q", err, bad.want)
		}
	}
}

// TestGoldenSlotsAndPublicInputs: the prover's slots from the vanilla
// proofs and the verifier's from (sector, comm_r) give meta.json's
// per-slot challenges and public inputs.
func TestGoldenSlotsAndPublicInputs(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.folder, func(t *testing.T) {
			m, cfg, vps := loadGolden(t, g)
			rnd := hex32(t, "randomness", m.Randomness)
			pub := make([]PublicSector, len(vps))
			for i, v := range vps {
				pub[i] = PublicSector{ID: v.SectorID, CommR: v.CommR}
			}
			if len(m.Partition) != m.Partitions || cfg.Partitions(len(vps)) != m.Partitions {
				t.Fatalf("%d partitions, meta.json %d", cfg.Partitions(len(vps)), m.Partitions)
			}
			for _, want := range m.Partition {
				ps, err := ProverSlots(cfg, rnd, vps, want.K)
				if err != nil {
					t.Fatal(err)
				}
				vs, err := VerifierSlots(cfg, rnd, pub, want.K)
				if err != nil {
					t.Fatal(err)
				}
				checkSlotsMeta(t, "prover", ps, want.Slots)
				checkSlotsMeta(t, "verifier", vs, want.Slots)
				for _, slots := range [][]Slot{ps, vs} {
					in, err := PublicInputs(slots)
					if err != nil {
						t.Fatal(err)
					}
					if len(in)+1 != want.NumInputs || len(in) != len(want.PublicInputs) {
						t.Fatalf("%d public inputs, meta.json %d", len(in), len(want.PublicInputs))
					}
					for i := range in {
						b := stacked.FrToBytes(&in[i])
						if hexs(b[:]) != want.PublicInputs[i] {
							t.Errorf("public input %d = %x, rust-fil-proofs %s", i, b, want.PublicInputs[i])
						}
					}
				}
			}
		})
	}
}

func checkSlotsMeta(t *testing.T, who string, got []Slot, want []struct {
	SectorNumber   uint64   `json:"sector_number"`
	Padding        bool     `json:"padding"`
	LeafChallenges []uint64 `json:"leaf_challenges"`
}) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d slots, meta.json %d", who, len(got), len(want))
	}
	for i := range got {
		if uint64(got[i].Sector.ID) != want[i].SectorNumber || got[i].Padding != want[i].Padding || !slices.Equal(got[i].Challenges, want[i].LeafChallenges) {
			t.Errorf("%s: slot %d: sector %d padding %v %v, rust-fil-proofs %+v", who, i, got[i].Sector.ID, got[i].Padding, got[i].Challenges, want[i])
		}
	}
}

// TestProverSlotsPadding: a short window partition repeats its last sector
// (post-circuit.md §6.1), on the prover's and the verifier's side.
func TestProverSlotsPadding(t *testing.T) {
	m, cfg, vps := loadGolden(t, goldens[0])
	rnd := hex32(t, "randomness", m.Randomness)
	// One golden sector alone: slot 1 pads (a third sector would need a
	// third sealed sector's vanilla proof).
	slots, err := ProverSlots(cfg, rnd, vps[:1], 0)
	if err != nil {
		t.Fatal(err)
	}
	if slots[0].Padding || !slots[1].Padding || slots[1].Sector != slots[0].Sector || !slices.Equal(slots[1].Challenges, slots[0].Challenges) || slots[1].Proof != slots[0].Proof {
		t.Errorf("slot 1 is not a padding copy of slot 0: %+v", slots[1])
	}
	three := []PublicSector{{ID: 1}, {ID: 2}, {ID: 3}}
	vs, err := VerifierSlots(cfg, rnd, three, 1)
	if err != nil {
		t.Fatal(err)
	}
	if vs[0].Sector.ID != 3 || vs[1].Sector.ID != 3 || !vs[1].Padding || vs[0].Padding {
		t.Errorf("partition 1 of 3 sectors: %+v", vs)
	}
	if _, err := VerifierSlots(cfg, rnd, three, 2); err == nil || !strings.Contains(err.Error(), "partition 2 out of range (3 sectors make 2 partitions of 2)") {
		t.Errorf("partition 2: %v", err)
	}
}

// TestProverSlotsBadInput: vanilla proofs that do not fit the randomness,
// the sector or the partition are errors naming the sector.
func TestProverSlotsBadInput(t *testing.T) {
	m, cfg, vps := loadGolden(t, goldens[0])
	rnd := hex32(t, "randomness", m.Randomness)
	clone := func(v *VanillaProof) *VanillaProof {
		c, err := ParseVanillaProof(v.Bytes(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	otherRnd := rnd
	otherRnd[0] ^= 1
	renamed := clone(vps[0])
	renamed.SectorID = 99
	wrongCommR := clone(vps[0])
	wrongCommR.CommR = vps[1].CommR
	badSibling := clone(vps[1])
	badSibling.Sectors[0].InclusionProofs[4].Base[1].Hashes[3][0] ^= 1
	badRoot := clone(vps[1])
	badRoot.Sectors[0].InclusionProofs[2].Root = vps[0].Sectors[0].CommRLast
	nonCanonRnd := rnd
	nonCanonRnd[31] = 0xff
	for _, tc := range []struct {
		name   string
		rnd    [32]byte
		proofs []*VanillaProof
		k      int
		want   string
	}{
		{"other randomness", otherRnd, vps, 0, "sector 21000 challenge 0: inclusion proof for leaf 44, the randomness challenges leaf"},
		{"other sector number", rnd, []*VanillaProof{renamed, vps[1]}, 0, "sector 99 challenge 0: inclusion proof for leaf 44"},
		{"comm_r of another sector", rnd, []*VanillaProof{wrongCommR, vps[1]}, 0, "sector 21000: comm_r 3493e911"},
		{"bad sibling", rnd, []*VanillaProof{vps[0], badSibling}, 0, "slot 1: sector 21001 challenge 4 (leaf 53): Merkle path hashes to"},
		{"root", rnd, []*VanillaProof{vps[0], badRoot}, 0, "sector 21001 challenge 2: inclusion proof root"},
		{"duplicate", rnd, []*VanillaProof{vps[0], vps[0]}, 0, "vanilla proofs 0 and 1 are both for sector 21000"},
		{"partition", rnd, vps, 1, "partition 1 out of range"},
		{"none", rnd, nil, 0, "no vanilla proofs"},
		{"non-canonical randomness", nonCanonRnd, vps, 0, "randomness"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ProverSlots(cfg, tc.rnd, tc.proofs, tc.k)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v; want %q", err, tc.want)
			}
		})
	}
	// Winning takes exactly one vanilla proof of 66 inclusion proofs.
	wm, wcfg, wvps := loadGolden(t, goldens[1])
	wrnd := hex32(t, "randomness", wm.Randomness)
	if _, err := ProverSlots(wcfg, wrnd, []*VanillaProof{wvps[0], wvps[0]}, 0); err == nil || !strings.Contains(err.Error(), "both for sector 22000") {
		t.Errorf("two winning proofs: %v", err)
	}
	if _, err := ProverSlots(wcfg, rnd, wvps, 0); err == nil || !strings.Contains(err.Error(), "slot 0: sector 22000 challenge 0") {
		t.Errorf("winning with the window randomness: %v", err)
	}
}

// TestSectorChallengesErrors: empty lists and non-canonical randomness.
func TestSectorChallengesErrors(t *testing.T) {
	cfg := mustConfig(t, abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1)
	if _, err := SectorChallenges(cfg, [32]byte{}, nil); err == nil || !strings.Contains(err.Error(), "no sectors") {
		t.Errorf("no sectors: %v", err)
	}
	var bad [32]byte
	binary.LittleEndian.PutUint64(bad[24:], ^uint64(0))
	if _, err := SectorChallenges(cfg, bad, []abi.SectorNumber{1}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("randomness %x is not a canonical", bad[:])) {
		t.Errorf("non-canonical: %v", err)
	}
	// Winning challenges only the first sector of the list.
	w := mustConfig(t, abi.RegisteredPoStProof_StackedDrgWinning2KiBV1)
	got, err := SectorChallenges(w, [32]byte{}, []abi.SectorNumber{5, 6})
	if err != nil || len(got) != 1 || len(got[5]) != WinningChallengeCount {
		t.Errorf("winning with two sectors: %v, %v", got, err)
	}
}

// testSector is a 2 KiB-shaped replica: pseudo-random tree R leaves and
// comm_c from seed.
func testSector(t testing.TB, cfg *Config, seed uint64) (*poseidon.Tree, fr.Element) {
	t.Helper()
	leaves := make([]fr.Element, cfg.Leaves())
	for i := range leaves {
		leaves[i].SetUint64(seed*1000003 + uint64(i)*7919)
		leaves[i].Square(&leaves[i])
	}
	tree, err := poseidon.BuildTree(leaves, cfg.Shape.Base, cfg.Shape.Sub, cfg.Shape.Top)
	if err != nil {
		t.Fatal(err)
	}
	var commC fr.Element
	commC.SetUint64(seed + 17)
	return tree, commC
}

// TestNewVanillaProof: vanilla proofs made from a tree R answer their
// challenges (ProverSlots' checks), survive their bytes, and make a
// satisfied circuit; three window sectors make two partitions, the second
// padded.
func TestNewVanillaProof(t *testing.T) {
	cfg := mustConfig(t, abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1)
	rnd := [32]byte{1, 2, 3}
	ids := []abi.SectorNumber{7, 8, 9}
	chs, err := SectorChallenges(cfg, rnd, ids)
	if err != nil {
		t.Fatal(err)
	}
	var vps []*VanillaProof
	for i, id := range ids {
		tree, commC := testSector(t, cfg, uint64(i))
		v, err := NewVanillaProof(cfg, id, tree, commC, chs[id])
		if err != nil {
			t.Fatal(err)
		}
		if v, err = ParseVanillaProof(v.Bytes(), cfg); err != nil {
			t.Fatal(err)
		}
		vps = append(vps, v)
	}
	if cfg.Partitions(len(vps)) != 2 {
		t.Fatalf("%d partitions", cfg.Partitions(len(vps)))
	}
	for k := 0; k < 2; k++ {
		slots, err := ProverSlots(cfg, rnd, vps, k)
		if err != nil {
			t.Fatal(err)
		}
		if k == 1 && (slots[0].Sector.ID != 9 || !slots[1].Padding || slots[1].Sector.ID != 9) {
			t.Errorf("partition 1: %+v", slots)
		}
		c, err := NewCircuit(cfg, slots)
		if err != nil {
			t.Fatal(err)
		}
		tcs := testcs.New()
		if err := c.Synthesize(context.Background(), tcs); err != nil {
			t.Fatal(err)
		}
		if err := tcs.Validate(); err != nil {
			t.Errorf("partition %d: %v", k, err)
		}
	}
	tree, commC := testSector(t, cfg, 0)
	if _, err := NewVanillaProof(cfg, 1, tree, commC, chs[7][:9]); err == nil || !strings.Contains(err.Error(), "9 challenges, StackedDrgWindow2KiBV1_1 wants 10") {
		t.Errorf("9 challenges: %v", err)
	}
	bad := slices.Clone(chs[7])
	bad[4] = 64
	if _, err := NewVanillaProof(cfg, 1, tree, commC, bad); err == nil || !strings.Contains(err.Error(), "challenge 4 = 64, the sector has 64 leaves") {
		t.Errorf("challenge past the end: %v", err)
	}
	if _, err := NewVanillaProof(mustConfig(t, abi.RegisteredPoStProof_StackedDrgWindow8MiBV1_1), 1, tree, commC, chs[7]); err == nil || !strings.Contains(err.Error(), "challenge 0: path of arities [8 8], StackedDrgWindow8MiBV1_1 wants a tree") {
		t.Errorf("tree of another size: %v", err)
	}
}
