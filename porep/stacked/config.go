// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/filecoin-project/go-state-types/abi"
)

// Graph and tree constants (storage-proofs-core drgraph.rs, storage-proofs-porep
// stacked/vanilla/{graph.rs,proof.rs}, filecoin-proofs constants.rs).
const (
	NodeSize                  = 32 // bytes per node
	BaseDegree                = 6  // DRG parents per node
	ExpDegree                 = 8  // expander parents per node
	Degree                    = BaseDegree + ExpDegree
	TotalParents              = 37 // parents hashed into one label
	MaxChallengesPerPartition = 18
)

// APIVersion mirrors storage-proofs-core api_version.rs ApiVersion. It only
// changes graph-parent generation (DRG predecessor slot, expander truncation).
type APIVersion int

const (
	APIVersion1_0_0 APIVersion = iota
	APIVersion1_1_0
	APIVersion1_2_0
)

func (v APIVersion) String() string {
	switch v {
	case APIVersion1_0_0:
		return "1.0.0"
	case APIVersion1_1_0:
		return "1.1.0"
	case APIVersion1_2_0:
		return "1.2.0"
	}
	return fmt.Sprintf("APIVersion(%d)", int(v))
}

// ChallengeKind selects the challenge derivation of challenges.rs.
type ChallengeKind int

const (
	// ChallengesInteractive: sha256(replica_id ‖ seed ‖ j) (no feature).
	ChallengesInteractive ChallengeKind = iota
	// ChallengesSynthetic: ApiFeature::SyntheticPoRep (ChaCha20 selection).
	ChallengesSynthetic
	// ChallengesNonInteractive: ApiFeature::NonInteractivePoRep.
	ChallengesNonInteractive
)

func (k ChallengeKind) String() string {
	switch k {
	case ChallengesInteractive:
		return "interactive"
	case ChallengesSynthetic:
		return "synthetic"
	case ChallengesNonInteractive:
		return "non-interactive"
	}
	return fmt.Sprintf("ChallengeKind(%d)", int(k))
}

// TreeShape is the (base, sub, top) arity triple of the Poseidon trees C and
// R_last (merkletree's U8/U0/U0 etc.). Sub and Top are 0 when absent.
type TreeShape struct {
	Base, Sub, Top int
}

// Shapes used by the published sector sizes and the test-only sizes.
var (
	Shape800 = TreeShape{8, 0, 0}
	Shape820 = TreeShape{8, 2, 0}
	Shape880 = TreeShape{8, 8, 0}
	Shape882 = TreeShape{8, 8, 2}
)

func (s TreeShape) String() string { return fmt.Sprintf("%d-%d-%d", s.Base, s.Sub, s.Top) }

// BaseTrees is the number of base trees (sub·top, at least 1).
func (s TreeShape) BaseTrees() int {
	n := 1
	if s.Sub > 0 {
		n *= s.Sub
	}
	if s.Top > 0 {
		n *= s.Top
	}
	return n
}

// PathArities lists the arities of a path through a tree of this shape,
// leaf side first: baseLevels levels of the base arity, then the sub and
// the top level where the shape has them (MerkleProof::path's order).
func (s TreeShape) PathArities(baseLevels int) []int {
	out := make([]int, 0, baseLevels+2)
	for i := 0; i < baseLevels; i++ {
		out = append(out, s.Base)
	}
	if s.Sub > 0 {
		out = append(out, s.Sub)
	}
	if s.Top > 0 {
		out = append(out, s.Top)
	}
	return out
}

// ProofKind is the MerkleProof variant of the shape's trees: Single
// (no sub arity), Sub (sub, no top) or Top (sub and top).
func (s TreeShape) ProofKind() ProofKind {
	switch {
	case s.Top > 0:
		return ProofTop
	case s.Sub > 0:
		return ProofSub
	}
	return ProofSingle
}

// Validate checks that the arities are among those rust-fil-proofs supports
// for PoRep trees: base {2,4,8}, sub {0,2,4,8}, top {0,2,4}, top only with sub.
func (s TreeShape) Validate() error {
	switch s.Base {
	case 2, 4, 8:
	default:
		return fmt.Errorf("tree shape %s: base arity %d not in {2,4,8}", s, s.Base)
	}
	switch s.Sub {
	case 0, 2, 4, 8:
	default:
		return fmt.Errorf("tree shape %s: sub arity %d not in {0,2,4,8}", s, s.Sub)
	}
	switch s.Top {
	case 0, 2, 4:
	default:
		return fmt.Errorf("tree shape %s: top arity %d not in {0,2,4}", s, s.Top)
	}
	if s.Top > 0 && s.Sub == 0 {
		return fmt.Errorf("tree shape %s: top arity without sub arity", s)
	}
	return nil
}

// SectorConfig is everything the off-circuit code and the circuit need to know
// about one sector kind. Build it with ConfigFor (registered proofs) or
// NewTestConfig (test-only shapes); treat it as read-only afterwards.
type SectorConfig struct {
	// Proof is the registered proof; meaningful only when Registered is true.
	Proof      abi.RegisteredSealProof
	Registered bool
	// Name is the rust-filecoin-proofs-api RegisteredSealProof variant name
	// (the C1 "registered_proof" string), e.g. "StackedDrg32GiBV1_1". Test
	// configs get a name of their own ("StackedDrg4KiBTest").
	Name string
	// SectorSize in bytes (padded), Nodes = SectorSize/32.
	SectorSize uint64
	Nodes      uint64
	Layers     int
	// Partitions and ChallengesPerPartition of the C2 circuits.
	Partitions             int
	ChallengesPerPartition int
	Shape                  TreeShape
	PoRepID                [32]byte
	APIVersion             APIVersion
	Challenges             ChallengeKind
}

// sizeInfo: per-size values of filecoin-proofs constants.rs.
type sizeInfo struct {
	size                     uint64
	layers                   int
	partitions, niPartitions int
	minChallenges, niMin     int
	shape                    TreeShape
}

// publishedSizes is the one table of Filecoin's PoRep sector sizes, in the
// order of the registered proof ids (id mod 5). Everything else — the CLI's
// --sector-size, the names "StackedDrg2KiBV1_1" — is derived from it.
var publishedSizes = []sizeInfo{
	{2 << 10, 2, 1, 13, 2, 26, Shape800},
	{8 << 20, 2, 1, 13, 2, 26, Shape800},
	{512 << 20, 2, 1, 13, 2, 26, Shape800},
	{32 << 30, 11, 10, 126, 176, 2253, Shape880},
	{64 << 30, 11, 10, 126, 176, 2253, Shape882},
}

// SectorSizes returns the published PoRep sector sizes in bytes, smallest
// first: 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB.
func SectorSizes() []uint64 {
	out := make([]uint64, len(publishedSizes))
	for i, si := range publishedSizes {
		out[i] = si.size
	}
	return out
}

// SealProofV1_1 returns the registered seal proof of a published sector size
// that Lotus uses for new sectors today (StackedDrg<size>V1_1, interactive
// PoRep); false when size is not a published sector size.
func SealProofV1_1(size uint64) (abi.RegisteredSealProof, bool) {
	for i, si := range publishedSizes {
		if si.size == size {
			return abi.RegisteredSealProof_StackedDrg2KiBV1_1 + abi.RegisteredSealProof(i), true
		}
	}
	return 0, false
}

// SizeLabel writes a sector size as Lotus and rust-fil-proofs' proof names
// do: "2KiB", "32GiB". It is go-state-types' abi.SectorSize.ShortString,
// which is exact for sector sizes (32·2^k bytes; it truncates other values,
// e.g. 1536 → "1KiB", so it is not a general byte formatter).
func SizeLabel(size uint64) string { return abi.SectorSize(size).ShortString() }

// registeredProofID is rust-filecoin-proofs-api REGISTERED_PROOF_IDS; it
// equals the abi value for all 20 StackedDrg proofs.
func registeredProofID(p abi.RegisteredSealProof) (uint64, bool) {
	if p < 0 || p > abi.RegisteredSealProof_StackedDrg64GiBV1_2_Feat_NiPoRep {
		return 0, false
	}
	return uint64(p), true
}

// PoRepID returns the 32-byte porep_id of a registered proof: id u64 LE ‖
// nonce (0) u64 LE ‖ 16 zero bytes (rust-filecoin-proofs-api registry.rs).
// It covers the NI-PoRep proofs (15–19), which go-state-types v0.19.0's
// PoRepID does not.
func PoRepID(p abi.RegisteredSealProof) ([32]byte, error) {
	var id [32]byte
	n, ok := registeredProofID(p)
	if !ok {
		return id, fmt.Errorf("porep_id: unknown registered seal proof %d", int64(p))
	}
	binary.LittleEndian.PutUint64(id[0:8], n)
	binary.LittleEndian.PutUint64(id[8:16], 0)
	return id, nil
}

var versionSuffix = [4]string{"V1", "V1_1", "V1_1_Feat_SyntheticPoRep", "V1_2_Feat_NonInteractivePoRep"}

// ConfigFor returns the sector configuration of a registered StackedDrg seal
// proof (ids 0–19). Errors name the unknown value.
func ConfigFor(p abi.RegisteredSealProof) (SectorConfig, error) {
	id, ok := registeredProofID(p)
	if !ok {
		return SectorConfig{}, fmt.Errorf("registered seal proof %d is not a StackedDrg proof (0..19)", int64(p))
	}
	si := publishedSizes[id%5]
	group := id / 5
	c := SectorConfig{
		Proof:      p,
		Registered: true,
		Name:       "StackedDrg" + SizeLabel(si.size) + versionSuffix[group],
		SectorSize: si.size,
		Nodes:      si.size / NodeSize,
		Layers:     si.layers,
		Shape:      si.shape,
	}
	c.PoRepID, _ = PoRepID(p)
	minCh, parts := si.minChallenges, si.partitions
	switch group {
	case 0:
		c.APIVersion, c.Challenges = APIVersion1_0_0, ChallengesInteractive
	case 1:
		c.APIVersion, c.Challenges = APIVersion1_1_0, ChallengesInteractive
	case 2:
		c.APIVersion, c.Challenges = APIVersion1_2_0, ChallengesSynthetic
	case 3:
		c.APIVersion, c.Challenges = APIVersion1_2_0, ChallengesNonInteractive
		minCh, parts = si.niMin, si.niPartitions
	}
	c.Partitions = parts
	c.ChallengesPerPartition = (minCh + parts - 1) / parts // div_ceil
	return c, nil
}

// ConfigByName returns the configuration whose rust-filecoin-proofs-api name
// (the C1 "registered_proof" string) is name.
func ConfigByName(name string) (SectorConfig, error) {
	for p := abi.RegisteredSealProof(0); p <= abi.RegisteredSealProof_StackedDrg64GiBV1_2_Feat_NiPoRep; p++ {
		c, _ := ConfigFor(p)
		if c.Name == name {
			return c, nil
		}
	}
	return SectorConfig{}, fmt.Errorf("unknown registered_proof %q", name)
}

// NewTestConfig builds a configuration without a registered proof, as the
// rust-fil-proofs tests do: layers 2, 1 partition, 2 interactive challenges.
// sectorSize must be 32·nodes with nodes/(sub·top) a power of the base arity
// (≥ base arity). Typical use: 4 KiB with Shape820, 16 KiB with Shape880,
// 32 KiB with Shape882. The name is "StackedDrg<size>Test<shape>".
func NewTestConfig(sectorSize uint64, shape TreeShape, porepID [32]byte, api APIVersion) (SectorConfig, error) {
	if err := shape.Validate(); err != nil {
		return SectorConfig{}, err
	}
	if api < APIVersion1_0_0 || api > APIVersion1_2_0 {
		return SectorConfig{}, fmt.Errorf("test config: unknown api version %d", int(api))
	}
	if sectorSize == 0 || sectorSize%NodeSize != 0 {
		return SectorConfig{}, fmt.Errorf("test config: sector size %d is not a positive multiple of 32", sectorSize)
	}
	nodes := sectorSize / NodeSize
	if nodes&(nodes-1) != 0 || nodes > 1<<32 {
		return SectorConfig{}, fmt.Errorf("test config: node count %d is not a power of two ≤ 2^32", nodes)
	}
	c := SectorConfig{
		Name:                   fmt.Sprintf("StackedDrg%sTest%s", SizeLabel(sectorSize), shape),
		SectorSize:             sectorSize,
		Nodes:                  nodes,
		Layers:                 2,
		Partitions:             1,
		ChallengesPerPartition: 2,
		Shape:                  shape,
		PoRepID:                porepID,
		APIVersion:             api,
		Challenges:             ChallengesInteractive,
	}
	if err := c.Validate(); err != nil {
		return SectorConfig{}, err
	}
	return c, nil
}

// Validate checks internal consistency: shape vs node count, layers (2 or 11,
// the column arities neptune provides), challenge and partition counts.
func (c *SectorConfig) Validate() error {
	if err := c.Shape.Validate(); err != nil {
		return err
	}
	if c.Nodes*NodeSize != c.SectorSize || c.Nodes < 2 {
		return fmt.Errorf("config %s: nodes %d do not match sector size %d", c.Name, c.Nodes, c.SectorSize)
	}
	if c.Layers != 2 && c.Layers != 11 {
		return fmt.Errorf("config %s: layers %d unsupported (column hash arity must be 2 or 11)", c.Name, c.Layers)
	}
	if c.Partitions < 1 || c.Partitions > 256 {
		return fmt.Errorf("config %s: partitions %d not in 1..256", c.Name, c.Partitions)
	}
	if c.ChallengesPerPartition < 1 || c.ChallengesPerPartition > MaxChallengesPerPartition {
		return fmt.Errorf("config %s: challenges per partition %d not in 1..%d", c.Name, c.ChallengesPerPartition, MaxChallengesPerPartition)
	}
	bt := uint64(c.Shape.BaseTrees())
	if c.Nodes%bt != 0 {
		return fmt.Errorf("config %s: %d nodes not divisible into %d base trees", c.Name, c.Nodes, bt)
	}
	leaves := c.Nodes / bt
	a := uint64(c.Shape.Base)
	for leaves > 1 {
		if leaves%a != 0 {
			return fmt.Errorf("config %s: base tree of %d leaves is not a power of arity %d", c.Name, c.Nodes/bt, a)
		}
		leaves /= a
	}
	if c.Nodes/bt < a {
		return fmt.Errorf("config %s: base tree of %d leaves smaller than arity %d", c.Name, c.Nodes/bt, a)
	}
	return nil
}

// VanillaTag is the VanillaSealProof enum tag of C1 ("StackedDrg2KiBV1" …):
// it names the sector shape only. Test configs use "StackedDrg<size>Test".
func (c *SectorConfig) VanillaTag() string {
	if c.Registered {
		return "StackedDrg" + SizeLabel(c.SectorSize) + "V1"
	}
	return "StackedDrg" + SizeLabel(c.SectorSize) + "Test"
}

// BaseTreeLeaves is the number of leaves of one base tree.
func (c *SectorConfig) BaseTreeLeaves() uint64 { return c.Nodes / uint64(c.Shape.BaseTrees()) }

// BasePathLen is the number of base-arity levels of a tree C / R_last path
// (base_path_length in storage-proofs-core merkle/proof.rs).
func (c *SectorConfig) BasePathLen() int {
	return logBase(c.BaseTreeLeaves(), uint64(c.Shape.Base))
}

// PathLen is the total number of path elements (base + sub + top).
func (c *SectorConfig) PathLen() int {
	n := c.BasePathLen()
	if c.Shape.Sub > 0 {
		n++
	}
	if c.Shape.Top > 0 {
		n++
	}
	return n
}

// CommDDepth is the height of the binary SHA-256 comm_d tree (log2 nodes).
func (c *SectorConfig) CommDDepth() int { return bits.Len64(c.Nodes) - 1 }

// NumPublicInputs is the number of public inputs of one partition circuit,
// including ONE: 1 + 3 + 18·challenges.
func (c *SectorConfig) NumPublicInputs() int { return 4 + 18*c.ChallengesPerPartition }

// TotalChallenges is partitions × challenges per partition.
func (c *SectorConfig) TotalChallenges() int { return c.Partitions * c.ChallengesPerPartition }

func logBase(n, a uint64) int {
	d := 0
	for n > 1 {
		n /= a
		d++
	}
	return d
}

// APIFeatures returns the rust-fil-proofs ApiFeature names of the
// configuration: ["SyntheticPoRep"], ["NonInteractivePoRep"] or none.
func (c *SectorConfig) APIFeatures() []string {
	switch c.Challenges {
	case ChallengesSynthetic:
		return []string{"SyntheticPoRep"}
	case ChallengesNonInteractive:
		return []string{"NonInteractivePoRep"}
	}
	return nil
}
