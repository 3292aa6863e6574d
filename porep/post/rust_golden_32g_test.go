// SPDX-License-Identifier: Apache-2.0 OR MIT

package post_test

// 32 GiB reference: testdata/rust_golden_32g.json was written by
// cuseal-refproofs (porep/stacked/testdata/refcircuit, rust-fil-proofs
// 19.1.0's FallbackPoStCompound) from porep/synthetic's vanilla proofs
// (testdata/README.md). The test regenerates the same vanilla proofs, builds
// the partition circuit and compares counts, the four digests, the density
// popcounts and the public inputs.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"runtime"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/synthetic"
	"github.com/cuseal/cuseal/testsupport/goldentest"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// r1csOnly limits the huge cases (a full 32 GiB WindowPoSt partition: 125M
// constraints, ~17 GB and minutes) to what needs no ProvingAssignment: the
// streamed R1CS and the public inputs (~0.3 GB).
var r1csOnly = flag.Bool("golden.r1cs", false, "huge tier: check the full 32 GiB partition's R1CS and public inputs only (0.3 GB instead of ~17 GB)")

// golden32Params is the generator input of a case (params in the JSON).
type golden32Params struct {
	Proof      int64  `json:"registered_post_proof"`
	Seed       uint64 `json:"seed"`
	Sectors    int    `json:"sectors"`
	Miner      uint64 `json:"miner"`
	Partition  int    `json:"partition"`
	Randomness string `json:"randomness"`
	// CutSectors > 0: a window partition cut to its first CutSectors
	// sectors (cuseal-refproofs --sectors-per-partition): the 32 GiB
	// sector circuit at a size the default test run affords.
	CutSectors int `json:"cut_sectors"`
}

// golden32Outputs: the public inputs (ONE excluded, canonical LE hex) or,
// for the window partition's 25,839, the SHA-256 of their concatenation.
type golden32Outputs struct {
	Large              bool     `json:"large"`
	PublicInputs       []string `json:"public_inputs"`
	PublicInputsSHA256 string   `json:"public_inputs_sha256"`
}

// golden32Case decodes a case's params and outputs.
func golden32Case(tb testing.TB, c *goldentest.Case) (p golden32Params, o golden32Outputs) {
	tb.Helper()
	if err := json.Unmarshal(c.Params, &p); err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(c.Outputs, &o); err != nil {
		tb.Fatal(err)
	}
	return p, o
}

func TestRustGolden32GiB(t *testing.T) {
	for _, c := range goldentest.Load(t, "testdata/rust_golden_32g.json") {
		t.Run(c.Name, func(t *testing.T) {
			p, o := golden32Case(t, &c)
			if o.Large {
				testenv.Huge(t, "a full 32 GiB WindowPoSt partition: 125M constraints, ~17 GB (-golden.r1cs: 0.3 GB), minutes")
			}
			checkGolden32(t, &c, &p, &o, o.Large && *r1csOnly)
		})
	}
}

// golden32Circuit regenerates a case's synthetic vanilla proofs and builds
// its partition circuit; sectors > 0 cuts a window partition down to its
// first sectors slots (a benchmark of the same work per sector).
func golden32Circuit(tb testing.TB, p *golden32Params, sectors int) (*post.Circuit, *post.Config, []post.Slot) {
	tb.Helper()
	set, err := synthetic.PoSt(abi.RegisteredPoStProof(p.Proof), synthetic.PoStOptions{Sectors: p.Sectors, Seed: p.Seed, Miner: abi.ActorID(p.Miner)})
	if err != nil {
		tb.Fatal(err)
	}
	if got := hex.EncodeToString(set.Randomness); got != p.Randomness {
		tb.Fatalf("synthetic randomness %s, the reference was made with %s: the generator changed", got, p.Randomness)
	}
	cfg := set.Config
	vanilla := set.Vanilla
	if sectors > len(vanilla) {
		tb.Fatalf("a cut to %d sectors of %d vanilla proofs", sectors, len(vanilla))
	}
	if sectors > 0 && cfg.Kind == post.Window && sectors < cfg.SectorCount {
		cfg.SectorCount, cfg.Slots = sectors, sectors
		vanilla = vanilla[:sectors]
	}
	vps := make([]*post.VanillaProof, len(vanilla))
	for i, b := range vanilla {
		if vps[i], err = post.ParseVanillaProof(b, &cfg); err != nil {
			tb.Fatal(err)
		}
	}
	slots, err := post.ProverSlots(&cfg, [32]byte(set.Randomness), vps, p.Partition)
	if err != nil {
		tb.Fatal(err)
	}
	circ, err := post.NewCircuit(&cfg, slots)
	if err != nil {
		tb.Fatal(err)
	}
	return circ, &cfg, slots
}

func checkGolden32(t *testing.T, want *goldentest.Case, p *golden32Params, o *golden32Outputs, r1csOnly bool) {
	ctx := context.Background()
	circ, cfg, slots := golden32Circuit(t, p, p.CutSectors)
	in, err := post.PublicInputs(slots)
	if err != nil {
		t.Fatal(err)
	}
	checkPublicInputs(t, "post.PublicInputs", in, o)
	hint, err := post.SizeHintFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The R1CS streamed: a full window partition has 125M rows.
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
	if r1csOnly {
		goldentest.Compare(t, "counts", []goldentest.Check{
			{What: "num_inputs", Got: hint.Inputs, Want: want.NumInputs},
			{What: "num_aux", Got: hint.Aux, Want: want.NumAux},
			{What: "num_constraints", Got: hint.Constraints + hint.Inputs, Want: want.NumConstraints},
		})
		return
	}

	// The prover's path: per-sector parallel synthesis.
	per, err := post.SectorSizeHint(cfg)
	if err != nil {
		t.Fatal(err)
	}
	pa := cs.NewProvingAssignment(hint)
	start = time.Now()
	if err := circ.SynthesizeParallel(ctx, pa, per, runtime.GOMAXPROCS(0)); err != nil {
		t.Fatal(err)
	}
	t.Logf("synthesized %d constraints in %v (SynthesizeParallel, %d workers)", pa.NumConstraints()+pa.NumInputs(), time.Since(start), runtime.GOMAXPROCS(0))
	a := pa.Assignment()
	wd, ad := a.WitnessDigest(), a.ABCDigest()
	checks := append([]goldentest.Check{
		{What: "num_inputs", Got: len(a.Input), Want: want.NumInputs},
		{What: "num_aux", Got: len(a.Aux), Want: want.NumAux},
		{What: "num_constraints", Got: len(a.A), Want: want.NumConstraints},
		{What: "witness_digest", Got: hex.EncodeToString(wd[:]), Want: want.Witness},
		{What: "abc_digest", Got: hex.EncodeToString(ad[:]), Want: want.ABC},
	}, goldentest.DensityChecks(a, want)...)
	goldentest.Compare(t, "proving assignment", checks)

	checkPublicInputs(t, "synthesized", a.Input[1:], o)
}

// checkPublicInputs compares in (ONE excluded) with the reference's list or
// its SHA-256.
func checkPublicInputs(t *testing.T, what string, in []fr.Element, o *golden32Outputs) {
	t.Helper()
	h := sha256.New()
	got := make([]string, 0, len(in))
	for i := range in {
		b := stacked.FrToBytes(&in[i])
		h.Write(b[:])
		got = append(got, hex.EncodeToString(b[:]))
	}
	if o.PublicInputsSHA256 != "" {
		if s := hex.EncodeToString(h.Sum(nil)); s != o.PublicInputsSHA256 {
			t.Errorf("%s: public inputs SHA-256 %s, rust-fil-proofs %s", what, s, o.PublicInputsSHA256)
		}
	}
	if o.PublicInputs != nil {
		if len(got) != len(o.PublicInputs) {
			t.Fatalf("%s: %d public inputs, rust-fil-proofs %d", what, len(got), len(o.PublicInputs))
		}
		for i := range got {
			if got[i] != o.PublicInputs[i] {
				t.Errorf("%s: public input %d = %s, rust-fil-proofs %s", what, i+1, got[i], o.PublicInputs[i])
			}
		}
	}
}
