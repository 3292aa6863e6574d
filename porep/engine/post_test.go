// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/internal/hostmem"
	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/porep/engine/enginetest"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testpost"
	"github.com/cuseal/cuseal/testsupport/testprover"
)

func postRequest(v *testpost.Vector, kind engine.Kind) *engine.Request {
	return &engine.Request{Kind: kind, RegisteredProof: uint64(v.Proof), MinerID: uint64(v.Miner),
		VanillaProofs: slices.Clone(v.Vanilla), Randomness: slices.Clone(v.Randomness)}
}

// TestPoStGolden proves the two 2 KiB PoSt reference vectors through the
// engine with r, s from their rs_seed: the bytes are bellperson's proof.bin
// (which porep's PoSt API also gives) and pass porep.VerifyWinningPoSt /
// VerifyWindowPoSt. Default priorities are Curio's. It proves with
// testprover.Backend (the reference double in the unit tier, the CPU in
// the long tier); the long tier also proves a WindowPoSt partition with
// partition_index 1, blinded as porep blinds partition 1.
func TestPoStGolden(t *testing.T) {
	cpu, err := engine.NewBackendProver(testprover.Backend(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		folder string
		kind   engine.Kind
		prio   engine.Priority
		id     string
	}{
		{"post-winning-2KiB-s22", engine.KindWinningPoSt, engine.PriorityCritical, "winning-2k"},
		{"post-window-2KiB-s21", engine.KindWindowPoStPartition, engine.PriorityHigh, "wpost-2k"},
	} {
		t.Run(tc.kind.String(), func(t *testing.T) {
			v := testpost.Load(t, tc.folder)
			dir := v.ParamsDir(t)
			seed := v.RSSeed
			e, err := engine.New(engine.Config{ParamsDir: dir, Provers: []engine.Prover{cpu}, DeterministicSeed: &seed, BudgetBytes: 4 << 30})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			tk, err := e.Submit(ctx, postRequest(v, tc.kind))
			if err != nil {
				t.Fatal(err)
			}
			if st := e.Status(); len(st.Jobs) != 1 || st.Jobs[0].Priority != tc.prio {
				t.Errorf("jobs %+v, want one of priority %s", st.Jobs, tc.prio)
			}
			r, err := e.Await(ctx, tk.JobID)
			if err != nil || r.State != engine.StateCompleted {
				t.Fatalf("%+v, %v", r, err)
			}
			want := v.Want
			if !bytes.Equal(r.Proof, want) {
				t.Fatalf("engine proof %x, bellperson %x", r.Proof, want)
			}
			pp := []proof.PoStProof{{PoStProof: v.Proof, ProofBytes: r.Proof}}
			var ok bool
			if tc.kind == engine.KindWinningPoSt {
				ok, err = porep.VerifyWinningPoSt(proof.WinningPoStVerifyInfo{Randomness: v.Randomness, Proofs: pp, ChallengedSectors: v.Sectors}, porep.WithParamsDir(dir))
			} else {
				ok, err = porep.VerifyWindowPoSt(proof.WindowPoStVerifyInfo{Randomness: v.Randomness, Proofs: pp, ChallengedSectors: v.Sectors}, porep.WithParamsDir(dir))
			}
			if !ok || err != nil {
				t.Fatalf("verify: %v, %v", ok, err)
			}
			if st := e.Status(); len(st.Params) != 1 || st.Params[0].CircuitID != tc.id {
				t.Errorf("params %+v, want %s", st.Params, tc.id)
			}
			if was, _, err := e.Evict(tc.id); !was || err != nil {
				t.Errorf("evict %s: %v, %v", tc.id, was, err)
			}
			if tc.kind != engine.KindWindowPoStPartition || !testenv.Enabled(testenv.TierLong) {
				return
			}
			req := postRequest(v, tc.kind)
			req.PartitionIndex = 1
			r1, err := e.Prove(ctx, req)
			if err != nil || r1.State != engine.StateCompleted {
				t.Fatalf("partition 1: %+v, %v", r1, err)
			}
			p1, err := porep.GenerateSinglePartitionWindowPoStWithVanilla(v.Proof, v.Miner, v.Randomness, v.Vanilla, 1,
				porep.WithParamsDir(dir), porep.WithBackend(porep.BackendCPU), porep.WithDeterministicRandomness(seed))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(r1.Proof, p1.ProofBytes) || bytes.Equal(r1.Proof, want) {
				t.Fatalf("partition_index 1: engine %x, porep %x", r1.Proof, p1.ProofBytes)
			}
		})
	}
}

// TestPoStBadInput: PoSt requests that do not parse or do not match their
// kind are refused naming the field, before anything is queued (no
// parameters needed).
func TestPoStBadInput(t *testing.T) {
	win := testpost.Load(t, "post-winning-2KiB-s22")
	w := testpost.Load(t, "post-window-2KiB-s21")
	e, err := engine.New(engine.Config{ParamsDir: t.TempDir(), Provers: []engine.Prover{&enginetest.Prover{}}, BudgetBytes: 4 << 30})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, tc := range []struct {
		name string
		req  *engine.Request
		edit func(*engine.Request)
		want string
	}{
		{"no vanilla", postRequest(win, engine.KindWinningPoSt), func(r *engine.Request) { r.VanillaProofs = nil }, "vanilla_proofs: porep: StackedDrgWinning2KiBV1: 0 vanilla proofs"},
		{"short randomness", postRequest(win, engine.KindWinningPoSt), func(r *engine.Request) { r.Randomness = r.Randomness[:16] }, "randomness: 16 bytes"},
		{"non-canonical randomness", postRequest(win, engine.KindWinningPoSt), func(r *engine.Request) { r.Randomness = bytes.Repeat([]byte{0xff}, 32) }, "WINNING_POST: randomness: ffff"},
		{"window proof for winning", postRequest(win, engine.KindWinningPoSt), func(r *engine.Request) { r.RegisteredProof = uint64(abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1) }, "is a WindowPoSt proof"},
		{"unknown proof", postRequest(w, engine.KindWindowPoStPartition), func(r *engine.Request) { r.RegisteredProof = 99 }, "registered_proof"},
		{"sector size", postRequest(w, engine.KindWindowPoStPartition), func(r *engine.Request) { r.SectorSize = 32 << 30 }, "sector_size: 34359738368"},
		{"winning partition", postRequest(win, engine.KindWinningPoSt), func(r *engine.Request) { r.PartitionIndex = 2 }, "partition_index: 2"},
		{"two winning sectors", postRequest(win, engine.KindWinningPoSt), func(r *engine.Request) { r.VanillaProofs = append(r.VanillaProofs, r.VanillaProofs[0]) }, "2 vanilla proofs, want 1"},
		{"truncated vanilla", postRequest(w, engine.KindWindowPoStPartition), func(r *engine.Request) { r.VanillaProofs = [][]byte{r.VanillaProofs[0][:100]} }, "vanilla proof 0"},
		{"too many sectors", postRequest(w, engine.KindWindowPoStPartition), func(r *engine.Request) { r.VanillaProofs = append(r.VanillaProofs, r.VanillaProofs[0]) }, "3 vanilla proofs for one partition"},
		{"other randomness", postRequest(w, engine.KindWindowPoStPartition), func(r *engine.Request) { r.Randomness[0] ^= 1 }, "vanilla_proofs"},
	} {
		tc.edit(tc.req)
		_, err := e.Submit(context.Background(), tc.req)
		if !errors.Is(err, engine.ErrBadInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: want a bad-input error naming %q, got %v", tc.name, tc.want, err)
		}
	}
	if n := len(e.Status().Jobs); n != 0 {
		t.Fatalf("%d jobs queued by refused requests", n)
	}
	// Without parameter files the job fails naming the missing file.
	r, err := e.Prove(context.Background(), postRequest(w, engine.KindWindowPoStPartition))
	if err != nil || r.State != engine.StateFailed || !errors.Is(r.Err, porep.ErrParamsNotFound) {
		t.Fatalf("job without parameters: %+v, %v", r, err)
	}
}

// consumeThenFail proves with the real CPU backend (which computes H in
// the assignment's a, b, c), then fails the call: a prover that dies after
// using the partition's storage as scratch.
type consumeThenFail struct{ engine.Prover }

func (p consumeThenFail) Name() string { return "consumes-then-fails" }

func (p consumeThenFail) Prove(ctx context.Context, w *engine.Work) (groth16.Proof, error) {
	if _, err := p.Prover.Prove(ctx, w); err != nil {
		return groth16.Proof{}, err
	}
	return groth16.Proof{}, errors.New("device lost after proving")
}

// TestRetryAfterConsumedAssignment: the engine proves a partition with its
// a, b, c consumed (H in place); when the prover fails after that, the
// retry on the other prover is synthesized again and proves bellperson's
// bytes for the 2 KiB WinningPoSt vector (retrying on the consumed
// assignment would give a proof that does not verify).
func TestRetryAfterConsumedAssignment(t *testing.T) {
	testenv.Long(t, "real 2 KiB WinningPoSt CPU proofs on two provers, one failing after it proved (~20 s)")
	cpu, err := engine.NewBackendProver(porep.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	v := testpost.Load(t, "post-winning-2KiB-s22")
	seed := v.RSSeed
	bad := &enginetest.Prover{ProverName: "bad", Inner: consumeThenFail{cpu}}
	good := &enginetest.Prover{ProverName: "good", Inner: cpu}
	e, err := engine.New(engine.Config{ParamsDir: v.ParamsDir(t), Provers: []engine.Prover{bad, good}, DeterministicSeed: &seed, BudgetBytes: 4 << 30})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	var retried bool
	for i := 0; i < 4 && !retried; i++ { // until the bad prover has taken a partition
		r, err := e.Prove(ctx, postRequest(v, engine.KindWinningPoSt))
		if err != nil || r.State != engine.StateCompleted {
			t.Fatalf("job %d: %+v, %v", i, r, err)
		}
		if !bytes.Equal(r.Proof, v.Want) {
			t.Fatalf("job %d: engine proof %x, bellperson %x", i, r.Proof, v.Want)
		}
		retried = e.Status().Counters.Retries > 0
	}
	if !retried || bad.Calls() == 0 {
		t.Fatalf("the failing prover was never used (%d calls, %d retries)", bad.Calls(), e.Status().Counters.Retries)
	}
}

// TestIdleReleaseDropsPool: the synthesis buffers the engine keeps for the
// next partition count in the budget while jobs come, and are dropped
// Config.IdleRelease after the last one ends (the soak's idle memory would
// otherwise depend on which kind ran last). A 2 KiB WinningPoSt through the
// unit tier's prover; IdleRelease < 0 keeps them, as a control.
func TestIdleReleaseDropsPool(t *testing.T) {
	v := testpost.Load(t, "post-winning-2KiB-s22")
	dir := v.ParamsDir(t)
	seed := v.RSSeed
	pooled := func(idle time.Duration, wait time.Duration) uint64 {
		cpu, err := engine.NewBackendProver(testprover.Backend(t))
		if err != nil {
			t.Fatal(err)
		}
		e, err := engine.New(engine.Config{ParamsDir: dir, Provers: []engine.Prover{cpu}, BudgetBytes: 4 << 30, IdleRelease: idle, NoCriticalProver: true, DeterministicSeed: &seed})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		if r, err := e.Prove(context.Background(), postRequest(v, engine.KindWinningPoSt)); err != nil || r.State != engine.StateCompleted {
			t.Fatalf("prove: %+v, %v", r, err)
		}
		deadline := time.Now().Add(wait)
		for {
			b := e.Status().Budget
			if b.Synthesis == 0 || !time.Now().Before(deadline) {
				return b.Synthesis
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	if kept := pooled(-1, 300*time.Millisecond); kept == 0 {
		if total, avail, ok := hostmem.MemInfo(); ok && avail < max(1<<30, total/16) {
			t.Skipf("MemAvailable %d of %d bytes: cs.BufferPool drops released sets under memory pressure, so there is no pool to release", avail, total)
		}
		t.Fatal("IdleRelease < 0: no synthesis buffers kept after the job; the test cannot see the release")
	}
	if kept := pooled(20*time.Millisecond, 10*time.Second); kept != 0 {
		t.Fatalf("IdleRelease 20ms: %d bytes of synthesis buffers still kept 10 s after the last job", kept)
	}
}
