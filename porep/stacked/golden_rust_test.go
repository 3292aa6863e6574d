// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked_test

// Bit-compatibility of the whole partition circuit with rust-fil-proofs:
// testdata/rust_golden.json was written by testdata/refcircuit, which
// deserializes the C1 fixtures with storage-proofs-porep 19.1.0's own
// vanilla Proof type (serde_json), builds the circuit with
// StackedCompound::circuit (partition 0, as C2 does), synthesizes it into a
// recording constraint system that behaves like bellperson 0.27.0's prover,
// checks the inputs against StackedCompound::generate_public_inputs and prints
// the digests of docs/digests.md §1–§4. cuseal's NewCircuit +
// Synthesize must give the same R1CS (constraint for constraint, merged
// coefficients), witness, a/b/c evaluations and densities.

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/testsupport/goldentest"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// stackedParams is a stacked case's "params" object.
type stackedParams struct {
	C1              string `json:"c1"` // absent for blank cases
	RegisteredProof string `json:"registered_proof"`
	Partition       int    `json:"partition"`
	Nodes           int    `json:"nodes"`
	Layers          int    `json:"layers"`
	Challenges      int    `json:"challenges"`
	PoRepID         string `json:"porep_id"`
}

// TestRustGoldenStackedCircuit compares, for each case of
// testdata/rust_golden.json:
//   - stacked_2KiB_V1_1, stacked_32KiB_test_8_8_2: NewCircuit from the C1
//     fixture (partition 0) — R1CS, witness, a/b/c, densities, counts;
//   - *_blank: BlankCircuit (what parameter generation synthesizes) against
//     StackedCompound::blank_circuit recorded shape-only as bellperson's
//     KeypairAssembly would see it — R1CS, densities, counts (the Rust tool
//     also checked that the blank R1CS equals the real circuit's);
//   - stacked_32GiB_V1_1_blank_1challenge: the production 32 GiB V1_1 shape
//     with one challenge (a partition repeats it 18 times).
//
// The 32 GiB case and the 32 KiB blank case are huge (7.2M constraints,
// ~3 GB of recorded matrices); the 32 KiB real case is long.
func TestRustGoldenStackedCircuit(t *testing.T) {
	cases := goldentest.Load(t, filepath.Join("testdata", "rust_golden.json"))
	cfg882, err := stacked.NewTestConfig(32<<10, stacked.Shape882, [32]byte{44}, stacked.APIVersion1_1_0)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"stacked_2KiB_V1_1", "stacked_32KiB_test_8_8_2", "stacked_2KiB_V1_1_blank",
		"stacked_32KiB_test_8_8_2_blank", "stacked_32GiB_V1_1_blank_1challenge"}
	if len(cases) != len(names) {
		t.Fatalf("golden file has %d cases, want %d", len(cases), len(names))
	}
	for i, want := range cases {
		if want.Name != names[i] {
			t.Fatalf("golden case %d is %q, want %q", i, want.Name, names[i])
		}
		t.Run(want.Name, func(t *testing.T) {
			large := strings.Contains(want.Name, "32GiB") || want.Name == "stacked_32KiB_test_8_8_2_blank"
			if large {
				testenv.Huge(t, "the 32 GiB shape (7.2M constraints, ~3 GB of recorded matrices) and the 32 KiB blank circuit")
			}
			if strings.Contains(want.Name, "32KiB") {
				testenv.Long(t, "the 32 KiB circuit: seconds of recording")
			}
			var p stackedParams
			if err := json.Unmarshal(want.Params, &p); err != nil {
				t.Fatalf("params: %v", err)
			}
			var cfg stacked.SectorConfig
			if p.RegisteredProof == cfg882.Name {
				cfg = cfg882
			} else if cfg, err = stacked.ConfigByName(p.RegisteredProof); err != nil {
				t.Fatal(err)
			}
			cfg.ChallengesPerPartition = p.Challenges // 1 for the 32 GiB case
			// The Rust tool's setup parameters must be this configuration's.
			if int(cfg.Nodes) != p.Nodes || cfg.Layers != p.Layers ||
				hex.EncodeToString(cfg.PoRepID[:]) != p.PoRepID || cfg.APIVersion != stacked.APIVersion1_1_0 {
				t.Fatalf("config %s: %d nodes, %d layers, porep_id %x, %v differ from the Rust case %+v",
					cfg.Name, cfg.Nodes, cfg.Layers, cfg.PoRepID, cfg.APIVersion, p)
			}
			var circ *stacked.Circuit
			var c1 *stacked.C1Output
			blank := p.C1 == ""
			if blank {
				circ = stacked.BlankCircuit(&cfg)
			} else {
				c1raw, err := os.ReadFile(filepath.Join("testdata", p.C1))
				if err != nil {
					t.Fatal(err)
				}
				if c1, err = stacked.ParseC1ForConfig(c1raw, &cfg); err != nil {
					t.Fatal(err)
				}
				if circ, err = stacked.NewCircuit(c1, &cfg, p.Partition); err != nil {
					t.Fatal(err)
				}
			}
			checkStackedDigests(t, &want, circ, c1, &cfg, p.Partition, blank)
		})
	}
}

func checkStackedDigests(t *testing.T, want *goldentest.Case, circ *stacked.Circuit, c1 *stacked.C1Output, cfg *stacked.SectorConfig, partition int, blank bool) {
	rec := cs.NewRecorder()
	if err := circ.Synthesize(rec); err != nil {
		t.Fatal(err)
	}
	r1cs := rec.R1CS()
	rec = nil
	if goldentest.Compare(t, "", goldentest.ShapeChecks(r1cs, r1cs.Digest(), want)) {
		goldentest.Dump(t, want.Name, r1cs)
	}
	r1cs = nil
	runtime.GC()

	pa := cs.NewProvingAssignment(cs.SizeHint{})
	if err := circ.Synthesize(pa); err != nil {
		t.Fatal(err)
	}
	asg := pa.Assignment()
	checks := []goldentest.Check{{What: "prover num_constraints", Got: len(asg.A), Want: want.NumConstraints}}
	checks = append(checks, goldentest.DensityChecks(asg, want)...)
	if !blank {
		checks = append(checks, goldentest.WitnessChecks(asg, want)...)
		// The Rust tool checked its inputs against generate_public_inputs;
		// ours must equal PublicInputs too (the witness digest covers the
		// values, this names the culprit if it differs).
		pub, err := c1.PublicInputs(cfg, nil, partition)
		if err != nil {
			t.Fatal(err)
		}
		if len(pub)+1 != len(asg.Input) {
			t.Errorf("%d public inputs, synthesis allocated %d (with ONE)", len(pub), len(asg.Input))
		} else {
			for i := range pub {
				if !pub[i].Equal(&asg.Input[i+1]) {
					t.Errorf("input %d: synthesized %s, PublicInputs %s", i+1, asg.Input[i+1].String(), pub[i].String())
				}
			}
		}
	}
	goldentest.Compare(t, "", checks)
}
