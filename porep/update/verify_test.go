// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

import (
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
)

// TestVerifyPartitionProof checks that the reference vector's partition
// proof and every partition of generated updates (8 MiB without -short)
// pass, and that each kind of mismatch is refused naming what differs.
func TestVerifyPartitionProof(t *testing.T) {
	m, cfg, data := loadRef(t)
	commROld, commDNew, commRNew := hexFr(t, "comm_r_old", m.CommROld), hexFr(t, "comm_d_new", m.CommDNew), hexFr(t, "comm_r_new", m.CommRNew)
	parse := func() *PartitionProof {
		p, err := ParsePartitionProof(data, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if err := VerifyPartitionProof(cfg, 0, &commROld, &commDNew, &commRNew, parse()); err != nil {
		t.Fatalf("reference vector: %v", err)
	}
	var other fr.Element
	other.SetUint64(7)
	for _, tc := range []struct {
		name             string
		rOld, dNew, rNew *fr.Element
		mutate           func(p *PartitionProof)
		want             string
	}{
		{name: "comm_r_old", rOld: &other, want: "comm_r_old"},
		{name: "comm_r_new", rNew: &other, want: "comm_r_new"},
		{name: "comm_d_new", dNew: &other, want: "comm_d_new"},
		{name: "comm_c", mutate: func(p *PartitionProof) { p.CommC[0] ^= 1 }, want: "comm_r_old"},
		{name: "apex leaf", mutate: func(p *PartitionProof) { p.ApexLeafs[3][0] ^= 1 }, want: "comm_d_new"},
		{name: "leaf_r_new", mutate: func(p *PartitionProof) { p.ChallengeProofs[2].ProofRNew.Leaf[0] ^= 1 }, want: "challenge_proofs[2] (node"},
		{name: "path index", mutate: func(p *PartitionProof) {
			e := &p.ChallengeProofs[4].ProofROld.Base[0]
			e.Index = (e.Index + 1) % 8
		}, want: "challenge_proofs[4] (node"},
		{name: "sibling", mutate: func(p *PartitionProof) { p.ChallengeProofs[5].ProofDNew.Base[0].Hashes[0][0] ^= 1 }, want: "proof_d_new"},
		{name: "challenge order", mutate: func(p *PartitionProof) {
			p.ChallengeProofs[0], p.ChallengeProofs[1] = p.ChallengeProofs[1], p.ChallengeProofs[0]
		}, want: "challenge_proofs[0]"},
	} {
		p := parse()
		if tc.mutate != nil {
			tc.mutate(p)
		}
		rOld, dNew, rNew := &commROld, &commDNew, &commRNew
		if tc.rOld != nil {
			rOld = tc.rOld
		}
		if tc.dNew != nil {
			dNew = tc.dNew
		}
		if tc.rNew != nil {
			rNew = tc.rNew
		}
		err := VerifyPartitionProof(cfg, 0, rOld, dNew, rNew, p)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error naming %q", tc.name, err, tc.want)
		}
	}

	proofs := []abi.RegisteredUpdateProof{abi.RegisteredUpdateProof_StackedDrg2KiBV1}
	if !testing.Short() {
		proofs = append(proofs, abi.RegisteredUpdateProof_StackedDrg8MiBV1)
	}
	for _, id := range proofs {
		cfg, err := ConfigFor(id)
		if err != nil {
			t.Fatal(err)
		}
		trees, _ := testTrees(t, &cfg)
		rNew := trees.CommRNew()
		rOld := poseidon.Hash2(&trees.CommC, &trees.ROld.Root)
		d := trees.D.Root()
		dNew, err := stacked.FrFromBytes((*[32]byte)(&d))
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < cfg.Partitions; k++ {
			p, err := NewPartitionProof(&cfg, k, trees)
			if err != nil {
				t.Fatal(err)
			}
			if err := VerifyPartitionProof(&cfg, k, &rOld, &dNew, &rNew, p); err != nil {
				t.Errorf("%s partition %d: %v", cfg.Name, k, err)
			}
			if k > 0 {
				if err := VerifyPartitionProof(&cfg, k-1, &rOld, &dNew, &rNew, p); err == nil {
					t.Errorf("%s: partition %d's proof passes as partition %d's", cfg.Name, k, k-1)
				}
			}
		}
	}
}
