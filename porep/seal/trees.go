// SPDX-License-Identifier: Apache-2.0 OR MIT

package seal

import (
	"crypto/sha256"
	"fmt"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/internal/parallel"
	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
)

// sha256Tree is the binary SHA-256 comm_d tree (tree D): levels[0] are the
// padded data nodes, every parent is trim(sha256(left ‖ right)).
type sha256Tree struct {
	levels [][]stacked.Domain
}

// buildTreeD builds tree D over the padded data (len a power of two ≥ 2 nodes).
func buildTreeD(data []byte) *sha256Tree {
	n := len(data) / 32
	leaves := make([]stacked.Domain, n)
	for i := range leaves {
		copy(leaves[i][:], data[32*i:])
	}
	t := &sha256Tree{levels: [][]stacked.Domain{leaves}}
	for cur := leaves; len(cur) > 1; {
		next := make([]stacked.Domain, len(cur)/2)
		parallel.For(len(next), 4096, func(lo, hi int) {
			var buf [64]byte
			for i := lo; i < hi; i++ {
				copy(buf[:32], cur[2*i][:])
				copy(buf[32:], cur[2*i+1][:])
				next[i] = sha256.Sum256(buf[:])
				next[i][31] &= 0x3f
			}
		})
		t.levels = append(t.levels, next)
		cur = next
	}
	return t
}

func (t *sha256Tree) root() stacked.Domain { return t.levels[len(t.levels)-1][0] }

// proof returns the comm_d inclusion proof of node i (a Single proof).
func (t *sha256Tree) proof(i uint64) stacked.MerkleProof {
	p := stacked.MerkleProof{Kind: stacked.ProofSingle, Root: t.root(), Leaf: t.levels[0][i]}
	for l := 0; l+1 < len(t.levels); l++ {
		p.Base = append(p.Base, stacked.PathElement{Hashes: []stacked.Domain{t.levels[l][i^1]}, Index: i & 1})
		i >>= 1
	}
	return p
}

// poseidonProof converts a poseidon.Tree path into a C1 MerkleProof of the
// variant the shape demands (base levels, then one sub, then one top).
func poseidonProof(t *poseidon.Tree, shape stacked.TreeShape, i uint64) (stacked.MerkleProof, error) {
	levels, err := t.Proof(int(i))
	if err != nil {
		return stacked.MerkleProof{}, err
	}
	per := len(t.Levels[0][0])
	leaf := t.Levels[int(i)/per][0][int(i)%per]
	p := stacked.MerkleProof{Root: stacked.FrToBytes(&t.Root), Leaf: stacked.FrToBytes(&leaf)}
	elems := make([]stacked.PathElement, len(levels))
	for j, l := range levels {
		e := stacked.PathElement{Index: uint64(l.Index), Hashes: make([]stacked.Domain, len(l.Siblings))}
		for s := range l.Siblings {
			e.Hashes[s] = stacked.FrToBytes(&l.Siblings[s])
		}
		elems[j] = e
	}
	switch {
	case shape.Sub == 0:
		p.Kind, p.Base = stacked.ProofSingle, elems
	case shape.Top == 0:
		p.Kind, p.Base, p.Sub = stacked.ProofSub, elems[:len(elems)-1], elems[len(elems)-1:]
	default:
		n := len(elems)
		p.Kind, p.Base, p.Sub, p.Top = stacked.ProofTop, elems[:n-2], elems[n-2:n-1], elems[n-1:]
	}
	return p, nil
}

// bytesToFr decodes n consecutive 32-byte little-endian canonical nodes.
func bytesToFr(out []fr.Element, b []byte) error {
	var mu sync.Mutex
	var err error
	parallel.For(len(out), 8192, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			var d [32]byte
			copy(d[:], b[32*i:])
			e, e2 := stacked.FrFromBytes(&d)
			if e2 != nil {
				mu.Lock()
				if err == nil {
					err = fmt.Errorf("node %d: %w", i, e2)
				}
				mu.Unlock()
				return
			}
			out[i] = e
		}
	})
	return err
}

// treeInner returns the non-leaf nodes of t: levels 1.. of every base tree
// in order, then the sub-tree roots (Top > 0 only), then the root when
// Sub > 0 (with Sub == 0 the root is the base tree's last level).
func treeInner(t *poseidon.Tree) []fr.Element {
	var out []fr.Element
	for _, lv := range t.Levels {
		for _, l := range lv[1:] {
			out = append(out, l...)
		}
	}
	out = append(out, t.SubRoots...)
	if t.Sub > 0 {
		out = append(out, t.Root)
	}
	return out
}

// treeFromInner rebuilds a poseidon.Tree from its leaves and treeInner's
// output without hashing.
func treeFromInner(leaves, inner []fr.Element, shape stacked.TreeShape) (*poseidon.Tree, error) {
	nTrees := shape.BaseTrees()
	per := len(leaves) / nTrees
	t := &poseidon.Tree{Base: shape.Base, Sub: shape.Sub, Top: shape.Top, Levels: make([][][]fr.Element, nTrees)}
	off := 0
	take := func(n int) ([]fr.Element, error) {
		if off+n > len(inner) {
			return nil, fmt.Errorf("tree file has %d nodes, shape %s over %d leaves needs more", len(inner), shape, len(leaves))
		}
		s := inner[off : off+n : off+n]
		off += n
		return s, nil
	}
	for k := range t.Levels {
		t.Levels[k] = [][]fr.Element{leaves[k*per : (k+1)*per : (k+1)*per]}
		for n := per / shape.Base; n >= 1; n /= shape.Base {
			l, err := take(n)
			if err != nil {
				return nil, err
			}
			t.Levels[k] = append(t.Levels[k], l)
			if n == 1 {
				break
			}
		}
	}
	var err error
	if shape.Top > 0 {
		if t.SubRoots, err = take(shape.Top); err != nil {
			return nil, err
		}
	}
	if shape.Sub > 0 {
		r, err := take(1)
		if err != nil {
			return nil, err
		}
		t.Root = r[0]
	} else {
		t.Root = t.Levels[0][len(t.Levels[0])-1][0]
	}
	if off != len(inner) {
		return nil, fmt.Errorf("tree file has %d nodes, shape %s over %d leaves needs %d", len(inner), shape, len(leaves), off)
	}
	return t, nil
}
