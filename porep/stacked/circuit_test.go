// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"context"
	"errors"
	"math/rand"
	"runtime"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/gadget"
	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/testsupport/testcs"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

func circRandFr(rng *rand.Rand) fr.Element {
	var b [32]byte
	rng.Read(b[:])
	TrimFr32(&b)
	e, err := FrFromBytes(&b)
	if err != nil {
		panic(err)
	}
	return e
}

func circRandDomain(rng *rand.Rand) [32]byte {
	e := circRandFr(rng)
	return FrToBytes(&e)
}

// synthPath returns a path of the given arities proving leaf index idx,
// with random siblings: a witness of the right shape and public inputs that
// does not satisfy the circuit (for counting and input checks only).
func synthPath(rng *rand.Rand, arities []int, idx uint64) []gadget.PathLevel {
	out := make([]gadget.PathLevel, len(arities))
	for i, a := range arities {
		sib := make([]fr.Element, a-1)
		for j := range sib {
			sib[j] = circRandFr(rng)
		}
		out[i] = gadget.PathLevel{Arity: a, Index: int(idx % uint64(a)), Siblings: sib}
		idx /= uint64(a)
	}
	return out
}

// synthCircuit builds partition k's circuit for cfg with random values but
// the challenges and parent indices that cfg's challenge derivation and
// graph give, as a sealed sector's vanilla proofs would carry them.
func synthCircuit(t testing.TB, cfg *SectorConfig, g *Graph, replicaID, commD, commR, seed [32]byte, k int, rng *rand.Rand) *Circuit {
	t.Helper()
	chs, err := PartitionChallenges(cfg, replicaID, commR, seed, k)
	if err != nil {
		t.Fatal(err)
	}
	c := &Circuit{Layers: cfg.Layers, Shape: cfg.Shape, Proofs: make([]ChallengeCircuit, len(chs))}
	for _, v := range []struct {
		d   [32]byte
		dst *fr.Element
	}{{replicaID, &c.ReplicaID}, {commD, &c.CommD}, {commR, &c.CommR}} {
		if *v.dst, err = FrFromBytes(&v.d); err != nil {
			t.Fatal(err)
		}
	}
	c.CommRLast, c.CommC = circRandFr(rng), circRandFr(rng)
	tree, bin := treePathShape(cfg), binaryPathShape(cfg)
	var par [Degree]uint32
	for i, ch := range chs {
		p := &c.Proofs[i]
		p.Challenge = ch
		p.DataLeaf = circRandFr(rng)
		p.CommDPath = synthPath(rng, bin, ch)
		p.CommRLastPath = synthPath(rng, tree, ch)
		p.CommCPath = synthPath(rng, tree, ch)
		g.Parents(uint32(ch), &par)
		cols := make([]ColumnCircuit, Degree)
		for j := range cols {
			rows := make([]fr.Element, cfg.Layers)
			for r := range rows {
				rows[r] = circRandFr(rng)
			}
			cols[j] = ColumnCircuit{Rows: rows, Path: synthPath(rng, tree, uint64(par[j]))}
		}
		p.DRGParents, p.ExpParents = cols[:BaseDegree], cols[BaseDegree:]
	}
	return c
}

// stackedTestConfig is the configuration of storage-proofs-porep
// tests/stacked_circuit.rs: nodes = 8·base_tree_count, 2 layers, one
// interactive challenge, porep_id [44; 32], ApiVersion V1_1_0.
func stackedTestConfig(shape TreeShape) SectorConfig {
	var porepID [32]byte
	for i := range porepID {
		porepID[i] = 44
	}
	nodes := uint64(8 * shape.BaseTrees())
	return SectorConfig{
		Name: "stacked_circuit.rs test", SectorSize: 32 * nodes, Nodes: nodes,
		Layers: 2, Partitions: 1, ChallengesPerPartition: 1, Shape: shape,
		PoRepID: porepID, APIVersion: APIVersion1_1_0, Challenges: ChallengesInteractive,
	}
}

// TestStackedCircuitGoldenShapes reproduces tests/stacked_circuit.rs
// (porep-circuit.md §4.1): 22 inputs and the golden constraint counts
// (without the prover's per-input rows) for base 2, base 8, 8-4 and 8-4-2
// trees, and generate_public_inputs (PublicInputs) equals the synthesized
// inputs after ONE.
func TestStackedCircuitGoldenShapes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		shape TreeShape
		want  int
	}{
		{"poseidon_base_2", TreeShape{2, 0, 0}, 1_206_212},
		{"poseidon_base_8", TreeShape{8, 0, 0}, 1_199_620},
		{"poseidon_sub_8_4", TreeShape{8, 4, 0}, 1_296_576},
		{"poseidon_top_8_4_2", TreeShape{8, 4, 2}, 1_346_982},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := stackedTestConfig(tc.shape)
			g, err := GraphFor(&cfg)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewSource(int64(tc.want)))
			replicaID, commD, commR, seed := circRandDomain(rng), circRandDomain(rng), circRandDomain(rng), circRandDomain(rng)
			circ := synthCircuit(t, &cfg, g, replicaID, commD, commR, seed, 0, rng)
			sys := testcs.New()
			if err := circ.Synthesize(context.Background(), sys); err != nil {
				t.Fatal(err)
			}
			if sys.NumInputs() != 22 || sys.NumConstraints() != tc.want {
				t.Fatalf("(inputs, constraints) = (%d, %d), want (22, %d)", sys.NumInputs(), sys.NumConstraints(), tc.want)
			}
			want, err := PublicInputs(&cfg, g, replicaID, commD, commR, seed, 0)
			if err != nil {
				t.Fatal(err)
			}
			got := sys.Inputs()
			var one fr.Element
			one.SetOne()
			if !got[0].Equal(&one) {
				t.Fatal("input 0 is not ONE")
			}
			if len(got)-1 != len(want) {
				t.Fatalf("%d synthesized inputs, %d generated", len(got)-1, len(want))
			}
			for i := range want {
				if !got[i+1].Equal(&want[i]) {
					t.Fatalf("input %d: synthesized %s, generated %s", i+1, got[i+1].String(), want[i].String())
				}
			}
		})
	}
}

// TestBlankCircuitShape checks that the blank circuit of a shape has the
// same R1CS as a witnessed one (parameter generation relies on it).
func TestBlankCircuitShape(t *testing.T) {
	cfg := stackedTestConfig(TreeShape{8, 4, 2})
	g, err := GraphFor(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(9))
	d := circRandDomain(rng)
	rec1, rec2 := cs.NewRecorder(), cs.NewRecorder()
	if err := synthCircuit(t, &cfg, g, d, d, d, d, 0, rng).Synthesize(context.Background(), rec1); err != nil {
		t.Fatal(err)
	}
	if err := BlankCircuit(&cfg).Synthesize(context.Background(), rec2); err != nil {
		t.Fatal(err)
	}
	if rec1.Digest() != rec2.Digest() {
		t.Fatal("blank circuit's R1CS differs from a witnessed circuit's")
	}
}

// TestCircuitValidate checks structural validation before synthesis.
func TestCircuitValidate(t *testing.T) {
	cfg := stackedTestConfig(TreeShape{8, 4, 0})
	for name, mutate := range map[string]func(c *Circuit){
		"layers":        func(c *Circuit) { c.Layers = 3 },
		"no challenges": func(c *Circuit) { c.Proofs = nil },
		"drg parents":   func(c *Circuit) { c.Proofs[0].DRGParents = c.Proofs[0].DRGParents[:5] },
		"column rows":   func(c *Circuit) { c.Proofs[0].ExpParents[3].Rows = c.Proofs[0].ExpParents[3].Rows[:1] },
		"sub arity":     func(c *Circuit) { c.Proofs[0].CommCPath[1].Arity = 8 },
		"comm_d arity":  func(c *Circuit) { c.Proofs[0].CommDPath[0].Arity = 4 },
		"path length":   func(c *Circuit) { c.Proofs[0].CommRLastPath = c.Proofs[0].CommRLastPath[:1] },
	} {
		c := BlankCircuit(&cfg)
		mutate(c)
		sys := cs.NewCounter()
		if err := c.Synthesize(context.Background(), sys); err == nil {
			t.Errorf("%s: accepted", name)
		} else if sys.Aux != 0 || sys.Constraints != 0 {
			t.Errorf("%s: rejected after synthesizing %d constraints", name, sys.Constraints)
		}
	}
}

// Per-challenge and top-level costs of the real 32 GiB circuit
// (porep-circuit.md §4.6): 571 constraints / 571 aux / 3 inputs at the top,
// 7,237,665 constraints and 18 inputs per challenge; per-challenge aux
// (130,169,893 − 571)/18 = 7,231,629.
const (
	topConstraints32G       = 571
	topAux32G               = 571
	challengeConstraints32G = 7_237_665
	challengeAux32G         = 7_231_629
)

func config32G(t testing.TB) SectorConfig {
	cfg, err := ConfigFor(abi.RegisteredSealProof_StackedDrg32GiBV1_1)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestStackedCircuit32GiBOneChallenge synthesizes the 32 GiB circuit shape
// with one challenge into a Counter: 571 + 7,237,665 constraints, 22 inputs.
func TestStackedCircuit32GiBOneChallenge(t *testing.T) {
	cfg := config32G(t)
	g, err := GraphFor(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(32))
	d := circRandDomain(rng)
	c := synthCircuit(t, &cfg, g, d, d, d, d, 3, rng)
	c.Proofs = c.Proofs[:1]
	sys := cs.NewCounter()
	start := time.Now()
	if err := c.Synthesize(context.Background(), sys); err != nil {
		t.Fatal(err)
	}
	t.Logf("one 32 GiB challenge: %d constraints in %v", sys.Constraints, time.Since(start))
	if sys.Inputs != 22 || sys.Constraints != topConstraints32G+challengeConstraints32G || sys.Aux != topAux32G+challengeAux32G {
		t.Fatalf("(inputs, constraints, aux) = (%d, %d, %d), want (22, %d, %d)", sys.Inputs, sys.Constraints, sys.Aux,
			topConstraints32G+challengeConstraints32G, topAux32G+challengeAux32G)
	}
}

// TestStackedCircuit32GiBPartition synthesizes a full 32 GiB partition
// (18 challenges, synthetic values) into a Counter and checks every figure
// of porep-circuit.md §4.6 (curio cuzk's PCE extraction of the production
// circuit, per-input rows included). It synthesizes 130M constraints, so it
// is in the long tier.
func TestStackedCircuit32GiBPartition(t *testing.T) {
	testenv.Long(t, "130M-constraint synthesis")
	cfg := config32G(t)
	g, err := GraphFor(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(3232))
	d := circRandDomain(rng)
	c := synthCircuit(t, &cfg, g, d, d, d, d, 0, rng)
	sys := cs.NewCounter()
	start := time.Now()
	if err := c.Synthesize(context.Background(), sys); err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("32 GiB partition: %d constraints in %v (Go heap sys %d MiB)", sys.Constraints, time.Since(start), ms.Sys>>20)
	// The prover appends one row input_i · 0 = 0 per input: one A term each,
	// and B-input density stays as synthesized (zero B rows).
	n := sys.Inputs
	got := map[string]int{
		"num_inputs":               n,
		"num_aux":                  sys.Aux,
		"num_constraints":          sys.Constraints + n,
		"A nnz":                    sys.NonZeroA + n,
		"B nnz":                    sys.NonZeroB,
		"C nnz":                    sys.NonZeroC,
		"a_aux_density popcount":   sys.ADensityAux(),
		"b_input_density popcount": sys.BDensityInput(),
		"b_aux_density popcount":   sys.BDensityAux(),
	}
	want := map[string]int{
		"num_inputs":               328,
		"num_aux":                  130_169_893,
		"num_constraints":          130_278_869,
		"A nnz":                    309_405_051,
		"B nnz":                    130_327_340,
		"C nnz":                    282_656_500,
		"a_aux_density popcount":   129_753_292,
		"b_input_density popcount": 1,
		"b_aux_density popcount":   33_112_281,
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %d, want %d", k, got[k], w)
		}
	}
	if total := got["A nnz"] + got["B nnz"] + got["C nnz"]; total != 722_388_891 {
		t.Errorf("total nnz = %d, want 722,388,891", total)
	}
}

// TestHashSingleColumn reproduces stacked/circuit/hash.rs: Poseidon arity 2
// (test_hash2_circuit) costs 311 constraints and arity 11
// (test_hash_single_column_circuit) 598; the value is the native hash.
func TestHashSingleColumn(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for _, c := range []struct{ n, want int }{{2, 311}, {11, 598}} {
		sys := testcs.New()
		vals := make([]fr.Element, c.n)
		nums := make([]gadget.AllocatedNum, c.n)
		for i := range vals {
			vals[i] = circRandFr(rng)
			nums[i] = gadget.AllocNum(sys, &vals[i])
		}
		out, err := HashSingleColumn(sys, nums)
		if err != nil {
			t.Fatal(err)
		}
		if sys.NumConstraints() != c.want {
			t.Fatalf("arity %d: %d constraints, want %d", c.n, sys.NumConstraints(), c.want)
		}
		if err := sys.Validate(); err != nil {
			t.Fatal(err)
		}
		if want := poseidon.Hash(vals); !out.Val.Equal(&want) {
			t.Fatalf("arity %d: circuit and native hashes differ", c.n)
		}
	}
	if _, err := HashSingleColumn(cs.NewCounter(), make([]gadget.AllocatedNum, 3)); err == nil {
		t.Fatal("column of 3 accepted")
	}
}

// TestSynthesizeCancelled checks that a cancelled context stops
// synthesis with the context's error.
func TestSynthesizeCancelled(t *testing.T) {
	cfg := stackedTestConfig(TreeShape{8, 0, 0})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := BlankCircuit(&cfg).Synthesize(ctx, cs.NewCounter()); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled synthesis: %v", err)
	}
}

// TestSizeHintFor checks the size hint against a full count (2 KiB, two
// challenges) and the 32 GiB figures of §4.6.
func TestSizeHintFor(t *testing.T) {
	cfg, err := ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	if err != nil {
		t.Fatal(err)
	}
	h, err := SizeHintFor(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	cnt := cs.NewCounter()
	if err := BlankCircuit(&cfg).Synthesize(context.Background(), cnt); err != nil {
		t.Fatal(err)
	}
	if h.Constraints != cnt.Constraints || h.Aux != cnt.Aux || h.Inputs != cnt.Inputs {
		t.Fatalf("hint %+v, counted (%d, %d, %d)", h, cnt.Constraints, cnt.Aux, cnt.Inputs)
	}
	if !testenv.Enabled(testenv.TierLong) {
		return
	}
	cfg32 := config32G(t)
	h, err = SizeHintFor(&cfg32)
	if err != nil {
		t.Fatal(err)
	}
	if h.Constraints+h.Inputs != 130_278_869 || h.Aux != 130_169_893 || h.Inputs != 328 {
		t.Fatalf("32 GiB hint %+v", h)
	}
}
