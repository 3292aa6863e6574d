// SPDX-License-Identifier: Apache-2.0 OR MIT

package service_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/filecoin-project/go-state-types/abi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/status"

	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/service"
	"github.com/cuseal/cuseal/service/client"
	pb "github.com/cuseal/cuseal/service/cuzkv1"
)

// c1Stub is the head of a 2 KiB C1: enough for the server's own checks
// (the fake engine parses nothing).
var c1Stub = []byte(`{"registered_proof":"StackedDrg2KiBV1_1","vanilla_proofs":{}}`)

const rp2KiB = uint64(abi.RegisteredSealProof_StackedDrg2KiBV1_1)

func porepReq(id string) *pb.SubmitProofRequest {
	return &pb.SubmitProofRequest{RequestId: id, ProofKind: pb.ProofKind_POREP_SEAL_COMMIT, RegisteredProof: rp2KiB,
		SectorSize: 2048, SectorNumber: 7, MinerId: 1000, VanillaProof: c1Stub}
}

// serve starts a Server for eng on a unix socket under t.TempDir and
// returns a client of it.
func serve(t *testing.T, eng service.Engine, opts service.Options) (*service.Server, *client.Client) {
	t.Helper()
	addr := "unix://" + filepath.Join(t.TempDir(), "s.sock")
	l, _, err := service.Listen(service.ListenConfig{Address: addr})
	if err != nil {
		t.Fatal(err)
	}
	s := service.New(eng, opts)
	go s.GRPC().Serve(l)
	t.Cleanup(s.GRPC().Stop)
	c, err := client.Dial(addr, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return s, c
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func wantCode(t *testing.T, err error, code codes.Code, substr string) {
	t.Helper()
	st, _ := status.FromError(err)
	if err == nil || st.Code() != code || !strings.Contains(st.Message(), substr) {
		t.Fatalf("got %v, want %s naming %q", err, code, substr)
	}
}

// TestRPCs: every RPC of cuzk.v1 against the fake engine.
func TestRPCs(t *testing.T) {
	f := newFake(false)
	_, c := serve(t, f, service.Options{})
	ctx := ctxT(t)

	// SubmitProof, then AwaitProof with timeout_ms on a job that does not end: TIMEOUT.
	sub, err := c.Submit(ctx, porepReq("porep-1000-7"))
	if err != nil {
		t.Fatal(err)
	}
	if sub.JobId == "" || sub.AssignedGpu != "cpu" {
		t.Fatalf("SubmitProof: %+v", sub)
	}
	start := time.Now()
	res, err := c.Await(ctx, sub.JobId, 50*time.Millisecond)
	if res.GetStatus() != pb.AwaitProofResponse_TIMEOUT || res.GetJobId() != sub.JobId || err == nil {
		t.Fatalf("AwaitProof timeout_ms 50 on a queued job: %v, %v", res, err)
	}
	if el := time.Since(start); el < 50*time.Millisecond || el > 10*time.Second {
		t.Errorf("AwaitProof returned TIMEOUT after %v, want ~50ms", el)
	}
	// The job goes on after a TIMEOUT; once finished, Await returns it with timings.
	f.finish(sub.JobId, engine.StateCompleted, nil)
	res, err = c.Await(ctx, sub.JobId, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := proofOf(&engine.Request{VanillaProof: c1Stub})
	if !bytes.Equal(res.Proof, want) || res.QueueWaitMs != 3 || res.SrsLoadMs != 5 || res.SynthesisMs != 7 || res.GpuComputeMs != 11 || res.TotalMs != 29 {
		t.Fatalf("AwaitProof: %+v", res)
	}
	// A repeated request id attaches to the same job.
	sub2, err := c.Submit(ctx, porepReq("porep-1000-7"))
	if err != nil || sub2.JobId != sub.JobId {
		t.Fatalf("duplicate request id: %v %v, want job %s", sub2, err, sub.JobId)
	}

	// AwaitProof: the caller's own deadline is DeadlineExceeded, not a result; the job goes on.
	sub3, err := c.Submit(ctx, porepReq("porep-1000-8"))
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	_, err = c.Await(short, sub3.JobId, 0)
	cancel()
	wantCode(t, err, codes.DeadlineExceeded, "")
	if st := f.job(sub3.JobId).res.State; st != engine.StateQueued {
		t.Fatalf("job after the caller's deadline: %s, want queued", st)
	}

	// CancelProof of a running job, then Await: CANCELLED.
	f.start(sub3.JobId)
	was, err := c.Cancel(ctx, sub3.JobId)
	if err != nil || !was {
		t.Fatalf("CancelProof: %v %v", was, err)
	}
	res, err = c.Await(ctx, sub3.JobId, 0)
	var re *client.ResultError
	if !errors.As(err, &re) || res.Status != pb.AwaitProofResponse_CANCELLED || !strings.Contains(res.ErrorMessage, "cancelled") {
		t.Fatalf("Await after cancel: %v, %v", res, err)
	}
	_, err = c.Cancel(ctx, "job-999")
	wantCode(t, err, codes.NotFound, "job-999")
	_, err = c.Await(ctx, "job-999", 0)
	wantCode(t, err, codes.NotFound, "job-999")

	// Prove: submit + await; a failed job is FAILED with its message.
	f.setAuto(true)
	res, err = c.Prove(ctx, porepReq(""))
	if err != nil || res.Status != pb.AwaitProofResponse_COMPLETED || !bytes.Equal(res.Proof, want) {
		t.Fatalf("Prove: %v %v", res, err)
	}
	f.setAuto(false)
	done := make(chan error, 1)
	go func() {
		res, err := c.Prove(ctx, porepReq("porep-1000-9"))
		var re *client.ResultError
		if !errors.As(err, &re) || res.GetStatus() != pb.AwaitProofResponse_FAILED || !strings.Contains(res.GetErrorMessage(), "partition 1: backend") {
			done <- fmt.Errorf("Prove of a failing job: %v, %v", res, err)
			return
		}
		done <- nil
	}()
	id := waitJob(t, f, "porep-1000-9")
	f.finish(id, engine.StateFailed, errors.New("partition 1: backend: out of memory"))
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	// Prove whose caller goes away: the engine sees the context and cancels.
	short, cancel = context.WithTimeout(ctx, 50*time.Millisecond)
	_, err = c.Prove(short, porepReq("porep-1000-10"))
	cancel()
	wantCode(t, err, codes.DeadlineExceeded, "")
	waitState(t, f, "porep-1000-10", engine.StateCancelled)

	// GetStatus: every field.
	st, err := c.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Gpus) != 2 || st.Gpus[0].Name != "cpu" || st.Gpus[0].CurrentJobId != "job-1" || st.Gpus[0].CurrentProofKind != "POREP_SEAL_COMMIT" ||
		st.Gpus[1].VramTotalBytes != 80<<30 || st.Gpus[1].VramFreeBytes != 60<<30 || st.Gpus[1].Ordinal != 1 || !strings.Contains(st.Gpus[1].Name, "quarantined") {
		t.Errorf("gpus: %v", st.Gpus)
	}
	if len(st.LoadedSrs) != 1 || st.LoadedSrs[0].CircuitId != "porep-2k" || st.LoadedSrs[0].Tier != pb.SRSStatus_WARM || st.LoadedSrs[0].SizeBytes != 1<<20 || st.LoadedSrs[0].RefCount != 1 {
		t.Errorf("loaded_srs: %v", st.LoadedSrs)
	}
	if len(st.Queues) != 1 || st.Queues[0].ProofKind != "POREP_SEAL_COMMIT" || st.Queues[0].Pending != 2 || st.Queues[0].InProgress != 1 {
		t.Errorf("queues: %v", st.Queues)
	}
	if st.TotalProofsCompleted != 5 || st.TotalProofsFailed != 2 || st.UptimeSeconds != 90 || st.PinnedMemoryBytes != 10<<30 || st.PinnedMemoryLimitBytes != 64<<30 {
		t.Errorf("status: %v", st)
	}

	// PreloadSRS and EvictSRS.
	pre, err := c.Raw().PreloadSRS(ctx, &pb.PreloadSrsRequest{CircuitId: "porep-32g"})
	if err != nil || pre.AlreadyLoaded || pre.LoadTimeMs != 1500 {
		t.Fatalf("PreloadSRS: %v %v", pre, err)
	}
	pre, err = c.Raw().PreloadSRS(ctx, &pb.PreloadSrsRequest{CircuitId: "porep-32g"})
	if err != nil || !pre.AlreadyLoaded {
		t.Fatalf("PreloadSRS again: %v %v", pre, err)
	}
	_, err = c.Raw().PreloadSRS(ctx, &pb.PreloadSrsRequest{CircuitId: "porep-64t"})
	wantCode(t, err, codes.InvalidArgument, "porep-64t")
	_, err = c.Raw().PreloadSRS(ctx, &pb.PreloadSrsRequest{})
	wantCode(t, err, codes.InvalidArgument, "circuit_id")
	ev, err := c.Raw().EvictSRS(ctx, &pb.EvictSrsRequest{CircuitId: "porep-32g"})
	if err != nil || !ev.WasLoaded || ev.FreedBytes != 2<<20 {
		t.Fatalf("EvictSRS: %v %v", ev, err)
	}
	ev, err = c.Raw().EvictSRS(ctx, &pb.EvictSrsRequest{CircuitId: "porep-32g"})
	if err != nil || ev.WasLoaded || ev.FreedBytes != 0 {
		t.Fatalf("EvictSRS again: %v %v", ev, err)
	}

	// GetMetrics: the engine's metrics and the server's own.
	text, err := c.Metrics(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"fake_jobs_submitted_total 5", `cuseal_rpc_requests_total{code="OK",method="/cuzk.v1.ProvingEngine/SubmitProof"} 3`} {
		if !strings.Contains(text, w) {
			t.Errorf("metrics lack %q:\n%s", w, text)
		}
	}
}

// waitJob waits until the fake has a job for request id and returns its id.
func waitJob(t *testing.T, f *fakeEngine, reqID string) string {
	t.Helper()
	for range 1000 {
		f.mu.Lock()
		j := f.byReq[reqID]
		f.mu.Unlock()
		if j != nil {
			return j.id
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no job for %s", reqID)
	return ""
}

func waitState(t *testing.T, f *fakeEngine, reqID string, want engine.State) {
	t.Helper()
	id := waitJob(t, f, reqID)
	for range 1000 {
		f.mu.Lock()
		st := f.jobs[id].res.State
		f.mu.Unlock()
		if st == want {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("job %s never %s", id, want)
}

// rawCodec sends a []byte as the request message as is, to put garbage on the wire.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error)   { return v.([]byte), nil }
func (rawCodec) Unmarshal(b []byte, v any) error { *(v.(*[]byte)) = b; return nil }
func (rawCodec) Name() string                    { return "proto" }

var _ encoding.Codec = rawCodec{}

// TestBadInput: each bad request is refused naming the problem, and the
// server goes on serving (a good Prove after each).
func TestBadInput(t *testing.T) {
	f := newFake(true)
	f.badRequestID = "engine-says-bad"
	_, c := serve(t, f, service.Options{MaxMessageBytes: 1 << 20})
	ctx := ctxT(t)

	mod := func(m func(r *pb.SubmitProofRequest)) *pb.SubmitProofRequest {
		r := porepReq("")
		m(r)
		return r
	}
	cases := []struct {
		name string
		req  *pb.SubmitProofRequest
		code codes.Code
		want string
	}{
		{"unspecified kind", mod(func(r *pb.SubmitProofRequest) { r.ProofKind = 0 }), codes.InvalidArgument, "proof_kind: missing"},
		{"unknown kind", mod(func(r *pb.SubmitProofRequest) { r.ProofKind = 99 }), codes.InvalidArgument, "proof_kind: unknown value 99"},
		{"request_id too long", mod(func(r *pb.SubmitProofRequest) { r.RequestId = strings.Repeat("x", service.MaxRequestIDBytes+1) }),
			codes.InvalidArgument, "request_id: 257 bytes, at most 256"},
		{"request_id with a control character", mod(func(r *pb.SubmitProofRequest) { r.RequestId = "porep-1000-\x1b[2J" }),
			codes.InvalidArgument, "request_id: byte 11 is U+001B, not a printable character"},
		{"unknown priority", mod(func(r *pb.SubmitProofRequest) { r.Priority = 9 }), codes.InvalidArgument, "priority: unknown value 9"},
		{"no vanilla_proof", mod(func(r *pb.SubmitProofRequest) { r.VanillaProof = nil }), codes.InvalidArgument, "vanilla_proof: empty"},
		{"no randomness", &pb.SubmitProofRequest{ProofKind: pb.ProofKind_WINNING_POST, VanillaProofs: [][]byte{{1}}}, codes.InvalidArgument, "randomness: empty"},
		{"PoSt without vanilla_proofs", &pb.SubmitProofRequest{ProofKind: pb.ProofKind_WINDOW_POST_PARTITION, Randomness: make([]byte, 32)}, codes.InvalidArgument, "vanilla_proofs: empty"},
		{"no commitment", &pb.SubmitProofRequest{ProofKind: pb.ProofKind_SNAP_DEALS_UPDATE, VanillaProofs: [][]byte{{1}},
			CommROld: make([]byte, 32), CommDNew: make([]byte, 32)}, codes.InvalidArgument, "comm_r_new: empty"},
		// The fake engine proves only PoRep: a kind an engine was not built with
		// answers UNIMPLEMENTED (the real engine proves SNAP_DEALS_UPDATE).
		{"kind not built", &pb.SubmitProofRequest{ProofKind: pb.ProofKind_SNAP_DEALS_UPDATE, VanillaProofs: [][]byte{{1}},
			CommROld: make([]byte, 32), CommRNew: make([]byte, 32), CommDNew: make([]byte, 32)}, codes.Unimplemented, "SNAP_DEALS_UPDATE"},
		{"engine refuses the input", mod(func(r *pb.SubmitProofRequest) { r.RequestId = "engine-says-bad" }), codes.InvalidArgument, "comm_r mismatch at partition 0"},
		{"oversized message", mod(func(r *pb.SubmitProofRequest) { r.VanillaProof = make([]byte, 2<<20) }), codes.ResourceExhausted, "larger than max"},
		{"handler panic", porepReq("panic"), codes.Internal, "panic: fake engine told to panic"},
	}
	statusCalls := f.statusCalls.Load()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Prove(ctx, tc.req)
			wantCode(t, err, tc.code, tc.want)
			_, err = c.Submit(ctx, tc.req)
			wantCode(t, err, tc.code, tc.want)
			if res, err := c.Prove(ctx, porepReq("")); err != nil || res.Status != pb.AwaitProofResponse_COMPLETED {
				t.Fatalf("the server stopped serving: %v %v", res, err)
			}
		})
	}

	// The checks need no snapshot of the engine (its jobs): they are the wire's.
	if n := f.statusCalls.Load() - statusCalls; n != 0 {
		t.Errorf("checking requests took %d engine status snapshots, want none", n)
	}
	t.Run("longest request_id", func(t *testing.T) {
		r := porepReq(strings.Repeat("x", service.MaxRequestIDBytes))
		if res, err := c.Prove(ctx, r); err != nil || res.Status != pb.AwaitProofResponse_COMPLETED {
			t.Fatalf("a request_id of %d bytes: %v %v", service.MaxRequestIDBytes, res, err)
		}
	})

	t.Run("no submit", func(t *testing.T) {
		_, err := c.Raw().Prove(ctx, &pb.ProveRequest{})
		wantCode(t, err, codes.InvalidArgument, "submit: missing")
		_, err = c.Raw().AwaitProof(ctx, &pb.AwaitProofRequest{})
		wantCode(t, err, codes.InvalidArgument, "job_id: empty")
		_, err = c.Raw().CancelProof(ctx, &pb.CancelProofRequest{})
		wantCode(t, err, codes.InvalidArgument, "job_id: empty")
	})

	t.Run("garbage bytes", func(t *testing.T) {
		conn := rawConn(t, c)
		var out []byte
		// Field 1 with wire type 7: no protobuf message.
		err := conn.Invoke(ctx, "/cuzk.v1.ProvingEngine/Prove", []byte{0x0f, 0xff, 0xff, 0x00}, &out, grpc.ForceCodec(rawCodec{}))
		wantCode(t, err, codes.Internal, "unmarshal")
		if res, err := c.Prove(ctx, porepReq("")); err != nil || res.Status != pb.AwaitProofResponse_COMPLETED {
			t.Fatalf("the server stopped serving: %v %v", res, err)
		}
	})
}

// rawConn is c's connection.
func rawConn(t *testing.T, c *client.Client) grpc.ClientConnInterface {
	t.Helper()
	return c.Conn()
}

// TestMetricsHandler: /metrics, /status and the page over HTTP.
func TestMetricsHandler(t *testing.T) {
	f := newFake(true)
	s, c := serve(t, f, service.Options{})
	if _, err := c.Prove(ctxT(t), porepReq("porep-1-1")); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.MetricsHandler())
	defer hs.Close()
	get := func(path string) string {
		resp, err := http.Get(hs.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %s", path, resp.Status)
		}
		return string(b)
	}
	if m := get("/metrics"); !strings.Contains(m, "fake_jobs_submitted_total 1") || !strings.Contains(m, "cuseal_rpc_requests_total") {
		t.Errorf("/metrics:\n%s", m)
	}
	if st := get("/status"); !strings.Contains(st, `"circuit_id": "porep-2k"`) || !strings.Contains(st, `"completed": 5`) || !strings.Contains(st, `"file": null`) {
		t.Errorf("/status:\n%s", st)
	}
	if page := get("/"); !strings.Contains(page, `<span class="state QUARANTINED">QUARANTINED</span>`) || !strings.Contains(page, "porep-2k") {
		t.Errorf("/:\n%s", page)
	}
}
