// SPDX-License-Identifier: Apache-2.0 OR MIT

package poseidon

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

func TestTreeFilecoinHashersRoot(t *testing.T) {
	var one fr.Element
	one.SetOne()
	leaves := []fr.Element{one, {}, {}, one}
	want := fromLimbs(fcFourLeafRoot)
	// A binary tree over [1, 0, 0, 1] (filecoin-hashers test_poseidon_hasher),
	// and the same root as a compound tree of two 2-leaf base trees.
	for _, shape := range [][3]int{{2, 0, 0}, {2, 2, 0}} {
		root, err := TreeRoot(leaves, shape[0], shape[1], shape[2])
		if err != nil {
			t.Fatal(err)
		}
		if !root.Equal(&want) {
			t.Errorf("shape %v: root %s, want %s", shape, root.String(), want.String())
		}
	}
}

// naiveRoot hashes one base tree recursively.
func naiveRoot(leaves []fr.Element, arity int) fr.Element {
	if len(leaves) == 1 {
		return leaves[0]
	}
	next := make([]fr.Element, len(leaves)/arity)
	for i := range next {
		next[i] = Hash(leaves[i*arity : (i+1)*arity])
	}
	return naiveRoot(next, arity)
}

func TestTreeCompoundShapes(t *testing.T) {
	for _, s := range []struct{ base, sub, top, perTree int }{
		{8, 0, 0, 64},   // 2 KiB tree_r_last / tree_c shape
		{8, 2, 0, 64},   // 4 KiB
		{8, 8, 0, 64},   // 16 KiB
		{8, 8, 2, 64},   // 32 KiB
		{8, 0, 0, 4096}, // parallel path (more than 256 hashes per level)
		{4, 4, 2, 16},
	} {
		nTrees := max(s.sub, 1) * max(s.top, 1)
		leaves := randomElements(nTrees*s.perTree, int64(s.perTree+nTrees))
		tr, err := BuildTree(leaves, s.base, s.sub, s.top)
		if err != nil {
			t.Fatal(err)
		}
		roots := make([]fr.Element, nTrees)
		for k := range roots {
			roots[k] = naiveRoot(leaves[k*s.perTree:(k+1)*s.perTree], s.base)
		}
		want := roots[0]
		if s.sub > 0 {
			subs := make([]fr.Element, max(s.top, 1))
			for g := range subs {
				subs[g] = Hash(roots[g*s.sub : (g+1)*s.sub])
			}
			want = subs[0]
			if s.top > 0 {
				want = Hash(subs)
			}
		}
		if !tr.Root.Equal(&want) {
			t.Fatalf("shape %+v: root differs from the recursive construction", s)
		}
		for _, i := range []int{0, 1, len(leaves) / 3, len(leaves) - 1} {
			path, err := tr.Proof(i)
			if err != nil {
				t.Fatal(err)
			}
			if !VerifyProof(tr.Root, leaves[i], path) {
				t.Fatalf("shape %+v: proof of leaf %d does not verify", s, i)
			}
			var bad fr.Element
			bad.SetUint64(12345)
			if VerifyProof(tr.Root, bad, path) {
				t.Fatalf("shape %+v: proof of leaf %d verifies a wrong leaf", s, i)
			}
		}
	}
}

func TestTreeShapeErrors(t *testing.T) {
	leaves := randomElements(64, 1)
	for _, s := range [][3]int{{1, 0, 0}, {8, 0, 2}, {8, 3, 0}, {8, 2, 0}, {8, 1, 0}, {37, 0, 0}} {
		if _, err := BuildTree(leaves, s[0], s[1], s[2]); err == nil {
			t.Errorf("shape %v over 64 leaves accepted", s)
		}
	}
	if _, err := BuildTree(leaves[:1], 8, 0, 0); err == nil {
		t.Error("a single leaf accepted")
	}
	tr, err := BuildTree(leaves, 4, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Proof(64); err == nil {
		t.Error("Proof(64) accepted on 64 leaves")
	}
}

func BenchmarkTree8x4096(b *testing.B) {
	leaves := randomElements(4096, 1)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := BuildTree(leaves, 8, 0, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func TestHashGroups(t *testing.T) {
	const arity, n = 11, 600 // > 256 per worker: exercises the parallel split
	src := randomElements(arity*n, 9)
	dst := make([]fr.Element, n)
	if err := HashGroups(dst, src, arity); err != nil {
		t.Fatal(err)
	}
	for i := range dst {
		if want := Hash(src[i*arity : (i+1)*arity]); !dst[i].Equal(&want) {
			t.Fatalf("group %d differs", i)
		}
	}
	if err := HashGroups(dst[:2], src[:21], arity); err == nil {
		t.Error("accepted 21 inputs for 2 groups of 11")
	}
	if err := HashGroups(dst, src, 0); err == nil {
		t.Error("accepted arity 0")
	}
}
