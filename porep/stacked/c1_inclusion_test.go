// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"strings"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"
)

// TestValidateInclusionProofs: the fixtures' paths all check; one flipped bit in a leaf, a
// sibling hash or a column row is caught (Validate alone accepts each of these) and the error
// names the JSON path of the damaged proof. The 32 KiB 8-8-2 fixture covers Top proofs.
func TestValidateInclusionProofs(t *testing.T) {
	cfg2K, err := ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	if err != nil {
		t.Fatal(err)
	}
	cfg882 := testConfig882(t)
	const vp2 = "vanilla_proofs.StackedDrg2KiBV1"
	for _, tc := range []struct {
		name    string
		fixture string
		cfg     *SectorConfig
		mutate  func(o *C1Output)
		want    string // substring of the error; "" = no error
	}{
		{"2KiB fixture", "c1-2KiB-V1_1.json", &cfg2K, func(*C1Output) {}, ""},
		{"882 fixture", "c1-32KiB-test-8-8-2.json", &cfg882, func(*C1Output) {}, ""},
		{"comm_r_last leaf", "c1-2KiB-V1_1.json", &cfg2K,
			func(o *C1Output) { o.VanillaProofs[0][1].CommRLastProof.Leaf[0] ^= 1 },
			vp2 + "[0][1].comm_r_last_proof.data.Single.leaf"},
		{"comm_d leaf", "c1-2KiB-V1_1.json", &cfg2K,
			func(o *C1Output) { o.VanillaProofs[0][0].CommDProofs.Leaf[5] ^= 1 },
			vp2 + "[0][0].comm_d_proofs.data.Single.leaf"},
		{"comm_d sibling", "c1-2KiB-V1_1.json", &cfg2K,
			func(o *C1Output) { o.VanillaProofs[0][1].CommDProofs.Base[3].Hashes[0][0] ^= 1 },
			vp2 + "[0][1].comm_d_proofs.data.Single.leaf"},
		{"column row", "c1-2KiB-V1_1.json", &cfg2K,
			func(o *C1Output) { o.VanillaProofs[0][0].ReplicaColumnProofs.ExpParents[3].Column.Rows[1][0] ^= 1 },
			vp2 + "[0][0].replica_column_proofs.exp_parents[3].inclusion_proof.data.Single.leaf"},
		{"column leaf", "c1-2KiB-V1_1.json", &cfg2K,
			func(o *C1Output) { o.VanillaProofs[0][1].ReplicaColumnProofs.CX.InclusionProof.Leaf[0] ^= 1 },
			"c_x.inclusion_proof.data.Single.leaf: is not the Poseidon hash of column.rows"},
		{"tree C sibling", "c1-2KiB-V1_1.json", &cfg2K,
			func(o *C1Output) {
				o.VanillaProofs[0][0].ReplicaColumnProofs.DRGParents[4].InclusionProof.Base[0].Hashes[2][1] ^= 1
			},
			vp2 + "[0][0].replica_column_proofs.drg_parents[4].inclusion_proof.data.Single.leaf"},
		{"top path", "c1-32KiB-test-8-8-2.json", &cfg882,
			func(o *C1Output) { o.VanillaProofs[0][0].CommRLastProof.Top[0].Hashes[0][0] ^= 1 },
			"[0][0].comm_r_last_proof.data.Top.leaf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := DecodeC1(loadFixture(t, tc.fixture))
			if err != nil {
				t.Fatal(err)
			}
			tc.mutate(o)
			if err := o.Validate(tc.cfg); err != nil {
				t.Fatalf("Validate rejects the mutation already: %v", err)
			}
			err = o.ValidateInclusionProofs(tc.cfg)
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want != "" && err == nil:
				t.Fatal("accepted")
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Fatalf("error %q lacks %q", err, tc.want)
			}
		})
	}
}

// BenchmarkValidateInclusionProofs2KiB measures the up-front Merkle check of a 2 KiB C1.
func BenchmarkValidateInclusionProofs2KiB(b *testing.B) {
	o, cfg, err := ParseC1(loadFixture(b, "c1-2KiB-V1_1.json"))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := o.ValidateInclusionProofs(&cfg); err != nil {
			b.Fatal(err)
		}
	}
}
