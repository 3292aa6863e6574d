// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cuseal/cuseal/porep/cs"
)

// ParameterVersion is the parameter-cache VERSION of storage-proofs-core
// parameter_cache.rs.
const ParameterVersion = 28

// DefaultParameterDir is rust-fil-proofs' default parameter cache directory.
const DefaultParameterDir = "/var/tmp/filecoin-proof-parameters"

// ParameterIdentifier returns PublicParams::identifier() of
// stacked/vanilla/params.rs for this configuration. It depends only on nodes,
// layers, challenges per partition and tree shape.
func (c *SectorConfig) ParameterIdentifier() string {
	return fmt.Sprintf("layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: %d base_graph: drgraph::BucketGraph{size: %d; degree: %d; hasher: poseidon_hasher} }, challenges: LayerChallenges { layers: %d, max_count: %d }, tree: merkletree-poseidon_hasher-%d-%d-%d }",
		ExpDegree, c.Nodes, BaseDegree, c.Layers, c.ChallengesPerPartition, c.Shape.Base, c.Shape.Sub, c.Shape.Top)
}

// ParameterFileStem returns the parameter file name without extension:
// v28-stacked-proof-of-replication-merkletree-poseidon_hasher-<shape>-sha256_hasher-<hex sha256(identifier)>.
func (c *SectorConfig) ParameterFileStem() string {
	h := sha256.Sum256([]byte(c.ParameterIdentifier()))
	return fmt.Sprintf("v%d-stacked-proof-of-replication-merkletree-poseidon_hasher-%s-sha256_hasher-%s",
		ParameterVersion, c.Shape, hex.EncodeToString(h[:]))
}

// ParameterDir returns $FIL_PROOFS_PARAMETER_CACHE, or DefaultParameterDir
// when it is unset or empty.
func ParameterDir() string {
	if d := os.Getenv("FIL_PROOFS_PARAMETER_CACHE"); d != "" {
		return d
	}
	return DefaultParameterDir
}

// ParameterPaths returns the .params, .vk and .meta paths in dir (ParameterDir
// when dir is empty).
func (c *SectorConfig) ParameterPaths(dir string) (params, vk, meta string) {
	return ParameterPathsFor(dir, c.ParameterFileStem())
}

// ProofID names a registered proof of a compound proof beside PoRep's
// (post.Config and update.Config embed it): what messages and the
// parameters' .meta name, and how its parameter files are named.
type ProofID struct {
	// Name is the filecoin-ffi / go-state-types name
	// ("StackedDrgWindow2KiBV1_1", "StackedDrg2KiBV1").
	Name       string
	SectorSize uint64 // bytes
}

// ProofName is Name, for messages about its parameter files.
func (p *ProofID) ProofName() string { return p.Name }

// ProofSectorSize is SectorSize, what the parameters' .meta records.
func (p *ProofID) ProofSectorSize() uint64 { return p.SectorSize }

// CacheIdentifier is a compound proof's cache identifier (its
// CacheableParameters::cache_identifier): <prefix>-<shape>-<hex
// sha256(identifier)>, identifier being its PublicParams::identifier().
func CacheIdentifier(prefix string, shape TreeShape, identifier string) string {
	h := sha256.Sum256([]byte(identifier))
	return fmt.Sprintf("%s-%s-%s", prefix, shape, hex.EncodeToString(h[:]))
}

// FileStem is the parameter file name of a cache identifier without
// extension: v28-<cache identifier>.
func FileStem(cacheIdentifier string) string {
	return fmt.Sprintf("v%d-%s", ParameterVersion, cacheIdentifier)
}

// ParameterPathsFor returns the .params, .vk and .meta paths of any
// circuit's file stem (v28-<cache identifier>) in dir (ParameterDir when
// dir is empty).
func ParameterPathsFor(dir, stem string) (params, vk, meta string) {
	if dir == "" {
		dir = ParameterDir()
	}
	p := filepath.Join(dir, stem)
	return p + ".params", p + ".vk", p + ".meta"
}

// The rest of paramfile.Circuit: the circuit's parameter identity, for
// loading, checking, sizing and generating its parameter files.

// ProofName is Name, for messages about its parameter files.
func (c *SectorConfig) ProofName() string { return c.Name }

// ProofSectorSize is SectorSize, what the parameters' .meta records.
func (c *SectorConfig) ProofSectorSize() uint64 { return c.SectorSize }

// SizeHint is SizeHintFor(c): one partition circuit's exact shape.
func (c *SectorConfig) SizeHint() (cs.SizeHint, error) { return SizeHintFor(c) }

// BlankCircuit is BlankCircuit(c), the circuit parameters are made for.
func (c *SectorConfig) BlankCircuit() cs.Circuit { return BlankCircuit(c) }

// queryKey names a partition circuit's shape for cs.PartsQuerySizes.
type queryKey struct {
	hintKey
	challenges int
}

// QuerySizes returns the lengths of the A and B queries (|a|, |b_g1| =
// |b_g2|) of the .params file of cfg's partition circuit, counted from its
// structure (cs.PartsQuerySizes over one- and two-challenge blank
// circuits) and cached per shape: paramfile.EstimateParamsBytes.
func (c *SectorConfig) QuerySizes() (a, b int, err error) {
	key := queryKey{hintKey{c.Layers, c.Shape, c.Nodes}, c.ChallengesPerPartition}
	return cs.PartsQuerySizes(key, c.ChallengesPerPartition, func(n int) cs.Circuit {
		one := *c
		one.ChallengesPerPartition = n
		return BlankCircuit(&one)
	})
}
