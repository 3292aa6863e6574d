// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

import (
	"context"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/service"
	"github.com/cuseal/cuseal/service/client"
	pb "github.com/cuseal/cuseal/service/cuzkv1"
)

func clientCommand() *cli.Command {
	conn := []cli.Flag{
		&cli.StringFlag{Name: "addr", Usage: "the server's `ADDR`: unix:///path or host:port", Value: service.DefaultListen(), EnvVars: []string{"CUSEAL_ADDR"}},
		&cli.StringFlag{Name: "tls-ca", Usage: "connect over TLS, trusting the CA in PEM `FILE`"},
		&cli.StringFlag{Name: "tls-cert", Usage: "client certificate, PEM `FILE` (mTLS; with --tls-key)"},
		&cli.StringFlag{Name: "tls-key", Usage: "private key of --tls-cert, PEM `FILE`"},
		&cli.DurationFlag{Name: "timeout", Usage: "give up the call after this long (prove: the server then cancels the job)", Value: 30 * time.Minute},
	}
	with := func(fs ...cli.Flag) []cli.Flag { return append(append([]cli.Flag{}, conn...), fs...) }
	return &cli.Command{
		Name:  "client",
		Usage: "talk to a cuzk.v1 server (cuseal serve, or Curio's cuzk): prove, status, cancel, metrics",
		Subcommands: []*cli.Command{
			{
				Name:  "prove",
				Usage: "prove a sector's C1 (raw C1 JSON or a lotus-bench Commit2In) on the server; the proof is written atomically",
				Flags: with(
					&cli.StringFlag{Name: "c1", Usage: "C1 JSON or lotus-bench Commit2In `FILE`", Required: true},
					&cli.StringFlag{Name: "out", Usage: "write the proof to `FILE` (default: hex on stdout)"},
					&cli.BoolFlag{Name: "hex", Usage: "write the proof file as hex instead of raw bytes"},
					&cli.BoolFlag{Name: "force", Usage: "replace an existing --out file"},
					minerFlag(),
					sectorFlag(),
					&cli.StringFlag{Name: "request-id", Usage: "idempotency key (default: porep-<miner>-<sector>, as Curio sends)"},
					&cli.BoolFlag{Name: "json", Usage: "print the result and timings as one JSON object"},
				),
				Action: clientProveAction,
			},
			{
				Name:   "status",
				Usage:  "the server's devices, resident parameters, queues and counters",
				Flags:  with(&cli.BoolFlag{Name: "json", Usage: "print GetStatusResponse as JSON"}),
				Action: clientStatusAction,
			},
			{
				Name:      "cancel",
				Usage:     "cancel a queued or running job",
				ArgsUsage: "JOB_ID",
				Flags:     with(),
				Action:    clientCancelAction,
			},
			{
				Name:   "metrics",
				Usage:  "print the server's metrics (Prometheus text)",
				Flags:  with(),
				Action: clientMetricsAction,
			},
		},
	}
}

// dialClient connects as the flags say.
func dialClient(c *cli.Context) (*client.Client, context.Context, context.CancelFunc, error) {
	opts := client.Options{}
	if ca, cert, key := c.String("tls-ca"), c.String("tls-cert"), c.String("tls-key"); ca != "" || cert != "" || key != "" {
		tc := &tls.Config{MinVersion: tls.VersionTLS12}
		if ca != "" {
			pool, err := service.LoadCertPool(ca)
			if err != nil {
				return nil, nil, nil, inputError(fmt.Errorf("--tls-ca %w", err))
			}
			tc.RootCAs = pool
		}
		if (cert == "") != (key == "") {
			return nil, nil, nil, usageErrorf("--tls-cert and --tls-key go together")
		}
		if cert != "" {
			pair, err := tls.LoadX509KeyPair(cert, key)
			if err != nil {
				return nil, nil, nil, inputError(fmt.Errorf("--tls-cert %s / --tls-key %s: %w", cert, key, err))
			}
			tc.Certificates = []tls.Certificate{pair}
		}
		opts.TLS = tc
	}
	cl, err := client.Dial(c.String("addr"), opts)
	if err != nil {
		return nil, nil, nil, usageErrorf("--addr %v", err)
	}
	ctx, cancel := context.WithTimeout(c.Context, c.Duration("timeout"))
	return cl, ctx, cancel, nil
}

// rpcError words a failed call: the server refused the input (exit 2), or
// the call failed (exit 3).
func rpcError(c *cli.Context, err error) error {
	st, ok := status.FromError(err)
	if !ok {
		return internalError(err)
	}
	msg := st.Message()
	switch st.Code() {
	case codes.InvalidArgument, codes.NotFound, codes.Unimplemented, codes.ResourceExhausted:
		return inputError(fmt.Errorf("server refused the request (%s): %s", st.Code(), msg))
	case codes.Unavailable:
		return internalError(fmt.Errorf("cannot reach the server at %s: %s", c.String("addr"), msg))
	}
	return internalError(fmt.Errorf("%s: %s", st.Code(), msg))
}

// clientProveOutput is what `cuseal client prove --json` prints.
type clientProveOutput struct {
	JobID     string `json:"job_id"`
	RequestID string `json:"request_id"`
	Proof     string `json:"proof"` // hex
	ProofFile string `json:"proof_file,omitempty"`
	Timings   struct {
		QueueWaitMs  uint64 `json:"queue_wait_ms"`
		SrsLoadMs    uint64 `json:"srs_load_ms"`
		SynthesisMs  uint64 `json:"synthesis_ms"`
		GpuComputeMs uint64 `json:"gpu_compute_ms"`
		TotalMs      uint64 `json:"total_ms"`
	} `json:"timings"`
}

func clientProveAction(c *cli.Context) error {
	path := c.String("c1")
	data, err := os.ReadFile(path)
	if err != nil {
		return inputError(fmt.Errorf("--c1: %w", fileError(err)))
	}
	raw, wrapper, err := stacked.UnwrapC1Input(data)
	if err != nil {
		return inputError(fmt.Errorf("--c1 %s: %w", path, err))
	}
	var head struct {
		RegisteredProof string `json:"registered_proof"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return inputError(fmt.Errorf("--c1 %s: not C1 JSON: %w", path, err))
	}
	cfg, err := stacked.ConfigByName(head.RegisteredProof)
	if err != nil || !cfg.Registered {
		return usageErrorf("--c1 %s: registered_proof %q is not a registered seal proof the server can prove", path, head.RegisteredProof)
	}
	miner, err := parseMiner(c.String("miner"))
	if err != nil {
		return inputError(err)
	}
	var sector uint64
	switch {
	case c.IsSet("sector"):
		sector = c.Uint64("sector")
	case wrapper != nil:
		sector = uint64(wrapper.SectorNum)
	default:
		return usageErrorf("--sector: required for a raw C1 (%s is not a Commit2In, which carries its sector number)", path)
	}
	outPath, err := checkOutFlag(c)
	if err != nil {
		return err
	}
	reqID := c.String("request-id")
	if reqID == "" {
		reqID = fmt.Sprintf("porep-%d-%d", miner, sector)
	}
	cl, ctx, cancel, err := dialClient(c)
	if err != nil {
		return err
	}
	defer cancel()
	defer cl.Close()
	res, err := cl.Prove(ctx, &pb.SubmitProofRequest{
		RequestId: reqID, ProofKind: pb.ProofKind_POREP_SEAL_COMMIT, SectorSize: cfg.SectorSize,
		RegisteredProof: uint64(cfg.Proof), Priority: pb.Priority_NORMAL, VanillaProof: data,
		SectorNumber: sector, MinerId: uint64(miner),
	})
	var re *client.ResultError
	switch {
	case errors.As(err, &re):
		return internalError(fmt.Errorf("proving %s: %v", path, re))
	case err != nil:
		return rpcError(c, err)
	}
	if err := writeProofOut(outPath, res.Proof, c.Bool("hex")); err != nil {
		return err
	}
	out := clientProveOutput{JobID: res.JobId, RequestID: reqID, Proof: hex.EncodeToString(res.Proof), ProofFile: outPath}
	out.Timings.QueueWaitMs, out.Timings.SrsLoadMs, out.Timings.SynthesisMs = res.QueueWaitMs, res.SrsLoadMs, res.SynthesisMs
	out.Timings.GpuComputeMs, out.Timings.TotalMs = res.GpuComputeMs, res.TotalMs
	if c.Bool("json") {
		return writeJSON(c, out)
	}
	if outPath == "" {
		printf(c, "%s\n", out.Proof)
		return nil
	}
	printf(c, "proof: %s (%d bytes, job %s, %.1fs: queue %dms, params %dms, synthesis %dms, prove %dms)\n", outPath, len(res.Proof),
		res.JobId, float64(res.TotalMs)/1000, res.QueueWaitMs, res.SrsLoadMs, res.SynthesisMs, res.GpuComputeMs)
	return nil
}

func clientStatusAction(c *cli.Context) error {
	cl, ctx, cancel, err := dialClient(c)
	if err != nil {
		return err
	}
	defer cancel()
	defer cl.Close()
	st, err := cl.Status(ctx)
	if err != nil {
		return rpcError(c, err)
	}
	if c.Bool("json") {
		b, err := protojson.MarshalOptions{Multiline: true, EmitUnpopulated: true, UseProtoNames: true}.Marshal(st)
		if err != nil {
			return internalError(err)
		}
		printf(c, "%s\n", b)
		return nil
	}
	printf(c, "up %s; %d completed, %d failed; memory budget %s of %s in use\n",
		(time.Duration(st.UptimeSeconds) * time.Second).String(), st.TotalProofsCompleted, st.TotalProofsFailed,
		humanBytes(st.PinnedMemoryBytes), humanBytes(st.PinnedMemoryLimitBytes))
	for _, g := range st.Gpus {
		job := "idle"
		if g.CurrentJobId != "" {
			job = fmt.Sprintf("job %s (%s)", g.CurrentJobId, g.CurrentProofKind)
		}
		printf(c, "device %d: %s: %s\n", g.Ordinal, g.Name, job)
	}
	for _, q := range st.Queues {
		printf(c, "queue %s: %d pending, %d in progress\n", q.ProofKind, q.Pending, q.InProgress)
	}
	for _, s := range st.LoadedSrs {
		printf(c, "params %s: %s, %s, %d job(s) using it\n", s.CircuitId, strings.ToLower(s.Tier.String()), humanBytes(s.SizeBytes), s.RefCount)
	}
	return nil
}

func clientCancelAction(c *cli.Context) error {
	if c.Args().Len() != 1 {
		return usageErrorf("want one JOB_ID (see 'cuseal client status' or the job_id of a submission)")
	}
	cl, ctx, cancel, err := dialClient(c)
	if err != nil {
		return err
	}
	defer cancel()
	defer cl.Close()
	id := c.Args().First()
	was, err := cl.Cancel(ctx, id)
	if err != nil {
		return rpcError(c, err)
	}
	state := "queued"
	if was {
		state = "running"
	}
	printf(c, "cancelled job %s (was %s)\n", id, state)
	return nil
}

func clientMetricsAction(c *cli.Context) error {
	cl, ctx, cancel, err := dialClient(c)
	if err != nil {
		return err
	}
	defer cancel()
	defer cl.Close()
	text, err := cl.Metrics(ctx)
	if err != nil {
		return rpcError(c, err)
	}
	printf(c, "%s", text)
	return nil
}
