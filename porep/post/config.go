// SPDX-License-Identifier: Apache-2.0 OR MIT

package post

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/stacked"
)

// Kind is the PoSt type (filecoin-proofs PoStType).
type Kind int

const (
	// Winning is WinningPoSt: one challenged sector, 66 leaf challenges.
	Winning Kind = iota
	// Window is WindowPoSt: every sector of a deadline partition, 10 leaf
	// challenges each.
	Window
)

func (k Kind) String() string {
	switch k {
	case Winning:
		return "Winning"
	case Window:
		return "Window"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// filecoin-proofs constants.rs.
const (
	WindowChallengeCount  = 10 // WINDOW_POST_CHALLENGE_COUNT: leaf challenges per sector
	WinningChallengeCount = 66 // WINNING_POST_CHALLENGE_COUNT
	WinningSectorCount    = 1  // WINNING_POST_SECTOR_COUNT
)

// windowSectorCount is WINDOW_POST_SECTOR_COUNT for the published sizes:
// sectors per WindowPoSt partition.
var windowSectorCount = map[uint64]int{
	2 << 10:   2,
	8 << 20:   2,
	512 << 20: 2,
	32 << 30:  2349,
	64 << 30:  2300,
}

// Config is everything the prover needs to know about one registered PoSt
// proof: the PoStConfig filecoin-proofs-api's as_v1_config builds and the
// circuit's fallback::PublicParams (winning_post_setup_params /
// window_post_setup_params). Build it with ConfigFor; treat it as read-only.
type Config struct {
	// Proof is the go-state-types / filecoin-ffi id.
	Proof abi.RegisteredPoStProof
	// Name and SectorSize: Name is the filecoin-ffi / go-state-types name
	// ("StackedDrgWindow2KiBV1_1").
	stacked.ProofID
	// APIName is filecoin-proofs-api's name ("StackedDrgWindow2KiBV1_2":
	// FFI window V1_1 is API V1_2).
	APIName    string
	Kind       Kind
	APIVersion stacked.APIVersion
	Shape      stacked.TreeShape
	// BasePathLen is the number of base-arity levels of a tree R path.
	BasePathLen int

	// ChallengeCount and SectorCount are the PoStConfig's: leaf challenges
	// per sector (10 / 66) and sectors per partition (window:
	// WINDOW_POST_SECTOR_COUNT; winning: 1).
	ChallengeCount, SectorCount int
	// Slots and SlotChallenges are the circuit's sector_count and
	// challenge_count: window SectorCount × ChallengeCount, winning 66 × 1
	// (winning_post_setup_params).
	Slots, SlotChallenges int
}

// ConfigFor returns the configuration of a registered PoSt proof: WinningPoSt
// V1 (ids 0–4) or WindowPoSt V1_1 (ids 10–14), the ones Lotus and Curio use.
// Legacy WindowPoSt V1 (ids 5–9, ApiVersion 1.0.0) and unknown ids are
// errors.
func ConfigFor(p abi.RegisteredPoStProof) (Config, error) {
	sizes := stacked.SectorSizes()
	var c Config
	switch {
	case p >= abi.RegisteredPoStProof_StackedDrgWinning2KiBV1 && p <= abi.RegisteredPoStProof_StackedDrgWinning64GiBV1:
		size := sizes[p-abi.RegisteredPoStProof_StackedDrgWinning2KiBV1]
		c = Config{
			Proof: p, Kind: Winning, APIVersion: stacked.APIVersion1_0_0,
			ProofID:        stacked.ProofID{Name: "StackedDrgWinning" + stacked.SizeLabel(size) + "V1", SectorSize: size},
			ChallengeCount: WinningChallengeCount, SectorCount: WinningSectorCount,
			// winning_post_setup_params: challenge_count / sector_count
			// slots of challenge_count / challenge_count = 1 challenge.
			Slots: WinningChallengeCount / WinningSectorCount, SlotChallenges: 1,
		}
		c.APIName = c.Name
	case p >= abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1 && p <= abi.RegisteredPoStProof_StackedDrgWindow64GiBV1_1:
		size := sizes[p-abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1]
		c = Config{
			Proof: p, Kind: Window, APIVersion: stacked.APIVersion1_2_0,
			ProofID:        stacked.ProofID{Name: "StackedDrgWindow" + stacked.SizeLabel(size) + "V1_1", SectorSize: size},
			APIName:        "StackedDrgWindow" + stacked.SizeLabel(size) + "V1_2",
			ChallengeCount: WindowChallengeCount, SectorCount: windowSectorCount[size],
			Slots: windowSectorCount[size], SlotChallenges: WindowChallengeCount,
		}
	case p >= abi.RegisteredPoStProof_StackedDrgWindow2KiBV1 && p <= abi.RegisteredPoStProof_StackedDrgWindow64GiBV1:
		return Config{}, fmt.Errorf("post: registered PoSt proof %d is legacy WindowPoSt V1 (ApiVersion 1.0.0), not supported; use the V1_1 proof %d",
			int64(p), int64(p-abi.RegisteredPoStProof_StackedDrgWindow2KiBV1+abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1))
	default:
		return Config{}, fmt.Errorf("post: unknown registered PoSt proof %d (want 0–4 winning or 10–14 window)", int64(p))
	}
	seal, ok := stacked.SealProofV1_1(c.SectorSize)
	if !ok {
		return Config{}, fmt.Errorf("post: %s: no sector config for %d bytes", c.Name, c.SectorSize)
	}
	sc, err := stacked.ConfigFor(seal)
	if err != nil {
		return Config{}, fmt.Errorf("post: %s: %w", c.Name, err)
	}
	c.Shape, c.BasePathLen = sc.Shape, sc.BasePathLen()
	return c, nil
}

// ConfigByName returns the configuration of the registered PoSt proof that
// name stands for: its go-state-types number in decimal ("10"), or its
// filecoin-ffi or filecoin-proofs-api name in any case
// ("StackedDrgWindow32GiBV1_1", "StackedDrgWindow32GiBV1_2"). A number
// ConfigFor refuses and an unknown name are errors that say what is wanted.
func ConfigByName(name string) (Config, error) {
	if n, err := strconv.ParseInt(name, 10, 64); err == nil {
		return ConfigFor(abi.RegisteredPoStProof(n))
	}
	for _, c := range Configs() {
		if strings.EqualFold(c.Name, name) || strings.EqualFold(c.APIName, name) {
			return c, nil
		}
	}
	return Config{}, fmt.Errorf("post: unknown registered PoSt proof name %q (want 0–4: StackedDrgWinning<size>V1, or 10–14: StackedDrgWindow<size>V1_1)", name)
}

// Configs returns the configurations of all supported registered PoSt
// proofs: winning 0–4, then window 10–14.
func Configs() []Config {
	var out []Config
	for _, base := range []abi.RegisteredPoStProof{abi.RegisteredPoStProof_StackedDrgWinning2KiBV1, abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1} {
		for i := abi.RegisteredPoStProof(0); i < 5; i++ {
			c, err := ConfigFor(base + i)
			if err != nil {
				panic(err) // the table above is inconsistent
			}
			out = append(out, c)
		}
	}
	return out
}

// Leaves is the number of tree R leaves (nodes) of a sector: size / 32.
func (c *Config) Leaves() uint64 { return c.SectorSize / stacked.NodeSize }

// PathArities lists the arities of a tree R path, leaf side first: the base
// levels, then the sub and the top level where the shape has them.
func (c *Config) PathArities() []int { return c.Shape.PathArities(c.BasePathLen) }

// ProofKind is the MerkleProof variant of the shape's tree R proofs: Single
// (8-0-0), Sub (8-8-0) or Top (8-8-2).
func (c *Config) ProofKind() stacked.ProofKind { return c.Shape.ProofKind() }

// NumPublicInputs is the number of inputs of one partition circuit,
// including ONE: 1 + Slots · (1 + SlotChallenges).
func (c *Config) NumPublicInputs() int { return 1 + c.Slots*(1+c.SlotChallenges) }

// Partitions is the number of partition proofs for n sectors
// (get_num_partition_for_fallback_post): window ⌈n / SectorCount⌉, at
// least 1; winning 1.
func (c *Config) Partitions(n int) int {
	if c.Kind == Winning || n <= c.SectorCount {
		return 1
	}
	return (n + c.SectorCount - 1) / c.SectorCount
}

// ParameterIdentifier is fallback::PublicParams::identifier() of the circuit
// parameters (the ApiVersion is not part of it).
func (c *Config) ParameterIdentifier() string {
	return fmt.Sprintf("FallbackPoSt::PublicParams{sector_size: %d, challenge_count: %d, sector_count: %d}",
		c.SectorSize, c.SlotChallenges, c.Slots)
}

// CacheIdentifier is the compound proof's cache identifier:
// proof-of-spacetime-fallback-merkletree-poseidon_hasher-<shape>-<hex sha256(identifier)>.
func (c *Config) CacheIdentifier() string {
	return stacked.CacheIdentifier("proof-of-spacetime-fallback-merkletree-poseidon_hasher", c.Shape, c.ParameterIdentifier())
}

// The rest of paramfile.Circuit (ProofName and ProofSectorSize are
// ProofID's): the circuit's parameter identity, for loading, checking,
// sizing and generating its parameter files.

// ParameterFileStem is v28-<CacheIdentifier>.
func (c *Config) ParameterFileStem() string { return stacked.FileStem(c.CacheIdentifier()) }

// ParameterPaths returns the .params, .vk and .meta paths in dir
// (stacked.ParameterDir when dir is empty).
func (c *Config) ParameterPaths(dir string) (params, vk, meta string) {
	return stacked.ParameterPathsFor(dir, c.ParameterFileStem())
}

// SizeHint is SizeHintFor(c): one partition circuit's exact shape.
func (c *Config) SizeHint() (cs.SizeHint, error) { return SizeHintFor(c) }

// BlankCircuit is BlankCircuit(c), the circuit parameters are made for.
func (c *Config) BlankCircuit() cs.Circuit { return BlankCircuit(c) }
