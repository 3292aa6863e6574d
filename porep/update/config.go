// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/stacked"
)

// HSCount is the number of h values the circuit can select from (the six
// entries of constants.rs hs()).
const HSCount = 6

// Config is everything the prover needs to know about one registered update
// proof: filecoin-proofs SectorUpdateConfig and storage-proofs-update
// PublicParams::from_sector_size (constants.rs, vanilla.rs). Build it with
// ConfigFor; treat it as read-only.
type Config struct {
	// Proof is the go-state-types / filecoin-ffi id (0–4).
	Proof abi.RegisteredUpdateProof
	// Name ("StackedDrg2KiBV1", filecoin-proofs-api's and go-state-types')
	// and SectorSize.
	stacked.ProofID
	// Nodes is sector_nodes: SectorSize / 32.
	Nodes uint64
	// Shape is TreeR's shape (the seal's); BasePathLen its base levels.
	Shape       stacked.TreeShape
	BasePathLen int

	// Partitions (P) and ChallengeCount (N, per partition).
	Partitions, ChallengeCount int
	// ChallengeBitLen is cbl = log2(Nodes); PartitionBitLen pbl =
	// log2(Partitions).
	ChallengeBitLen, PartitionBitLen int
	// ApexLeafCount (A) and ApexLeafBitLen (albl = log2 A).
	ApexLeafCount, ApexLeafBitLen int
	// HS is constants.rs hs(nodes); H = hs[3] (h_default); HSelect =
	// 2^(index of the first hs entry equal to H) (h_select).
	HS      [HSCount]int
	H       int
	HSelect uint64
}

// partitionCount is constants.rs partition_count.
func partitionCount(nodes uint64) int {
	switch {
	case nodes <= 1<<8:
		return 1
	case nodes <= 1<<10:
		return 2
	case nodes <= 1<<19:
		return 4
	}
	return 16
}

// challengeCount is constants.rs challenge_count (per partition).
func challengeCount(nodes uint64) int {
	if nodes <= 1<<19 {
		return 10
	}
	return 86
}

// apexLeafCount is constants.rs apex_leaf_count.
func apexLeafCount(nodes uint64) int {
	if nodes <= 1<<8 {
		return 8
	}
	return 128
}

// hs is constants.rs hs.
func hs(nodes uint64) [HSCount]int {
	if nodes <= 1<<10 {
		return [HSCount]int{1, 1, 1, 1, 1, 1}
	}
	return [HSCount]int{7, 8, 9, 10, 11, 12}
}

// ConfigFor returns the configuration of a registered update proof
// (StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1 = 0–4). Unknown ids are
// errors.
func ConfigFor(p abi.RegisteredUpdateProof) (Config, error) {
	sizes := stacked.SectorSizes()
	if p < abi.RegisteredUpdateProof_StackedDrg2KiBV1 || p > abi.RegisteredUpdateProof_StackedDrg64GiBV1 {
		return Config{}, fmt.Errorf("update: unknown registered update proof %d (want 0–4, StackedDrg{2KiB…64GiB}V1)", int64(p))
	}
	size := sizes[p-abi.RegisteredUpdateProof_StackedDrg2KiBV1]
	seal, ok := stacked.SealProofV1_1(size)
	if !ok {
		return Config{}, fmt.Errorf("update: no sector config for %d bytes", size)
	}
	sc, err := stacked.ConfigFor(seal)
	if err != nil {
		return Config{}, fmt.Errorf("update: %w", err)
	}
	nodes := size / stacked.NodeSize
	c := Config{
		Proof: p, ProofID: stacked.ProofID{Name: "StackedDrg" + stacked.SizeLabel(size) + "V1", SectorSize: size}, Nodes: nodes,
		Shape: sc.Shape, BasePathLen: sc.BasePathLen(),
		Partitions: partitionCount(nodes), ChallengeCount: challengeCount(nodes),
		ChallengeBitLen: bits.Len64(nodes) - 1,
		ApexLeafCount:   apexLeafCount(nodes),
		HS:              hs(nodes),
	}
	c.PartitionBitLen = bits.Len(uint(c.Partitions)) - 1
	c.ApexLeafBitLen = bits.Len(uint(c.ApexLeafCount)) - 1
	c.H = c.HS[3]
	for i, h := range c.HS {
		if h == c.H {
			c.HSelect = 1 << i
			break
		}
	}
	return c, nil
}

// ConfigByName returns the configuration of the registered update proof
// that name stands for: its go-state-types number in decimal ("3") or its
// name in any case ("StackedDrg32GiBV1"). A number ConfigFor refuses and an
// unknown name are errors that say what is wanted.
func ConfigByName(name string) (Config, error) {
	if n, err := strconv.ParseInt(name, 10, 64); err == nil {
		return ConfigFor(abi.RegisteredUpdateProof(n))
	}
	for _, c := range Configs() {
		if strings.EqualFold(c.Name, name) {
			return c, nil
		}
	}
	return Config{}, fmt.Errorf("update: unknown registered update proof name %q (want 0–4 or StackedDrg<size>V1)", name)
}

// Configs returns the configurations of all registered update proofs, 0–4.
func Configs() []Config {
	out := make([]Config, 0, 5)
	for p := abi.RegisteredUpdateProof_StackedDrg2KiBV1; p <= abi.RegisteredUpdateProof_StackedDrg64GiBV1; p++ {
		c, err := ConfigFor(p)
		if err != nil {
			panic(err) // the tables above are inconsistent
		}
		out = append(out, c)
	}
	return out
}

// RandomBits is the number of random bits per challenge, cbl − pbl
// (challenges.rs).
func (c *Config) RandomBits() int { return c.ChallengeBitLen - c.PartitionBitLen }

// ChallengesPerDigest is floor(254 / RandomBits) (Fr::CAPACITY bits per
// digest).
func (c *Config) ChallengesPerDigest() int { return 254 / c.RandomBits() }

// DigestsPerPartition is ceil(ChallengeCount / ChallengesPerDigest).
func (c *Config) DigestsPerPartition() int {
	per := c.ChallengesPerDigest()
	return (c.ChallengeCount + per - 1) / per
}

// ApexDepth is d = cbl − pbl − albl: the TreeD levels below an apex leaf,
// the ones each challenge proves in the circuit.
func (c *Config) ApexDepth() int { return c.ChallengeBitLen - c.PartitionBitLen - c.ApexLeafBitLen }

// PathArities lists the arities of a TreeR path, leaf side first: the base
// levels, then the sub and the top level where the shape has them.
func (c *Config) PathArities() []int { return c.Shape.PathArities(c.BasePathLen) }

// ProofKind is the MerkleProof variant of the shape's TreeR proofs: Single
// (8-0-0), Sub (8-8-0) or Top (8-8-2). TreeD proofs are always Single.
func (c *Config) ProofKind() stacked.ProofKind { return c.Shape.ProofKind() }

// KAndHSelect is the first public input of partition k: k | h_select << pbl
// (circuit.rs PublicInputs::new).
func (c *Config) KAndHSelect(k int) uint64 {
	return uint64(k) | c.HSelect<<uint(c.PartitionBitLen)
}

// NumPublicInputs is the number of inputs of one partition circuit,
// including ONE: 5.
func (c *Config) NumPublicInputs() int { return 5 }

// ParameterIdentifier is PublicParams::identifier() (vanilla.rs,
// ParameterSetMetadata).
func (c *Config) ParameterIdentifier() string {
	return fmt.Sprintf("empty_sector_update::PublicParams{ sector_nodes: %d }", c.Nodes)
}

// CacheIdentifier is EmptySectorUpdateCompound's cache identifier:
// empty-sector-update-merkletree-poseidon_hasher-<shape>-<hex sha256(identifier)>.
func (c *Config) CacheIdentifier() string {
	return stacked.CacheIdentifier("empty-sector-update-merkletree-poseidon_hasher", c.Shape, c.ParameterIdentifier())
}

// ParameterPaths is paramfile.Circuit's (ProofName and ProofSectorSize
// are ProofID's): the .params, .vk and .meta paths in dir
// (stacked.ParameterDir when dir is empty); ParameterFileStem is
// v28-<CacheIdentifier>.
func (c *Config) ParameterPaths(dir string) (params, vk, meta string) {
	return stacked.ParameterPathsFor(dir, c.ParameterFileStem())
}

func (c *Config) ParameterFileStem() string { return stacked.FileStem(c.CacheIdentifier()) }

// SizeHint is SizeHintFor(c): one partition circuit's exact shape.
func (c *Config) SizeHint() (cs.SizeHint, error) { return SizeHintFor(c) }

// BlankCircuit is BlankCircuit(c), the circuit parameters are made for.
func (c *Config) BlankCircuit() cs.Circuit { return BlankCircuit(c) }
