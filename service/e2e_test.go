// SPDX-License-Identifier: Apache-2.0 OR MIT

package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/porep/engine/enginetest"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/service"
	"github.com/cuseal/cuseal/service/client"
	pb "github.com/cuseal/cuseal/service/cuzkv1"
	"github.com/cuseal/cuseal/testsupport/testparams"
	"github.com/cuseal/cuseal/testsupport/testpost"
	"github.com/cuseal/cuseal/testsupport/testprover"
	"github.com/cuseal/cuseal/testsupport/testupdate"
)

func params2K(t *testing.T, _ *stacked.SectorConfig) string {
	t.Helper()
	return testparams.Get2K(t)
}

// TestEndToEnd2KiB: the real engine (2 KiB test parameters, r, s from the
// reference vector's rs_seed) behind the server on a unix socket and on TCP
// loopback at once. Eight clients, half on each, send Curio's request for
// the 2KiB-s10 reference sector at the same time (its request id, the C1
// in the Commit2In wrapper): every answer is bellperson's proof.bin,
// VerifySeal accepts it, the work runs once, and status, metrics and
// /status show the job. The id again is answered from retention; the raw C1
// presented for another miner is refused naming replica_id. The engine
// proves with testprover.Backend: the reference double in the unit tier,
// the CPU backend in the long tier.
func TestEndToEnd2KiB(t *testing.T) {
	v := testprover.PoRep(t, "2KiB-s10")
	cfg := v.Config
	dir := params2K(t, &cfg)
	seed := v.RSSeed
	eng, err := engine.New(engine.Config{ParamsDir: dir, Backend: testprover.Backend(t), DeterministicSeed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	srv := service.New(eng, service.Options{})
	var clients []*client.Client
	sock := "unix://" + filepath.Join(t.TempDir(), "s.sock")
	for _, addr := range []string{sock, "127.0.0.1:0"} {
		l, _, err := service.Listen(service.ListenConfig{Address: addr})
		if err != nil {
			t.Fatal(err)
		}
		if addr != sock {
			addr = l.Addr().String()
		}
		go srv.GRPC().Serve(l)
		c, err := client.Dial(addr, client.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		clients = append(clients, c)
	}
	defer srv.GRPC().Stop()

	req := func(id string, wrapped bool) *pb.SubmitProofRequest {
		vp := v.C1
		if wrapped {
			vp = stacked.MarshalCommit2In(int64(v.Sector), cfg.SectorSize, v.C1)
		}
		return &pb.SubmitProofRequest{RequestId: id, ProofKind: pb.ProofKind_POREP_SEAL_COMMIT, SectorSize: cfg.SectorSize,
			RegisteredProof: uint64(cfg.Proof), Priority: pb.Priority_NORMAL, VanillaProof: vp,
			SectorNumber: uint64(v.Sector), MinerId: uint64(v.Miner)}
	}
	verify := func(t *testing.T, pf []byte) {
		t.Helper()
		if !bytes.Equal(pf, v.Want) {
			t.Fatalf("proof %x\nbellperson %x", pf, v.Want)
		}
		ok, err := porep.VerifySeal(proof.SealVerifyInfo{
			SealProof: cfg.Proof, SectorID: abi.SectorID{Miner: v.Miner, Number: v.Sector},
			Randomness: v.Ticket, InteractiveRandomness: v.Seed, Proof: pf,
			SealedCID: v.CommR, UnsealedCID: v.CommD,
		}, porep.WithParamsDir(dir))
		if err != nil || !ok {
			t.Fatalf("VerifySeal = %v, %v", ok, err)
		}
	}

	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	type answer struct {
		id  string
		res *pb.AwaitProofResponse
		err error
	}
	answers := make(chan answer, 8)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := clients[i%2].Prove(ctx, req("porep-1000-10", true))
			answers <- answer{"porep-1000-10", res, err}
		}()
	}
	wg.Wait()
	close(answers)
	t.Logf("8 clients, 1 proof: %v", time.Since(start))
	jobs := map[string]string{}
	proofs := map[string][]byte{}
	for a := range answers {
		if a.err != nil {
			t.Fatalf("%s: %v", a.id, a.err)
		}
		if j, ok := jobs[a.id]; ok && (j != a.res.JobId || !bytes.Equal(proofs[a.id], a.res.Proof)) {
			t.Fatalf("%s: two jobs or proofs for one request id: %s, %s", a.id, j, a.res.JobId)
		}
		jobs[a.id], proofs[a.id] = a.res.JobId, a.res.Proof
		if a.res.TotalMs == 0 || a.res.SynthesisMs == 0 || a.res.GpuComputeMs == 0 {
			t.Errorf("%s: timings not filled: %v", a.id, a.res)
		}
	}
	if len(jobs) != 1 {
		t.Fatalf("jobs %v", jobs)
	}
	for id, pf := range proofs {
		t.Run("verify "+id, func(t *testing.T) { verify(t, pf) })
	}
	st := eng.Status()
	if st.Counters.Completed != 1 {
		t.Errorf("duplicates ran: %d jobs completed, want 1", st.Counters.Completed)
	}

	// Retention: the same id and content is answered again without work.
	res, err := clients[1].Prove(ctx, req("porep-1000-10", true))
	if err != nil || res.JobId != jobs["porep-1000-10"] || !bytes.Equal(res.Proof, proofs["porep-1000-10"]) {
		t.Fatalf("retained result: %v %v", res, err)
	}
	if n := eng.Status().Counters.Completed; n != 1 {
		t.Errorf("a retained result ran again: %d completed", n)
	}

	// GetStatus, GetMetrics, /metrics and /status show the work.
	gst, err := clients[0].Status(ctx)
	if err != nil || gst.TotalProofsCompleted != 1 || len(gst.Gpus) == 0 || len(gst.LoadedSrs) == 0 || gst.PinnedMemoryLimitBytes == 0 {
		t.Errorf("GetStatus: %v %v", gst, err)
	}
	text, err := clients[1].Metrics(ctx)
	if err != nil || !strings.Contains(text, "cuseal_rpc_requests_total") {
		t.Errorf("GetMetrics: %v\n%s", err, text)
	}
	hs := httptest.NewServer(srv.MetricsHandler())
	defer hs.Close()
	for path, want := range map[string]string{"/metrics": `method="/cuzk.v1.ProvingEngine/Prove"`, "/status": jobs["porep-1000-10"]} {
		resp, err := http.Get(hs.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %q:\n%.2000s", path, want, b)
		}
	}
	var js service.StatusDoc
	if err := json.Unmarshal(mustGet(t, hs.URL+"/status"), &js); err != nil || len(js.Jobs) < 1 {
		t.Errorf("/status JSON: %v, %d jobs", err, len(js.Jobs))
	}

	// The raw C1 presented for another miner: refused naming replica_id, and the server goes on.
	bad := req("porep-1001-10", false)
	bad.MinerId = 1001
	res, err = clients[0].Prove(ctx, bad)
	if st, _ := status.FromError(err); !(st.Code() == codes.InvalidArgument && strings.Contains(st.Message(), "replica_id")) &&
		!(res.GetStatus() == pb.AwaitProofResponse_FAILED && strings.Contains(res.GetErrorMessage(), "replica_id")) {
		t.Errorf("a C1 for another miner: %v, %v", res, err)
	}
	if _, err := clients[1].Status(ctx); err != nil {
		t.Errorf("the server stopped serving: %v", err)
	}
}

func mustGet(t *testing.T, url string) []byte {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPoStEndToEnd: Curio's WinningPoSt and WindowPoSt requests (vanilla
// proofs, randomness, registered proof, miner, partition index; no
// priority) for the two 2 KiB reference vectors, through the server and the
// real engine (r, s from their rs_seed; testprover.Backend: the reference
// double in the unit tier, the CPU in the long tier): each proof is
// bellperson's proof.bin and passes porep's VerifyWinningPoSt /
// VerifyWindowPoSt, and a vanilla proof of another randomness is refused
// as InvalidArgument.
func TestPoStEndToEnd(t *testing.T) {
	win := testpost.Load(t, "post-winning-2KiB-s22")
	w := testpost.Load(t, "post-window-2KiB-s21")
	dir := testpost.JoinParamsDirs(t, win.ParamsDir(t), w.ParamsDir(t))
	if win.RSSeed != w.RSSeed {
		t.Fatal("the PoSt vectors' rs_seed differ: one engine cannot reproduce both")
	}
	seed := win.RSSeed
	eng, err := engine.New(engine.Config{ParamsDir: dir, Backend: testprover.Backend(t), DeterministicSeed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	srv := service.New(eng, service.Options{})
	sock := "unix://" + filepath.Join(t.TempDir(), "s.sock")
	l, _, err := service.Listen(service.ListenConfig{Address: sock})
	if err != nil {
		t.Fatal(err)
	}
	go srv.GRPC().Serve(l)
	defer srv.GRPC().Stop()
	c, err := client.Dial(sock, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	req := func(v *testpost.Vector, kind pb.ProofKind) *pb.SubmitProofRequest {
		return &pb.SubmitProofRequest{ProofKind: kind, RegisteredProof: uint64(v.Proof), MinerId: uint64(v.Miner),
			Randomness: slices.Clone(v.Randomness), VanillaProofs: v.Vanilla}
	}
	res, err := c.Prove(ctx, req(win, pb.ProofKind_WINNING_POST))
	if err != nil || res.Status != pb.AwaitProofResponse_COMPLETED {
		t.Fatalf("winning: %v, %v", res, err)
	}
	if !bytes.Equal(res.Proof, win.Want) {
		t.Fatalf("winning proof %x, bellperson %x", res.Proof, win.Want)
	}
	ok, err := porep.VerifyWinningPoSt(proof.WinningPoStVerifyInfo{Randomness: win.Randomness, ChallengedSectors: win.Sectors,
		Proofs: []proof.PoStProof{{PoStProof: win.Proof, ProofBytes: res.Proof}}}, porep.WithParamsDir(dir))
	if !ok || err != nil {
		t.Fatalf("VerifyWinningPoSt: %v, %v", ok, err)
	}
	res, err = c.Prove(ctx, req(w, pb.ProofKind_WINDOW_POST_PARTITION))
	if err != nil || res.Status != pb.AwaitProofResponse_COMPLETED {
		t.Fatalf("window: %v, %v", res, err)
	}
	if !bytes.Equal(res.Proof, w.Want) {
		t.Fatalf("window proof %x, bellperson %x", res.Proof, w.Want)
	}
	ok, err = porep.VerifyWindowPoSt(proof.WindowPoStVerifyInfo{Randomness: w.Randomness, ChallengedSectors: w.Sectors,
		Proofs: []proof.PoStProof{{PoStProof: w.Proof, ProofBytes: res.Proof}}}, porep.WithParamsDir(dir))
	if !ok || err != nil {
		t.Fatalf("VerifyWindowPoSt: %v, %v", ok, err)
	}
	bad := req(w, pb.ProofKind_WINDOW_POST_PARTITION)
	bad.Randomness = slices.Clone(win.Randomness)
	_, err = c.Prove(ctx, bad)
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "vanilla_proofs") {
		t.Fatalf("vanilla proofs of another randomness: %v", err)
	}
	// The chain's verifier lists sectors by number: another order is refused before any proving.
	swapped := req(w, pb.ProofKind_WINDOW_POST_PARTITION)
	swapped.VanillaProofs = [][]byte{w.Vanilla[1], w.Vanilla[0]}
	_, err = c.Prove(ctx, swapped)
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "vanilla_proofs") ||
		!strings.Contains(err.Error(), "vanilla proof 1 (sector 21000) after vanilla proof 0 (sector 21001)") {
		t.Fatalf("vanilla proofs out of sector order: %v", err)
	}
}

// serveWithoutParams serves the real engine with no parameter files and
// a simulated prover: what it refuses, it refuses before any proving.
func serveWithoutParams(t *testing.T) *client.Client {
	t.Helper()
	eng, err := engine.New(engine.Config{ParamsDir: t.TempDir(), Provers: []engine.Prover{&enginetest.Prover{}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	_, c := serve(t, eng, service.Options{})
	return c
}

// TestBadInputMeaning: what a request's fields mean — registered_proof,
// sector_size, the C1 (raw or in its Commit2In wrapper) — the real engine
// and porep check, once; the server answers INVALID_ARGUMENT naming the
// field, before anything is synthesized (no parameters are there).
func TestBadInputMeaning(t *testing.T) {
	v := testprover.PoRep(t, "2KiB-s10")
	c := serveWithoutParams(t)
	ctx := ctxT(t)
	req := func(m func(r *pb.SubmitProofRequest)) *pb.SubmitProofRequest {
		r := &pb.SubmitProofRequest{ProofKind: pb.ProofKind_POREP_SEAL_COMMIT, SectorSize: v.Config.SectorSize,
			RegisteredProof: uint64(v.Config.Proof), VanillaProof: v.C1, SectorNumber: uint64(v.Sector), MinerId: uint64(v.Miner)}
		m(r)
		return r
	}
	wrap := func(size uint64, num int64) []byte { return stacked.MarshalCommit2In(num, size, v.C1) }
	for _, tc := range []struct {
		name string
		req  *pb.SubmitProofRequest
		want string
	}{
		{"garbage vanilla_proof", req(func(r *pb.SubmitProofRequest) { r.VanillaProof = []byte{0x9c, 0x01, 0xff, 'x'} }), "vanilla_proof: "},
		{"truncated C1", req(func(r *pb.SubmitProofRequest) { r.VanillaProof = v.C1[:30] }), "vanilla_proof: "},
		{"unknown registered_proof", req(func(r *pb.SubmitProofRequest) { r.RegisteredProof = 77 }), "registered_proof: 77"},
		{"sector_size vs registered_proof", req(func(r *pb.SubmitProofRequest) { r.SectorSize = 32 << 30 }), "sector_size: 34359738368"},
		{"C1 for another sector size", req(func(r *pb.SubmitProofRequest) {
			r.RegisteredProof, r.SectorSize = uint64(abi.RegisteredSealProof_StackedDrg32GiBV1_1), 32<<30
		}), "vanilla_proof: the C1 is for StackedDrg2KiBV1_1"},
		{"Commit2In of another sector size", req(func(r *pb.SubmitProofRequest) { r.VanillaProof = wrap(8<<20, int64(v.Sector)) }), "Commit2In.SectorSize = 8388608"},
		{"Commit2In of another sector", req(func(r *pb.SubmitProofRequest) { r.VanillaProof = wrap(2048, int64(v.Sector)+1) }),
			fmt.Sprintf("Commit2In.SectorNum = %d, but sector number %d", v.Sector+1, v.Sector)},
		{"another miner", req(func(r *pb.SubmitProofRequest) { r.MinerId++ }), "replica_id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Submit(ctx, tc.req)
			wantCode(t, err, codes.InvalidArgument, tc.want)
		})
	}
}

// TestWireLengthsMeaning: the service checks only that randomness and the
// commitments are there; their length and meaning porep checks, once, and
// the engine names the request's field: the answer is INVALID_ARGUMENT
// naming it, before anything is queued (no parameters are there).
func TestWireLengthsMeaning(t *testing.T) {
	win := testpost.Load(t, "post-winning-2KiB-s22")
	v := testupdate.Load(t)
	c := serveWithoutParams(t)
	ctx := ctxT(t)
	post := func(m func(r *pb.SubmitProofRequest)) *pb.SubmitProofRequest {
		r := &pb.SubmitProofRequest{ProofKind: pb.ProofKind_WINNING_POST, RegisteredProof: uint64(win.Proof), MinerId: uint64(win.Miner),
			Randomness: slices.Clone(win.Randomness), VanillaProofs: win.Vanilla}
		m(r)
		return r
	}
	snap := func(m func(r *pb.SubmitProofRequest)) *pb.SubmitProofRequest {
		r := &pb.SubmitProofRequest{ProofKind: pb.ProofKind_SNAP_DEALS_UPDATE, RegisteredProof: uint64(v.Proof), VanillaProofs: v.Vanilla,
			CommROld: slices.Clone(v.CommROld[:]), CommRNew: slices.Clone(v.CommRNew[:]), CommDNew: slices.Clone(v.CommDNew[:])}
		m(r)
		return r
	}
	ff := bytes.Repeat([]byte{0xff}, 32)
	for _, tc := range []struct {
		name string
		req  *pb.SubmitProofRequest
		want string
	}{
		{"short randomness", post(func(r *pb.SubmitProofRequest) { r.Randomness = r.Randomness[:16] }), "WINNING_POST: randomness: 16 bytes, want 32"},
		{"non-canonical randomness", post(func(r *pb.SubmitProofRequest) { r.Randomness = ff }), "WINNING_POST: randomness: ffff"},
		{"window proof type", post(func(r *pb.SubmitProofRequest) {
			r.RegisteredProof = uint64(abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1)
		}), "registered_proof: StackedDrgWindow2KiBV1_1 is a WindowPoSt proof"},
		{"short comm_r_new", snap(func(r *pb.SubmitProofRequest) { r.CommRNew = r.CommRNew[:31] }), "comm_r_new: 31 bytes"},
		{"non-canonical comm_d_new", snap(func(r *pb.SubmitProofRequest) { r.CommDNew = ff }), "SNAP_DEALS_UPDATE: comm_d_new: ffff"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Submit(ctx, tc.req)
			wantCode(t, err, codes.InvalidArgument, tc.want)
		})
	}
}
