// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/internal/parallel"
	"github.com/cuseal/cuseal/porep/poseidon"
)

// TreeD is the binary SHA-256 tree over Fr32-padded data (comm_d's tree;
// filecoin-proofs' BinaryMerkleTree<Sha256Hasher>): Levels[0] are the data
// nodes, every parent is Sha256Node(left, right), the last level is the root.
type TreeD struct {
	Levels [][]Domain
}

// BuildTreeD builds tree D over padded data (a power of two ≥ 2 of 32-byte
// nodes; the caller checks the size).
func BuildTreeD(data []byte) *TreeD {
	n := len(data) / 32
	leaves := make([]Domain, n)
	for i := range leaves {
		copy(leaves[i][:], data[32*i:])
	}
	t := &TreeD{Levels: [][]Domain{leaves}}
	for cur := leaves; len(cur) > 1; {
		next := make([]Domain, len(cur)/2)
		parallel.For(len(next), 4096, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				next[i] = Sha256Node(&cur[2*i], &cur[2*i+1])
			}
		})
		t.Levels = append(t.Levels, next)
		cur = next
	}
	return t
}

// Root returns comm_d.
func (t *TreeD) Root() Domain { return t.Levels[len(t.Levels)-1][0] }

// Proof returns the Single inclusion proof of node i (i < the leaf count):
// one sibling per level, leaf to root.
func (t *TreeD) Proof(i uint64) MerkleProof {
	p := MerkleProof{Kind: ProofSingle, Root: t.Root(), Leaf: t.Levels[0][i]}
	for l := 0; l+1 < len(t.Levels); l++ {
		p.Base = append(p.Base, PathElement{Hashes: []Domain{t.Levels[l][i^1]}, Index: i & 1})
		i >>= 1
	}
	return p
}

// PoseidonProof returns the inclusion proof of leaf i of a Poseidon tree
// (tree C, tree R_last) in the variant its shape demands (PoseidonPathProof).
// Errors: i past the last leaf.
func PoseidonProof(t *poseidon.Tree, shape TreeShape, i uint64) (MerkleProof, error) {
	if i >= uint64(t.Leaves()) {
		return MerkleProof{}, fmt.Errorf("leaf %d of a %d-leaf tree", i, t.Leaves())
	}
	leaf, levels, err := t.LeafProof(int(i))
	if err != nil {
		return MerkleProof{}, err
	}
	return PoseidonPathProof(&t.Root, &leaf, levels, shape), nil
}

// PoseidonPathProof is the MerkleProof of a leaf given its tree's root and
// its path (poseidon.Tree.Proof's order, leaf side first), in the variant
// the shape demands: Single with every level in Base (no sub-tree), Sub
// with the last level in Sub, Top with the last two in Sub and Top
// (MerkleProof::new_from_proof).
func PoseidonPathProof(root, leaf *fr.Element, levels []poseidon.ProofLevel, shape TreeShape) MerkleProof {
	p := MerkleProof{Root: FrToBytes(root), Leaf: FrToBytes(leaf)}
	elems := make([]PathElement, len(levels))
	for j, l := range levels {
		e := PathElement{Index: uint64(l.Index), Hashes: make([]Domain, len(l.Siblings))}
		for s := range l.Siblings {
			e.Hashes[s] = FrToBytes(&l.Siblings[s])
		}
		elems[j] = e
	}
	switch {
	case shape.Sub == 0:
		p.Kind, p.Base = ProofSingle, elems
	case shape.Top == 0:
		p.Kind, p.Base, p.Sub = ProofSub, elems[:len(elems)-1], elems[len(elems)-1:]
	default:
		n := len(elems)
		p.Kind, p.Base, p.Sub, p.Top = ProofTop, elems[:n-2], elems[n-2:n-1], elems[n-1:]
	}
	return p
}
