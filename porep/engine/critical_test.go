// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine_test

import (
	"bytes"
	"context"
	"errors"
	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/porep/engine/enginetest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testpost"
	"github.com/cuseal/cuseal/testsupport/testprover"
)

// gateProver is a prover double that finishes a partition only when the
// test lets it: one receive from gate per partition (close it to let
// every partition through), so tests assert order, not time.
type gateProver struct {
	name  string
	gate  chan struct{}
	calls atomic.Int64
}

func newGate(name string) *gateProver { return &gateProver{name: name, gate: make(chan struct{})} }

func (g *gateProver) Name() string    { return g.name }
func (g *gateProver) Backend() string { return "double" }

func (g *gateProver) Prove(ctx context.Context, _ *engine.Work) (groth16.Proof, error) {
	g.calls.Add(1)
	select {
	case <-g.gate:
		return enginetest.MarkerProof(), nil
	case <-ctx.Done():
		return groth16.Proof{}, ctx.Err()
	}
}

// release lets one partition through (the prover must be proving one).
func (g *gateProver) release(t *testing.T) {
	t.Helper()
	select {
	case g.gate <- struct{}{}:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: no partition proving to release", g.name)
	}
}

// newCritical is an engine of the test double with one general prover
// and, when spare is not nil, one kept for CRITICAL partitions.
func newCritical(t *testing.T, cfg engine.Config, general engine.Prover, spare engine.Prover) *engine.Engine {
	t.Helper()
	if cfg.Families == nil {
		cfg.Families = enginetest.Families(&enginetest.Family{Partitions: 1, PartitionBytes: 1 << 20})
	}
	if cfg.BudgetBytes == 0 {
		cfg.BudgetBytes = 1 << 30
	}
	cfg.Provers, cfg.CriticalProver = []engine.Prover{general}, spare
	e, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// proveCritical proves a one-partition CRITICAL job of the double and
// returns its status; the test fails if it does not complete within
// 10 s (it would wait for a gate the test holds closed).
func proveCritical(t *testing.T, e *engine.Engine, id string, sizeBytes uint64) engine.JobStatus {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := doubleReq(id, 1, engine.PriorityCritical)
	req.SectorSize = sizeBytes
	r, err := e.Prove(ctx, req)
	if err != nil || r.State != engine.StateCompleted {
		t.Fatalf("CRITICAL job %s: %+v, %v (it waited behind lower work?)", id, r, err)
	}
	for _, js := range e.Status().Jobs {
		if js.JobID == r.JobID {
			return js
		}
	}
	t.Fatalf("job %s not in the status", r.JobID)
	return engine.JobStatus{}
}

// TestCriticalStartsAtOnce: a CRITICAL job submitted while a NORMAL
// partition proves (its prover held by the test) completes on the prover
// kept for it, before the NORMAL partition does; each partition is proven
// once; the wait shows in Timings.ProveWait and the histogram. Without a
// kept prover it waits for the NORMAL partition.
func TestCriticalStartsAtOnce(t *testing.T) {
	general, spare := newGate("cpu"), &enginetest.Prover{ProverName: "cpu:critical"}
	e := newCritical(t, engine.Config{}, general, spare)
	ctx := context.Background()
	bg := background(t, e)
	js := proveCritical(t, e, "winning", 0)
	if js.Partitions[0].Device != "cpu:critical" || js.Timings.ProveWait <= 0 || js.Timings.ProveWait > js.Timings.Total {
		t.Fatalf("CRITICAL job %+v: want it proven on cpu:critical with a prove wait", js)
	}
	if st := waitState(t, e, bg.JobID, partitionProving); st.State != engine.StateRunning {
		t.Fatalf("the NORMAL job is %s, want still proving", st.State)
	}
	general.release(t)
	if r, err := e.Await(ctx, bg.JobID); err != nil || r.State != engine.StateCompleted {
		t.Fatalf("NORMAL job: %+v, %v", r, err)
	}
	if general.calls.Load() != 1 || spare.Calls() != 1 {
		t.Fatalf("prover calls %d and %d, want one each", general.calls.Load(), spare.Calls())
	}
	st := e.Status()
	if len(st.Devices) != 2 || !st.Devices[1].CriticalOnly || st.Devices[0].CriticalOnly {
		t.Fatalf("devices %+v", st.Devices)
	}
	if c := proveWaits(t, e, engine.PriorityCritical); c != 1 {
		t.Fatalf("%d CRITICAL prove waits observed, want 1", c)
	}
	if c := proveWaits(t, e, engine.PriorityNormal); c != 1 {
		t.Fatalf("%d NORMAL prove waits observed, want 1", c)
	}
	budgetIdle(t, e)

	// The engine before: no kept prover, the CRITICAL job waits.
	general = newGate("cpu")
	e = newCritical(t, engine.Config{}, general, nil)
	bg = background(t, e)
	crit := submit(t, e, doubleReq("winning", 1, engine.PriorityCritical))
	waitState(t, e, crit.JobID, func(js engine.JobStatus) bool { return js.Partitions[0].State == "synthesized" })
	if st := waitState(t, e, bg.JobID, partitionProving); st.State != engine.StateRunning {
		t.Fatal("the NORMAL partition ended with its prover held")
	}
	general.release(t) // the NORMAL partition
	general.release(t) // then the CRITICAL one, on the same prover
	for _, id := range []string{bg.JobID, crit.JobID} {
		if r, err := e.Await(ctx, id); err != nil || r.State != engine.StateCompleted {
			t.Fatalf("%s: %+v, %v", id, r, err)
		}
	}
	if general.calls.Load() != 2 {
		t.Fatalf("%d prover calls, want 2", general.calls.Load())
	}
}

// proveWaits is the count of cuseal_engine_prove_wait_seconds for the
// double's jobs of priority prio.
func proveWaits(t *testing.T, e *engine.Engine, prio engine.Priority) uint64 {
	t.Helper()
	mfs, err := e.Gatherer().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "cuseal_engine_prove_wait_seconds" {
			continue
		}
		for _, m := range mf.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["kind"] == enginetest.Kind.String() && labels["priority"] == prio.String() {
				return m.GetHistogram().GetSampleCount()
			}
		}
	}
	return 0
}

// background submits a one-partition NORMAL job and waits until its
// partition proves.
func background(t *testing.T, e *engine.Engine) engine.Ticket {
	t.Helper()
	bg := submit(t, e, doubleReq("porep", 1, engine.PriorityNormal))
	waitState(t, e, bg.JobID, partitionProving)
	return bg
}

// submit is e.Submit, failing the test on an error.
func submit(t *testing.T, e *engine.Engine, req *engine.Request) engine.Ticket {
	t.Helper()
	tk, err := e.Submit(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// seedEstimate sets prover ord's expected time for the double's kind.
func seedEstimate(e *engine.Engine, ord int, d time.Duration) {
	engine.SeedEstimate(e, ord, enginetest.Kind, d)
}

// TestCriticalWaitsForSoonerDevice: with a device known to finish its
// partition and the CRITICAL one long before the kept (CPU) prover would,
// the CRITICAL partition waits for the device; when the device runs past
// its estimate, the kept prover takes it.
func TestCriticalWaitsForSoonerDevice(t *testing.T) {
	ctx := context.Background()
	device, spare := newGate("cuda:0"), &enginetest.Prover{ProverName: "cpu:critical"}
	e := newCritical(t, engine.Config{}, device, spare)
	seedEstimate(e, 0, 30*time.Second)  // the device: 30 s per partition
	seedEstimate(e, 1, 600*time.Second) // the CPU: 600 s
	bg := background(t, e)
	crit := submit(t, e, doubleReq("winning", 1, engine.PriorityCritical))
	waitState(t, e, crit.JobID, func(js engine.JobStatus) bool { return js.Partitions[0].State == "synthesized" })
	device.release(t) // the NORMAL partition
	device.release(t) // the CRITICAL one, on the device
	r, err := e.Await(ctx, crit.JobID)
	if err != nil || r.State != engine.StateCompleted {
		t.Fatalf("%+v, %v", r, err)
	}
	if js := waitState(t, e, crit.JobID, func(engine.JobStatus) bool { return true }); js.Partitions[0].Device != "cuda:0" || spare.Calls() != 0 {
		t.Fatalf("CRITICAL partition on %q, %d calls to the CPU: want it on the device", js.Partitions[0].Device, spare.Calls())
	}

	// The device's estimate is 50 ms but it does not finish: once past
	// it, the CPU takes the CRITICAL partition.
	device = newGate("cuda:0")
	e = newCritical(t, engine.Config{}, device, spare)
	seedEstimate(e, 0, 50*time.Millisecond)
	seedEstimate(e, 1, 10*time.Second)
	bg = background(t, e)
	if js := proveCritical(t, e, "winning", 0); js.Partitions[0].Device != "cpu:critical" {
		t.Fatalf("CRITICAL partition on %q, want the CPU once the device ran past its estimate", js.Partitions[0].Device)
	}
	device.release(t)
	if r, err := e.Await(ctx, bg.JobID); err != nil || r.State != engine.StateCompleted {
		t.Fatalf("NORMAL job: %+v, %v", r, err)
	}
}

// TestCriticalHoldsLowerWorkForMemory: with the budget full of a NORMAL
// job's partitions, a CRITICAL job whose partition fits once they are
// proven holds back the NORMAL job's next partitions: it is proven after
// two NORMAL partitions, not after all eight.
func TestCriticalHoldsLowerWorkForMemory(t *testing.T) {
	ctx := context.Background()
	// What the NORMAL job's partitions are when the CRITICAL one starts proving.
	var e *engine.Engine
	var bg engine.Ticket
	var atStart []engine.PartitionStatus
	general := newGate("cpu")
	spare := &enginetest.Prover{ProverName: "cpu:critical", Fail: func(int, *engine.Work) error {
		for _, js := range e.Status().Jobs {
			if js.JobID == bg.JobID {
				atStart = js.Partitions
			}
		}
		return nil
	}}
	e = newCritical(t, engine.Config{BudgetBytes: 4 << 20}, general, spare)
	bg, err := e.Submit(ctx, doubleReq("porep", 8, engine.PriorityNormal))
	if err != nil {
		t.Fatal(err)
	}
	// Partition 0 proving, 1 and 2 synthesized (PartitionsWaiting 2): 3 MiB.
	waitState(t, e, bg.JobID, func(js engine.JobStatus) bool {
		return js.Partitions[0].State == "proving" && js.Partitions[1].State == "synthesized" && js.Partitions[2].State == "synthesized"
	})
	req := doubleReq("winning", 1, engine.PriorityCritical)
	req.SectorSize = 3 << 20
	crit, err := e.Submit(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	general.release(t) // partition 0: 2 MiB in use, the CRITICAL needs 3 of 4
	waitState(t, e, bg.JobID, func(js engine.JobStatus) bool { return js.Partitions[1].State == "proving" })
	general.release(t) // partition 1: 1 MiB in use
	actx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if r, err := e.Await(actx, crit.JobID); err != nil || r.State != engine.StateCompleted {
		t.Fatalf("CRITICAL job: %+v, %v", r, err)
	}
	if js := waitState(t, e, crit.JobID, func(engine.JobStatus) bool { return true }); js.Partitions[0].Device != "cpu:critical" {
		t.Fatalf("CRITICAL partition on %q", js.Partitions[0].Device)
	}
	for k := 3; k < 8; k++ {
		if s := atStart[k].State; s != "queued" {
			t.Fatalf("NORMAL partition %d is %s when the CRITICAL one starts proving: lower work took the memory it waited for", k, s)
		}
	}
	close(general.gate)
	if r, err := e.Await(ctx, bg.JobID); err != nil || r.State != engine.StateCompleted {
		t.Fatalf("NORMAL job: %+v, %v", r, err)
	}
	budgetIdle(t, e)
}

// waitLong polls job id's status until want holds, or fails the test after
// limit.
func waitLong(t *testing.T, e *engine.Engine, id string, limit time.Duration, want func(engine.JobStatus) bool) engine.JobStatus {
	t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		for _, js := range e.Status().Jobs {
			if js.JobID == id && want(js) {
				return js
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("job %s never reached the wanted state in %v; status %+v", id, limit, e.Status().Jobs)
	return engine.JobStatus{}
}

// TestCriticalDuringPoRepPartition: on the CPU backend, a WinningPoSt
// submitted while a 2 KiB PoRep partition proves completes before that
// partition does, on the CPU prover kept for it (the two share the
// cores). Both proofs verify; for fixed r, s (the PoRep vector's
// rs_seed) the PoRep proof is bellperson's proof.bin — what it is alone —
// and the WinningPoSt's is porep's for the same seed; each partition is
// proven once.
func TestCriticalDuringPoRepPartition(t *testing.T) {
	testenv.Long(t, "two real CPU proofs side by side (a 2 KiB PoRep partition, ~40 CPU-s) and a third to compare")
	v := testprover.PoRep(t, "2KiB-s10")
	w := testpost.Load(t, "post-winning-2KiB-s22")
	porepDir, cfg := params2K(t)
	dir := t.TempDir()
	for _, d := range []string{porepDir, w.ParamsDir(t)} {
		pp, vp, _ := cfg.ParameterPaths(d)
		files := []string{pp, vp}
		if d != porepDir {
			files = nil
			entries, err := os.ReadDir(d)
			if err != nil {
				t.Fatal(err)
			}
			for _, en := range entries {
				files = append(files, filepath.Join(d, en.Name()))
			}
		}
		for _, f := range files {
			target, err := filepath.EvalSymlinks(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, filepath.Join(dir, filepath.Base(f))); err != nil {
				t.Fatal(err)
			}
		}
	}
	cpu1, err := engine.NewBackendProver(porep.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	cpu2, err := engine.NewBackendProver(porep.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	general := &enginetest.Prover{ProverName: "cpu", Inner: cpu1}
	spare := &enginetest.Prover{ProverName: "cpu:critical", Inner: cpu2}
	seed := v.RSSeed
	e, err := engine.New(engine.Config{ParamsDir: dir, Provers: []engine.Prover{general}, CriticalProver: spare, DeterministicSeed: &seed, BudgetBytes: 16 << 30})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	for _, id := range []string{"porep-2k", "winning-2k"} {
		if _, _, err := e.Preload(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	bg, err := e.Submit(ctx, vectorReq("porep-1000-10", v))
	if err != nil {
		t.Fatal(err)
	}
	waitLong(t, e, bg.JobID, 5*time.Minute, partitionProving)
	win := postRequest(w, engine.KindWinningPoSt)
	r, err := e.Prove(ctx, win)
	if err != nil || r.State != engine.StateCompleted {
		t.Fatalf("WinningPoSt: %+v, %v", r, err)
	}
	// The causal claim: the PoRep partition that was proving when the
	// WinningPoSt arrived is still proving now.
	if st := waitLong(t, e, bg.JobID, time.Second, func(engine.JobStatus) bool { return true }); !partitionProving(st) {
		t.Fatalf("the PoRep partition finished before the WinningPoSt (%+v): it did not start at once", st.Partitions)
	}
	pp := []proof.PoStProof{{PoStProof: w.Proof, ProofBytes: r.Proof}}
	if ok, err := porep.VerifyWinningPoSt(proof.WinningPoStVerifyInfo{Randomness: w.Randomness, Proofs: pp, ChallengedSectors: w.Sectors}, porep.WithParamsDir(dir)); !ok || err != nil {
		t.Fatalf("WinningPoSt verify: %v, %v", ok, err)
	}
	rb, err := e.Await(ctx, bg.JobID)
	if err != nil || rb.State != engine.StateCompleted {
		t.Fatalf("PoRep: %+v, %v", rb, err)
	}
	if !bytes.Equal(rb.Proof, v.Want) {
		t.Fatalf("PoRep proof beside a WinningPoSt %x\nbellperson %x", rb.Proof, v.Want)
	}
	verifyVector(t, dir, v, rb.Proof)
	alone, err := porep.GenerateWinningPoStWithVanilla(w.Proof, w.Miner, w.Randomness, w.Vanilla,
		porep.WithParamsDir(dir), porep.WithBackend(porep.BackendCPU), porep.WithDeterministicRandomness(seed))
	if err != nil {
		t.Fatal(err)
	}
	if len(alone) != 1 || !bytes.Equal(alone[0].ProofBytes, r.Proof) {
		t.Fatalf("WinningPoSt beside a PoRep partition %x, alone %x", r.Proof, alone)
	}
	if general.Calls() != cfg.Partitions || spare.Calls() != 1 {
		t.Fatalf("prover calls: %d general for %d partitions, %d kept", general.Calls(), cfg.Partitions, spare.Calls())
	}
	st := e.Status()
	for _, js := range st.Jobs {
		if js.Kind == engine.KindWinningPoSt && (js.Partitions[0].Device != "cpu:critical" || js.Timings.ProveWait <= 0) {
			t.Fatalf("WinningPoSt job %+v", js)
		}
	}
	t.Logf("WinningPoSt beside the PoRep partition: %v (prove wait %v); PoRep job %v", r.Timings.Total, r.Timings.ProveWait, rb.Timings.Total)
}

// TestCriticalProverAfterQuarantine: with the general prover quarantined,
// lower work fails naming it while CRITICAL work still proves on the kept
// prover; a failure on the kept prover is retried on the general one.
func TestCriticalProverAfterQuarantine(t *testing.T) {
	ctx := context.Background()
	broken := &enginetest.Prover{ProverName: "cpu", Fail: func(int, *engine.Work) error { return errors.New("broken on purpose") }}
	spare := &enginetest.Prover{ProverName: "cpu:critical"}
	e := newCritical(t, engine.Config{}, broken, spare)
	if r, err := e.Prove(ctx, doubleReq("porep", 1, engine.PriorityNormal)); err != nil || r.State != engine.StateFailed {
		t.Fatalf("NORMAL job on a broken prover: %+v, %v", r, err)
	}
	if r, err := e.Prove(ctx, doubleReq("porep2", 1, engine.PriorityNormal)); err != nil || r.State != engine.StateFailed || !strings.Contains(r.Err.Error(), "quarantined") {
		t.Fatalf("NORMAL job with its prover quarantined: %+v, %v", r, err)
	}
	if js := proveCritical(t, e, "winning", 0); js.Partitions[0].Device != "cpu:critical" {
		t.Fatalf("CRITICAL partition on %q", js.Partitions[0].Device)
	}

	// The kept prover fails once: the general one proves the partition.
	general := newGate("cpu")
	flaky := &enginetest.Prover{ProverName: "cpu:critical", Fail: func(n int, _ *engine.Work) error {
		if n == 1 {
			return errors.New("injected fault")
		}
		return nil
	}}
	e = newCritical(t, engine.Config{}, general, flaky)
	bg := background(t, e)
	crit := submit(t, e, doubleReq("winning", 1, engine.PriorityCritical))
	waitState(t, e, crit.JobID, func(js engine.JobStatus) bool { return js.Partitions[0].Attempts == 1 })
	close(general.gate)
	for _, id := range []string{bg.JobID, crit.JobID} {
		if r, err := e.Await(ctx, id); err != nil || r.State != engine.StateCompleted {
			t.Fatalf("%s: %+v, %v", id, r, err)
		}
	}
	if js := waitState(t, e, crit.JobID, func(engine.JobStatus) bool { return true }); js.Partitions[0].Device != "cpu" || js.Partitions[0].Attempts != 2 || flaky.Calls() != 1 {
		t.Fatalf("CRITICAL partition %+v after a fault on the kept prover (%d calls to it)", js.Partitions[0], flaky.Calls())
	}
}

// TestCriticalSynthesisStartsAtOnce: with the one synthesis worker busy
// with a NORMAL partition and the NORMAL job's partitions filling the
// waiting bound, a CRITICAL job's partition starts synthesizing as it is
// submitted (the bounds count per priority and above).
func TestCriticalSynthesisStartsAtOnce(t *testing.T) {
	ctx := context.Background()
	general := newGate("cpu")
	e := newCritical(t, engine.Config{SynthesisWorkers: 1, PartitionsWaiting: 1,
		Families: enginetest.Families(&enginetest.Family{Partitions: 4, SynthesisTime: time.Hour})}, general, &enginetest.Prover{ProverName: "cpu:critical"})
	bg, err := e.Submit(ctx, doubleReq("porep", 4, engine.PriorityNormal))
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, e, bg.JobID, func(js engine.JobStatus) bool { return js.Partitions[0].State == "synthesizing" })
	crit := submit(t, e, doubleReq("winning", 1, engine.PriorityCritical))
	st := e.Status()
	for _, js := range st.Jobs {
		if js.JobID == crit.JobID && js.Partitions[0].State != "synthesizing" {
			t.Fatalf("CRITICAL partition %s at submission, want synthesizing beside the NORMAL one", js.Partitions[0].State)
		}
		if js.JobID == bg.JobID && js.Partitions[1].State != "queued" {
			t.Fatalf("NORMAL partition 1 is %s: the bounds let lower work through", js.Partitions[1].State)
		}
	}
	for _, id := range []string{bg.JobID, crit.JobID} {
		if _, err := e.Cancel(id); err != nil {
			t.Fatal(err)
		}
	}
}
