// SPDX-License-Identifier: Apache-2.0 OR MIT

package synthetic

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/seal"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/testsupport/testcs"
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
			if err := parsed.ValidateInclusionProofs(&cfg); err != nil { // the prover's own input check
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

// TestValidC1Circuit: ValidC1's output satisfies the stacked circuit of a
// partition with the public inputs the verifier derives, at 2 KiB and for
// the sub- and top-tree test shapes (4 KiB 8-2-0; long tier: 32 KiB 8-8-2); with one
// label of a challenged node changed before the trees are hashed (every
// path and column hash consistent, the label not) the self-check names the
// labeling proof, and the circuit is not satisfied.
func TestValidC1Circuit(t *testing.T) {
	cfg, _ := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	satisfied := func(c1 *stacked.C1Output, cfg *stacked.SectorConfig) error {
		g, err := stacked.GraphFor(cfg)
		if err != nil {
			t.Fatal(err)
		}
		circ, err := stacked.NewCircuit(c1, cfg, 0)
		if err != nil {
			t.Fatal(err)
		}
		sys := testcs.New()
		if err := circ.Synthesize(context.Background(), sys); err != nil {
			t.Fatal(err)
		}
		want, err := c1.PublicInputs(cfg, g, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := sys.Inputs()[1:]
		for i := range want {
			if i >= len(got) || !got[i].Equal(&want[i]) {
				t.Fatalf("%s: public input %d differs from the verifier's", cfg.Name, i+1)
			}
		}
		return sys.Validate()
	}
	cfg4k, err := stacked.NewTestConfig(4<<10, stacked.Shape820, [32]byte{44}, stacked.APIVersion1_1_0)
	if err != nil {
		t.Fatal(err)
	}
	cfg32k, err := stacked.NewTestConfig(32<<10, stacked.Shape882, [32]byte{44}, stacked.APIVersion1_1_0)
	if err != nil {
		t.Fatal(err)
	}
	cfgs := []stacked.SectorConfig{cfg, cfg4k}
	if testenv.Enabled(testenv.TierLong) {
		cfgs = append(cfgs, cfg32k) // ~10 s in testcs
	}
	var set *C1Set
	for _, c := range cfgs {
		s, err := ValidC1(context.Background(), c, ValidC1Options{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		if err := satisfied(s.C1, &c); err != nil {
			t.Fatalf("valid synthetic C1 of %s: %v", c.Name, err)
		}
		if set == nil {
			set = s
		}
	}
	first := set.C1.VanillaProofs[0][0].Challenge()
	bad, err := validC1(context.Background(), cfg, ValidC1Options{Seed: 5}, func(cols map[uint64][]stacked.Domain) {
		cols[first][1][4] ^= 1
	})
	if err == nil || !strings.Contains(err.Error(), "labeling_proofs[1]") || !strings.Contains(err.Error(), "recomputed label") {
		t.Fatalf("tampered label: self-check %v, want the labeling proof named", err)
	}
	if err := satisfied(bad.C1, &cfg); err == nil {
		t.Fatal("a C1 with one inconsistent label satisfied the circuit")
	}
}

// TestValidC1Larger: a whole 512 MiB partition, and a 32 GiB one cut to one
// challenge (a config override: 7.2 M constraints, ~1 GB), of ValidC1's
// output synthesized as the prover does (stacked.SynthesizePartition)
// satisfy every constraint (⟨A,w⟩·⟨B,w⟩ = ⟨C,w⟩ row by row) with the public
// inputs the verifier derives (C1Output.PublicInputs).
func TestValidC1Larger(t *testing.T) {
	testenv.Long(t, "a 512 MiB partition and a one-challenge 32 GiB partition synthesized and checked row by row (~10 M constraints, ~1 GB)")
	cfg512, _ := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg512MiBV1_1)
	cfg32, _ := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg32GiBV1_1)
	cfg32.Partitions, cfg32.ChallengesPerPartition = 1, 1
	for _, cfg := range []stacked.SectorConfig{cfg512, cfg32} {
		set, err := ValidC1(context.Background(), cfg, ValidC1Options{Seed: 11})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		a, err := stacked.SynthesizePartition(context.Background(), set.C1, &cfg, 0, nil, 2)
		if err != nil {
			t.Fatal(err)
		}
		if i := unsatisfiedRow(a); i >= 0 {
			t.Fatalf("%s: constraint row %d of %d is not satisfied", cfg.Name, i, len(a.A))
		}
		g, err := stacked.GraphFor(&cfg)
		if err != nil {
			t.Fatal(err)
		}
		want, err := set.C1.PublicInputs(&cfg, g, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) != len(a.Input)-1 {
			t.Fatalf("%s: %d public inputs synthesized, the verifier derives %d", cfg.Name, len(a.Input)-1, len(want))
		}
		for i := range want {
			if !want[i].Equal(&a.Input[i+1]) {
				t.Fatalf("%s: public input %d differs from the verifier's", cfg.Name, i+1)
			}
		}
		t.Logf("%s (%d challenge(s)): %d rows satisfied in %v", cfg.Name, cfg.ChallengesPerPartition, len(a.A), time.Since(start))
	}
	// The same check fails for one inconsistent label under consistent paths.
	bad, _ := validC1(context.Background(), cfg512, ValidC1Options{Seed: 11}, func(cols map[uint64][]stacked.Domain) {
		for c := range cols {
			cols[c][1][2] ^= 1
			break
		}
	})
	a, err := stacked.SynthesizePartition(context.Background(), bad.C1, &cfg512, 0, nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	if unsatisfiedRow(a) < 0 {
		t.Fatal("a 512 MiB partition with one inconsistent label satisfied every row")
	}
}

// unsatisfiedRow is the first row of a whose ⟨A,w⟩·⟨B,w⟩ ≠ ⟨C,w⟩, or −1.
func unsatisfiedRow(a *cs.Assignment) int {
	for i := range a.A {
		var ab fr.Element
		if ab.Mul(&a.A[i], &a.B[i]); !ab.Equal(&a.C[i]) {
			return i
		}
	}
	return -1
}
