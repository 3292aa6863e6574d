// SPDX-License-Identifier: Apache-2.0 OR MIT

package synthetic

import (
	"bytes"
	"slices"
	"testing"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
)

// TestPoStValid: synthetic vanilla proofs of every size parse strictly and
// pass the checks Rust runs before proving (post.ProverSlots: comm_r =
// H(comm_c, comm_r_last), each path from the challenged leaf to
// comm_r_last) — 32 and 64 GiB included, which costs only the challenged
// paths; the output is reproducible from the seed and differs across seeds.
// That a proof made from them verifies is porep's TestSyntheticPoStVerifies.
func TestPoStValid(t *testing.T) {
	cases := []struct {
		proof   abi.RegisteredPoStProof
		sectors int
	}{
		{abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1, 3},
		{abi.RegisteredPoStProof_StackedDrgWinning2KiBV1, 0},
		{abi.RegisteredPoStProof_StackedDrgWindow8MiBV1_1, 0},
		{abi.RegisteredPoStProof_StackedDrgWindow32GiBV1_1, 3},
		{abi.RegisteredPoStProof_StackedDrgWinning32GiBV1, 1},
		{abi.RegisteredPoStProof_StackedDrgWindow64GiBV1_1, 2},
		{abi.RegisteredPoStProof_StackedDrgWinning64GiBV1, 0},
	}
	for _, tc := range cases {
		cfg, err := post.ConfigFor(tc.proof)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(cfg.Name, func(t *testing.T) {
			set, err := PoSt(tc.proof, PoStOptions{Sectors: tc.sectors, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			want := tc.sectors
			if want == 0 {
				want = cfg.SectorCount
			}
			if len(set.Vanilla) != want || len(set.Sectors) != want || set.Miner != 1000 || len(set.Randomness) != 32 {
				t.Fatalf("%d vanilla proofs, %d sectors, miner %d, %d randomness bytes", len(set.Vanilla), len(set.Sectors), set.Miner, len(set.Randomness))
			}
			var vps []*post.VanillaProof
			for i, b := range set.Vanilla {
				v, err := post.ParseVanillaProof(b, &cfg)
				if err != nil {
					t.Fatalf("vanilla proof %d: %v", i, err)
				}
				s := set.Sectors[i]
				commR, err := commcid.CIDToReplicaCommitmentV1(s.SealedCID)
				if err != nil || !bytes.Equal(commR, v.CommR[:]) || s.SectorNumber != v.SectorID {
					t.Fatalf("sector info %d (%d, %v) does not match its vanilla proof (%d)", i, s.SectorNumber, err, v.SectorID)
				}
				if sc, _ := stacked.ConfigFor(s.SealProof); sc.SectorSize != cfg.SectorSize {
					t.Fatalf("seal proof %d for %s", s.SealProof, cfg.Name)
				}
				if i > 0 && s.SectorNumber <= set.Sectors[i-1].SectorNumber {
					t.Fatal("sectors not in ascending order")
				}
				vps = append(vps, v)
			}
			rnd := [32]byte(set.Randomness)
			for k := range cfg.Partitions(len(vps)) {
				if _, err := post.ProverSlots(&cfg, rnd, vps, k); err != nil {
					t.Fatalf("partition %d: %v", k, err)
				}
			}
			again, err := PoSt(tc.proof, PoStOptions{Sectors: tc.sectors, Seed: 7})
			if err != nil || !slices.EqualFunc(again.Vanilla, set.Vanilla, bytes.Equal) || !bytes.Equal(again.Randomness, set.Randomness) {
				t.Fatalf("seed 7 twice gives different output (%v)", err)
			}
			other, err := PoSt(tc.proof, PoStOptions{Sectors: tc.sectors, Seed: 8})
			if err != nil || bytes.Equal(other.Vanilla[0], set.Vanilla[0]) {
				t.Fatalf("seeds 7 and 8 give the same first proof (%v)", err)
			}
		})
	}
	for _, bad := range []struct {
		proof   abi.RegisteredPoStProof
		sectors int
	}{
		{abi.RegisteredPoStProof_StackedDrgWinning2KiBV1, 2},
		{abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1, -1},
		{abi.RegisteredPoStProof_StackedDrgWindow2KiBV1, 1},
	} {
		if _, err := PoSt(bad.proof, PoStOptions{Sectors: bad.sectors}); err == nil {
			t.Errorf("proof %d with %d sectors accepted", bad.proof, bad.sectors)
		}
	}
}
