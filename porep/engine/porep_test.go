// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/porep/engine/enginetest"
	"strings"
	"sync"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/testsupport/testparams"
	"github.com/cuseal/cuseal/testsupport/testprover"
	"github.com/cuseal/cuseal/testsupport/testsector"
)

// params2K returns a directory with 2 KiB test parameters (generated once
// and cached across runs: ./build.sh test makes them first).
func params2K(t *testing.T) (string, stacked.SectorConfig) {
	t.Helper()
	return testparams.Get2K(t), testparams.Config2K(t)
}

// commit2In wraps a C1 output as lotus-bench's Commit2In, as Curio sends it.
func commit2In(t *testing.T, c1 []byte, sector int) []byte {
	b, err := json.Marshal(map[string]any{"SectorNum": sector, "Phase1Out": base64.StdEncoding.EncodeToString(c1), "SectorSize": 2048})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func porepReq(id string, c1 []byte) *engine.Request {
	return &engine.Request{
		RequestID: id, Kind: engine.KindPoRepC2,
		RegisteredProof: uint64(abi.RegisteredSealProof_StackedDrg2KiBV1_1), SectorSize: 2048,
		SectorNumber: uint64(testsector.Sector), MinerID: uint64(testsector.Miner),
		VanillaProof: c1,
	}
}

// TestPoRepEndToEnd proves the 2 KiB reference sector (testdata/golden
// 2KiB-s10) through the engine with 8 concurrent callers of one request id
// (four Prove, four Submit + Await): it is proven once, with r, s from the
// vector's rs_seed its bytes are bellperson's proof.bin, and the proof
// passes porep.VerifySeal. The prover fails once on purpose: the partition
// is retried. It proves with testprover.Backend: the reference double in
// the unit tier (synthesis, parameters and verification real), the CPU
// backend in the long tier.
func TestPoRepEndToEnd(t *testing.T) {
	v := testprover.PoRep(t, "2KiB-s10")
	dir, cfg := params2K(t)
	seed := v.RSSeed
	prover, err := engine.NewBackendProver(testprover.Backend(t))
	if err != nil {
		t.Fatal(err)
	}
	flaky := &enginetest.Prover{ProverName: "flaky", Inner: prover, Fail: func(n int, _ *engine.Work) error {
		if n == 1 {
			return errors.New("injected fault")
		}
		return nil
	}}
	e, err := engine.New(engine.Config{ParamsDir: dir, Provers: []engine.Prover{flaky}, DeterministicSeed: &seed, BudgetBytes: 16 << 30})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	var wg sync.WaitGroup
	results := make([]*engine.Result, 8)
	errs := make([]error, 8)
	ctx := context.Background()
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := vectorReq("porep-1000-10", v)
			if i%2 == 0 {
				results[i], errs[i] = e.Prove(ctx, req)
				return
			}
			tk, err := e.Submit(ctx, req)
			if err != nil {
				errs[i] = err
				return
			}
			results[i], errs[i] = e.Await(ctx, tk.JobID)
		}()
	}
	wg.Wait()
	for i, r := range results {
		if errs[i] != nil || r.State != engine.StateCompleted {
			t.Fatalf("caller %d: %+v, %v", i, r, errs[i])
		}
		if r.JobID != results[0].JobID || !bytes.Equal(r.Proof, results[0].Proof) {
			t.Fatalf("caller %d: job %s differs from caller 0's %s", i, r.JobID, results[0].JobID)
		}
	}
	if !bytes.Equal(results[0].Proof, v.Want) {
		t.Fatalf("engine proof %x\nbellperson  %x", results[0].Proof, v.Want)
	}
	verifyVector(t, dir, v, results[0].Proof)
	st := e.Status()
	if len(st.Jobs) != 1 || st.Counters.Completed != 1 || st.Counters.Retries != 1 {
		t.Fatalf("%d jobs, counters %+v; want 1 job, one retry", len(st.Jobs), st.Counters)
	}
	if calls := flaky.Calls(); calls != cfg.Partitions+1 {
		t.Fatalf("%d prover calls for %d partitions and one retry", calls, cfg.Partitions)
	}
	if len(st.Params) != 1 || st.Params[0].CircuitID != "porep-2k" || st.Params[0].Tier != "warm" || st.Budget.Params == 0 {
		t.Fatalf("params %+v, budget %+v", st.Params, st.Budget)
	}
	if st.Budget.Assignments != 0 {
		t.Fatalf("budget after the job: %+v", st.Budget)
	}
	was, freed, err := e.Evict("porep-2k")
	if err != nil || !was || freed != st.Budget.Params {
		t.Fatalf("evict: %v %d %v", was, freed, err)
	}
}

// vectorReq is the request Curio sends for a PoRep reference vector.
func vectorReq(id string, v *testprover.PoRepVector) *engine.Request {
	return &engine.Request{
		RequestID: id, Kind: engine.KindPoRepC2,
		RegisteredProof: uint64(v.Config.Proof), SectorSize: v.Config.SectorSize,
		SectorNumber: uint64(v.Sector), MinerID: uint64(v.Miner),
		VanillaProof: v.C1,
	}
}

// verifyVector checks pf with porep.VerifySeal against the vector's
// commitments and randomness.
func verifyVector(t *testing.T, dir string, v *testprover.PoRepVector, pf []byte) {
	t.Helper()
	ok, err := porep.VerifySeal(proof.SealVerifyInfo{
		SealProof:             v.Config.Proof,
		SectorID:              abi.SectorID{Miner: v.Miner, Number: v.Sector},
		Randomness:            abi.SealRandomness(v.Ticket),
		InteractiveRandomness: abi.InteractiveSealRandomness(v.Seed),
		Proof:                 pf, SealedCID: v.CommR, UnsealedCID: v.CommD,
	}, porep.WithParamsDir(dir))
	if err != nil || !ok {
		t.Fatalf("VerifySeal: %v, %v", ok, err)
	}
}

// TestPoRepBadInput: requests that do not match their C1 are refused
// naming the field, before anything is queued.
func TestPoRepBadInput(t *testing.T) {
	cfg, err := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	if err != nil {
		t.Fatal(err)
	}
	s1, err := testsector.Seal(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir() // parsing needs no parameters
	e, err := engine.New(engine.Config{ParamsDir: dir, Provers: []engine.Prover{&enginetest.Prover{}}, BudgetBytes: 16 << 30})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, tc := range []struct {
		edit func(*engine.Request)
		want string
	}{
		{func(r *engine.Request) { r.RegisteredProof = uint64(abi.RegisteredSealProof_StackedDrg32GiBV1_1) }, "registered_proof"},
		{func(r *engine.Request) { r.SectorSize = 32 << 30 }, "sector_size"},
		{func(r *engine.Request) { r.SectorNumber++ }, "replica_id"},
		{func(r *engine.Request) { r.VanillaProof = r.VanillaProof[:len(r.VanillaProof)/2] }, "vanilla_proof"},
		{func(r *engine.Request) { r.VanillaProof = commit2In(t, r.VanillaProof, 8) }, "Commit2In.SectorNum = 8"},
	} {
		req := porepReq("", s1.C1)
		tc.edit(req)
		_, err := e.Submit(context.Background(), req)
		if !errors.Is(err, engine.ErrBadInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("want a bad-input error naming %s, got %v", tc.want, err)
		}
	}
	if n := len(e.Status().Jobs); n != 0 {
		t.Fatalf("%d jobs queued by refused requests", n)
	}
	// Curio's wrapper is accepted; without parameter files the job fails
	// naming the missing file.
	tk, err := e.Submit(context.Background(), porepReq("", commit2In(t, s1.C1, int(testsector.Sector))))
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.Await(context.Background(), tk.JobID)
	if err != nil || r.State != engine.StateFailed || !errors.Is(r.Err, porep.ErrParamsNotFound) || !strings.Contains(r.Err.Error(), dir) {
		t.Fatalf("job without parameters: %+v, %v", r, err)
	}
	if st := e.Status(); st.Budget.Used != 0 || len(st.Params) != 0 {
		t.Fatalf("a failed load left parameters in the budget: %+v %+v", st.Budget, st.Params)
	}
	// A budget below the parameters and one partition refuses with figures.
	small, err := engine.New(engine.Config{ParamsDir: dir, Provers: []engine.Prover{&enginetest.Prover{}}, BudgetBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	if _, err := small.Submit(context.Background(), porepReq("", s1.C1)); !errors.Is(err, engine.ErrTooLarge) || !strings.Contains(err.Error(), fmt.Sprint(1<<20)) {
		t.Fatalf("too large: %v", err)
	}
}
