// SPDX-License-Identifier: Apache-2.0 OR MIT

package poseidon

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/cuseal/cuseal/internal/parallel"
)

// Tree is a Poseidon Merkle tree in the compound shape of rust-fil-proofs'
// LCTree/DiskTree<PoseidonHasher, Base, Sub, Top> (merkletree 0.23
// MerkleTree::from_trees / from_sub_trees): the leaves are split into
// max(Sub,1)·max(Top,1) equal base trees of arity Base; each group of Sub
// base roots is hashed with arity Sub, and the Top sub-tree roots with arity
// Top. Leaves are used as-is (PoseidonFunction::leaf is the identity) and
// every node is Hash(children) with arity = the number of children.
type Tree struct {
	Base, Sub, Top int
	// Levels[k][l] is level l of base tree k: Levels[k][0] holds its leaves
	// (aliasing the slice passed to BuildTree), the last level its root.
	Levels [][][]fr.Element
	// SubRoots are the roots of the Top sub-trees when Top > 0, else nil.
	SubRoots []fr.Element
	Root     fr.Element
}

// ProofLevel is one level of an inclusion path: the position (0…arity−1) of
// the path node among its siblings and the other arity−1 children in order.
type ProofLevel struct {
	Index    int
	Siblings []fr.Element
}

// TreeRoot returns the root of the compound tree over leaves; see BuildTree.
func TreeRoot(leaves []fr.Element, base, sub, top int) (fr.Element, error) {
	t, err := BuildTree(leaves, base, sub, top)
	if err != nil {
		return fr.Element{}, err
	}
	return t.Root, nil
}

// BuildTree builds the compound tree over leaves with base-tree arity base
// (8 for Filecoin's tree_c and tree_r_last), sub-tree arity sub (0 = none)
// and top-tree arity top (0 = none; requires sub > 0), hashing on
// GOMAXPROCS goroutines. len(leaves) must be max(sub,1)·max(top,1)·base^h
// with h ≥ 1. The tree keeps every level (about len(leaves)/(base−1) extra
// elements) so that Proof can answer; leaves are not copied.
func BuildTree(leaves []fr.Element, base, sub, top int) (*Tree, error) {
	if err := checkShape(len(leaves), base, sub, top); err != nil {
		return nil, err
	}
	for _, a := range []int{base, sub, top} {
		if a > 0 {
			mustConstants(a) // compute once, outside the workers
		}
	}
	nTrees := max(sub, 1) * max(top, 1)
	per := len(leaves) / nTrees
	t := &Tree{Base: base, Sub: sub, Top: top, Levels: make([][][]fr.Element, nTrees)}
	for k := range t.Levels {
		t.Levels[k] = [][]fr.Element{leaves[k*per : (k+1)*per : (k+1)*per]}
	}
	// Build level by level across all base trees so that small trees still
	// use every worker.
	for n := per; n > 1; n /= base {
		out := make([]fr.Element, nTrees*(n/base))
		in := make([][]fr.Element, nTrees)
		for k := range in {
			in[k] = t.Levels[k][len(t.Levels[k])-1]
		}
		hashLevel(out, in, base)
		m := n / base
		for k := range t.Levels {
			t.Levels[k] = append(t.Levels[k], out[k*m:(k+1)*m:(k+1)*m])
		}
	}
	roots := make([]fr.Element, nTrees)
	for k := range roots {
		roots[k] = t.Levels[k][len(t.Levels[k])-1][0]
	}
	switch {
	case sub == 0:
		t.Root = roots[0]
	case top == 0:
		HashInto(&t.Root, roots)
	default:
		t.SubRoots = make([]fr.Element, top)
		for i := range t.SubRoots {
			HashInto(&t.SubRoots[i], roots[i*sub:(i+1)*sub])
		}
		HashInto(&t.Root, t.SubRoots)
	}
	return t, nil
}

func checkShape(n, base, sub, top int) error {
	if base < 2 || base > MaxArity {
		return fmt.Errorf("poseidon: tree base arity %d not supported (2..%d)", base, MaxArity)
	}
	for _, a := range []struct {
		name string
		v    int
	}{{"sub-tree", sub}, {"top-tree", top}} {
		if a.v != 0 && (a.v < 2 || a.v > MaxArity) {
			return fmt.Errorf("poseidon: tree %s arity %d not supported (0 or 2..%d)", a.name, a.v, MaxArity)
		}
	}
	if top > 0 && sub == 0 {
		return fmt.Errorf("poseidon: tree top arity %d needs a sub-tree arity", top)
	}
	nTrees := max(sub, 1) * max(top, 1)
	if n == 0 || n%nTrees != 0 {
		return fmt.Errorf("poseidon: %d leaves do not split into %d base trees", n, nTrees)
	}
	per := n / nTrees
	p := base
	for p < per {
		p *= base
	}
	if p != per {
		return fmt.Errorf("poseidon: %d leaves per base tree is not a power ≥ 1 of arity %d", per, base)
	}
	return nil
}

// HashGroups sets dst[i] = Hash(src[i·arity : (i+1)·arity]) for every i,
// on GOMAXPROCS goroutines: tree_c leaves from node-major columns, or one
// tree level. len(src) must equal len(dst)·arity.
func HashGroups(dst, src []fr.Element, arity int) error {
	if _, err := ConstantsFor(arity); err != nil {
		return err
	}
	if len(src) != len(dst)*arity {
		return fmt.Errorf("poseidon: HashGroups got %d inputs for %d outputs of arity %d", len(src), len(dst), arity)
	}
	if len(dst) > 0 {
		hashLevel(dst, [][]fr.Element{src}, arity)
	}
	return nil
}

// hashLevel hashes groups of arity consecutive nodes of each in[k] into out
// (concatenated per k), splitting the work over GOMAXPROCS goroutines.
func hashLevel(out []fr.Element, in [][]fr.Element, arity int) {
	c := mustConstants(arity)
	m := len(in[0]) / arity
	const minPerWorker = 256
	parallel.For(len(out), minPerWorker, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			k, j := i/m, i%m
			hashOptimized(c, &out[i], in[k][j*arity:(j+1)*arity])
		}
	})
}

// Leaves returns the number of leaves.
func (t *Tree) Leaves() int { return len(t.Levels) * len(t.Levels[0][0]) }

// Proof returns the inclusion path of leaf i, bottom-up: the base-tree
// levels, then the sub-tree level (if Sub > 0), then the top level (if
// Top > 0), as rust-fil-proofs' compound MerkleProof orders them.
func (t *Tree) Proof(i int) ([]ProofLevel, error) {
	if i < 0 || i >= t.Leaves() {
		return nil, fmt.Errorf("poseidon: leaf %d out of range [0, %d)", i, t.Leaves())
	}
	per := len(t.Levels[0][0])
	k, j := i/per, i%per
	levels := t.Levels[k]
	path := make([]ProofLevel, 0, len(levels)+1)
	for l := 0; l+1 < len(levels); l++ {
		path = append(path, siblingsOf(levels[l], j, t.Base))
		j /= t.Base
	}
	if t.Sub > 0 {
		roots := make([]fr.Element, t.Sub)
		g := k / t.Sub
		for s := range roots {
			roots[s] = rootOf(t.Levels[g*t.Sub+s])
		}
		path = append(path, siblingsOf(roots, k%t.Sub, t.Sub))
		if t.Top > 0 {
			path = append(path, siblingsOf(t.SubRoots, g, t.Top))
		}
	}
	return path, nil
}

// RootHash returns the root (post.TreeR).
func (t *Tree) RootHash() fr.Element { return t.Root }

// LeafProof returns leaf i and its inclusion path (Proof) (post.TreeR).
func (t *Tree) LeafProof(i int) (fr.Element, []ProofLevel, error) {
	path, err := t.Proof(i)
	if err != nil {
		return fr.Element{}, nil, err
	}
	per := len(t.Levels[0][0])
	return t.Levels[i/per][0][i%per], path, nil
}

func rootOf(levels [][]fr.Element) fr.Element { return levels[len(levels)-1][0] }

func siblingsOf(level []fr.Element, j, arity int) ProofLevel {
	g := j / arity * arity
	sib := make([]fr.Element, 0, arity-1)
	for s := g; s < g+arity; s++ {
		if s != j {
			sib = append(sib, level[s])
		}
	}
	return ProofLevel{Index: j - g, Siblings: sib}
}

// VerifyProof recomputes the root from leaf and path (as returned by
// Tree.Proof) and reports whether it equals root.
func VerifyProof(root, leaf fr.Element, path []ProofLevel) bool {
	cur := leaf
	var buf [MaxArity]fr.Element
	for _, p := range path {
		a := len(p.Siblings) + 1
		if a < 2 || a > MaxArity || p.Index < 0 || p.Index >= a {
			return false
		}
		in := buf[:a]
		copy(in, p.Siblings[:p.Index])
		in[p.Index] = cur
		copy(in[p.Index+1:], p.Siblings[p.Index:])
		HashInto(&cur, in)
	}
	return cur.Equal(&root)
}
