// SPDX-License-Identifier: Apache-2.0 OR MIT

package post

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
)

// TreeR is what NewVanillaProof reads of a sector's tree R: its root
// (comm_r_last) and the inclusion path of a leaf, leaf side first in
// poseidon.Tree.Proof's order (base levels, then sub, then top). A
// *poseidon.Tree is one; porep/synthetic's sparse tree, which holds only
// the challenged paths of a 32 GiB tree, is another.
type TreeR interface {
	RootHash() fr.Element
	LeafProof(i int) (fr.Element, []poseidon.ProofLevel, error)
}

// NewVanillaProof is filecoin-proofs generate_single_vanilla_proof given
// the sector's tree R (its replica nodes as leaves, cfg's shape) and comm_c:
// one sector proof with an inclusion proof of every challenged leaf, comm_r
// = Poseidon-2(comm_c, comm_r_last). Its Bytes are what filecoin-ffi's
// GenerateSingleVanillaProof returns for that replica. Errors: a tree of
// another shape or size (its paths' levels and arities are not cfg's), a
// challenge past the last leaf, a challenge count other than
// cfg.ChallengeCount.
func NewVanillaProof(cfg *Config, sector abi.SectorNumber, tree TreeR, commC fr.Element, challenges []uint64) (*VanillaProof, error) {
	if len(challenges) != cfg.ChallengeCount {
		return nil, fmt.Errorf("post: vanilla proof: %d challenges, %s wants %d", len(challenges), cfg.Name, cfg.ChallengeCount)
	}
	commRLast := tree.RootHash()
	commR := poseidon.Hash2(&commC, &commRLast)
	sp := SectorProof{CommC: stacked.FrToBytes(&commC), CommRLast: stacked.FrToBytes(&commRLast)}
	arities := cfg.PathArities()
	for j, c := range challenges {
		if c >= cfg.Leaves() {
			return nil, fmt.Errorf("post: vanilla proof: challenge %d = %d, the sector has %d leaves", j, c, cfg.Leaves())
		}
		leaf, levels, err := tree.LeafProof(int(c))
		if err != nil {
			return nil, fmt.Errorf("post: vanilla proof: challenge %d: %w", j, err)
		}
		if !pathFits(levels, arities) {
			return nil, fmt.Errorf("post: vanilla proof: challenge %d: path of arities %v, %s wants a tree %s of %d leaves (arities %v)",
				j, levelArities(levels), cfg.Name, cfg.Shape, cfg.Leaves(), arities)
		}
		path := make([]stacked.PathElement, len(levels))
		for l, lv := range levels {
			path[l] = stacked.PathElement{Index: uint64(lv.Index), Hashes: make([]stacked.Domain, len(lv.Siblings))}
			for k := range lv.Siblings {
				path[l].Hashes[k] = stacked.FrToBytes(&lv.Siblings[k])
			}
		}
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

// pathFits reports whether a path has the levels and arities of want.
func pathFits(levels []poseidon.ProofLevel, want []int) bool {
	if len(levels) != len(want) {
		return false
	}
	for l, lv := range levels {
		if len(lv.Siblings)+1 != want[l] {
			return false
		}
	}
	return true
}

func levelArities(levels []poseidon.ProofLevel) []int {
	out := make([]int, len(levels))
	for l, lv := range levels {
		out[l] = len(lv.Siblings) + 1
	}
	return out
}
