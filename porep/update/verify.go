// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
)

// VerifyPartitionProof is vanilla.rs EmptySectorUpdate::verify for
// partition k (spec §3.3): comm_r_old = Poseidon(comm_c, root_r_old) and
// comm_r_new likewise (roots of challenge 0), then for every challenge in
// derivation order: its three path indexes equal the derived challenge, its
// roots equal root_r_old / comm_d_new / root_r_new, its three Merkle proofs
// hash to them, leaf_r_new = leaf_r_old + leaf_d_new·rho(high bits), and its
// TreeD node at the apex row equals the selected apex leaf; the apex leaves
// with challenge 0's partition path hash to comm_d_new. It proves with a
// proof that passes here, so a mismatched commitment is caught before any
// SNARK work. Errors name the first field that fails
// (challenge_proofs[3].proof_d_new.root ...).
func VerifyPartitionProof(cfg *Config, k int, commROld, commDNew, commRNew *fr.Element, p *PartitionProof) error {
	challenges, err := Challenges(cfg, commRNew, k)
	if err != nil {
		return err
	}
	if len(p.ApexLeafs) != cfg.ApexLeafCount || len(p.ChallengeProofs) != cfg.ChallengeCount {
		return fmt.Errorf("update: partition %d: %d apex leaves and %d challenge proofs, %s has %d and %d",
			k, len(p.ApexLeafs), len(p.ChallengeProofs), cfg.Name, cfg.ApexLeafCount, cfg.ChallengeCount)
	}
	commC, err := domainFr("comm_c", &p.CommC)
	if err != nil {
		return fmt.Errorf("update: partition %d: %w", k, err)
	}
	roots := [2]stacked.Domain{p.ChallengeProofs[0].ProofROld.Root, p.ChallengeProofs[0].ProofRNew.Root}
	for i, want := range []struct {
		name string
		comm *fr.Element
	}{{"comm_r_old", commROld}, {"comm_r_new", commRNew}} {
		root, err := domainFr("root", &roots[i])
		if err != nil {
			return fmt.Errorf("update: partition %d: challenge_proofs[0] %s: %w", k, want.name, err)
		}
		if got := poseidon.Hash2(&commC, &root); !got.Equal(want.comm) {
			return fmt.Errorf("update: partition %d: %s %x is not Poseidon(comm_c, challenge_proofs[0] TreeR root) = %x: the commitment does not match the vanilla proof",
				k, want.name, stacked.FrToBytes(want.comm), stacked.FrToBytes(&got))
		}
	}
	dNew := stacked.FrToBytes(commDNew)
	rootD, err := apexRoot(cfg, p)
	if err != nil {
		return fmt.Errorf("update: partition %d: %w", k, err)
	}
	if rootD != dNew {
		return fmt.Errorf("update: partition %d: comm_d_new %x is not the root of apex_leafs and challenge_proofs[0].proof_d_new's partition path (%x): the commitment does not match the vanilla proof",
			k, dNew, rootD)
	}
	phi := Phi(commDNew, commROld)
	for i, c := range challenges {
		cp := &p.ChallengeProofs[i]
		at := fmt.Sprintf("update: partition %d: challenge_proofs[%d] (node %d)", k, i, c)
		for _, t := range []struct {
			name string
			mp   *stacked.MerkleProof
			root stacked.Domain
			sha  bool
		}{{"proof_r_old", &cp.ProofROld, roots[0], false}, {"proof_d_new", &cp.ProofDNew, dNew, true}, {"proof_r_new", &cp.ProofRNew, roots[1], false}} {
			var idx uint64
			var got stacked.Domain
			var err error
			if t.sha {
				idx = t.mp.PathIndex(2, 0, 0)
				got, err = t.mp.RootSha256()
			} else {
				idx = t.mp.PathIndex(cfg.Shape.Base, cfg.Shape.Sub, cfg.Shape.Top)
				got, err = t.mp.RootPoseidon()
			}
			if err != nil {
				return fmt.Errorf("%s: %s: %w", at, t.name, err)
			}
			if idx != c {
				return fmt.Errorf("%s: %s.path proves node %d", at, t.name, idx)
			}
			if t.mp.Root != t.root {
				return fmt.Errorf("%s: %s.root %x, want %x", at, t.name, t.mp.Root[:], t.root[:])
			}
			if got != t.root {
				return fmt.Errorf("%s: %s: leaf and path hash to %x, not the root %x", at, t.name, got[:], t.root[:])
			}
		}
		var lOld, lD, lNew fr.Element
		for _, v := range []struct {
			name string
			d    *stacked.Domain
			dst  *fr.Element
		}{{"proof_r_old.leaf", &cp.ProofROld.Leaf, &lOld}, {"proof_d_new.leaf", &cp.ProofDNew.Leaf, &lD}, {"proof_r_new.leaf", &cp.ProofRNew.Leaf, &lNew}} {
			if *v.dst, err = domainFr(v.name, v.d); err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
		}
		rho := Rho(&phi, cfg.ChallengeHigh(c))
		var want fr.Element
		want.Mul(&lD, &rho).Add(&want, &lOld)
		if !want.Equal(&lNew) {
			return fmt.Errorf("%s: proof_r_new.leaf is not proof_r_old.leaf + proof_d_new.leaf·rho: not an encoding of the new data", at)
		}
		node := cp.ProofDNew.Leaf
		path := cp.ProofDNew.Path()
		for l := 0; l < cfg.ApexDepth(); l++ {
			e := &path[l]
			if e.Index == 0 {
				node = stacked.Sha256Node(&node, &e.Hashes[0])
			} else {
				node = stacked.Sha256Node(&e.Hashes[0], &node)
			}
		}
		if a := (c >> uint(cfg.ApexDepth())) % uint64(cfg.ApexLeafCount); node != p.ApexLeafs[a] {
			return fmt.Errorf("%s: proof_d_new's node at the apex row is not apex_leafs[%d]", at, a)
		}
	}
	return nil
}

// apexRoot hashes the apex leaves into their binary SHA-256 tree and its
// root up challenge 0's partition path (the top PartitionBitLen levels of
// its TreeD path) to the TreeD root the circuit's apex PoR computes.
func apexRoot(cfg *Config, p *PartitionProof) (stacked.Domain, error) {
	row := append([]stacked.Domain(nil), p.ApexLeafs...)
	for len(row) > 1 {
		next := make([]stacked.Domain, len(row)/2)
		for i := range next {
			next[i] = stacked.Sha256Node(&row[2*i], &row[2*i+1])
		}
		row = next
	}
	node := row[0]
	path := p.ChallengeProofs[0].ProofDNew.Path()
	if len(path) != cfg.ChallengeBitLen {
		return node, fmt.Errorf("challenge_proofs[0].proof_d_new.path: %d levels, want %d", len(path), cfg.ChallengeBitLen)
	}
	for l := cfg.ChallengeBitLen - cfg.PartitionBitLen; l < cfg.ChallengeBitLen; l++ {
		e := &path[l]
		if len(e.Hashes) != 1 {
			return node, fmt.Errorf("challenge_proofs[0].proof_d_new.path[%d]: %d hashes, want 1", l, len(e.Hashes))
		}
		if e.Index == 0 {
			node = stacked.Sha256Node(&node, &e.Hashes[0])
		} else {
			node = stacked.Sha256Node(&e.Hashes[0], &node)
		}
	}
	return node, nil
}
