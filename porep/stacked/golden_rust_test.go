package stacked_test

// Bit-compatibility of the whole partition circuit with rust-fil-proofs:
// testdata/rust_golden.json was written by testdata/refcircuit, which
// deserializes the C1 fixtures with storage-proofs-porep 19.1.0's own
// vanilla Proof type (serde_json), builds the circuit with
// StackedCompound::circuit (partition 0, as C2 does), synthesizes it into a
// recording constraint system that behaves like bellperson 0.27.0's prover,
// checks the inputs against StackedCompound::generate_public_inputs and prints
// the digests of shared docs/digests.md §1–§4. cuseal's NewCircuit +
// Synthesize must give the same R1CS (constraint for constraint, merged
// coefficients), witness, a/b/c evaluations and densities.

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/stacked"
)

type rustCase struct {
	Name           string `json:"name"`
	NumInputs      int    `json:"num_inputs"`
	NumAux         int    `json:"num_aux"`
	NumConstraints int    `json:"num_constraints"`
	AAuxPop        int    `json:"a_aux_popcount"`
	BInputPop      int    `json:"b_input_popcount"`
	BAuxPop        int    `json:"b_aux_popcount"`
	R1CS           string `json:"r1cs_digest"`
	Witness        string `json:"witness_digest"`
	ABC            string `json:"abc_digest"`
	Density        string `json:"density_digest"`
	Params         struct {
		C1              string `json:"c1"`
		RegisteredProof string `json:"registered_proof"`
		Partition       int    `json:"partition"`
		Nodes           int    `json:"nodes"`
		Challenges      int    `json:"challenges"`
		PoRepID         string `json:"porep_id"`
	} `json:"params"`
}

func TestRustGoldenStackedCircuit(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "rust_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Cases []rustCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatalf("testdata/rust_golden.json: %v", err)
	}
	cfg882, err := stacked.NewTestConfig(32<<10, stacked.Shape882, [32]byte{44}, stacked.APIVersion1_1_0)
	if err != nil {
		t.Fatal(err)
	}
	configs := map[string]*stacked.SectorConfig{"stacked_32KiB_test_8_8_2": &cfg882}
	names := []string{"stacked_2KiB_V1_1", "stacked_32KiB_test_8_8_2"}
	if len(g.Cases) != len(names) {
		t.Fatalf("golden file has %d cases, want %d", len(g.Cases), len(names))
	}
	for i, want := range g.Cases {
		if want.Name != names[i] {
			t.Fatalf("golden case %d is %q, want %q", i, want.Name, names[i])
		}
		t.Run(want.Name, func(t *testing.T) {
			if testing.Short() && want.Name != "stacked_2KiB_V1_1" {
				t.Skip("skipped with -short")
			}
			c1raw, err := os.ReadFile(filepath.Join("testdata", want.Params.C1))
			if err != nil {
				t.Fatal(err)
			}
			var c1 *stacked.C1Output
			var cfg stacked.SectorConfig
			if c, ok := configs[want.Name]; ok {
				cfg = *c
				c1, err = stacked.ParseC1ForConfig(c1raw, &cfg)
			} else {
				c1, cfg, err = stacked.ParseC1(c1raw)
			}
			if err != nil {
				t.Fatal(err)
			}
			// The Rust tool's setup parameters must be this configuration's.
			if cfg.Name != want.Params.RegisteredProof || int(cfg.Nodes) != want.Params.Nodes ||
				cfg.ChallengesPerPartition != want.Params.Challenges || hex.EncodeToString(cfg.PoRepID[:]) != want.Params.PoRepID {
				t.Fatalf("config %s/%d nodes/%d challenges/%x differs from the Rust case %+v",
					cfg.Name, cfg.Nodes, cfg.ChallengesPerPartition, cfg.PoRepID, want.Params)
			}
			circ, err := stacked.NewCircuit(c1, &cfg, want.Params.Partition)
			if err != nil {
				t.Fatal(err)
			}
			rec := cs.NewRecorder()
			if err := circ.Synthesize(rec); err != nil {
				t.Fatal(err)
			}
			r1cs := rec.R1CS()
			rd := rec.Digest()
			rec = nil
			pa := cs.NewProvingAssignment(cs.SizeHint{})
			if err := circ.Synthesize(pa); err != nil {
				t.Fatal(err)
			}
			asg := pa.Assignment()
			wd, ad, dd := asg.WitnessDigest(), asg.ABCDigest(), asg.DensityDigest()
			bad := false
			for _, c := range []struct {
				what      string
				got, want any
			}{
				{"num_inputs", r1cs.NumInputs, want.NumInputs},
				{"num_aux", r1cs.NumAux, want.NumAux},
				{"num_constraints", r1cs.NumConstraints(), want.NumConstraints},
				{"prover num_constraints", len(asg.A), want.NumConstraints},
				{"a_aux popcount", asg.ADensityAux.PopCount(), want.AAuxPop},
				{"b_input popcount", asg.BDensityInput.PopCount(), want.BInputPop},
				{"b_aux popcount", asg.BDensityAux.PopCount(), want.BAuxPop},
				{"r1cs_digest", hex.EncodeToString(rd[:]), want.R1CS},
				{"witness_digest", hex.EncodeToString(wd[:]), want.Witness},
				{"abc_digest", hex.EncodeToString(ad[:]), want.ABC},
				{"density_digest", hex.EncodeToString(dd[:]), want.Density},
			} {
				if c.got != c.want {
					t.Errorf("%s = %v, Rust %v", c.what, c.got, c.want)
					bad = true
				}
			}
			// The Rust tool checked its inputs against generate_public_inputs;
			// ours must equal PublicInputs too (the witness digest covers the
			// values, this names the culprit if it differs).
			pub, err := c1.PublicInputs(&cfg, nil, want.Params.Partition)
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
			if dir := os.Getenv("CUSEAL_GOLDEN_DUMP"); bad && dir != "" {
				p := filepath.Join(dir, want.Name+".go.txt")
				if err := dumpR1CS(p, r1cs); err != nil {
					t.Log(err)
				} else {
					t.Logf("constraints written to %s (compare `cut -f1,3` with refcircuit --dump)", p)
				}
			}
		})
	}
}

// dumpR1CS writes one line per constraint in refcircuit's --dump format
// without the namespace column: "n\t\tA: i0*hex a3*hex B: … C: …".
func dumpR1CS(path string, r *cs.R1CS) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for row := 0; row < r.NumConstraints(); row++ {
		fmt.Fprintf(w, "%d\t\t", row)
		for mi, m := range []*cs.Matrix{&r.A, &r.B, &r.C} {
			if mi > 0 {
				w.WriteByte(' ')
			}
			w.WriteString([]string{"A:", "B:", "C:"}[mi])
			vars, coeffs := m.Row(row)
			for k, v := range vars {
				kind := "i"
				if v.IsAux() {
					kind = "a"
				}
				var b [32]byte
				fr.LittleEndian.PutElement(&b, coeffs[k])
				fmt.Fprintf(w, " %s%d*%s", kind, v.Index(), hex.EncodeToString(b[:]))
			}
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
