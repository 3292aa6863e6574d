// SPDX-License-Identifier: Apache-2.0 OR MIT

package service_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/service"
	pb "github.com/cuseal/cuseal/service/cuzkv1"
	"github.com/cuseal/cuseal/testsupport/testpost"
	"github.com/cuseal/cuseal/testsupport/testprover"
)

// overloadQueueCap is the queue cap TestServeOverload gives the engine.
const overloadQueueCap = 8

// overloadRSSMargin is what the process may hold beyond the budget during
// the overload (docs/service.md, Overload): the Go runtime, gRPC, the 200
// requests in flight and a decoded query while proving.
const overloadRSSMargin = 512 << 20

// TestServeOverload: 200 cheap requests at once — 100 WinningPoSt and 100
// WindowPoSt partitions of the 2 KiB reference vectors — against a budget
// that holds both parameter files and two partitions, and a queue cap of
// overloadQueueCap. Each request is either accepted, then COMPLETED with
// bellperson's proof, which verifies, or refused at once with
// RESOURCE_EXHAUSTED naming the cap; the budget in use never passes the
// budget. A request that cannot fit the budget even alone is
// RESOURCE_EXHAUSTED naming the budget. testprover.Backend: the reference
// double in the unit tier, real CPU proofs in the long tier.
func TestServeOverload(t *testing.T) {
	win := testpost.Load(t, "post-winning-2KiB-s22")
	w := testpost.Load(t, "post-window-2KiB-s21")
	dir := testpost.JoinParamsDirs(t, win.ParamsDir(t), w.ParamsDir(t))
	var params, part, needW uint64 // needW: one WindowPoSt job alone
	for _, v := range []*testpost.Vector{win, w} {
		cfg, err := post.ConfigFor(v.Proof)
		if err != nil {
			t.Fatal(err)
		}
		m, err := porep.KeysFor(&cfg, porep.WithParamsDir(dir)).Memory(porep.BackendCPU)
		if err != nil {
			t.Fatal(err)
		}
		params += m.Params
		part = max(part, m.PerPartition+m.Backend)
		if v == w {
			needW = m.Params + m.PerPartition + m.Backend
		}
	}
	seed := win.RSSeed
	newServer := func(budget uint64) (*engine.Engine, func(*pb.SubmitProofRequest) (*pb.AwaitProofResponse, error)) {
		eng, err := engine.New(engine.Config{ParamsDir: dir, Backend: testprover.Backend(t), DeterministicSeed: &seed,
			BudgetBytes: budget, MaxQueued: overloadQueueCap})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { eng.Close() })
		_, c := serve(t, eng, service.Options{})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		t.Cleanup(cancel)
		return eng, func(r *pb.SubmitProofRequest) (*pb.AwaitProofResponse, error) { return c.Prove(ctx, r) }
	}
	req := func(v *testpost.Vector) *pb.SubmitProofRequest {
		kind := pb.ProofKind_WINDOW_POST_PARTITION
		if v == win {
			kind = pb.ProofKind_WINNING_POST
		}
		return &pb.SubmitProofRequest{ProofKind: kind, RegisteredProof: uint64(v.Proof), MinerId: uint64(v.Miner),
			Randomness: slices.Clone(v.Randomness), VanillaProofs: v.Vanilla}
	}

	t.Run("budget", func(t *testing.T) {
		_, prove := newServer(needW / 2)
		_, err := prove(req(w))
		if st, _ := status.FromError(err); st.Code() != codes.ResourceExhausted || !strings.Contains(st.Message(), "the budget is") || len(st.Details()) != 0 {
			t.Fatalf("a job larger than the budget: %v (details %v: it will never fit, no retry)", err, st.Details())
		}
	})

	t.Run("queue cap", func(t *testing.T) {
		budget := params + 2*part
		eng, prove := newServer(budget)
		// What earlier tests freed is not this test's peak; "5" resets VmHWM.
		debug.FreeOSMemory()
		peakKnown := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
		stop := make(chan struct{})
		sampled := make(chan error, 1)
		go func() { // the budget in use, sampled while the requests run
			var err error
			for {
				select {
				case <-stop:
					sampled <- err
					return
				case <-time.After(5 * time.Millisecond):
				}
				if b := eng.Status().Budget; b.Used > b.Total && err == nil {
					err = fmt.Errorf("budget in use %d > budget %d", b.Used, b.Total)
				}
			}
		}()
		type outcome struct {
			v   *testpost.Vector
			res *pb.AwaitProofResponse
			err error
		}
		out := make([]outcome, 200)
		var wg sync.WaitGroup
		for i := range out {
			v := w
			if i%2 == 0 {
				v = win
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := prove(req(v))
				out[i] = outcome{v, res, err}
			}()
		}
		wg.Wait()
		close(stop)
		if err := <-sampled; err != nil {
			t.Error(err)
		}
		accepted := 0
		for i, o := range out {
			if st, _ := status.FromError(o.err); st.Code() == codes.ResourceExhausted {
				if !strings.Contains(st.Message(), fmt.Sprintf("the queue cap is %d", overloadQueueCap)) {
					t.Errorf("request %d refused without naming the cap: %v", i, o.err)
				}
				if d := st.Details(); len(d) != 1 || !isRetry(d[0]) {
					t.Errorf("request %d: queue full without a google.rpc.RetryInfo: %v", i, d)
				}
				continue
			}
			accepted++
			if o.err != nil || !bytes.Equal(o.res.GetProof(), o.v.Want) {
				t.Errorf("request %d (registered proof %d): %v, %v", i, o.v.Proof, o.res, o.err)
				continue
			}
			if ok, err := verifyPoSt(o.v, o.res.Proof, dir); !ok || err != nil {
				t.Errorf("request %d: proof does not verify: %v, %v", i, ok, err)
			}
		}
		t.Logf("%d accepted (proven and verified), %d refused naming the queue cap", accepted, len(out)-accepted)
		if hwm := peakRSS(t); peakKnown {
			t.Logf("peak RSS %d MiB; budget %d MiB + margin %d MiB", hwm>>20, budget>>20, overloadRSSMargin>>20)
			if hwm > budget+overloadRSSMargin {
				t.Errorf("peak RSS %d bytes over the budget %d + margin %d", hwm, budget, overloadRSSMargin)
			}
		}
		if accepted < overloadQueueCap || accepted == len(out) {
			t.Errorf("%d of %d accepted: want at least the queue cap (%d), and refusals", accepted, len(out), overloadQueueCap)
		}
		if c := eng.Status().Counters; c.Completed != uint64(accepted) || c.Failed != 0 {
			t.Errorf("counters %+v, want %d completed", c, accepted)
		}
	})
}

// peakRSS is the process's VmHWM in bytes (0 where /proc cannot say).
func peakRSS(t *testing.T) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("VmHWM %q: %v", v, err)
			}
			return kb << 10
		}
	}
	return 0
}

// verifyPoSt verifies a WinningPoSt or WindowPoSt proof of v with the .vk
// in dir.
func verifyPoSt(v *testpost.Vector, pf []byte, dir string) (bool, error) {
	proofs := []proof.PoStProof{{PoStProof: v.Proof, ProofBytes: pf}}
	if v.Proof == abi.RegisteredPoStProof_StackedDrgWinning2KiBV1 {
		return porep.VerifyWinningPoSt(proof.WinningPoStVerifyInfo{Randomness: v.Randomness, ChallengedSectors: v.Sectors, Proofs: proofs, Prover: v.Miner}, porep.WithParamsDir(dir))
	}
	return porep.VerifyWindowPoSt(proof.WindowPoStVerifyInfo{Randomness: v.Randomness, ChallengedSectors: v.Sectors, Proofs: proofs, Prover: v.Miner}, porep.WithParamsDir(dir))
}

// isRetry reports whether a status detail is serve's queue-full RetryInfo.
func isRetry(d any) bool {
	ri, ok := d.(*errdetails.RetryInfo)
	return ok && ri.GetRetryDelay().AsDuration() == service.QueueFullRetryDelay
}
