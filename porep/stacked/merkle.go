// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"crypto/sha256"
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/poseidon"
)

// Sha256Node is the comm_d tree node: trim(sha256(left ‖ right))
// (filecoin-hashers sha256.rs Sha256Function::node).
func Sha256Node(left, right *Domain) Domain {
	var buf [64]byte
	copy(buf[:32], left[:])
	copy(buf[32:], right[:])
	out := Domain(sha256.Sum256(buf[:]))
	out[31] &= 0x3f
	return out
}

// RootSha256 recomputes the root of a binary SHA-256 proof (comm_d) from its
// leaf and path (InclusionPath::root). It fails on a malformed element.
func (p *MerkleProof) RootSha256() (Domain, error) {
	cur := p.Leaf
	for j, e := range p.Path() {
		if len(e.Hashes) != 1 || e.Index > 1 {
			return Domain{}, fmt.Errorf("sha256 path element %d: %d hashes, index %d", j, len(e.Hashes), e.Index)
		}
		if e.Index == 0 {
			cur = Sha256Node(&cur, &e.Hashes[0])
		} else {
			cur = Sha256Node(&e.Hashes[0], &cur)
		}
	}
	return cur, nil
}

// RootPoseidon recomputes the root of a Poseidon proof: at each level the
// current node is inserted at Index among the siblings and hashed with
// Poseidon of arity len(Hashes)+1.
func (p *MerkleProof) RootPoseidon() (Domain, error) {
	cur, err := FrFromBytes((*[32]byte)(&p.Leaf))
	if err != nil {
		return Domain{}, fmt.Errorf("leaf: %w", err)
	}
	var nodes [16]fr.Element
	for j, e := range p.Path() {
		a := len(e.Hashes) + 1
		if a > len(nodes) || e.Index >= uint64(a) {
			return Domain{}, fmt.Errorf("path element %d: %d hashes, index %d", j, len(e.Hashes), e.Index)
		}
		h := 0
		for i := 0; i < a; i++ {
			if uint64(i) == e.Index {
				nodes[i] = cur
				continue
			}
			if nodes[i], err = FrFromBytes((*[32]byte)(&e.Hashes[h])); err != nil {
				return Domain{}, fmt.Errorf("path element %d hash %d: %w", j, h, err)
			}
			h++
		}
		cur = poseidon.Hash(nodes[:a])
	}
	return FrToBytes(&cur), nil
}
