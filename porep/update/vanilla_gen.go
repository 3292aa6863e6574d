// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
)

// SectorTrees are the trees a partition proof opens: the sector key's TreeR
// (TreeROld), the new replica's TreeR (TreeRNew), both of cfg's shape over
// cfg.Nodes leaves, the new data's TreeD with every level (its apex-leaf row
// included), and comm_c, shared by both replicas.
type SectorTrees struct {
	ROld, RNew *poseidon.Tree
	D          *stacked.TreeD
	CommC      fr.Element
}

// check reports a tree of another shape or size than cfg's.
func (s *SectorTrees) check(cfg *Config) error {
	for _, r := range []struct {
		name string
		t    *poseidon.Tree
	}{{"TreeROld", s.ROld}, {"TreeRNew", s.RNew}} {
		if r.t == nil {
			return fmt.Errorf("update: vanilla proof: %s missing", r.name)
		}
		if r.t.Base != cfg.Shape.Base || r.t.Sub != cfg.Shape.Sub || r.t.Top != cfg.Shape.Top || uint64(r.t.Leaves()) != cfg.Nodes {
			return fmt.Errorf("update: vanilla proof: %s is %d-%d-%d over %d leaves, %s wants %s over %d",
				r.name, r.t.Base, r.t.Sub, r.t.Top, r.t.Leaves(), cfg.Name, cfg.Shape, cfg.Nodes)
		}
	}
	if s.D == nil || len(s.D.Levels) != cfg.ChallengeBitLen+1 || uint64(len(s.D.Levels[0])) != cfg.Nodes {
		return fmt.Errorf("update: vanilla proof: TreeD must have %d leaves and %d levels (%s)", cfg.Nodes, cfg.ChallengeBitLen+1, cfg.Name)
	}
	return nil
}

// CommRNew is Poseidon2(comm_c, root of TreeRNew), the updated sector's
// comm_r that seeds the challenges.
func (s *SectorTrees) CommRNew() fr.Element { return poseidon.Hash2(&s.CommC, &s.RNew.Root) }

// PathSource is what a partition proof is read from: the sector's trees,
// whole (SectorTrees) or sparse (porep/synthetic's 32 GiB inputs).
type PathSource interface {
	// CommCAndRNew returns comm_c and comm_r_new = Poseidon2(comm_c, root
	// of TreeRNew).
	CommCAndRNew() (commC, commRNew fr.Element)
	// ApexRow returns TreeD's row at cfg.ApexDepth(): Partitions·
	// ApexLeafCount nodes, in order.
	ApexRow(cfg *Config) []stacked.Domain
	// NodeProofs returns node c's inclusion proofs in TreeROld, TreeD and
	// TreeRNew (in cfg's variant for the TreeRs).
	NodeProofs(cfg *Config, c uint64) (ChallengeProof, error)
}

// CommCAndRNew is PathSource's: comm_c and CommRNew.
func (s *SectorTrees) CommCAndRNew() (fr.Element, fr.Element) { return s.CommC, s.CommRNew() }

// ApexRow is PathSource's: TreeD's level cfg.ApexDepth().
func (s *SectorTrees) ApexRow(cfg *Config) []stacked.Domain { return s.D.Levels[cfg.ApexDepth()] }

// NodeProofs is PathSource's.
func (s *SectorTrees) NodeProofs(cfg *Config, c uint64) (ChallengeProof, error) {
	var cp ChallengeProof
	var err error
	if cp.ProofROld, err = stacked.PoseidonProof(s.ROld, cfg.Shape, c); err != nil {
		return cp, fmt.Errorf("TreeROld: %w", err)
	}
	cp.ProofDNew = s.D.Proof(c)
	if cp.ProofRNew, err = stacked.PoseidonProof(s.RNew, cfg.Shape, c); err != nil {
		return cp, fmt.Errorf("TreeRNew: %w", err)
	}
	return cp, nil
}

// NewPartitionProof is vanilla.rs EmptySectorUpdate::prove_inner for
// partition k: comm_c, the k-th run of ApexLeafCount nodes of TreeD's row
// that holds Partitions·ApexLeafCount nodes, and for every challenge of
// Challenges(cfg, comm_r_new, k), in order, the inclusion proofs of that
// node in TreeROld, TreeD and TreeRNew. Its Bytes are what filecoin-ffi's
// GenerateUpdateVanillaProofs returns for partition k. Errors: trees of
// another shape or size than cfg's, k out of range.
func NewPartitionProof(cfg *Config, k int, trees *SectorTrees) (*PartitionProof, error) {
	if err := trees.check(cfg); err != nil {
		return nil, err
	}
	return PartitionProofFrom(cfg, k, trees)
}

// PartitionProofFrom is NewPartitionProof over any PathSource, whose shape
// the caller vouches for. Errors: k out of range, a path the source cannot
// give.
func PartitionProofFrom(cfg *Config, k int, src PathSource) (*PartitionProof, error) {
	commC, commRNew := src.CommCAndRNew()
	challenges, err := Challenges(cfg, &commRNew, k)
	if err != nil {
		return nil, err
	}
	a := cfg.ApexLeafCount
	row := src.ApexRow(cfg) // Partitions·A nodes
	p := &PartitionProof{
		CommC:           stacked.FrToBytes(&commC),
		ApexLeafs:       append([]stacked.Domain(nil), row[k*a:(k+1)*a]...),
		ChallengeProofs: make([]ChallengeProof, len(challenges)),
	}
	for i, c := range challenges {
		if p.ChallengeProofs[i], err = src.NodeProofs(cfg, c); err != nil {
			return nil, fmt.Errorf("update: vanilla proof: partition %d challenge %d (node %d): %w", k, i, c, err)
		}
	}
	return p, nil
}
