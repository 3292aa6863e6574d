// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/poseidon"
)

// TestTreeDProofs: every leaf's proof walks back to the root, with its index
// bits in the path, and a changed sibling does not.
func TestTreeDProofs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	data := make([]byte, 32*16)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	for i := 31; i < len(data); i += 32 {
		data[i] &= 0x3f
	}
	tree := BuildTreeD(data)
	if len(tree.Levels) != 5 || len(tree.Levels[4]) != 1 {
		t.Fatalf("16 leaves gave %d levels", len(tree.Levels))
	}
	for i := uint64(0); i < 16; i++ {
		p := tree.Proof(i)
		root, err := p.RootSha256()
		if err != nil || root != tree.Root() || p.PathIndex(2, 0, 0) != i {
			t.Fatalf("leaf %d: root %x (%v), index %d", i, root, err, p.PathIndex(2, 0, 0))
		}
		p.Base[2].Hashes[0][0] ^= 1
		if root, _ := p.RootSha256(); root == tree.Root() {
			t.Fatalf("leaf %d: a changed sibling still gives the root", i)
		}
	}
}

// TestPoseidonProofVariants: the proof variant follows the shape, and every
// proof recomputes the root.
func TestPoseidonProofVariants(t *testing.T) {
	for _, tc := range []struct {
		n     int
		shape TreeShape
		kind  ProofKind
	}{{64, Shape800, ProofSingle}, {512, Shape880, ProofSub}, {1024, Shape882, ProofTop}} {
		leaves := make([]fr.Element, tc.n)
		for i := range leaves {
			leaves[i].SetUint64(uint64(i*i + 7))
		}
		tree, err := poseidon.BuildTree(leaves, tc.shape.Base, tc.shape.Sub, tc.shape.Top)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range []uint64{0, 5, uint64(tc.n - 1)} {
			p, err := PoseidonProof(tree, tc.shape, i)
			if err != nil {
				t.Fatal(err)
			}
			root, err := p.RootPoseidon()
			if err != nil || p.Kind != tc.kind || root != FrToBytes(&tree.Root) || p.PathIndex(tc.shape.Base, tc.shape.Sub, tc.shape.Top) != i {
				t.Fatalf("%s leaf %d: kind %v, root ok %v (%v), index %d", tc.shape, i, p.Kind, root == FrToBytes(&tree.Root), err, p.PathIndex(tc.shape.Base, tc.shape.Sub, tc.shape.Top))
			}
		}
		if _, err := PoseidonProof(tree, tc.shape, uint64(tc.n)); err == nil {
			t.Fatalf("%s: leaf %d of %d accepted", tc.shape, tc.n, tc.n)
		}
	}
}
