// SPDX-License-Identifier: Apache-2.0 OR MIT

package synthetic

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/poseidon"
)

// TestSparseTreeEqualsDense: a sparse tree's root, leaves and paths equal
// poseidon.BuildTree's over the same leaves, for the three compound shapes
// (single, sub, top), set leaves in one base tree and across several.
func TestSparseTreeEqualsDense(t *testing.T) {
	shapes := []struct {
		leaves         uint64
		base, sub, top int
	}{
		{64, 8, 0, 0},        // 2 KiB
		{8 * 64, 8, 8, 0},    // 8 MiB's shape, smaller
		{2 * 8 * 8, 8, 8, 2}, // 64 GiB's shape, smaller
		{16, 2, 0, 0},
	}
	var fill fr.Element
	fill.SetUint64(12345)
	for _, s := range shapes {
		d, err := newSparseDefaults(s.leaves, s.base, s.sub, s.top, fill)
		if err != nil {
			t.Fatal(err)
		}
		set := map[uint64]fr.Element{}
		dense := make([]fr.Element, s.leaves)
		for i := range dense {
			dense[i] = fill
		}
		for _, i := range []uint64{0, 3, s.leaves / 2, s.leaves - 1, s.leaves - 2} {
			var v fr.Element
			v.SetUint64(1000 + i)
			set[i], dense[i] = v, v
		}
		sparse, err := newSparseTree(d, set)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := poseidon.BuildTree(dense, s.base, s.sub, s.top)
		if err != nil {
			t.Fatal(err)
		}
		if got := sparse.RootHash(); !got.Equal(&tree.Root) {
			t.Fatalf("%+v: sparse root differs from the dense tree's", s)
		}
		for i := 0; i < int(s.leaves); i++ {
			leaf, path, err := sparse.LeafProof(i)
			if err != nil {
				t.Fatal(err)
			}
			wleaf, wpath, err := tree.LeafProof(i)
			if err != nil {
				t.Fatal(err)
			}
			if !leaf.Equal(&wleaf) || len(path) != len(wpath) {
				t.Fatalf("%+v leaf %d: leaf or path length differs", s, i)
			}
			for l := range path {
				if path[l].Index != wpath[l].Index || len(path[l].Siblings) != len(wpath[l].Siblings) {
					t.Fatalf("%+v leaf %d level %d: index %d, want %d", s, i, l, path[l].Index, wpath[l].Index)
				}
				for k := range path[l].Siblings {
					if !path[l].Siblings[k].Equal(&wpath[l].Siblings[k]) {
						t.Fatalf("%+v leaf %d level %d sibling %d differs", s, i, l, k)
					}
				}
			}
		}
		if _, _, err := sparse.LeafProof(int(s.leaves)); err == nil {
			t.Errorf("%+v: leaf past the end accepted", s)
		}
	}
	if _, err := newSparseDefaults(48, 8, 0, 0, fill); err == nil {
		t.Error("48 leaves of arity 8 accepted")
	}
	d, _ := newSparseDefaults(64, 8, 0, 0, fill)
	if _, err := newSparseTree(d, map[uint64]fr.Element{64: fill}); err == nil {
		t.Error("leaf 64 of 64 accepted")
	}
}
