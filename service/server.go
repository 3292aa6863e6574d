// SPDX-License-Identifier: Apache-2.0 OR MIT

package service

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/common/expfmt"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/cuseal/cuseal/porep/engine/engineapi"
	pb "github.com/cuseal/cuseal/service/cuzkv1"
)

// Engine is what the server needs of *engine.Engine (porep/engine; its types
// are porep/engine/engineapi's, so the server does not build the prover);
// tests use a fake.
type Engine interface {
	Submit(ctx context.Context, req *engineapi.Request) (engineapi.Ticket, error)
	Await(ctx context.Context, jobID string) (*engineapi.Result, error)
	Prove(ctx context.Context, req *engineapi.Request) (*engineapi.Result, error)
	Cancel(jobID string) (wasRunning bool, err error)
	Status() engineapi.Status
	Preload(ctx context.Context, circuitID string) (alreadyLoaded bool, took time.Duration, err error)
	Evict(circuitID string) (wasLoaded bool, freed uint64, err error)
	Gatherer() prometheus.Gatherer
}

// DefaultMaxMessageBytes is the default limit on one gRPC message, each
// way: Curio's client sends and receives up to 256 MiB (a 32 GiB C1 is
// about 50 MB).
const DefaultMaxMessageBytes = 256 << 20

// Options configure a Server.
type Options struct {
	// MaxMessageBytes limits one received or sent message (0: DefaultMaxMessageBytes).
	MaxMessageBytes int
	// Creds, when set, is the transport security (TLS); nil: plain gRPC.
	Creds credentials.TransportCredentials
	// Logger receives one record per failed or panicking call (nil: discarded).
	Logger *slog.Logger
	// Build is the build /status and cuseal_build_info report (nil: this binary's).
	Build *StatusBuild
}

// Server implements pb.ProvingEngineServer over an Engine.
type Server struct {
	pb.UnimplementedProvingEngineServer
	eng  Engine
	log  *slog.Logger
	grpc *grpc.Server
	reg  *prometheus.Registry
	rpcs *prometheus.CounterVec

	build *StatusBuild // what /status and cuseal_build_info report (setBuild)
}

// New makes a server for eng; Serve it on a listener from Listen.
func New(eng Engine, opts Options) *Server {
	if opts.MaxMessageBytes <= 0 {
		opts.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	statusPageCSP() // the page renders (or the server does not start)
	s := &Server{eng: eng, log: opts.Logger, reg: prometheus.NewRegistry()}
	s.rpcs = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "cuseal_rpc_requests_total",
		Help: "cuzk.v1 calls answered, by method and gRPC status code.",
	}, []string{"method", "code"})
	// The process's own series (process_resident_memory_bytes, go_*):
	// memory, threads and file descriptors next to the engine's.
	s.reg.MustRegister(s.rpcs, collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), collectors.NewGoCollector())
	s.setBuild(opts.Build)
	sopts := []grpc.ServerOption{
		grpc.MaxRecvMsgSize(opts.MaxMessageBytes),
		grpc.MaxSendMsgSize(opts.MaxMessageBytes),
		grpc.ChainUnaryInterceptor(s.intercept),
	}
	if opts.Creds != nil {
		sopts = append(sopts, grpc.Creds(opts.Creds))
	}
	s.grpc = grpc.NewServer(sopts...)
	pb.RegisterProvingEngineServer(s.grpc, s)
	return s
}

// GRPC is the underlying server: Serve(listener), GracefulStop, Stop.
func (s *Server) GRPC() *grpc.Server { return s.grpc }

// Gatherer is the engine's metrics plus the server's own: calls by method
// and code, and the process's (process_*, go_*).
func (s *Server) Gatherer() prometheus.Gatherer {
	return prometheus.Gatherers{s.eng.Gatherer(), s.reg}
}

// intercept turns a panic in a handler into codes.Internal (the process and
// the other calls go on), counts calls and logs failures.
func (s *Server) intercept(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (resp any, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic in call", "method", info.FullMethod, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			resp, err = nil, status.Errorf(codes.Internal, "%s: internal error (panic: %v); the server goes on", info.FullMethod, p)
		}
		code := status.Code(err)
		s.rpcs.WithLabelValues(info.FullMethod, code.String()).Inc()
		if err != nil && code != codes.NotFound {
			s.log.Warn("call failed", "method", info.FullMethod, "code", code.String(), "err", status.Convert(err).Message())
		}
	}()
	return h(ctx, req)
}

// SubmitProof queues a job and returns at once.
func (s *Server) SubmitProof(ctx context.Context, r *pb.SubmitProofRequest) (*pb.SubmitProofResponse, error) {
	req, err := s.request(r)
	if err != nil {
		return nil, err
	}
	// The job outlives this call: Submit's jobs run without waiters.
	t, err := s.eng.Submit(context.WithoutCancel(ctx), req)
	if err != nil {
		return nil, engineError(err)
	}
	return &pb.SubmitProofResponse{JobId: t.JobID, QueuePosition: clampU32(t.QueuePosition), AssignedGpu: t.Device}, nil
}

// AwaitProof waits for a job, at most timeout_ms (0: until it ends); when
// the timeout passes first the status is TIMEOUT and the job goes on.
func (s *Server) AwaitProof(ctx context.Context, r *pb.AwaitProofRequest) (*pb.AwaitProofResponse, error) {
	if r.GetJobId() == "" {
		return nil, status.Error(codes.InvalidArgument, "job_id: empty")
	}
	actx := ctx
	if r.GetTimeoutMs() > 0 {
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeout(ctx, time.Duration(min(r.GetTimeoutMs(), uint64(1<<63-1)/uint64(time.Millisecond)))*time.Millisecond)
		defer cancel()
	}
	res, err := s.eng.Await(actx, r.GetJobId())
	if ctx.Err() != nil {
		// The caller went away or its own deadline passed: not a result.
		return nil, status.FromContextError(ctx.Err()).Err()
	}
	if res != nil && !final(res.State) && errors.Is(err, context.DeadlineExceeded) {
		out := response(res)
		out.Status = pb.AwaitProofResponse_TIMEOUT
		out.ErrorMessage = fmt.Sprintf("job %s still %s after timeout_ms %d", res.JobID, res.State, r.GetTimeoutMs())
		return out, nil
	}
	if err != nil {
		return nil, engineError(err)
	}
	return response(res), nil
}

// Prove submits and awaits; the call's deadline or cancellation cancels the
// job unless another caller waits on it.
func (s *Server) Prove(ctx context.Context, r *pb.ProveRequest) (*pb.ProveResponse, error) {
	if r.GetSubmit() == nil {
		return nil, status.Error(codes.InvalidArgument, "submit: missing (ProveRequest carries the SubmitProofRequest in field 1)")
	}
	req, err := s.request(r.GetSubmit())
	if err != nil {
		return nil, err
	}
	res, err := s.eng.Prove(ctx, req)
	if ctx.Err() != nil {
		return nil, status.FromContextError(ctx.Err()).Err()
	}
	if err != nil && (res == nil || !final(res.State)) {
		return nil, engineError(err)
	}
	return &pb.ProveResponse{Result: response(res)}, nil
}

// CancelProof stops a queued or running job.
func (s *Server) CancelProof(_ context.Context, r *pb.CancelProofRequest) (*pb.CancelProofResponse, error) {
	if r.GetJobId() == "" {
		return nil, status.Error(codes.InvalidArgument, "job_id: empty")
	}
	was, err := s.eng.Cancel(r.GetJobId())
	if err != nil {
		return nil, engineError(err)
	}
	return &pb.CancelProofResponse{WasRunning: was}, nil
}

// GetStatus maps the engine's Status onto cuzk.v1's (StatusResponse).
func (s *Server) GetStatus(context.Context, *pb.GetStatusRequest) (*pb.GetStatusResponse, error) {
	return StatusResponse(s.eng.Status()), nil
}

// GetMetrics is the Prometheus text exposition of Gatherer.
func (s *Server) GetMetrics(context.Context, *pb.GetMetricsRequest) (*pb.GetMetricsResponse, error) {
	text, err := MetricsText(s.Gatherer())
	if err != nil {
		return nil, status.Errorf(codes.Internal, "gathering metrics: %v", err)
	}
	return &pb.GetMetricsResponse{PrometheusText: text}, nil
}

// PreloadSRS makes a circuit's parameters resident.
func (s *Server) PreloadSRS(ctx context.Context, r *pb.PreloadSrsRequest) (*pb.PreloadSrsResponse, error) {
	if r.GetCircuitId() == "" {
		return nil, status.Error(codes.InvalidArgument, "circuit_id: empty (e.g. porep-32g)")
	}
	already, took, err := s.eng.Preload(ctx, r.GetCircuitId())
	if err != nil {
		return nil, engineError(err)
	}
	return &pb.PreloadSrsResponse{AlreadyLoaded: already, LoadTimeMs: ms(took)}, nil
}

// EvictSRS drops a circuit's resident parameters.
func (s *Server) EvictSRS(_ context.Context, r *pb.EvictSrsRequest) (*pb.EvictSrsResponse, error) {
	if r.GetCircuitId() == "" {
		return nil, status.Error(codes.InvalidArgument, "circuit_id: empty (e.g. porep-32g)")
	}
	was, freed, err := s.eng.Evict(r.GetCircuitId())
	if err != nil {
		return nil, engineError(err)
	}
	return &pb.EvictSrsResponse{WasLoaded: was, FreedBytes: freed}, nil
}

// MetricsText gathers g into the Prometheus text exposition format.
func MetricsText(g prometheus.Gatherer) (string, error) {
	mfs, err := g.Gather()
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	enc := expfmt.NewEncoder(&buf, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, mf := range mfs {
		if err := enc.Encode(mf); err != nil {
			return "", err
		}
	}
	return buf.String(), nil
}

// engineError maps the engine's errors to gRPC status codes.
func engineError(err error) error {
	code := codes.Internal
	switch {
	case errors.Is(err, engineapi.ErrBadInput):
		code = codes.InvalidArgument
	case errors.Is(err, engineapi.ErrUnsupportedKind):
		code = codes.Unimplemented
	case errors.Is(err, engineapi.ErrUnknownJob):
		code = codes.NotFound
	case errors.Is(err, engineapi.ErrTooLarge), errors.Is(err, engineapi.ErrQueueFull):
		code = codes.ResourceExhausted
	case errors.Is(err, engineapi.ErrDraining):
		code = codes.Unavailable
	case errors.Is(err, context.DeadlineExceeded):
		code = codes.DeadlineExceeded
	case errors.Is(err, context.Canceled):
		code = codes.Canceled
	}
	st := status.New(code, err.Error())
	if errors.Is(err, engineapi.ErrQueueFull) {
		// The one RESOURCE_EXHAUSTED that passes: say so the standard way
		// (google.rpc.RetryInfo), so a client can tell it from a job that
		// can never fit the budget.
		if d, derr := st.WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(QueueFullRetryDelay)}); derr == nil {
			st = d
		}
	}
	return st.Err()
}

// QueueFullRetryDelay is the retry delay a refusal for a full queue
// suggests (google.rpc.RetryInfo): a hint; the queue drains as fast as the
// provers prove.
const QueueFullRetryDelay = 10 * time.Second

func final(s engineapi.State) bool {
	return s == engineapi.StateCompleted || s == engineapi.StateFailed || s == engineapi.StateCancelled
}

// response is a Result as cuzk.v1's AwaitProofResponse.
func response(r *engineapi.Result) *pb.AwaitProofResponse {
	out := &pb.AwaitProofResponse{
		JobId:        r.JobID,
		QueueWaitMs:  ms(r.Timings.QueueWait),
		SrsLoadMs:    ms(r.Timings.ParamsLoad),
		SynthesisMs:  ms(r.Timings.Synthesis),
		GpuComputeMs: ms(r.Timings.Prove),
		TotalMs:      ms(r.Timings.Total),
	}
	switch r.State {
	case engineapi.StateCompleted:
		out.Status, out.Proof = pb.AwaitProofResponse_COMPLETED, r.Proof
	case engineapi.StateFailed:
		out.Status = pb.AwaitProofResponse_FAILED
	case engineapi.StateCancelled:
		out.Status = pb.AwaitProofResponse_CANCELLED
	default:
		out.Status = pb.AwaitProofResponse_UNKNOWN
	}
	if r.Err != nil {
		out.ErrorMessage = r.Err.Error()
	} else if r.State == engineapi.StateFailed || r.State == engineapi.StateCancelled {
		out.ErrorMessage = "job " + r.State.String()
	}
	return out
}

// StatusResponse is an engine Status as cuzk.v1's GetStatusResponse:
// devices as gpus (a quarantined one says so in its name), parameters as
// loaded_srs, the budget in use and its total as pinned_memory_bytes and
// pinned_memory_limit_bytes.
func StatusResponse(st engineapi.Status) *pb.GetStatusResponse {
	out := &pb.GetStatusResponse{
		TotalProofsCompleted:   st.Counters.Completed,
		TotalProofsFailed:      st.Counters.Failed,
		UptimeSeconds:          uint64(max(st.Uptime, 0) / time.Second),
		PinnedMemoryBytes:      st.Budget.Used,
		PinnedMemoryLimitBytes: st.Budget.Total,
	}
	for _, d := range st.Devices {
		name := d.Name
		switch {
		case d.MemoryLost > 0:
			name += fmt.Sprintf(" [quarantined: lost %d bytes of device memory]", d.MemoryLost)
		case d.Quarantined:
			name += fmt.Sprintf(" [quarantined after %d failures]", d.ConsecutiveFailures)
		}
		g := &pb.GPUStatus{Ordinal: clampU32(d.Ordinal), Name: name, VramTotalBytes: d.VRAMTotal,
			VramFreeBytes: d.VRAMFree, CurrentJobId: d.CurrentJobID}
		if d.CurrentJobID != "" {
			g.CurrentProofKind = d.CurrentKind.String()
		}
		out.Gpus = append(out.Gpus, g)
	}
	for _, p := range st.Params {
		tier := pb.SRSStatus_COLD
		switch p.Tier {
		case "hot":
			tier = pb.SRSStatus_HOT
		case "warm":
			tier = pb.SRSStatus_WARM
		}
		out.LoadedSrs = append(out.LoadedSrs, &pb.SRSStatus{CircuitId: p.CircuitID, Tier: tier,
			SizeBytes: p.Bytes, RefCount: clampU32(p.RefCount)})
	}
	for _, q := range st.Queues {
		out.Queues = append(out.Queues, &pb.QueueStatus{ProofKind: q.Kind.String(),
			Pending: clampU32(q.Pending), InProgress: clampU32(q.InProgress)})
	}
	return out
}

// ms is d in whole milliseconds (negative: 0).
func ms(d time.Duration) uint64 { return uint64(max(d, 0) / time.Millisecond) }

func clampU32(n int) uint32 { return uint32(min(max(n, 0), 1<<32-1)) }
