// SPDX-License-Identifier: Apache-2.0 OR MIT

package gadget

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/poseidon"
)

// TreeHash selects the node hash of a Merkle tree in a PoR circuit.
type TreeHash uint8

const (
	// TreePoseidon hashes the A children of a node with neptune Poseidon of
	// arity A (filecoin-hashers PoseidonFunction::hash_multi_leaf_circuit):
	// trees C and R_last.
	TreePoseidon TreeHash = iota
	// TreeSHA256 hashes the children's little-endian bytes with SHA-256 and
	// trims the digest to 254 bits (Sha256Function::hash_multi_leaf_circuit):
	// the comm_d tree.
	TreeSHA256
)

// String names the hash as rust-fil-proofs' Hasher::name does.
func (h TreeHash) String() string {
	switch h {
	case TreePoseidon:
		return "poseidon_hasher"
	case TreeSHA256:
		return "sha256_hasher"
	}
	return fmt.Sprintf("TreeHash(%d)", uint8(h))
}

// PathLevel is one level of an inclusion path, leaf side first: the arity
// of the node at this level (a power of two ≥ 2), the position Index
// (0…Arity−1) of the current node among its children, and the Arity−1
// sibling values in stored order (storage-proofs-core por.rs PathElement).
type PathLevel struct {
	Arity    int
	Index    int
	Siblings []fr.Element
}

// PathIndex returns the leaf index a path proves: the levels' index bits,
// leaf side first, read as one little-endian integer (the value that
// pack_into_inputs puts into the path input).
func PathIndex(path []PathLevel) uint64 {
	var idx uint64
	shift := 0
	for _, l := range path {
		idx |= uint64(l.Index) << shift
		shift += log2Arity(l.Arity)
	}
	return idx
}

func log2Arity(a int) int {
	n := 0
	for a > 1 {
		a >>= 1
		n++
	}
	return n
}

// checkPath validates the shape of a path before anything is allocated, so
// a malformed path never leaves a half-synthesized circuit behind.
func checkPath(hash TreeHash, path []PathLevel) error {
	if hash != TreePoseidon && hash != TreeSHA256 {
		return fmt.Errorf("por: unknown tree hash %d", hash)
	}
	bits := 0
	for i, l := range path {
		if l.Arity < 2 || l.Arity&(l.Arity-1) != 0 {
			return fmt.Errorf("por: path[%d]: arity %d is not a power of two ≥ 2", i, l.Arity)
		}
		if hash == TreePoseidon && l.Arity > poseidon.MaxArity {
			return fmt.Errorf("por: path[%d]: arity %d exceeds Poseidon's %d", i, l.Arity, poseidon.MaxArity)
		}
		if l.Index < 0 || l.Index >= l.Arity {
			return fmt.Errorf("por: path[%d]: index %d out of range [0,%d)", i, l.Index, l.Arity)
		}
		if len(l.Siblings) != l.Arity-1 {
			return fmt.Errorf("por: path[%d]: %d siblings, want %d", i, len(l.Siblings), l.Arity-1)
		}
		bits += log2Arity(l.Arity)
	}
	if bits > Capacity {
		// pack_into_inputs would emit more than one input; no PoRep tree
		// is that deep and the stacked circuit's input layout assumes one.
		return fmt.Errorf("por: path has %d index bits, more than %d", bits, Capacity)
	}
	return nil
}

// authPath walks the path from cur to the computed root (por.rs
// SubPath::synthesize for base, sub and top in turn): per level it
// allocates log2(A) index bits (LSB first, with booleanity), the A−1
// siblings, inserts cur at the index and hashes the A elements. It returns
// the computed root and every index bit in path order.
func authPath(sys cs.ConstraintSystem, hash TreeHash, path []PathLevel, cur AllocatedNum) (AllocatedNum, []Boolean, error) {
	nbits := 0
	for _, l := range path {
		nbits += log2Arity(l.Arity)
	}
	allBits := make([]Boolean, 0, nbits)
	var sibs, inserted []AllocatedNum
	var vars []cs.Variable
	var vals []fr.Element
	for li := range path {
		l := &path[li]
		k := log2Arity(l.Arity)
		start := len(allBits)
		for j := 0; j < k; j++ {
			allBits = append(allBits, Is(AllocBit(sys, (l.Index>>j)&1 == 1)))
		}
		sibs = sibs[:0]
		for j := range l.Siblings {
			sibs = append(sibs, AllocNum(sys, &l.Siblings[j]))
		}
		var err error
		inserted, err = insertInto(inserted, sys, &cur, allBits[start:], sibs)
		if err != nil {
			return AllocatedNum{}, nil, fmt.Errorf("por: level %d: %w", li, err)
		}
		if cur, vars, vals, err = hashNode(sys, hash, inserted, vars, vals); err != nil {
			return AllocatedNum{}, nil, fmt.Errorf("por: level %d: %w", li, err)
		}
	}
	return cur, allBits, nil
}

// hashNode is the tree's hash_multi_leaf_circuit over the inserted
// children; vars and vals are scratch, returned for reuse.
func hashNode(sys cs.ConstraintSystem, hash TreeHash, inserted []AllocatedNum, vars []cs.Variable, vals []fr.Element) (AllocatedNum, []cs.Variable, []fr.Element, error) {
	if hash == TreeSHA256 {
		h, err := SHA256HashMultiLeaf(sys, inserted)
		return h, vars, vals, err
	}
	vars, vals = vars[:0], vals[:0]
	for j := range inserted {
		vars = append(vars, inserted[j].Var)
		vals = append(vals, inserted[j].Val)
	}
	v, val, err := poseidon.HashCircuit(sys, vars, vals)
	return AllocatedNum{Var: v, Val: val}, vars, vals, err
}

// PoRNoChallengeInput mirrors storage-proofs-core gadgets/por.rs
// por_no_challenge_input: the inclusion of leaf under root along already
// allocated siblings (siblings[l] holds arities[l]−1 numbers, leaf side
// first: base levels, then sub, then top) at the index given by already
// allocated bits (LSB first, log2(arity) per level, all of them consumed).
// Per level insert + the node hash, then computed_root · ONE = root; no
// input, nothing allocated for bits or siblings. Shape errors are reported
// before anything is written.
func PoRNoChallengeInput(sys cs.ConstraintSystem, hash TreeHash, arities []int, bits []Boolean, leaf *AllocatedNum, siblings [][]AllocatedNum, root *AllocatedNum) error {
	if hash != TreePoseidon && hash != TreeSHA256 {
		return fmt.Errorf("por: unknown tree hash %d", hash)
	}
	if len(siblings) != len(arities) {
		return fmt.Errorf("por: %d sibling levels for %d arities", len(siblings), len(arities))
	}
	need := 0
	for l, a := range arities {
		if a < 2 || a&(a-1) != 0 || (hash == TreePoseidon && a > poseidon.MaxArity) || (hash == TreeSHA256 && a != 2) || len(siblings[l]) != a-1 {
			return fmt.Errorf("por: level %d: arity %d with %d siblings", l, a, len(siblings[l]))
		}
		need += log2Arity(a)
	}
	if need != len(bits) {
		return fmt.Errorf("por: %d index bits for a path of %d bits (challenge bit-length and tree arity do not agree)", len(bits), need)
	}
	cur := *leaf
	var inserted []AllocatedNum
	var vars []cs.Variable
	var vals []fr.Element
	for l, a := range arities {
		k := log2Arity(a)
		var err error
		inserted, err = insertInto(inserted, sys, &cur, bits[:k], siblings[l])
		if err != nil {
			return fmt.Errorf("por: level %d: %w", l, err)
		}
		bits = bits[k:]
		if cur, vars, vals, err = hashNode(sys, hash, inserted, vars, vals); err != nil {
			return fmt.Errorf("por: level %d: %w", l, err)
		}
	}
	Equal(sys, &cur, root)
	return nil
}

// EnforceInclusion proves in the circuit that leaf sits at the path's index
// in the tree whose root is root, both already allocated. It mirrors
// storage-proofs-porep stacked/circuit/params.rs enforce_inclusion, i.e.
// storage-proofs-core gadgets/por.rs PoRCircuit::synthesize with
// Root::Var leaf and root and private = true:
//
//   - per level (base levels, then the sub level, then the top level, as
//     the path lists them): log2(A) AllocatedBits, A−1 sibling nums,
//     insert (2/8/22 constraints for A = 2/4/8) and the node hash
//     (Poseidon arity A, or the SHA-256 node: 45,379 for A = 2);
//   - pack_into_inputs of all index bits: 1 input (= PathIndex) and
//     1 constraint;
//   - computed_root · ONE = root: 1 constraint.
//
// A Poseidon level of arity 8 costs 530 constraints, of arity 2 314, a
// SHA-256 binary level 45,382; the tail costs 2. A malformed path (arity,
// index or sibling count) is reported before anything is allocated.
func EnforceInclusion(sys cs.ConstraintSystem, hash TreeHash, path []PathLevel, root, leaf *AllocatedNum) error {
	if err := checkPath(hash, path); err != nil {
		return err
	}
	computed, bits, err := authPath(sys, hash, path, *leaf)
	if err != nil {
		return err
	}
	PackIntoInputs(sys, bits)
	Equal(sys, &computed, root)
	return nil
}

// PoRCircuit is the stand-alone proof-of-retrievability circuit of
// storage-proofs-core gadgets/por.rs (PoRCircuit with Root::Val value and
// root), as its tests (tests/por_circuit.rs) synthesize it: allocate the
// leaf value, walk the path, pack the index bits into one input, allocate
// the root value and enforce computed_root · ONE = root, and — when
// private is false — inputize the root (1 more input, 1 more constraint).
// It returns the computed root value.
func PoRCircuit(sys cs.ConstraintSystem, hash TreeHash, leaf fr.Element, path []PathLevel, root fr.Element, private bool) (fr.Element, error) {
	if err := checkPath(hash, path); err != nil {
		return fr.Element{}, err
	}
	value := AllocNum(sys, &leaf)
	computed, bits, err := authPath(sys, hash, path, value)
	if err != nil {
		return fr.Element{}, err
	}
	PackIntoInputs(sys, bits)
	rt := AllocNum(sys, &root)
	Equal(sys, &computed, &rt)
	if !private {
		rt.Inputize(sys)
	}
	return computed.Val, nil
}
