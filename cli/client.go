// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"context"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/ipfs/go-cid"
	"github.com/urfave/cli/v2"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cuseal/cuseal/porep/post"
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
				Usage: "prove on the server what Curio sends: a sector's C1 (porep), a WinningPoSt, a WindowPoSt partition or a SnapDeals update; the proof is written atomically",
				Description: "--kind porep (default): --c1 FILE, raw C1 JSON or a lotus-bench Commit2In.\n" +
					"--kind winning-post|window-post: --vanilla FILE per sector (the bytes GenerateSingleVanillaProof\n" +
					"returns; WindowPoSt: one partition's sectors, in ascending sector number) with --proof-type,\n" +
					"--miner and --randomness; or --vanilla DIR as `cuseal post vanilla` writes it, whose vanilla.json\n" +
					"gives those three (flags that disagree are refused) and whose partition --partition K is sent.\n" +
					"--kind update (alias snap): --vanilla FILE per partition (or a DIR of partition-K.bin) with --proof-type or\n" +
					"--sector-size and --comm-r-old, --comm-r-new, --comm-d-new (CIDs or 64 hex digits; sent raw).",
				Flags: with(append(append([]cli.Flag{
					&cli.StringFlag{Name: "kind", Aliases: []string{"circuit"}, Usage: "what to prove: porep, winning-post, window-post or update (alias: snap)", Value: circuitPoRep},
					&cli.StringFlag{Name: "c1", Usage: "porep: C1 JSON or lotus-bench Commit2In `FILE`"},
					&cli.StringSliceFlag{Name: "vanilla", Usage: "PoSt: vanilla proof `FILE` per sector, or a DIR from cuseal post vanilla; update: partition proof FILE per partition, or a DIR"},
					&cli.StringFlag{Name: "proof-type", Aliases: []string{"registered-proof"}, Usage: "PoSt / update: registered proof, go-state-types `NUMBER or NAME`"},
					&cli.StringFlag{Name: "sector-size", Usage: "update: sector size (2KiB … 64GiB) instead of --proof-type"},
					&cli.StringFlag{Name: "randomness", Usage: "PoSt: challenge randomness, 64 `HEX` digits"},
					&cli.UintFlag{Name: "partition", Usage: "window-post: the partition `INDEX` (partition_index)"},
				}, commitmentFlags(false, "update: ")...), append(proofOutFlags(),
					minerFlag(),
					&cli.Uint64Flag{Name: "sector", Usage: "sector number: porep: required for a raw C1 (a Commit2In carries it); update: the <sector> of the request id",
						DefaultText: "porep: Commit2In.SectorNum; update: 0"},
					&cli.StringFlag{Name: "request-id", Usage: "idempotency key (default: porep-<miner>-<sector> or snap-<miner>-<sector>, as Curio sends; PoSt: none)"},
					&cli.BoolFlag{Name: "json", Usage: "print the result and timings as one JSON object"},
				)...)...),
				Action: clientProveAction,
			},
			{
				Name:  "status",
				Usage: "the server's devices, queues, resident parameters, memory and counters; with --metrics-addr also its jobs",
				Description: "Asks GetStatus over gRPC; with --metrics-addr HOST:PORT (serve's --metrics-listen) it reads\n" +
					"GET /status there instead, which adds the jobs and their stages, the queues per priority, each\n" +
					"device's busy fraction and the memory by use. --json prints the status document of\n" +
					"docs/service.md (schema cuseal.status.v1) either way; what GetStatus does not carry is null.",
				Flags: with(&cli.BoolFlag{Name: "json", Usage: "print the status document (GET /status's JSON, docs/service.md)"},
					&cli.StringFlag{Name: "metrics-addr", Usage: "read GET /status from serve's --metrics-listen `HOST:PORT` (or the http://HOST:PORT/ serve prints) instead of GetStatus (adds the jobs)"}),
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
	if st.Code() == codes.ResourceExhausted && retryable(st) {
		// A full queue passes (serve says so with google.rpc.RetryInfo):
		// exit 3, as a failed call, not 2, which says the input is wrong.
		return internalError(fmt.Errorf("server busy (%s): %s", st.Code(), msg))
	}
	switch st.Code() {
	case codes.InvalidArgument, codes.NotFound, codes.Unimplemented, codes.ResourceExhausted:
		return inputError(fmt.Errorf("server refused the request (%s): %s", st.Code(), msg))
	case codes.Unavailable:
		return internalError(fmt.Errorf("cannot reach the server at %s: %s", c.String("addr"), msg))
	}
	return internalError(fmt.Errorf("%s: %s", st.Code(), msg))
}

// checkRequestID refuses what serve would (service.check) and what gRPC
// cannot send (a protobuf string is UTF-8), naming the flag and the byte.
func checkRequestID(id string) error {
	for i := 0; i < len(id); {
		r, n := utf8.DecodeRuneInString(id[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			return usageErrorf("--request-id: byte %d (0x%02x) is not UTF-8", i, id[i])
		case !unicode.IsPrint(r):
			return usageErrorf("--request-id: byte %d is %U, not a printable character", i, r)
		}
		i += n
	}
	if len(id) > service.MaxRequestIDBytes {
		return usageErrorf("--request-id: %d bytes, at most %d", len(id), service.MaxRequestIDBytes)
	}
	return nil
}

// retryable reports whether st carries a google.rpc.RetryInfo.
func retryable(st *status.Status) bool {
	for _, d := range st.Details() {
		if _, ok := d.(*errdetails.RetryInfo); ok {
			return true
		}
	}
	return false
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

// clientKindFlags are the flags only some kinds (circuits) read; another kind refuses them.
var clientKindFlags = map[string][]string{
	circuitPoRep:       {"c1", "sector"},
	circuitWinningPoSt: {"vanilla", "proof-type", "randomness"},
	circuitWindowPoSt:  {"vanilla", "proof-type", "randomness", "partition"},
	circuitUpdate:      {"vanilla", "proof-type", "sector-size", "comm-r-old", "comm-r-new", "comm-d-new", "sector"},
}

func clientProveAction(c *cli.Context) error {
	kind := c.String("kind") // as given, for messages
	spec, err := lookupCircuit("kind", kind)
	if err != nil {
		return err
	}
	own := clientKindFlags[spec.name]
	for _, f := range []string{"c1", "sector", "vanilla", "proof-type", "sector-size", "randomness", "partition", "comm-r-old", "comm-r-new", "comm-d-new"} {
		if c.IsSet(f) && !slices.Contains(own, f) {
			return usageErrorf("--%s: not read by --kind %s", f, kind)
		}
	}
	// Other kinds read arguments as more --vanilla files, as post and update prove do.
	if spec.name == circuitPoRep && c.Args().Len() > 0 {
		return usageErrorf("unexpected arguments %q (give the C1 with --c1)", c.Args().Slice())
	}
	var req *pb.SubmitProofRequest
	var what string
	req, what, err = spec.request(c, spec)
	if err != nil {
		return err
	}
	if id := c.String("request-id"); id != "" {
		if err := checkRequestID(id); err != nil {
			return err
		}
		req.RequestId = id
	}
	outPath, err := checkOutFlag(c)
	if err != nil {
		return err
	}
	cl, ctx, cancel, err := dialClient(c)
	if err != nil {
		return err
	}
	defer cancel()
	defer cl.Close()
	res, err := proveWaiting(c, ctx, cl, req)
	var re *client.ResultError
	switch {
	case errors.As(err, &re):
		return internalError(fmt.Errorf("proving %s: %v", what, re))
	case err != nil:
		return rpcError(c, err)
	}
	if err := writeProofOut(c.App.ErrWriter, outPath, res.Proof, c.Bool("hex")); err != nil {
		return err
	}
	out := clientProveOutput{JobID: res.JobId, RequestID: req.RequestId, Proof: hex.EncodeToString(res.Proof), ProofFile: outPath}
	out.Timings.QueueWaitMs, out.Timings.SrsLoadMs, out.Timings.SynthesisMs = res.QueueWaitMs, res.SrsLoadMs, res.SynthesisMs
	out.Timings.GpuComputeMs, out.Timings.TotalMs = res.GpuComputeMs, res.TotalMs
	return reportProof(c, out, outPath, out.Proof, fmt.Sprintf("proof: %s (%d bytes, job %s, %.1fs: queue %dms, params %dms, synthesis %dms, prove %dms)",
		outPath, len(res.Proof), termSafe(res.JobId), float64(res.TotalMs)/1000, res.QueueWaitMs, res.SrsLoadMs, res.SynthesisMs, res.GpuComputeMs))
}

// clientPoRepRequest is Curio's POREP_SEAL_COMMIT request for --c1.
func clientPoRepRequest(c *cli.Context, _ *circuitSpec) (*pb.SubmitProofRequest, string, error) {
	path := c.String("c1")
	if path == "" {
		return nil, "", usageErrorf("--c1: required for --kind porep (C1 JSON or a Commit2In file)")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", inputError(fmt.Errorf("--c1: %w", fileError(err)))
	}
	raw, wrapper, err := stacked.UnwrapC1Input(data)
	if err != nil {
		return nil, "", inputError(fmt.Errorf("--c1 %s: %w", path, err))
	}
	var head struct {
		RegisteredProof string `json:"registered_proof"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, "", inputError(fmt.Errorf("--c1 %s: not C1 JSON: %w", path, err))
	}
	cfg, err := stacked.ConfigByName(head.RegisteredProof)
	if err != nil || !cfg.Registered {
		return nil, "", usageErrorf("--c1 %s: registered_proof %q is not a registered seal proof the server can prove", path, head.RegisteredProof)
	}
	miner, err := parseMiner(c.String("miner"))
	if err != nil {
		return nil, "", inputError(err)
	}
	var sector uint64
	switch {
	case c.IsSet("sector"):
		sector = c.Uint64("sector")
	case wrapper != nil:
		sector = uint64(wrapper.SectorNum)
	default:
		return nil, "", usageErrorf("--sector: required for a raw C1 (%s is not a Commit2In, which carries its sector number)", path)
	}
	return &pb.SubmitProofRequest{
		RequestId: fmt.Sprintf("porep-%d-%d", miner, sector), ProofKind: pb.ProofKind_POREP_SEAL_COMMIT, SectorSize: cfg.SectorSize,
		RegisteredProof: uint64(cfg.Proof), Priority: pb.Priority_NORMAL, VanillaProof: data,
		SectorNumber: sector, MinerId: uint64(miner),
	}, path, nil
}

// clientPoStRequest is Curio's WINNING_POST (CRITICAL) or
// WINDOW_POST_PARTITION (HIGH) request: from --vanilla files with
// --proof-type, --miner and --randomness, or from one --vanilla DIR whose
// vanilla.json gives them (and whose partition --partition is sent).
func clientPoStRequest(c *cli.Context, spec *circuitSpec) (*pb.SubmitProofRequest, string, error) {
	kind := spec.postKind
	partition := c.Uint("partition")
	in, err := readPostInputs(c, kind)
	if err != nil {
		return nil, "", err
	}
	if len(in.vanilla) == 0 {
		return nil, "", usageErrorf("--vanilla: no vanilla proof files (one per sector, or a directory from cuseal post vanilla)")
	}
	req := &pb.SubmitProofRequest{RegisteredProof: uint64(in.cfg.Proof), MinerId: uint64(in.miner), Randomness: in.rnd}
	if kind == post.Winning {
		req.ProofKind, req.Priority, req.VanillaProofs = pb.ProofKind_WINNING_POST, pb.Priority_CRITICAL, in.vanilla
		return req, in.cfg.Name, nil
	}
	if err := checkAscendingSectors(in); err != nil {
		return nil, "", err
	}
	if err := in.onlyPartition(int(partition)); err != nil {
		return nil, "", err
	}
	req.ProofKind, req.Priority, req.VanillaProofs, req.PartitionIndex = pb.ProofKind_WINDOW_POST_PARTITION, pb.Priority_HIGH, in.vanilla, uint32(partition)
	return req, fmt.Sprintf("%s partition %d", in.cfg.Name, partition), nil
}

// clientSnapRequest is Curio's SNAP_DEALS_UPDATE request (NORMAL): the
// partition proofs and the three commitments as raw 32 bytes.
func clientSnapRequest(c *cli.Context, _ *circuitSpec) (*pb.SubmitProofRequest, string, error) {
	cfg, err := updateProofType(c)
	if err != nil {
		return nil, "", err
	}
	comms, err := readUpdateCommitments(c, func(flag string) error {
		return usageErrorf("--%s: required for --kind %s (a CID or 64 hex digits)", flag, c.String("kind"))
	})
	if err != nil {
		return nil, "", err
	}
	in := &updateInputs{cfg: cfg, updateCommitments: comms}
	vanilla, err := readUpdateVanilla(c, in.cfg)
	if err != nil {
		return nil, "", err
	}
	miner, err := parseMiner(c.String("miner"))
	if err != nil {
		return nil, "", inputError(err)
	}
	sector := c.Uint64("sector")
	req := &pb.SubmitProofRequest{
		RequestId: fmt.Sprintf("snap-%d-%d", miner, sector), ProofKind: pb.ProofKind_SNAP_DEALS_UPDATE, Priority: pb.Priority_NORMAL,
		RegisteredProof: uint64(in.cfg.Proof), SectorSize: in.cfg.SectorSize, SectorNumber: sector, MinerId: uint64(miner),
		VanillaProofs: vanilla,
	}
	for _, f := range []struct {
		name string
		cid  cid.Cid
		raw  func(cid.Cid) ([]byte, error)
		dst  *[]byte
	}{{"comm-r-old", in.oldSealed, commcid.CIDToReplicaCommitmentV1, &req.CommROld},
		{"comm-r-new", in.newSealed, commcid.CIDToReplicaCommitmentV1, &req.CommRNew},
		{"comm-d-new", in.unsealed, commcid.CIDToDataCommitmentV1, &req.CommDNew}} {
		if *f.dst, err = f.raw(f.cid); err != nil {
			return nil, "", usageErrorf("--%s %s: %v", f.name, c.String(f.name), err)
		}
	}
	return req, in.cfg.Name + " update", nil
}

func clientStatusAction(c *cli.Context) error {
	var doc service.StatusDoc
	if a := c.String("metrics-addr"); a != "" {
		var err error
		if doc, err = fetchStatusDoc(c, a); err != nil {
			return err
		}
	} else {
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
		doc = service.StatusDocFromWire(st, time.Now())
	}
	if c.Bool("json") {
		b, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return internalError(err)
		}
		printf(c, "%s\n", b)
		return nil
	}
	printStatus(c, doc)
	return nil
}

// fetchStatusDoc reads GET http://addr/status (serve's --metrics-listen):
// addr is host:port, or the URL serve prints (http://host:port/).
func fetchStatusDoc(c *cli.Context, given string) (service.StatusDoc, error) {
	var doc service.StatusDoc
	addr := strings.TrimSuffix(strings.TrimPrefix(given, "http://"), "/")
	if _, _, err := net.SplitHostPort(addr); err != nil || strings.Contains(addr, "/") {
		return doc, usageErrorf("--metrics-addr %q: want host:port or http://host:port/ (serve's --metrics-listen)", given)
	}
	ctx, cancel := context.WithTimeout(c.Context, c.Duration("timeout"))
	defer cancel()
	url := "http://" + addr + "/status"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return doc, usageErrorf("--metrics-addr %q: %v", addr, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return doc, internalError(fmt.Errorf("--metrics-addr %s: cannot reach the server: %v", addr, err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return doc, internalError(fmt.Errorf("GET %s: %v", url, err))
	}
	if resp.StatusCode != http.StatusOK {
		return doc, internalError(fmt.Errorf("GET %s: %s: %s", url, resp.Status, strings.TrimSpace(string(body))))
	}
	if err := json.Unmarshal(body, &doc); err != nil || doc.Schema != service.StatusSchema {
		return doc, internalError(fmt.Errorf("GET %s: not a cuseal status document (want schema %s): %v", url, service.StatusSchema, err))
	}
	return doc, nil
}

// printStatus writes doc as lines of text: what a person reads. Every
// string from the server is termSafe: a request id or an error cannot
// drive the terminal.
func printStatus(c *cli.Context, d service.StatusDoc) {
	q := termSafe
	line := fmt.Sprintf("up %s; %d completed, %d failed", (time.Duration(d.UptimeSeconds) * time.Second).String(), d.Counters.Completed, d.Counters.Failed)
	if d.Counters.Cancelled != nil && d.Counters.Retries != nil {
		line += fmt.Sprintf(", %d cancelled, %d partition retries", *d.Counters.Cancelled, *d.Counters.Retries)
	}
	line += fmt.Sprintf("; memory budget %s of %s in use", humanBytes(d.Memory.UsedBytes), humanBytes(d.Memory.BudgetBytes))
	if u := d.Memory.ByUse; u != nil {
		line += fmt.Sprintf(" (parameters %s, synthesis %s, synthesized partitions %s)", humanBytes(u.ParamsBytes), humanBytes(u.SynthesisBytes), humanBytes(u.AssignmentsBytes))
	}
	if d.Draining != nil && *d.Draining {
		line += "; draining (stopping: no new work accepted)"
	}
	printf(c, "%s\n", line)
	for _, g := range d.Devices {
		job := "idle"
		switch {
		case g.State == "QUARANTINED":
			job = "quarantined"
		case g.CurrentJobID != "":
			job = fmt.Sprintf("job %s (%s)", q(g.CurrentJobID), q(g.CurrentKind))
		}
		if g.BusyFraction != nil {
			job += fmt.Sprintf(", busy %.0f%% of the last minute", 100**g.BusyFraction)
		}
		printf(c, "device %d: %s: %s\n", g.Ordinal, q(g.Name), job)
	}
	for _, qu := range d.Queues {
		var by []string
		for _, p := range qu.ByPriority {
			if p.Pending+p.InProgress > 0 {
				by = append(by, fmt.Sprintf("%s %d/%d", q(p.Priority), p.Pending, p.InProgress))
			}
		}
		extra := ""
		if len(by) > 0 {
			extra = " (" + strings.Join(by, ", ") + ")"
		}
		printf(c, "queue %s: %d pending, %d in progress%s\n", q(qu.Kind), qu.Pending, qu.InProgress, extra)
	}
	for _, s := range d.Params {
		printf(c, "params %s: %s, %s, %d job(s) using it\n", q(s.CircuitID), q(strings.ToLower(s.Tier)), humanBytes(s.Bytes), s.RefCount)
	}
	for _, j := range d.Jobs {
		line := fmt.Sprintf("job %s: %s %s %s, %d/%d partitions, %.1fs", q(j.JobID), q(j.Kind), q(j.Priority), q(j.State), j.PartitionsDone, j.PartitionsTotal, j.Stages.TotalSeconds)
		if j.RequestID != "" {
			line += ", request " + q(j.RequestID)
		}
		if len(j.Provers) > 0 {
			line += ", on " + q(strings.Join(j.Provers, ", "))
		}
		if j.Retries > 0 {
			line += fmt.Sprintf(", %d retries", j.Retries)
		}
		if j.Error != nil {
			line += ": " + q(*j.Error)
		}
		printf(c, "%s\n", line)
	}
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
	printf(c, "cancelled job %s (was %s)\n", termSafe(id), state)
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
