// SPDX-License-Identifier: Apache-2.0 OR MIT

package seal

import (
	"fmt"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/internal/parallel"
	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
)

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
