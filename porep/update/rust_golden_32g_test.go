// SPDX-License-Identifier: Apache-2.0 OR MIT

package update_test

// 32 GiB reference: testdata/rust_golden_32g.json was written by
// cuseal-refproofs (porep/stacked/testdata/refcircuit, rust-fil-proofs
// 19.1.0's EmptySectorUpdateCompound) from porep/synthetic.Update's
// partition proof (scripts/refproofs-update-32g.sh, testdata/README.md).
// The test regenerates the same synthetic sector, builds the partition
// circuit and compares counts, the four digests, the density popcounts and
// the public inputs.

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"flag"
	"runtime"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/synthetic"
	"github.com/cuseal/cuseal/porep/update"
	"github.com/cuseal/cuseal/testsupport/goldentest"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// r1csOnly limits the huge part (one 32 GiB update partition: 81M
// constraints, ~10 GB and minutes) to what needs no ProvingAssignment: the
// counts and the streamed R1CS.
var r1csOnly = flag.Bool("golden.r1cs", false, "huge tier: check the 32 GiB partition's counts and streamed R1CS only (no ProvingAssignment, ~10 GB less)")

// golden32Params is the generator input of the case (params in the JSON).
type golden32Params struct {
	Proof     int64  `json:"registered_update_proof"`
	Seed      uint64 `json:"seed"`
	Partition int    `json:"partition"`
	CommROld  string `json:"comm_r_old"`
	CommDNew  string `json:"comm_d_new"`
	CommRNew  string `json:"comm_r_new"`
}

// golden32Outputs: the public inputs (ONE excluded, canonical LE hex) and
// the SHA-256 of their concatenation.
type golden32Outputs struct {
	PublicInputs       []string `json:"public_inputs"`
	PublicInputsSHA256 string   `json:"public_inputs_sha256"`
}

func TestRustGolden32GiB(t *testing.T) {
	mode := ""
	if testenv.Enabled(testenv.TierHuge) {
		mode = "1"
		if *r1csOnly {
			mode = "r1cs"
		}
	}
	for _, c := range goldentest.Load(t, "testdata/rust_golden_32g.json") {
		t.Run(c.Name, func(t *testing.T) {
			var p golden32Params
			var o golden32Outputs
			if err := json.Unmarshal(c.Params, &p); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(c.Outputs, &o); err != nil {
				t.Fatal(err)
			}
			checkGolden32(t, &c, &p, &o, mode)
		})
	}
}

// checkGolden32 always checks the regenerated commitments, the partition
// proof and the public inputs; mode "r1cs" adds SizeHintFor's counts and
// the streamed R1CS, "1" those and the ProvingAssignment.
func checkGolden32(t *testing.T, want *goldentest.Case, p *golden32Params, o *golden32Outputs, mode string) {
	ctx := context.Background()
	set, err := synthetic.Update(abi.RegisteredUpdateProof(p.Proof), synthetic.UpdateOptions{Seed: p.Seed})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []struct {
		name string
		got  stacked.Domain
		want string
	}{{"comm_r_old", set.CommROld, p.CommROld}, {"comm_d_new", set.CommDNew, p.CommDNew}, {"comm_r_new", set.CommRNew, p.CommRNew}} {
		if hex.EncodeToString(x.got[:]) != x.want {
			t.Fatalf("synthetic %s %x, the reference was made with %s: the generator changed", x.name, x.got[:], x.want)
		}
	}
	cfg := &set.Config
	pp, err := set.PartitionProof(p.Partition)
	if err != nil {
		t.Fatal(err)
	}
	var rOld, dNew, rNew fr.Element
	for _, x := range []struct {
		d   stacked.Domain
		out *fr.Element
	}{{set.CommROld, &rOld}, {set.CommDNew, &dNew}, {set.CommRNew, &rNew}} {
		*x.out, _ = stacked.FrFromBytes((*[32]byte)(&x.d))
	}
	if err := update.CheckPartitionProof(cfg, p.Partition, &rOld, &dNew, &rNew, pp); err != nil {
		t.Fatal(err)
	}
	in, err := update.PublicInputs(cfg, p.Partition, &rOld, &dNew, &rNew)
	if err != nil {
		t.Fatal(err)
	}
	checkPublicInputs(t, "update.PublicInputs", in, o)
	if mode != "1" && mode != "r1cs" {
		t.Skip("huge tier: the synthesis of a 32 GiB update partition (81M constraints, ~10 GB, minutes; -golden.r1cs: counts and R1CS only)")
	}
	hint, err := update.SizeHintFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	goldentest.Compare(t, "counts", []goldentest.Check{
		{What: "num_inputs", Got: hint.Inputs, Want: want.NumInputs},
		{What: "num_aux", Got: hint.Aux, Want: want.NumAux},
		{What: "num_constraints", Got: hint.Constraints + hint.Inputs, Want: want.NumConstraints},
	})
	circ, err := update.NewCircuit(cfg, p.Partition, &rOld, &dNew, &rNew, pp)
	if err != nil {
		t.Fatal(err)
	}
	rs := cs.NewR1CSStream(hint.Inputs, hint.Aux, hint.Constraints+hint.Inputs)
	start := time.Now()
	if err := circ.Synthesize(ctx, rs); err != nil {
		t.Fatal(err)
	}
	rd, err := rs.Digest()
	if err != nil {
		t.Fatalf("%v (SizeHintFor %+v)", err, hint)
	}
	goldentest.Compare(t, "r1cs", []goldentest.Check{{What: "r1cs_digest", Got: hex.EncodeToString(rd[:]), Want: want.R1CS}})
	t.Logf("R1CS streamed in %v", time.Since(start))
	if mode == "r1cs" {
		return
	}

	// The prover's path: per-challenge parallel synthesis.
	pa := cs.NewProvingAssignment(hint)
	start = time.Now()
	if err := circ.SynthesizeParallel(ctx, pa, runtime.GOMAXPROCS(0)); err != nil {
		t.Fatal(err)
	}
	t.Logf("synthesized %d constraints in %v (SynthesizeParallel, %d workers)", pa.NumConstraints()+pa.NumInputs(), time.Since(start), runtime.GOMAXPROCS(0))
	a := pa.Assignment()
	goldentest.Compare(t, "proving assignment", goldentest.AssignmentChecks(a, want))
	checkPublicInputs(t, "synthesized", a.Input[1:], o)
}

// checkPublicInputs compares in (ONE excluded) with the reference's list
// and its SHA-256.
func checkPublicInputs(t *testing.T, what string, in []fr.Element, o *golden32Outputs) {
	t.Helper()
	got, sum := goldentest.InputsHex(in)
	if len(got) != len(o.PublicInputs) {
		t.Fatalf("%s: %d public inputs, rust-fil-proofs %d", what, len(got), len(o.PublicInputs))
	}
	for i := range got {
		if got[i] != o.PublicInputs[i] {
			t.Errorf("%s: public input %d = %s, rust-fil-proofs %s", what, i+1, got[i], o.PublicInputs[i])
		}
	}
	if sum != o.PublicInputsSHA256 {
		t.Errorf("%s: public inputs SHA-256 %s, rust-fil-proofs %s", what, sum, o.PublicInputsSHA256)
	}
}
