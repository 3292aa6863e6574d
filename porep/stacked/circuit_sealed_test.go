// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/seal"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/synthetic"
	"github.com/cuseal/cuseal/testsupport/testcs"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// sealedC1 seals random data (PCG seeds seed1, seed2) for cfg with the test
// sealer (porep/seal) and returns its parsed C1 output.
func sealedC1(t testing.TB, cfg stacked.SectorConfig, seed1, seed2 uint64) *stacked.C1Output {
	t.Helper()
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(seed1, seed2))
	data := make([]byte, seal.UnpaddedSize(cfg.SectorSize))
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	dataPath := filepath.Join(dir, "data")
	if err := os.WriteFile(dataPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	out := filepath.Join(dir, "sector")
	ticket, seedR := bytes.Repeat([]byte{5}, 32), bytes.Repeat([]byte{6}, 32)
	res, err := seal.Seal(ctx, cfg, dataPath, out, 1000, 3, ticket)
	if err != nil {
		t.Fatal(err)
	}
	c1, err := seal.CommitPhase1Output(ctx, cfg, res.CommR, res.CommD, out, 3, 1000, ticket, seedR)
	if err != nil {
		t.Fatal(err)
	}
	return c1
}

// TestStackedCircuitSatisfiedSealed synthesizes every partition of real
// sealed sectors (2 KiB registered; 32 KiB 8-8-2 exercises the sub and top
// tree levels) into a TestCS: the circuit is satisfied, and its inputs equal
// PublicInputs. A tampered witness value must break satisfaction.
func TestStackedCircuitSatisfiedSealed(t *testing.T) {
	cfg2k, err := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	if err != nil {
		t.Fatal(err)
	}
	cfg32k, err := stacked.NewTestConfig(32<<10, stacked.Shape882, [32]byte{44}, stacked.APIVersion1_1_0)
	if err != nil {
		t.Fatal(err)
	}
	// Arities beyond the published shapes: base 4, and sub 4 with top 4.
	cfg4 := func(size uint64, shape stacked.TreeShape) stacked.SectorConfig {
		c, err := stacked.NewTestConfig(size, shape, [32]byte{44}, stacked.APIVersion1_1_0)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	reg := func(p abi.RegisteredSealProof) stacked.SectorConfig {
		c, err := stacked.ConfigFor(p)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	cfgs := []stacked.SectorConfig{cfg2k, cfg32k, cfg4(2<<10, stacked.TreeShape{Base: 4}), cfg4(4<<10, stacked.TreeShape{Base: 8, Sub: 4, Top: 4}),
		// API 1.0.0 graph (predecessor last) and synthetic challenges.
		reg(abi.RegisteredSealProof_StackedDrg2KiBV1), reg(abi.RegisteredSealProof_StackedDrg2KiBV1_1_Feat_SyntheticPoRep)}
	for _, cfg := range cfgs {
		t.Run(cfg.Name, func(t *testing.T) {
			if !testenv.Enabled(testenv.TierLong) && cfg.Name != cfg2k.Name {
				t.Skip("long tier: the unit tier seals 2 KiB V1_1 only")
			}
			c1 := sealedC1(t, cfg, cfg.SectorSize, 11)
			g, err := stacked.GraphFor(&cfg)
			if err != nil {
				t.Fatal(err)
			}
			circ, err := stacked.NewCircuit(c1, &cfg, 0)
			if err != nil {
				t.Fatal(err)
			}
			sys := testcs.New()
			if err := circ.Synthesize(context.Background(), sys); err != nil {
				t.Fatal(err)
			}
			if sys.NumInputs() != cfg.NumPublicInputs() {
				t.Fatalf("%d inputs, want %d", sys.NumInputs(), cfg.NumPublicInputs())
			}
			if err := sys.Validate(); err != nil {
				t.Fatalf("sealed witness does not satisfy the circuit: %v", err)
			}
			want, err := c1.PublicInputs(&cfg, g, 0)
			if err != nil {
				t.Fatal(err)
			}
			got := sys.Inputs()[1:]
			if len(got) != len(want) {
				t.Fatalf("%d inputs, %d generated", len(got), len(want))
			}
			for i := range want {
				if !got[i].Equal(&want[i]) {
					t.Fatalf("input %d: synthesized %s, generated %s", i+1, got[i].String(), want[i].String())
				}
			}
			// A wrong data leaf must not satisfy the circuit.
			circ.Proofs[0].DataLeaf.Add(&circ.Proofs[0].DataLeaf, new(fr.Element).SetOne())
			bad := testcs.New()
			if err := circ.Synthesize(context.Background(), bad); err != nil {
				t.Fatal(err)
			}
			if bad.Validate() == nil {
				t.Fatal("tampered data leaf satisfied the circuit")
			}
		})
	}
}

// TestNewCircuitErrors checks that NewCircuit names the bad place.
func TestNewCircuitErrors(t *testing.T) {
	cfg, err := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	if err != nil {
		t.Fatal(err)
	}
	c1, err := synthetic.C1(cfg, synthetic.C1Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stacked.NewCircuit(c1, &cfg, 1); err == nil {
		t.Fatal("partition 1 of 1 accepted")
	}
	vp := &c1.VanillaProofs[0][1]
	vp.CommRLastProof.Base = vp.CommRLastProof.Base[:1]
	if _, err := stacked.NewCircuit(c1, &cfg, 0); err == nil || !bytes.Contains([]byte(err.Error()), []byte("vanilla_proofs[0][1].comm_r_last_proof")) {
		t.Fatalf("short path: %v", err)
	}
	vp.CommRLastProof.Root[31] = 0xff
	if _, err := stacked.NewCircuit(c1, &cfg, 0); err == nil || !bytes.Contains([]byte(err.Error()), []byte("inconsistent comm_r_last")) {
		t.Fatalf("comm_r_last mismatch: %v", err)
	}
}

// BenchmarkSynthesize2KiB synthesizes a sealed 2 KiB sector's partition
// (2,687,921 circuit constraints + 40 input rows) into a
// cs.ProvingAssignment pre-sized with SizeHintFor, as SealCommitPhase2 does.
func BenchmarkSynthesize2KiB(b *testing.B) {
	cfg, err := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	if err != nil {
		b.Fatal(err)
	}
	c1 := sealedC1(b, cfg, 1, 2)
	benchSynthesize(b, c1, &cfg)
}

// BenchmarkSynthesize32GiBOneChallenge synthesizes one challenge of the
// 32 GiB circuit (7,238,236 constraints with the top level) from synthetic
// C1 data into a pre-sized cs.ProvingAssignment: a full partition is 18
// challenges (×18 time, ≈ 16 GiB of vectors).
func BenchmarkSynthesize32GiBOneChallenge(b *testing.B) {
	cfg, err := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg32GiBV1_1)
	if err != nil {
		b.Fatal(err)
	}
	cfg.Partitions, cfg.ChallengesPerPartition = 1, 1
	c1, err := synthetic.C1(cfg, synthetic.C1Options{Partitions: 1, ChallengesPerPartition: 1, Seed: 32})
	if err != nil {
		b.Fatal(err)
	}
	benchSynthesize(b, c1, &cfg)
}

// benchSynthesize times NewCircuit + Synthesize of c1's partition 0 into a
// cs.ProvingAssignment pre-sized with SizeHintFor (a/b/c outgrowing the hint
// fails) and reports the constraint count.
func benchSynthesize(b *testing.B, c1 *stacked.C1Output, cfg *stacked.SectorConfig) {
	hint, err := stacked.SizeHintFor(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		circ, err := stacked.NewCircuit(c1, cfg, 0)
		if err != nil {
			b.Fatal(err)
		}
		pa := cs.NewProvingAssignment(hint)
		if err := circ.Synthesize(context.Background(), pa); err != nil {
			b.Fatal(err)
		}
		a := pa.Assignment()
		if !pa.ABCInPlace() {
			b.Fatal("a/b/c outgrew the size hint")
		}
		b.ReportMetric(float64(len(a.A)), "constraints")
	}
}
