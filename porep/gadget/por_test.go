// SPDX-License-Identifier: Apache-2.0 OR MIT

package gadget

import (
	"crypto/sha256"
	"fmt"
	"math/rand"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/testsupport/testcs"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// randFr returns a deterministic pseudo-random field element.
func porRandFr(rng *rand.Rand) fr.Element {
	var b [32]byte
	rng.Read(b[:])
	b[31] &= 0x3f
	return porFromLE(b)
}

// porFromLE decodes 32 little-endian bytes known to be canonical.
func porFromLE(b [32]byte) fr.Element {
	e, err := fr.LittleEndian.Element(&b)
	if err != nil {
		panic(err)
	}
	return e
}

// porLE returns the little-endian 32-byte encoding of e (Fr::to_repr).
func porLE(e *fr.Element) [32]byte {
	var b [32]byte
	fr.LittleEndian.PutElement(&b, *e)
	return b
}

// sha256Node is the native multi-leaf SHA-256 node of filecoin-hashers:
// trim(sha256(child_0 LE ‖ … ‖ child_{A−1} LE)).
func sha256Node(children []fr.Element) fr.Element {
	h := sha256.New()
	for i := range children {
		b := porLE(&children[i])
		h.Write(b[:])
	}
	var d [32]byte
	copy(d[:], h.Sum(nil))
	d[31] &= 0x3f
	return porFromLE(d)
}

// sha256TreePath builds a single SHA-256 tree of the given arity over leaves
// and returns its root and the path of leaf i (the shape of
// storage-proofs-core's BinaryMerkleTree / MerkleTreeWrapper<Sha256Hasher, A>).
func sha256TreePath(leaves []fr.Element, arity, i int) (fr.Element, []PathLevel) {
	level := leaves
	var path []PathLevel
	for len(level) > 1 {
		pos := i % arity
		grp := level[i-pos : i-pos+arity]
		sibs := make([]fr.Element, 0, arity-1)
		for j := range grp {
			if j != pos {
				sibs = append(sibs, grp[j])
			}
		}
		path = append(path, PathLevel{Arity: arity, Index: pos, Siblings: sibs})
		next := make([]fr.Element, len(level)/arity)
		for j := range next {
			next[j] = sha256Node(level[j*arity : (j+1)*arity])
		}
		level, i = next, i/arity
	}
	return level[0], path
}

// poseidonTreePath builds a compound Poseidon tree and returns its root and
// the path of leaf i with each level's arity.
func poseidonTreePath(t *testing.T, leaves []fr.Element, base, sub, top, i int) (fr.Element, []PathLevel) {
	t.Helper()
	tree, err := poseidon.BuildTree(leaves, base, sub, top)
	if err != nil {
		t.Fatal(err)
	}
	levels, err := tree.Proof(i)
	if err != nil {
		t.Fatal(err)
	}
	path := make([]PathLevel, len(levels))
	for j, l := range levels {
		path[j] = PathLevel{Arity: len(l.Siblings) + 1, Index: l.Index, Siblings: l.Siblings}
	}
	return tree.Root, path
}

// TestPoRCircuitGolden reproduces storage-proofs-core tests/por_circuit.rs
// (docs/porep-circuit.md §4.2): leaves = 64 · base_tree_count, public root, so
// 3 inputs (ONE, path, root); the constraint counts exclude the prover's
// per-input rows. The circuit must be satisfied and compute the tree root.
func TestPoRCircuitGolden(t *testing.T) {
	cases := []struct {
		name            string
		hash            TreeHash
		base, sub, top  int
		wantConstraints int
	}{
		{"sha256 base 2", TreeSHA256, 2, 0, 0, 272_295},
		{"sha256 base 4", TreeSHA256, 4, 0, 0, 216_258},
		{"sha256 base 8", TreeSHA256, 8, 0, 0, 250_987},
		{"poseidon base 2", TreePoseidon, 2, 0, 0, 1_887},
		{"poseidon base 4", TreePoseidon, 4, 0, 0, 1_164},
		{"poseidon base 8", TreePoseidon, 8, 0, 0, 1_063},
		{"poseidon sub 8-2", TreePoseidon, 8, 2, 0, 1_377},
		{"poseidon sub 8-8", TreePoseidon, 8, 8, 0, 1_593},
		{"poseidon top 8-4-2", TreePoseidon, 8, 4, 2, 1_764},
		{"poseidon top 8-8-2", TreePoseidon, 8, 8, 2, 1_907},
		{"poseidon top 8-2-4", TreePoseidon, 8, 2, 4, 1_764},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.hash == TreeSHA256 && !testenv.Enabled(testenv.TierLong) && c.base != 2 {
				t.Skip("long tier: the unit tier checks one SHA-256 tree")
			}
			rng := rand.New(rand.NewSource(int64(c.wantConstraints)))
			nTrees := max(c.sub, 1) * max(c.top, 1)
			leaves := make([]fr.Element, 64*nTrees)
			for i := range leaves {
				leaves[i] = porRandFr(rng)
			}
			idx := rng.Intn(len(leaves))
			var root fr.Element
			var path []PathLevel
			if c.hash == TreeSHA256 {
				root, path = sha256TreePath(leaves, c.base, idx)
			} else {
				root, path = poseidonTreePath(t, leaves, c.base, c.sub, c.top, idx)
			}
			if got := PathIndex(path); got != uint64(idx) {
				t.Fatalf("PathIndex = %d, want %d", got, idx)
			}
			tc := testcs.New()
			computed, err := PoRCircuit(tc, c.hash, leaves[idx], path, root, false)
			if err != nil {
				t.Fatal(err)
			}
			if tc.NumInputs() != 3 || tc.NumConstraints() != c.wantConstraints {
				t.Fatalf("(inputs, constraints) = (%d, %d), want (3, %d)", tc.NumInputs(), tc.NumConstraints(), c.wantConstraints)
			}
			if !computed.Equal(&root) {
				t.Fatal("computed root differs from the native tree root")
			}
			if err := tc.Validate(); err != nil {
				t.Fatal(err)
			}
			in := tc.Inputs()
			want := fr.NewElement(uint64(idx))
			if !in[1].Equal(&want) || !in[2].Equal(&root) {
				t.Fatalf("inputs = (%s, %s), want (%d, root)", in[1].String(), in[2].String(), idx)
			}
		})
	}
}

// TestPoRCircuitPrivateGolden checks the private-root counts of §4.2
// (2 inputs) and that a wrong sibling leaves the circuit unsatisfied.
func TestPoRCircuitPrivateGolden(t *testing.T) {
	for _, c := range []struct{ base, want int }{{2, 1_886}, {4, 1_163}, {8, 1_062}} {
		t.Run(fmt.Sprintf("poseidon base %d", c.base), func(t *testing.T) {
			rng := rand.New(rand.NewSource(int64(c.base)))
			leaves := make([]fr.Element, 64)
			for i := range leaves {
				leaves[i] = porRandFr(rng)
			}
			root, path := poseidonTreePath(t, leaves, c.base, 0, 0, 37)
			tc := testcs.New()
			if _, err := PoRCircuit(tc, TreePoseidon, leaves[37], path, root, true); err != nil {
				t.Fatal(err)
			}
			if tc.NumInputs() != 2 || tc.NumConstraints() != c.want {
				t.Fatalf("(inputs, constraints) = (%d, %d), want (2, %d)", tc.NumInputs(), tc.NumConstraints(), c.want)
			}
			if err := tc.Validate(); err != nil {
				t.Fatal(err)
			}
			// A tampered sibling computes another root: root equality fails.
			path[1].Siblings[0].SetUint64(12345)
			bad := testcs.New()
			if _, err := PoRCircuit(bad, TreePoseidon, leaves[37], path, root, true); err != nil {
				t.Fatal(err)
			}
			if bad.Validate() == nil {
				t.Fatal("tampered path satisfied the circuit")
			}
		})
	}
}

// TestEnforceInclusion checks the stacked circuit's form (leaf and root
// already allocated, private root): per level 530 (Poseidon-8) / 314
// (Poseidon-2) / 45,382 (SHA-256 binary) plus 2, one input = the index.
func TestEnforceInclusion(t *testing.T) {
	leaves := porLeaves(7)
	for _, c := range []struct {
		name string
		hash TreeHash
		base int
		want int
	}{
		{"poseidon-8", TreePoseidon, 8, 2*530 + 2},
		{"poseidon-2", TreePoseidon, 2, 6*314 + 2},
		{"sha256-2", TreeSHA256, 2, 6*45_382 + 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, path := porTreePath(t, c.hash, c.base, leaves, 45)
			tc := testcs.New()
			r := AllocNum(tc, &root)
			l := AllocNum(tc, &leaves[45])
			c0, a0 := tc.NumConstraints(), tc.NumAux()
			if err := EnforceInclusion(tc, c.hash, path, &r, &l); err != nil {
				t.Fatal(err)
			}
			if got := tc.NumConstraints() - c0; got != c.want {
				t.Fatalf("constraints = %d, want %d", got, c.want)
			}
			if tc.NumInputs() != 2 {
				t.Fatalf("inputs = %d, want 2", tc.NumInputs())
			}
			_ = a0
			if err := tc.Validate(); err != nil {
				t.Fatal(err)
			}
			want := fr.NewElement(45)
			if in := tc.Inputs(); !in[1].Equal(&want) {
				t.Fatalf("path input = %s, want 45", in[1].String())
			}
			// A wrong leaf value must not satisfy the circuit.
			bad := testcs.New()
			r2 := AllocNum(bad, &root)
			l2 := AllocNum(bad, &leaves[44])
			if err := EnforceInclusion(bad, c.hash, path, &r2, &l2); err != nil {
				t.Fatal(err)
			}
			if bad.Validate() == nil {
				t.Fatal("wrong leaf satisfied the inclusion proof")
			}
		})
	}
}

// TestEnforceInclusionBadPath checks that malformed paths are rejected
// before anything is allocated.
func TestEnforceInclusionBadPath(t *testing.T) {
	var z fr.Element
	for _, p := range [][]PathLevel{
		{{Arity: 3, Index: 0, Siblings: make([]fr.Element, 2)}},
		{{Arity: 8, Index: 8, Siblings: make([]fr.Element, 7)}},
		{{Arity: 8, Index: 1, Siblings: make([]fr.Element, 6)}},
		{{Arity: 1, Index: 0}},
	} {
		tc := testcs.New()
		r := AllocNum(tc, &z)
		n0, a0 := tc.NumConstraints(), tc.NumAux()
		if err := EnforceInclusion(tc, TreePoseidon, p, &r, &r); err == nil {
			t.Fatalf("path %+v accepted", p)
		}
		if tc.NumConstraints() != n0 || tc.NumAux() != a0 {
			t.Fatal("a rejected path allocated variables")
		}
	}
}

// TestPoRNoChallengeInput checks por_no_challenge_input against
// EnforceInclusion on the same path: the same root check with the caller's
// bits and siblings, no input, insert + hash per level + 1 constraint; a
// wrong leaf is unsatisfied, a bit count that disagrees with the arities is
// an error before anything is written.
func TestPoRNoChallengeInput(t *testing.T) {
	leaves := porLeaves(9)
	for _, c := range []struct {
		name string
		hash TreeHash
		base int
		want int
	}{
		{"poseidon-8", TreePoseidon, 8, 2*527 + 1},
		{"sha256-2", TreeSHA256, 2, 6*45_381 + 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, path := porTreePath(t, c.hash, c.base, leaves, 45)
			for _, leaf := range []int{45, 44} {
				tc := testcs.New()
				r := AllocNum(tc, &root)
				l := AllocNum(tc, &leaves[leaf])
				var bits []Boolean
				arities := make([]int, len(path))
				sibs := make([][]AllocatedNum, len(path))
				for li, lv := range path {
					arities[li] = lv.Arity
					for j := 0; j < log2Arity(lv.Arity); j++ {
						bits = append(bits, Is(AllocBit(tc, (lv.Index>>j)&1 == 1)))
					}
					for j := range lv.Siblings {
						sibs[li] = append(sibs[li], AllocNum(tc, &lv.Siblings[j]))
					}
				}
				if err := PoRNoChallengeInput(tc, c.hash, arities, bits[:len(bits)-1], &l, sibs, &r); err == nil {
					t.Fatal("accepted too few bits")
				}
				c0 := tc.NumConstraints()
				if err := PoRNoChallengeInput(tc, c.hash, arities, bits, &l, sibs, &r); err != nil {
					t.Fatal(err)
				}
				if got := tc.NumConstraints() - c0; got != c.want || tc.NumInputs() != 1 {
					t.Fatalf("constraints = %d, inputs %d; want %d, 1", got, tc.NumInputs(), c.want)
				}
				if err := tc.Validate(); (err == nil) != (leaf == 45) {
					t.Fatalf("leaf %d: Validate = %v", leaf, err)
				}
			}
		})
	}
}

// porLeaves returns 64 pseudo-random leaves from seed.
func porLeaves(seed int64) []fr.Element {
	rng := rand.New(rand.NewSource(seed))
	leaves := make([]fr.Element, 64)
	for i := range leaves {
		leaves[i] = porRandFr(rng)
	}
	return leaves
}

// porTreePath returns the root of a tree over leaves and leaf i's path:
// binary SHA-256 or Poseidon of the given base arity.
func porTreePath(t *testing.T, hash TreeHash, base int, leaves []fr.Element, i int) (fr.Element, []PathLevel) {
	t.Helper()
	if hash == TreeSHA256 {
		return sha256TreePath(leaves, 2, i)
	}
	return poseidonTreePath(t, leaves, base, 0, 0, i)
}
