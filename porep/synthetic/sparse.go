// SPDX-License-Identifier: Apache-2.0 OR MIT

package synthetic

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/poseidon"
)

// sparseDefaults are the nodes of a tree shape whose leaves all equal one
// fill value: defaults[l] is every node of level l (0 = the leaves), so a
// subtree no set leaf reaches costs nothing to hash.
type sparseDefaults struct {
	arities  []int // per level, leaf side first: base…, sub, top
	defaults []fr.Element
	leaves   uint64
}

// newSparseDefaults returns the defaults of a poseidon.Tree shape (base,
// sub, top as in poseidon.BuildTree) of the given leaf count, every leaf
// being fill. Errors: a leaf count that is not sub·top·base^h.
func newSparseDefaults(leaves uint64, base, sub, top int, fill fr.Element) (*sparseDefaults, error) {
	d := &sparseDefaults{leaves: leaves, defaults: []fr.Element{fill}}
	trees := uint64(max(sub, 1) * max(top, 1))
	if base < 2 || leaves%trees != 0 {
		return nil, fmt.Errorf("synthetic: %d leaves do not make a %d-%d-%d tree", leaves, base, sub, top)
	}
	per := leaves / trees
	for ; per > 1 && per%uint64(base) == 0; per /= uint64(base) {
		d.arities = append(d.arities, base)
	}
	if per != 1 || len(d.arities) == 0 {
		return nil, fmt.Errorf("synthetic: %d leaves per base tree of a %d-%d-%d tree is not a power of %d", leaves/trees, base, sub, top, base)
	}
	if sub > 0 {
		d.arities = append(d.arities, sub)
	}
	if top > 0 {
		d.arities = append(d.arities, top)
	}
	buf := make([]fr.Element, 0, poseidon.MaxArity)
	for l, a := range d.arities {
		buf = buf[:0]
		for range a {
			buf = append(buf, d.defaults[l])
		}
		d.defaults = append(d.defaults, poseidon.Hash(buf))
	}
	return d, nil
}

// sparseTree is a tree R (post.TreeR) of which only some leaves differ
// from the fill value: it keeps the nodes on those leaves' paths, level by
// level, numbered across all base trees (so a node's parent at every level,
// the sub and top levels included, is index / arity). Its root and paths
// equal those of poseidon.BuildTree over the same leaves.
type sparseTree struct {
	d     *sparseDefaults
	nodes []map[uint64]fr.Element // nodes[l]: the non-default nodes of level l
}

// newSparseTree hashes the tree whose leaves are d's fill except
// leaves[i] at each index i.
func newSparseTree(d *sparseDefaults, leaves map[uint64]fr.Element) (*sparseTree, error) {
	t := &sparseTree{d: d, nodes: make([]map[uint64]fr.Element, len(d.arities)+1)}
	t.nodes[0] = make(map[uint64]fr.Element, len(leaves))
	for i, v := range leaves {
		if i >= d.leaves {
			return nil, fmt.Errorf("synthetic: leaf %d of a %d-leaf tree", i, d.leaves)
		}
		t.nodes[0][i] = v
	}
	buf := make([]fr.Element, poseidon.MaxArity)
	for l, a := range d.arities {
		next := make(map[uint64]fr.Element, len(t.nodes[l]))
		for i := range t.nodes[l] {
			p := i / uint64(a)
			if _, done := next[p]; done {
				continue
			}
			in := buf[:a]
			for c := range in {
				in[c] = t.node(l, p*uint64(a)+uint64(c))
			}
			next[p] = poseidon.Hash(in)
		}
		t.nodes[l+1] = next
	}
	return t, nil
}

func (t *sparseTree) node(l int, i uint64) fr.Element {
	if v, ok := t.nodes[l][i]; ok {
		return v
	}
	return t.d.defaults[l]
}

// RootHash is the root (comm_r_last).
func (t *sparseTree) RootHash() fr.Element { return t.node(len(t.d.arities), 0) }

// LeafProof is leaf i and its path in poseidon.Tree.Proof's order.
func (t *sparseTree) LeafProof(i int) (fr.Element, []poseidon.ProofLevel, error) {
	if i < 0 || uint64(i) >= t.d.leaves {
		return fr.Element{}, nil, fmt.Errorf("synthetic: leaf %d out of range [0, %d)", i, t.d.leaves)
	}
	j := uint64(i)
	path := make([]poseidon.ProofLevel, len(t.d.arities))
	for l, a := range t.d.arities {
		g := j / uint64(a) * uint64(a)
		lv := poseidon.ProofLevel{Index: int(j - g), Siblings: make([]fr.Element, 0, a-1)}
		for s := g; s < g+uint64(a); s++ {
			if s != j {
				lv.Siblings = append(lv.Siblings, t.node(l, s))
			}
		}
		path[l] = lv
		j /= uint64(a)
	}
	return t.node(0, uint64(i)), path, nil
}
