// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/testsupport/testpost"
)

// namedProver is a Prover that only has a name and a backend name.
type namedProver struct{ name, backend string }

func (p namedProver) Name() string    { return p.name }
func (p namedProver) Backend() string { return p.backend }
func (p namedProver) Prove(context.Context, *Work) (groth16.Proof, error) {
	return groth16.Proof{}, nil
}

// TestDeviceBackend: porep's registry decides which backends prove on a
// device (its GPU flag), for the memory estimate and the kept prover
// alike; names it does not know are host backends.
func TestDeviceBackend(t *testing.T) {
	for name, want := range map[string]bool{
		porep.BackendCPU: false, porep.BackendCUDA: true, porep.BackendSupraSeal: true, porep.BackendAuto: false, "no-such": false,
	} {
		if got := deviceBackend(name); got != want {
			t.Errorf("deviceBackend(%q) = %v, want %v", name, got, want)
		}
	}
	// New counts a kind's memory as device scratch only when every prover
	// is on a device.
	for _, tc := range []struct {
		provers []Prover
		want    string
	}{
		{[]Prover{namedProver{"cuda:0", porep.BackendCUDA}, namedProver{"cuda:1", porep.BackendCUDA}}, porep.BackendCUDA},
		{[]Prover{namedProver{"cuda:0", porep.BackendCUDA}, namedProver{"cpu", porep.BackendCPU}}, porep.BackendCPU},
		{[]Prover{namedProver{"other", "no-such"}}, porep.BackendCPU},
	} {
		e, err := New(Config{ParamsDir: t.TempDir(), Provers: tc.provers, NoCriticalProver: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := e.kinds[KindPoRepC2].(*jobFamily).backend; got != tc.want {
			t.Errorf("provers %v: memory counted as %q, want %q", tc.provers, got, tc.want)
		}
		e.Close()
	}
}

// TestPlanKeysAreTheJobs: a job's plan loads the keys of the job porep
// prepared (job.Keys(): its parameter directory and policy), the files
// the same circuit's Preload names.
func TestPlanKeysAreTheJobs(t *testing.T) {
	v := testpost.Load(t, "post-winning-2KiB-s22")
	dir := t.TempDir()
	e, err := New(Config{ParamsDir: dir, Provers: []Prover{namedProver{"cpu", porep.BackendCPU}}, NoCriticalProver: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	pl, err := e.kinds[KindWinningPoSt].Prepare(&Request{Kind: KindWinningPoSt, RegisteredProof: uint64(v.Proof), MinerID: uint64(v.Miner),
		VanillaProofs: v.Vanilla, Randomness: v.Randomness})
	if err != nil {
		t.Fatal(err)
	}
	job, err := porep.PrepareWinningPoSt(abi.RegisteredPoStProof(v.Proof), v.Miner, v.Randomness, v.Vanilla, porep.WithParamsDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := job.Keys().Paths()
	if got := pl.Params().File; got != want || filepath.Dir(got) != dir {
		t.Errorf("plan's parameters %s, want the job's %s in %s", got, want, dir)
	}
	spec, err := e.circuit("winning-2k")
	if err != nil {
		t.Fatal(err)
	}
	if spec.File != want || spec.ID != pl.Params().ID {
		t.Errorf("circuit winning-2k: %s (%s), the plan's %s (%s)", spec.File, spec.ID, want, pl.Params().ID)
	}
}
