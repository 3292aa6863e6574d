// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked_test

// Reference-vector safety net: the sectors of testdata/golden/ were sealed by
// rust-fil-proofs 19.1.0 and synthesized by bellperson 0.27.0 (see
// testdata/golden/README.md). For every folder and every partition its
// meta.json lists, cuseal's NewCircuit + synthesis must give the same counts,
// the same four docs/digests.md digests (R1CS, witness, a/b/c, density) and
// the same density popcounts — recomputed here, through the sequential
// ProvingAssignment, through the parallel per-challenge synthesis and through
// SynthesizePartition into reused storage.

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
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

// goldenDir is the repository's copy of the reference vectors.
var goldenDir = filepath.Join("..", "..", "testdata", "golden")

// refMeta is the part of a golden folder's meta.json the tests read.
type refMeta struct {
	SectorSize             uint64    `json:"sector_size"`
	Tree                   string    `json:"tree"`
	APIVersion             string    `json:"api_version"`
	RegisteredProof        *string   `json:"registered_proof"`
	PoRepID                string    `json:"porep_id"`
	ReplicaID              string    `json:"replica_id"`
	Partitions             int       `json:"partitions"`
	ChallengesPerPartition int       `json:"challenges_per_partition"`
	Partition              []refPart `json:"partition"`
}

type refPart struct {
	goldentest.Partition
	Challenges   []uint64 `json:"challenges"`
	PublicInputs []string `json:"public_inputs"`
}

// refFolders are the sector folders (the agg-* folders hold aggregation
// vectors, tested elsewhere). long: the long tier only (seconds each on 2
// cores); for 2KiB-ni-s12 only partition 0 runs in the unit tier.
var refFolders = []struct {
	name string
	long bool
}{
	{"2KiB-s10", false},
	{"2KiB-s14", true},
	{"2KiB-synthetic-s12", true},
	{"2KiB-ni-s12", false},
	{"8MiB-s11", true},
	{"4KiB-s11", true},
	{"16KiB-s11", true},
	{"32KiB-s11", true},
}

func loadRefMeta(t testing.TB, folder string) *refMeta {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(goldenDir, folder, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m refMeta
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s/meta.json: %v", folder, err)
	}
	if len(m.Partition) == 0 {
		t.Fatalf("%s/meta.json: no partitions", folder)
	}
	return &m
}

// refConfig builds the sector configuration of a folder: the registered
// proof it names, or — for filecoin-proofs' test shapes, which have none —
// a test configuration of its size, tree shape, porep_id and API version.
// Either way it must agree with everything meta.json states about it.
func refConfig(t testing.TB, m *refMeta) stacked.SectorConfig {
	t.Helper()
	var cfg stacked.SectorConfig
	var err error
	if m.RegisteredProof != nil {
		if cfg, err = stacked.ConfigByName(*m.RegisteredProof); err != nil {
			t.Fatal(err)
		}
	} else {
		var shape stacked.TreeShape
		if _, err := fmt.Sscanf(strings.TrimPrefix(m.Tree, "merkletree-poseidon_hasher-"), "%d-%d-%d", &shape.Base, &shape.Sub, &shape.Top); err != nil {
			t.Fatalf("tree %q: %v", m.Tree, err)
		}
		pid, err := hex.DecodeString(m.PoRepID)
		if err != nil || len(pid) != 32 {
			t.Fatalf("porep_id %q: not 32 hex bytes", m.PoRepID)
		}
		api := map[string]stacked.APIVersion{"1.0.0": stacked.APIVersion1_0_0, "1.1.0": stacked.APIVersion1_1_0, "1.2.0": stacked.APIVersion1_2_0}[m.APIVersion]
		if cfg, err = stacked.NewTestConfig(m.SectorSize, shape, [32]byte(pid), api); err != nil {
			t.Fatal(err)
		}
	}
	if cfg.SectorSize != m.SectorSize || hex.EncodeToString(cfg.PoRepID[:]) != m.PoRepID ||
		cfg.Partitions != m.Partitions || cfg.ChallengesPerPartition != m.ChallengesPerPartition ||
		cfg.APIVersion.String() != m.APIVersion {
		t.Fatalf("config %s (size %d, porep_id %x, %d×%d, api %s) differs from meta.json (size %d, porep_id %s, %d×%d, api %s)",
			cfg.Name, cfg.SectorSize, cfg.PoRepID, cfg.Partitions, cfg.ChallengesPerPartition, cfg.APIVersion,
			m.SectorSize, m.PoRepID, m.Partitions, m.ChallengesPerPartition, m.APIVersion)
	}
	return cfg
}

// loadRefC1 parses a folder's c1.json for cfg as filecoin-ffi's bytes or
// filecoin-proofs' own format, unmodified.
func loadRefC1(t testing.TB, folder string, cfg *stacked.SectorConfig) *stacked.C1Output {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(goldenDir, folder, "c1.json"))
	if err != nil {
		t.Fatal(err)
	}
	c1, err := stacked.ParseC1ForConfig(raw, cfg)
	if err != nil {
		t.Fatalf("%s/c1.json: %v", folder, err)
	}
	return c1
}

// synthPath is one way of synthesizing partition k (its circuit circ) into
// an Assignment.
type synthPath struct {
	name  string
	synth func(c1 *stacked.C1Output, cfg *stacked.SectorConfig, k int, circ *stacked.Circuit) (*cs.Assignment, error)
}

// refPool is the storage the "partition" path reuses across partitions and
// folders (not cleared between them), as the prover's pool does.
var refPool = &cs.BufferPool{}

// synthPaths are the synthesis paths every reference vector is checked
// through.
var synthPaths = []synthPath{
	{"sequential", func(_ *stacked.C1Output, _ *stacked.SectorConfig, _ int, circ *stacked.Circuit) (*cs.Assignment, error) {
		pa := cs.NewProvingAssignment(cs.SizeHint{})
		if err := circ.Synthesize(pa); err != nil {
			return nil, err
		}
		return pa.Assignment(), nil
	}},
	{"parallel", func(_ *stacked.C1Output, cfg *stacked.SectorConfig, _ int, circ *stacked.Circuit) (*cs.Assignment, error) {
		hint, err := stacked.SizeHintFor(cfg)
		if err != nil {
			return nil, err
		}
		per, err := stacked.ChallengeSizeHint(cfg)
		if err != nil {
			return nil, err
		}
		pa := cs.NewProvingAssignment(hint)
		// One worker per challenge, whatever GOMAXPROCS: the segments
		// interleave even on one core.
		if err := circ.SynthesizeParallel(context.Background(), pa, per, len(circ.Proofs)); err != nil {
			return nil, err
		}
		return pa.Assignment(), nil
	}},
	// What the prover runs: SynthesizePartition into pooled storage, one
	// worker per challenge.
	{"partition", func(c1 *stacked.C1Output, cfg *stacked.SectorConfig, k int, circ *stacked.Circuit) (*cs.Assignment, error) {
		return stacked.SynthesizePartition(context.Background(), c1, cfg, k, refPool, len(circ.Proofs))
	}},
}

func hexd(d [32]byte) string { return hex.EncodeToString(d[:]) }

// TestReferenceVectorsSynthesis checks every partition of every golden
// sector folder against rust-fil-proofs / bellperson.
func TestReferenceVectorsSynthesis(t *testing.T) {
	for _, f := range refFolders {
		t.Run(f.name, func(t *testing.T) {
			if f.long && !testenv.Enabled(testenv.TierLong) {
				t.Skip("long tier: tens of seconds of synthesis on 2 cores (the unit tier checks 2KiB-s10 and NI partition 0)")
			}
			m := loadRefMeta(t, f.name)
			cfg := refConfig(t, m)
			c1 := loadRefC1(t, f.name, &cfg)
			if got := hex.EncodeToString(c1.ReplicaID[:]); got != m.ReplicaID {
				t.Fatalf("c1 replica_id %s, meta.json %s", got, m.ReplicaID)
			}
			if len(m.Partition) != cfg.Partitions {
				t.Fatalf("meta.json lists %d partitions, %s has %d", len(m.Partition), cfg.Name, cfg.Partitions)
			}
			g, err := stacked.GraphFor(&cfg)
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range m.Partition {
				if want.K != i {
					t.Fatalf("meta.json partition[%d].k = %d", i, want.K)
				}
				if i > 0 && !testenv.Enabled(testenv.TierLong) {
					t.Logf("partitions 1…%d: long tier", len(m.Partition)-1)
					break
				}
				t.Run(fmt.Sprintf("k%d", want.K), func(t *testing.T) {
					checkRefPartition(t, c1, &cfg, g, &want)
				})
			}
		})
	}
}

func checkRefPartition(t *testing.T, c1 *stacked.C1Output, cfg *stacked.SectorConfig, g *stacked.Graph, want *refPart) {
	circ, err := stacked.NewCircuit(c1, cfg, want.K)
	if err != nil {
		t.Fatal(err)
	}
	if len(circ.Proofs) != len(want.Challenges) {
		t.Fatalf("%d challenges, meta.json lists %d", len(circ.Proofs), len(want.Challenges))
	}
	for i := range circ.Proofs {
		if circ.Proofs[i].Challenge != want.Challenges[i] {
			t.Errorf("challenge %d = %d, rust-fil-proofs %d", i, circ.Proofs[i].Challenge, want.Challenges[i])
		}
	}
	// The public inputs the verifier derives (ONE excluded).
	pub, err := c1.PublicInputs(cfg, g, want.K)
	if err != nil {
		t.Fatal(err)
	}
	if len(pub) != len(want.PublicInputs) || len(pub)+1 != want.NumInputs {
		t.Fatalf("%d public inputs, meta.json lists %d (num_inputs %d with ONE)", len(pub), len(want.PublicInputs), want.NumInputs)
	}
	for i := range pub {
		b := pub[i].Bytes() // big-endian canonical
		for l, r := 0, len(b)-1; l < r; l, r = l+1, r-1 {
			b[l], b[r] = b[r], b[l]
		}
		if got := hex.EncodeToString(b[:]); got != want.PublicInputs[i] {
			t.Errorf("public input %d = %s, rust-fil-proofs %s", i, got, want.PublicInputs[i])
		}
	}

	// Shape: the recorded R1CS.
	rec := cs.NewRecorder()
	if err := circ.Synthesize(rec); err != nil {
		t.Fatal(err)
	}
	r1cs := rec.R1CS()
	rec = nil
	eq(t, "recorder num_inputs", r1cs.NumInputs, want.NumInputs)
	eq(t, "recorder num_aux", r1cs.NumAux, want.NumAux)
	eq(t, "recorder num_constraints", r1cs.NumConstraints(), want.NumConstraints)
	eq(t, "r1cs_digest", hexd(r1cs.Digest()), want.R1CS)
	r1cs = nil
	runtime.GC()

	for _, p := range synthPaths {
		a, err := p.synth(c1, cfg, want.K, circ)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		eq(t, p.name+" num_inputs", len(a.Input), want.NumInputs)
		eq(t, p.name+" num_aux", len(a.Aux), want.NumAux)
		eq(t, p.name+" num_constraints", len(a.A), want.NumConstraints)
		eq(t, p.name+" a_aux popcount", a.ADensityAux.PopCount(), want.Popcounts.AAux)
		eq(t, p.name+" b_input popcount", a.BDensityInput.PopCount(), want.Popcounts.BInput)
		eq(t, p.name+" b_aux popcount", a.BDensityAux.PopCount(), want.Popcounts.BAux)
		eq(t, p.name+" witness_digest", hexd(a.WitnessDigest()), want.Witness)
		eq(t, p.name+" abc_digest", hexd(a.ABCDigest()), want.ABC)
		eq(t, p.name+" density_digest", hexd(a.DensityDigest()), want.Density)
		for i := range pub {
			if !pub[i].Equal(&a.Input[i+1]) {
				t.Errorf("%s: input %d: synthesized %s, PublicInputs %s", p.name, i+1, a.Input[i+1].String(), pub[i].String())
			}
		}
		if p.name == "partition" {
			refPool.Release(a)
		}
		a = nil
		runtime.GC()
	}
}

func eq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, rust-fil-proofs %v", what, got, want)
	}
}
