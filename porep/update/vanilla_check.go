// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
)

// CheckPartitionProof is what storage-proofs-update EmptySectorUpdate::verify
// (vanilla.rs) checks of partition k's proof before Rust proves it:
// Poseidon-2(comm_c, root of challenge 0's TreeROld / TreeRNew proof) =
// comm_r_old / comm_r_new; for every challenge c of Challenges(comm_r_new,
// k): the three proofs are for node c, have roots root_r_old, comm_d_new
// and root_r_new and hash to them, leaf_r_new = leaf_r_old + leaf_d_new ·
// rho(c >> (cbl − h)), and each apex-level sibling of the TreeD path is a
// node of the apex tree computed from the apex leaves. A proof that passes
// makes a satisfied circuit. Errors name the challenge and what differs;
// commitments from another sector say so.
func CheckPartitionProof(cfg *Config, k int, commROld, commDNew, commRNew *fr.Element, p *PartitionProof) error {
	if len(p.ApexLeafs) != cfg.ApexLeafCount || len(p.ChallengeProofs) != cfg.ChallengeCount {
		return fmt.Errorf("partition %d: %d apex leaves and %d challenge proofs, %s has %d and %d",
			k, len(p.ApexLeafs), len(p.ChallengeProofs), cfg.Name, cfg.ApexLeafCount, cfg.ChallengeCount)
	}
	challenges, err := Challenges(cfg, commRNew, k)
	if err != nil {
		return err
	}
	commC, err := domainFr("comm_c", &p.CommC)
	if err != nil {
		return fmt.Errorf("partition %d: %w", k, err)
	}
	rootROld, rootRNew := p.ChallengeProofs[0].ProofROld.Root, p.ChallengeProofs[0].ProofRNew.Root
	for _, r := range []struct {
		name string
		root stacked.Domain
		comm *fr.Element
	}{{"comm_r_old", rootROld, commROld}, {"comm_r_new", rootRNew, commRNew}} {
		root, err := domainFr(r.name+" root", &r.root)
		if err != nil {
			return fmt.Errorf("partition %d: %w", k, err)
		}
		if calc := poseidon.Hash2(&commC, &root); !calc.Equal(r.comm) {
			return fmt.Errorf("partition %d: %s %s is not H(comm_c, TreeR root) = %s: the vanilla proof belongs to another sector or update",
				k, r.name, frString(r.comm), frString(&calc))
		}
	}

	// The apex tree, row by row from the leaves.
	apexTree := [][]stacked.Domain{p.ApexLeafs}
	for row := p.ApexLeafs; len(row) > 1; {
		next := make([]stacked.Domain, len(row)/2)
		for i := range next {
			next[i] = stacked.Sha256Node(&row[2*i], &row[2*i+1])
		}
		apexTree = append(apexTree, next)
		row = next
	}
	phi := Phi(commDNew, commROld)
	commD := stacked.Domain(stacked.FrToBytes(commDNew))
	d := cfg.ApexDepth()
	b := cfg.Shape
	for i, c := range challenges {
		cp := &p.ChallengeProofs[i]
		name := fmt.Sprintf("partition %d challenge %d (node %d)", k, i, c)
		for _, m := range []struct {
			what  string
			p     *stacked.MerkleProof
			root  stacked.Domain
			index uint64
		}{
			{"TreeROld", &cp.ProofROld, rootROld, cp.ProofROld.PathIndex(b.Base, b.Sub, b.Top)},
			{"TreeDNew", &cp.ProofDNew, commD, cp.ProofDNew.PathIndex(2, 0, 0)},
			{"TreeRNew", &cp.ProofRNew, rootRNew, cp.ProofRNew.PathIndex(b.Base, b.Sub, b.Top)},
		} {
			if m.index != c {
				return fmt.Errorf("%s: %s proof is for node %d (other comm_r_new or partition?)", name, m.what, m.index)
			}
			if m.p.Root != m.root {
				return fmt.Errorf("%s: %s proof root %x, want %x", name, m.what, m.p.Root[:], m.root[:])
			}
			var got stacked.Domain
			if m.what == "TreeDNew" {
				got, err = m.p.RootSha256()
			} else {
				got, err = m.p.RootPoseidon()
			}
			if err != nil {
				return fmt.Errorf("%s: %s proof: %w", name, m.what, err)
			}
			if got != m.root {
				return fmt.Errorf("%s: %s path hashes to %x, not its root %x", name, m.what, got[:], m.root[:])
			}
		}
		leafROld, err := domainFr("leaf_r_old", &cp.ProofROld.Leaf)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		leafDNew, err := domainFr("leaf_d_new", &cp.ProofDNew.Leaf)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		rho := Rho(&phi, cfg.ChallengeHigh(c))
		var want fr.Element
		want.Mul(&leafDNew, &rho).Add(&want, &leafROld)
		if got := stacked.Domain(stacked.FrToBytes(&want)); got != cp.ProofRNew.Leaf {
			return fmt.Errorf("%s: leaf_r_new %x is not leaf_r_old + leaf_d_new·rho = %x (other comm_d_new or comm_r_old?)", name, cp.ProofRNew.Leaf[:], got[:])
		}
		path := cp.ProofDNew.Path()
		for l := 0; l < cfg.ApexLeafBitLen; l++ {
			sib := path[d+l].Hashes[0]
			found := false
			for _, n := range apexTree[l] {
				if n == sib {
					found = true
					break
				}
			}
			if !found {
				return fmt.Errorf("%s: TreeDNew sibling at level %d is not in apex tree row %d", name, d+l, l)
			}
		}
	}
	return nil
}
