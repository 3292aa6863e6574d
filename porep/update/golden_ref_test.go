// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

// Reference-vector safety net: testdata/update-2KiB-s31 was made by
// rust-fil-proofs 19.1.0 / bellperson 0.27.0 (testdata/README.md). For its
// partition, NewCircuit + synthesis must give the same counts, the same four
// digests (cuseal-r1cs-v1, -witness-v1, -abc-v1, -density-v1), the same
// density popcounts and the verifier's public inputs.

import (
	"context"
	"testing"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/testsupport/goldentest"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// refCircuit builds partition k's circuit of the reference vector from its
// partition proof.
func refCircuit(t testing.TB, k int) (*Circuit, *Config, *refMeta) {
	t.Helper()
	m, cfg, data := loadRef(t)
	p, err := ParsePartitionProof(data, cfg)
	if err != nil {
		t.Fatal(err)
	}
	commROld, commDNew, commRNew := hexFr(t, "comm_r_old", m.CommROld), hexFr(t, "comm_d_new", m.CommDNew), hexFr(t, "comm_r_new", m.CommRNew)
	c, err := NewCircuit(cfg, k, &commROld, &commDNew, &commRNew, p)
	if err != nil {
		t.Fatal(err)
	}
	return c, cfg, m
}

// TestReferenceVectorSynthesis: the R1CS (Recorder), the ProvingAssignment
// pre-sized by SizeHintFor (sequential; in the long tier also per-challenge
// parallel) and (long tier) the blank circuit's R1CS against
// rust-fil-proofs. About 10 s (unit tier) or 20 s.
func TestReferenceVectorSynthesis(t *testing.T) {
	_, _, m := refCircuit(t, 0)
	for _, want := range m.Partition {
		c, cfg, _ := refCircuit(t, want.K)
		wc := &goldentest.Case{
			NumInputs: want.NumInputs, NumAux: want.NumAux, NumConstraints: want.NumConstraints,
			AAuxPop: want.Popcounts.AAux, BInputPop: want.Popcounts.BInput, BAuxPop: want.Popcounts.BAux,
			R1CS: want.R1CS, Witness: want.Witness, ABC: want.ABC, Density: want.Density,
		}
		hint, err := SizeHintFor(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if hint.Inputs != want.NumInputs || hint.Aux != want.NumAux || hint.Constraints+hint.Inputs != want.NumConstraints {
			t.Errorf("SizeHintFor %+v, rust-fil-proofs %d inputs %d aux %d constraints (prover view)", hint, want.NumInputs, want.NumAux, want.NumConstraints)
		}

		for _, path := range []struct {
			name string
			run  func(*cs.ProvingAssignment) error
		}{
			{"sequential", func(pa *cs.ProvingAssignment) error { return c.Synthesize(context.Background(), pa) }},
			// One worker per challenge, whatever GOMAXPROCS: the segments
			// interleave even on one core.
			{"parallel", func(pa *cs.ProvingAssignment) error {
				return c.SynthesizeParallel(context.Background(), pa, len(c.Challenges))
			}},
		} {
			if path.name == "parallel" && !testenv.Enabled(testenv.TierLong) {
				continue
			}
			pa := cs.NewProvingAssignment(hint)
			if err := path.run(pa); err != nil {
				t.Fatalf("%s: %v", path.name, err)
			}
			a := pa.Assignment()
			checks := []goldentest.Check{
				{What: "num_inputs", Got: len(a.Input), Want: want.NumInputs},
				{What: "num_aux", Got: len(a.Aux), Want: want.NumAux},
				{What: "num_constraints", Got: len(a.A), Want: want.NumConstraints},
			}
			checks = append(append(checks, goldentest.WitnessChecks(a, wc)...), goldentest.DensityChecks(a, wc)...)
			goldentest.Compare(t, path.name, checks)
			for i, s := range want.PublicInputs {
				if got := frHex(&a.Input[i+1]); got != s {
					t.Errorf("%s: synthesized input %d = %s, rust-fil-proofs %s", path.name, i+1, got, s)
				}
			}
		}

		rec := cs.NewRecorder()
		if err := c.Synthesize(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
		r1cs := rec.R1CS()
		goldentest.Compare(t, "recorder", goldentest.ShapeChecks(r1cs, r1cs.Digest(), wc))
		if !testenv.Enabled(testenv.TierLong) {
			continue
		}
		// The blank circuit has the same R1CS (the parameters' shape).
		brec := cs.NewRecorder()
		if err := BlankCircuit(cfg).Synthesize(context.Background(), brec); err != nil {
			t.Fatal(err)
		}
		br := brec.R1CS()
		goldentest.Compare(t, "blank recorder", goldentest.ShapeChecks(br, br.Digest(), wc))
	}
}
