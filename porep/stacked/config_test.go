// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"
)

// Published sha256(identifier) suffixes (parameters.json, rust-fil-proofs 87348a74).
var publishedParamHashes = map[uint64]string{
	2 << 10:   "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f",
	8 << 20:   "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb",
	512 << 20: "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472",
	32 << 30:  "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820",
	64 << 30:  "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2",
}

func TestParameterFileNames(t *testing.T) {
	for p := abi.RegisteredSealProof(0); p <= abi.RegisteredSealProof_StackedDrg64GiBV1_2_Feat_NiPoRep; p++ {
		c, err := ConfigFor(p)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := c.ParameterFileStem(), publishedParamHashes[c.SectorSize]; got != want {
			t.Errorf("%s: %s\nwant %s", c.Name, got, want)
		}
	}
	c, _ := ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	want := "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 base_graph: drgraph::BucketGraph{size: 64; degree: 6; hasher: poseidon_hasher} }, challenges: LayerChallenges { layers: 2, max_count: 2 }, tree: merkletree-poseidon_hasher-8-0-0 }"
	if c.ParameterIdentifier() != want {
		t.Errorf("identifier %q", c.ParameterIdentifier())
	}
	t.Setenv("FIL_PROOFS_PARAMETER_CACHE", "")
	if ParameterDir() != DefaultParameterDir {
		t.Error("default dir")
	}
	t.Setenv("FIL_PROOFS_PARAMETER_CACHE", "/tmp/pp")
	pp, vk, meta := c.ParameterPaths("")
	if pp != filepath.Join("/tmp/pp", publishedParamHashes[2048]+".params") || vk[len(vk)-3:] != ".vk" || meta[len(meta)-5:] != ".meta" {
		t.Errorf("paths %s %s %s", pp, vk, meta)
	}
}

func TestConfigTable(t *testing.T) {
	type row struct {
		p                         abi.RegisteredSealProof
		name                      string
		layers, parts, chal, path int
		shape                     TreeShape
		api                       APIVersion
		kind                      ChallengeKind
	}
	rows := []row{
		{abi.RegisteredSealProof_StackedDrg2KiBV1, "StackedDrg2KiBV1", 2, 1, 2, 2, Shape800, APIVersion1_0_0, ChallengesInteractive},
		{abi.RegisteredSealProof_StackedDrg8MiBV1_1, "StackedDrg8MiBV1_1", 2, 1, 2, 6, Shape800, APIVersion1_1_0, ChallengesInteractive},
		{abi.RegisteredSealProof_StackedDrg512MiBV1_1_Feat_SyntheticPoRep, "StackedDrg512MiBV1_1_Feat_SyntheticPoRep", 2, 1, 2, 8, Shape800, APIVersion1_2_0, ChallengesSynthetic},
		{abi.RegisteredSealProof_StackedDrg32GiBV1_1, "StackedDrg32GiBV1_1", 11, 10, 18, 10, Shape880, APIVersion1_1_0, ChallengesInteractive},
		{abi.RegisteredSealProof_StackedDrg64GiBV1_1, "StackedDrg64GiBV1_1", 11, 10, 18, 11, Shape882, APIVersion1_1_0, ChallengesInteractive},
		{abi.RegisteredSealProof_StackedDrg2KiBV1_2_Feat_NiPoRep, "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", 2, 13, 2, 2, Shape800, APIVersion1_2_0, ChallengesNonInteractive},
		{abi.RegisteredSealProof_StackedDrg32GiBV1_2_Feat_NiPoRep, "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", 11, 126, 18, 10, Shape880, APIVersion1_2_0, ChallengesNonInteractive},
	}
	for _, r := range rows {
		c, err := ConfigFor(r.p)
		if err != nil {
			t.Fatal(err)
		}
		if c.Name != r.name || c.Layers != r.layers || c.Partitions != r.parts || c.ChallengesPerPartition != r.chal ||
			c.PathLen() != r.path || c.Shape != r.shape || c.APIVersion != r.api || c.Challenges != r.kind {
			t.Errorf("%s: got %+v (path %d)", r.name, c, c.PathLen())
		}
		if err := c.Validate(); err != nil {
			t.Error(err)
		}
		if b, err := ConfigByName(r.name); err != nil || b.Proof != r.p {
			t.Errorf("ConfigByName(%s): %v %v", r.name, b.Proof, err)
		}
	}
	c, _ := ConfigFor(abi.RegisteredSealProof_StackedDrg32GiBV1_1)
	if c.NumPublicInputs() != 328 || c.CommDDepth() != 30 || c.VanillaTag() != "StackedDrg32GiBV1" {
		t.Errorf("32GiB derived values %d %d %s", c.NumPublicInputs(), c.CommDDepth(), c.VanillaTag())
	}
	if f := c.APIFeatures(); f != nil {
		t.Errorf("32GiB V1_1 features %v", f)
	}
	if s, _ := ConfigFor(abi.RegisteredSealProof_StackedDrg32GiBV1_1_Feat_SyntheticPoRep); len(s.APIFeatures()) != 1 || s.APIFeatures()[0] != "SyntheticPoRep" || s.APIVersion != APIVersion1_2_0 {
		t.Errorf("synthetic features %v version %v", s.APIFeatures(), s.APIVersion)
	}
	if n, _ := ConfigFor(abi.RegisteredSealProof_StackedDrg64GiBV1_2_Feat_NiPoRep); len(n.APIFeatures()) != 1 || n.APIFeatures()[0] != "NonInteractivePoRep" {
		t.Errorf("NI features %v", n.APIFeatures())
	}
	if _, err := ConfigFor(20); err == nil {
		t.Error("proof 20 accepted")
	}
	if _, err := ConfigFor(-1); err == nil {
		t.Error("proof -1 accepted")
	}
	// Test shapes.
	for _, tc := range []struct {
		size  uint64
		shape TreeShape
		path  int
	}{{4 << 10, Shape820, 3}, {16 << 10, Shape880, 3}, {32 << 10, Shape882, 4}, {2 << 10, TreeShape{2, 0, 0}, 6}, {2 << 10, TreeShape{4, 4, 0}, 3}} {
		c, err := NewTestConfig(tc.size, tc.shape, [32]byte{44}, APIVersion1_1_0)
		if err != nil {
			t.Fatal(err)
		}
		if c.PathLen() != tc.path {
			t.Errorf("%s: path len %d want %d", c.Name, c.PathLen(), tc.path)
		}
	}
	if _, err := NewTestConfig(2<<10, TreeShape{8, 8, 2}, [32]byte{}, APIVersion1_1_0); err == nil {
		t.Error("2KiB with 8-8-2 accepted (base tree of 4 leaves)")
	}
	if _, err := NewTestConfig(4<<10, TreeShape{3, 0, 0}, [32]byte{}, APIVersion1_1_0); err == nil {
		t.Error("arity 3 accepted")
	}
}

func TestPoRepIDAndReplicaIDMatchGoStateTypes(t *testing.T) {
	var ticket, commD [32]byte
	for i := range ticket {
		ticket[i], commD[i] = byte(i*5+1), byte(255-i)
	}
	commD[31] &= 0x3f
	for p := abi.RegisteredSealProof(0); p <= abi.RegisteredSealProof_StackedDrg64GiBV1_2_Feat_NiPoRep; p++ {
		mine, err := PoRepID(p)
		if err != nil {
			t.Fatal(err)
		}
		if mine[0] != byte(p) || !bytes.Equal(mine[1:], make([]byte, 31)) {
			t.Fatalf("%d: porep_id %x", p, mine)
		}
		theirs, err := p.PoRepID()
		if err != nil {
			// go-state-types v0.19.0 lacks ids 15..19 (NI-PoRep).
			if p < 15 {
				t.Fatalf("%d: go-state-types: %v", p, err)
			}
			continue
		}
		if theirs != mine {
			t.Fatalf("%d: porep_id %x, go-state-types %x", p, mine, theirs)
		}
		for _, miner := range []abi.ActorID{0, 1000, 1 << 40} {
			want, err := p.ReplicaId(miner, 42, ticket[:], commD[:])
			if err != nil {
				t.Fatal(err)
			}
			pid, err := abi.MakeProverID(miner)
			if err != nil {
				t.Fatal(err)
			}
			if ProverID(miner) != [32]byte(pid) {
				t.Fatalf("prover id %d", miner)
			}
			if got := ReplicaID(ProverID(miner), 42, ticket, commD, mine); got != want {
				t.Fatalf("%d miner %d: replica_id %x want %x", p, miner, got, want)
			}
		}
	}
}

// TestSectorSizeTable checks the one sector-size table against go-state-types: every
// registered proof's size is published, SealProofV1_1 names the V1_1 proof of that size,
// and SizeLabel (abi.SectorSize.ShortString) is exact for every size a config can have.
func TestSectorSizeTable(t *testing.T) {
	want := []string{"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"}
	sizes := SectorSizes()
	if len(sizes) != len(want) {
		t.Fatalf("SectorSizes() = %v", sizes)
	}
	for i, size := range sizes {
		if got := SizeLabel(size); got != want[i] {
			t.Errorf("SizeLabel(%d) = %q, want %q", size, got, want[i])
		}
		p, ok := SealProofV1_1(size)
		if !ok {
			t.Fatalf("SealProofV1_1(%d): not found", size)
		}
		gst, err := p.SectorSize()
		if err != nil || uint64(gst) != size {
			t.Errorf("%d: go-state-types says proof %d has size %d (%v)", size, p, gst, err)
		}
		if c, _ := ConfigFor(p); c.Name != "StackedDrg"+want[i]+"V1_1" {
			t.Errorf("%d: proof %d is %s, want the V1_1 proof", size, p, c.Name)
		}
	}
	for _, size := range []uint64{0, 1 << 10, 4 << 10, 1 << 30, 128 << 30} {
		if _, ok := SealProofV1_1(size); ok {
			t.Errorf("SealProofV1_1(%d): a size Filecoin does not publish was found", size)
		}
	}
	// Every config size is 32·2^k bytes (NewTestConfig: nodes a power of two ≤ 2^32);
	// the label must name it exactly: <n><unit> with n·unit = size.
	units := map[string]uint64{"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
	for k := 0; k <= 32; k++ {
		size := uint64(32) << k
		label := SizeLabel(size)
		var n uint64
		var unit string
		if _, err := fmt.Sscanf(label, "%d%s", &n, &unit); err != nil || units[unit] == 0 || n*units[unit] != size || n >= 1024 {
			t.Errorf("SizeLabel(%d) = %q: not an exact binary size", size, label)
		}
	}
}

// TestTreeShapePathArities checks the path arities and MerkleProof variant
// of the published shapes.
func TestTreeShapePathArities(t *testing.T) {
	for _, c := range []struct {
		s    TreeShape
		base int
		want string
		kind ProofKind
	}{
		{Shape800, 2, "[8 8]", ProofSingle},
		{Shape880, 9, "[8 8 8 8 8 8 8 8 8 8]", ProofSub},
		{Shape882, 9, "[8 8 8 8 8 8 8 8 8 8 2]", ProofTop},
	} {
		if got := fmt.Sprint(c.s.PathArities(c.base)); got != c.want || c.s.ProofKind() != c.kind {
			t.Errorf("%s: %s %s, want %s %s", c.s, got, c.s.ProofKind(), c.want, c.kind)
		}
	}
}
