// SPDX-License-Identifier: Apache-2.0 OR MIT

package post

// Reference-vector safety net: testdata/post-* were made by rust-fil-proofs
// 19.1.0 / bellperson 0.27.0 (testdata/README.md). For every partition
// meta.json lists, NewCircuit + synthesis must give the same counts, the
// same four digests (cuseal-r1cs-v1, -witness-v1, -abc-v1, -density-v1),
// the same density popcounts and the verifier's public inputs.

import (
	"context"
	"encoding/hex"
	"testing"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/testsupport/goldentest"
)

// goldenCircuit builds partition k's circuit of a golden folder from its
// vanilla proofs, and the verifier's public inputs.
func goldenCircuit(t testing.TB, g golden, k int) (*Circuit, *Config, *refMeta) {
	t.Helper()
	m, cfg, vps := loadGolden(t, g)
	slots, err := ProverSlots(cfg, hex32(t, "randomness", m.Randomness), vps, k)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCircuit(cfg, slots)
	if err != nil {
		t.Fatal(err)
	}
	return c, cfg, m
}

// TestReferenceVectorsSynthesis: the R1CS (Recorder), the ProvingAssignment
// (sequential, pre-sized by SizeHintFor or not, and per-sector parallel)
// and the blank circuit's R1CS against rust-fil-proofs. A few seconds.
func TestReferenceVectorsSynthesis(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.folder, func(t *testing.T) {
			m := loadMeta(t, g.folder)
			for _, want := range m.Partition {
				c, cfg, _ := goldenCircuit(t, g, want.K)
				wc := &goldentest.Case{
					NumInputs: want.NumInputs, NumAux: want.NumAux, NumConstraints: want.NumConstraints,
					AAuxPop: want.Popcounts.AAux, BInputPop: want.Popcounts.BInput, BAuxPop: want.Popcounts.BAux,
					R1CS: want.R1CS, Witness: want.Witness, ABC: want.ABC, Density: want.Density,
				}
				rec := cs.NewRecorder()
				if err := c.Synthesize(context.Background(), rec); err != nil {
					t.Fatal(err)
				}
				r1cs := rec.R1CS()
				goldentest.Compare(t, "recorder", goldentest.ShapeChecks(r1cs, r1cs.Digest(), wc))

				// The blank circuit has the same R1CS (the parameters' shape).
				brec := cs.NewRecorder()
				if err := BlankCircuit(cfg).Synthesize(context.Background(), brec); err != nil {
					t.Fatal(err)
				}
				br := brec.R1CS()
				goldentest.Compare(t, "blank recorder", goldentest.ShapeChecks(br, br.Digest(), wc))

				hint, err := SizeHintFor(cfg)
				if err != nil {
					t.Fatal(err)
				}
				if hint.Inputs != want.NumInputs || hint.Aux != want.NumAux || hint.Constraints+hint.Inputs != want.NumConstraints {
					t.Errorf("SizeHintFor %+v, rust-fil-proofs %d inputs %d aux %d constraints (prover view)", hint, want.NumInputs, want.NumAux, want.NumConstraints)
				}
				per, err := SectorSizeHint(cfg)
				if err != nil {
					t.Fatal(err)
				}
				for _, path := range []struct {
					name string
					hint cs.SizeHint
					run  func(*cs.ProvingAssignment) error
				}{
					{"sequential", cs.SizeHint{}, func(pa *cs.ProvingAssignment) error { return c.Synthesize(context.Background(), pa) }},
					{"sequential with hint", hint, func(pa *cs.ProvingAssignment) error { return c.Synthesize(context.Background(), pa) }},
					// One worker per sector, whatever GOMAXPROCS: the
					// segments interleave even on one core.
					{"parallel", hint, func(pa *cs.ProvingAssignment) error {
						return c.SynthesizeParallel(context.Background(), pa, per, len(c.Sectors))
					}},
					// More workers than sectors: each sector's challenges
					// in parallel (the WindowPoSt folder; WinningPoSt's slots
					// hold one challenge each and keep the per-slot path).
					{"parallel challenges", hint, func(pa *cs.ProvingAssignment) error {
						return c.SynthesizeParallel(context.Background(), pa, per, len(c.Sectors)+1)
					}},
				} {
					pa := cs.NewProvingAssignment(path.hint)
					if err := path.run(pa); err != nil {
						t.Fatalf("%s: %v", path.name, err)
					}
					a := pa.Assignment()
					wd, ad := a.WitnessDigest(), a.ABCDigest()
					checks := append([]goldentest.Check{
						{What: "num_inputs", Got: len(a.Input), Want: want.NumInputs},
						{What: "num_aux", Got: len(a.Aux), Want: want.NumAux},
						{What: "num_constraints", Got: len(a.A), Want: want.NumConstraints},
						{What: "witness_digest", Got: hex.EncodeToString(wd[:]), Want: want.Witness},
						{What: "abc_digest", Got: hex.EncodeToString(ad[:]), Want: want.ABC},
					}, goldentest.DensityChecks(a, wc)...)
					goldentest.Compare(t, path.name, checks)
					for i, s := range want.PublicInputs {
						b := a.Input[i+1].Bytes()
						for l, r := 0, len(b)-1; l < r; l, r = l+1, r-1 {
							b[l], b[r] = b[r], b[l]
						}
						if got := hex.EncodeToString(b[:]); got != s {
							t.Errorf("%s: synthesized input %d = %s, rust-fil-proofs %s", path.name, i+1, got, s)
						}
					}
				}
			}
		})
	}
}
