// SPDX-License-Identifier: Apache-2.0 OR MIT

package synthetic

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/seal"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// TestValidC1: ValidC1's output for every published size's interactive
// proof (and the V1 API's 32 GiB one) parses as that registered proof,
// passes the vanilla verifier (seal.VerifyC1: every path, column hash,
// label and the encoding) and carries the replica_id of its miner, sector,
// ticket and comm_d; one changed label, column or leaf fails it.
func TestValidC1(t *testing.T) {
	for _, tc := range []struct {
		proof abi.RegisteredSealProof
		long  bool // seconds each
	}{
		{abi.RegisteredSealProof_StackedDrg2KiBV1_1, false},
		{abi.RegisteredSealProof_StackedDrg8MiBV1_1, false},
		{abi.RegisteredSealProof_StackedDrg512MiBV1_1, false},
		{abi.RegisteredSealProof_StackedDrg32GiBV1_1, false},
		{abi.RegisteredSealProof_StackedDrg64GiBV1_1, true},
		{abi.RegisteredSealProof_StackedDrg32GiBV1, true},
	} {
		cfg, err := stacked.ConfigFor(tc.proof)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(cfg.Name, func(t *testing.T) {
			if tc.long {
				testenv.Long(t, "a few seconds per 32/64 GiB shape; the unit tier covers 32GiBV1_1")
			}
			start := time.Now()
			set, err := ValidC1(context.Background(), cfg, ValidC1Options{Seed: 7, Miner: 1234, Sector: 42})
			if err != nil {
				t.Fatal(err)
			}
			js := set.C1.Marshal()
			parsed, got, err := stacked.ParseC1(js)
			if err != nil {
				t.Fatal(err)
			}
			if got != cfg || parsed.SyntheticInvalid {
				t.Fatalf("parsed as %s, marked %v", got.Name, parsed.SyntheticInvalid)
			}
			if err := seal.VerifyC1(parsed, &cfg); err != nil {
				t.Fatal(err)
			}
			if err := seal.ValidateReplicaID(parsed, &cfg, stacked.ProverID(1234), 42); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d bytes of C1 JSON in %v", cfg.Name, len(js), time.Since(start))
			if cfg.SectorSize > 8<<20 {
				return
			}
			v := &parsed.VanillaProofs[0][0]
			for _, tc := range []struct {
				what, want string
				change     func()
			}{
				{"label", "c_x.inclusion_proof", func() { v.ReplicaColumnProofs.CX.Column.Rows[1][0] ^= 1 }},
				{"parent label", "inclusion_proof", func() { v.ReplicaColumnProofs.DRGParents[2].Column.Rows[0][3] ^= 1 }},
				{"replica leaf", "comm_r_last_proof", func() { v.CommRLastProof.Leaf[5] ^= 1 }},
				{"data leaf", "comm_d_proofs", func() { v.CommDProofs.Leaf[0] ^= 1 }},
			} {
				parsed, _, _ := stacked.ParseC1(js)
				v = &parsed.VanillaProofs[0][0]
				tc.change()
				if err := seal.VerifyC1(parsed, &cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s changed: VerifyC1 = %v, want an error naming %s", tc.what, err, tc.want)
				}
			}
		})
	}
}

// TestValidC1Refuses: configurations whose challenges derive from comm_r
// get an error naming the reason.
func TestValidC1Refuses(t *testing.T) {
	for _, p := range []abi.RegisteredSealProof{
		abi.RegisteredSealProof_StackedDrg2KiBV1_1_Feat_SyntheticPoRep,
		abi.RegisteredSealProof_StackedDrg2KiBV1_2_Feat_NiPoRep,
	} {
		cfg, _ := stacked.ConfigFor(p)
		if _, err := ValidC1(context.Background(), cfg, ValidC1Options{}); err == nil || !strings.Contains(err.Error(), "comm_r") {
			t.Errorf("%s: %v", cfg.Name, err)
		}
	}
}
