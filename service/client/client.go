// SPDX-License-Identifier: Apache-2.0 OR MIT

package client

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	pb "github.com/cuseal/cuseal/service/cuzkv1"
)

// DefaultMaxMessageBytes is the message limit each way, Curio's.
const DefaultMaxMessageBytes = 256 << 20

// Options configure Dial.
type Options struct {
	// TLS, when set, connects over TLS (with a client certificate for
	// mTLS if it has one); nil: plain gRPC, as Curio connects.
	TLS *tls.Config
	// MaxMessageBytes limits one message each way (0: DefaultMaxMessageBytes).
	MaxMessageBytes int
}

// Client is a connection to a cuzk.v1 server. It is safe for concurrent use.
type Client struct {
	conn *grpc.ClientConn
	svc  pb.ProvingEngineClient
}

// Target is the gRPC target of an address: unix:///path as is, host:port
// as dns:///host:port (Curio's rule).
func Target(addr string) (string, error) {
	switch {
	case addr == "":
		return "", errors.New("empty address (want unix:///path or host:port)")
	case strings.HasPrefix(addr, "unix:"):
		return addr, nil
	case strings.Contains(addr, "://"):
		return "", fmt.Errorf("%q: want unix:///path or host:port", addr)
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return "", fmt.Errorf("%q: want unix:///path or host:port: %w", addr, err)
	}
	return "dns:///" + addr, nil
}

// Dial makes a client for addr; the connection is made on first use.
func Dial(addr string, opts Options) (*Client, error) {
	target, err := Target(addr)
	if err != nil {
		return nil, err
	}
	limit := opts.MaxMessageBytes
	if limit <= 0 {
		limit = DefaultMaxMessageBytes
	}
	creds := insecure.NewCredentials()
	if opts.TLS != nil {
		creds = credentials.NewTLS(opts.TLS)
	}
	conn, err := grpc.NewClient(target,
		grpc.WithTransportCredentials(creds),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(limit), grpc.MaxCallSendMsgSize(limit)))
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", addr, err)
	}
	return &Client{conn: conn, svc: pb.NewProvingEngineClient(conn)}, nil
}

// Close closes the connection.
func (c *Client) Close() error { return c.conn.Close() }

// Conn is the connection, for calls outside cuzk.v1's generated client.
func (c *Client) Conn() grpc.ClientConnInterface { return c.conn }

// Raw is the generated client, for the RPCs this package does not wrap.
func (c *Client) Raw() pb.ProvingEngineClient { return c.svc }

// Prove submits req and waits for its result (ctx's deadline bounds the
// wait; the server cancels the job when the call goes away). A result that
// is not COMPLETED is returned together with a *ResultError.
func (c *Client) Prove(ctx context.Context, req *pb.SubmitProofRequest) (*pb.AwaitProofResponse, error) {
	resp, err := c.svc.Prove(ctx, &pb.ProveRequest{Submit: req})
	if err != nil {
		return nil, err
	}
	return resp.GetResult(), Check(resp.GetResult())
}

// Submit queues req and returns at once.
func (c *Client) Submit(ctx context.Context, req *pb.SubmitProofRequest) (*pb.SubmitProofResponse, error) {
	return c.svc.SubmitProof(ctx, req)
}

// Await waits for a job, at most timeout (0: until it ends; the status is
// then TIMEOUT if it has not). Like Prove, a result that is not COMPLETED
// comes with a *ResultError.
func (c *Client) Await(ctx context.Context, jobID string, timeout time.Duration) (*pb.AwaitProofResponse, error) {
	resp, err := c.svc.AwaitProof(ctx, &pb.AwaitProofRequest{JobId: jobID, TimeoutMs: uint64(max(timeout, 0) / time.Millisecond)})
	if err != nil {
		return nil, err
	}
	return resp, Check(resp)
}

// Cancel stops a queued or running job; wasRunning says it had started.
func (c *Client) Cancel(ctx context.Context, jobID string) (wasRunning bool, err error) {
	resp, err := c.svc.CancelProof(ctx, &pb.CancelProofRequest{JobId: jobID})
	return resp.GetWasRunning(), err
}

// Status is the server's GetStatus.
func (c *Client) Status(ctx context.Context) (*pb.GetStatusResponse, error) {
	return c.svc.GetStatus(ctx, &pb.GetStatusRequest{})
}

// Metrics is the server's metrics in Prometheus text form.
func (c *Client) Metrics(ctx context.Context) (string, error) {
	resp, err := c.svc.GetMetrics(ctx, &pb.GetMetricsRequest{})
	return resp.GetPrometheusText(), err
}

// ResultError is a finished call whose job did not complete.
type ResultError struct {
	JobID   string
	Status  pb.AwaitProofResponse_Status
	Message string
}

func (e *ResultError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("job %s: %s", e.JobID, e.Status)
	}
	return fmt.Sprintf("job %s: %s: %s", e.JobID, e.Status, e.Message)
}

// Check is nil for a COMPLETED response with a proof, else a *ResultError.
func Check(r *pb.AwaitProofResponse) error {
	if r.GetStatus() == pb.AwaitProofResponse_COMPLETED && len(r.GetProof()) > 0 {
		return nil
	}
	msg := r.GetErrorMessage()
	if r.GetStatus() == pb.AwaitProofResponse_COMPLETED {
		msg = "COMPLETED without a proof"
	}
	return &ResultError{JobID: r.GetJobId(), Status: r.GetStatus(), Message: msg}
}
