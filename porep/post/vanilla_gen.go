// SPDX-License-Identifier: Apache-2.0 OR MIT

package post

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
)

// NewVanillaProof is filecoin-proofs generate_single_vanilla_proof given
// the sector's tree R (its replica nodes as leaves, cfg's shape) and comm_c:
// one sector proof with an inclusion proof of every challenged leaf, comm_r
// = Poseidon-2(comm_c, comm_r_last). Its Bytes are what filecoin-ffi's
// GenerateSingleVanillaProof returns for that replica. Errors: a tree of
// another shape or size, a challenge past the last leaf, a challenge count
// other than cfg.ChallengeCount.
func NewVanillaProof(cfg *Config, sector abi.SectorNumber, tree *poseidon.Tree, commC fr.Element, challenges []uint64) (*VanillaProof, error) {
	if tree.Base != cfg.Shape.Base || tree.Sub != cfg.Shape.Sub || tree.Top != cfg.Shape.Top || uint64(tree.Leaves()) != cfg.Leaves() {
		return nil, fmt.Errorf("post: vanilla proof: tree %d-%d-%d of %d leaves, %s wants %s of %d",
			tree.Base, tree.Sub, tree.Top, tree.Leaves(), cfg.Name, cfg.Shape, cfg.Leaves())
	}
	if len(challenges) != cfg.ChallengeCount {
		return nil, fmt.Errorf("post: vanilla proof: %d challenges, %s wants %d", len(challenges), cfg.Name, cfg.ChallengeCount)
	}
	commRLast := tree.Root
	commR := poseidon.Hash2(&commC, &commRLast)
	sp := SectorProof{CommC: stacked.FrToBytes(&commC), CommRLast: stacked.FrToBytes(&commRLast)}
	perBase := cfg.Leaves() / uint64(cfg.Shape.BaseTrees())
	for j, c := range challenges {
		if c >= cfg.Leaves() {
			return nil, fmt.Errorf("post: vanilla proof: challenge %d = %d, the sector has %d leaves", j, c, cfg.Leaves())
		}
		levels, err := tree.Proof(int(c))
		if err != nil {
			return nil, fmt.Errorf("post: vanilla proof: challenge %d: %w", j, err)
		}
		path := make([]stacked.PathElement, len(levels))
		for l, lv := range levels {
			path[l] = stacked.PathElement{Index: uint64(lv.Index), Hashes: make([]stacked.Domain, len(lv.Siblings))}
			for k := range lv.Siblings {
				path[l].Hashes[k] = stacked.FrToBytes(&lv.Siblings[k])
			}
		}
		if len(path) != len(cfg.PathArities()) {
			return nil, fmt.Errorf("post: vanilla proof: challenge %d: %d path levels, want %d", j, len(path), len(cfg.PathArities()))
		}
		leaf := tree.Levels[c/perBase][0][c%perBase]
		p := stacked.MerkleProof{Kind: cfg.ProofKind(), Root: sp.CommRLast, Leaf: stacked.FrToBytes(&leaf)}
		p.Base = path[:cfg.BasePathLen]
		if cfg.Shape.Sub > 0 {
			p.Sub = path[cfg.BasePathLen : cfg.BasePathLen+1]
		}
		if cfg.Shape.Top > 0 {
			p.Top = path[cfg.BasePathLen+1:]
		}
		sp.InclusionProofs = append(sp.InclusionProofs, p)
	}
	return &VanillaProof{SectorID: sector, CommR: stacked.FrToBytes(&commR), Sectors: []SectorProof{sp}}, nil
}
