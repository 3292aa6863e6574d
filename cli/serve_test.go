// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cuseal/cuseal/service"
	"github.com/cuseal/cuseal/service/client"
	pb "github.com/cuseal/cuseal/service/cuzkv1"
)

// serveProc is `cuseal serve` in a child process (the test binary as cuseal).
type serveProc struct {
	cmd    *exec.Cmd
	addr   string
	mu     sync.Mutex
	stderr strings.Builder
	exited chan error
}

var listeningLine = regexp.MustCompile(`cuzk\.v1 on (\S+?),? `)

// startServe starts cuseal serve with args and waits until it listens.
func startServe(t *testing.T, args ...string) *serveProc {
	t.Helper()
	return startServeSim(t, "", args...)
}

// startServeSim is startServe with sim (CUSEAL_TEST_SERVE_SIM, "" none:
// see TestMain) plugging a simulated kind and prover into the engine.
func startServeSim(t *testing.T, sim string, args ...string) *serveProc {
	t.Helper()
	p := &serveProc{exited: make(chan error, 1)}
	p.cmd = exec.Command(os.Args[0], append([]string{"serve"}, args...)...)
	p.cmd.Env = append(os.Environ(), "CUSEAL_TEST_AS_CUSEAL=1", "CUSEAL_TEST_SERVE_SIM="+sim)
	pipe, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			p.mu.Lock()
			p.stderr.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			if m := listeningLine.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		io.Copy(io.Discard, pipe)
		p.exited <- p.cmd.Wait()
	}()
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
		}
	})
	select {
	case p.addr = <-addr:
	case err := <-p.exited:
		t.Fatalf("serve exited before listening: %v\n%s", err, p.log())
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not listen within a minute:\n%s", p.log())
	}
	return p
}

func (p *serveProc) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// wait waits for the process to exit and returns its exit code.
func (p *serveProc) wait(t *testing.T, within time.Duration) int {
	t.Helper()
	select {
	case err := <-p.exited:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(within):
		t.Fatalf("serve still running after %s:\n%s", within, p.log())
		return -1
	}
}

// stop sends sig, requires exit 0 within 60s and returns how long it took.
func (p *serveProc) stop(t *testing.T, sig os.Signal) time.Duration {
	t.Helper()
	start := time.Now()
	p.cmd.Process.Signal(sig)
	if code := p.wait(t, 60*time.Second); code != 0 {
		t.Fatalf("exit %d:\n%s", code, p.log())
	}
	return time.Since(start)
}

func dialT(t *testing.T, addr string) *client.Client {
	t.Helper()
	c, err := client.Dial(addr, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// doubleReq is a job for startServeSim's simulated kind (as POREP_SEAL_COMMIT).
func doubleReq(id string) *pb.SubmitProofRequest {
	return &pb.SubmitProofRequest{RequestId: id, ProofKind: pb.ProofKind_POREP_SEAL_COMMIT, VanillaProof: []byte("ok")}
}

// waitRunning polls GetStatus until a job is in progress.
func waitRunning(t *testing.T, c *client.Client) {
	t.Helper()
	waitStatus(t, c, "a job in progress", func(st *pb.GetStatusResponse) bool {
		return slices.ContainsFunc(st.Queues, func(q *pb.QueueStatus) bool { return q.InProgress > 0 })
	})
}

// waitProving polls GetStatus until a device is proving a job (past synthesis).
func waitProving(t *testing.T, c *client.Client) {
	t.Helper()
	waitStatus(t, c, "a job proving", func(st *pb.GetStatusResponse) bool {
		return slices.ContainsFunc(st.Gpus, func(g *pb.GPUStatus) bool { return g.CurrentJobId != "" })
	})
}

// waitStatus polls GetStatus for up to 30s until ok says yes.
func waitStatus(t *testing.T, c *client.Client, what string, ok func(*pb.GetStatusResponse) bool) {
	t.Helper()
	for range 600 {
		if st, err := c.Status(context.Background()); err == nil && ok(st) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no %s within 30s", what)
}

// TestServeDrain: SIGTERM with a job running: the job finishes and its
// caller gets the proof, new connections are refused, the socket is
// removed and the exit is 0. The listen address comes from --config.
func TestServeDrain(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "s.sock")
	conf := filepath.Join(dir, "serve.toml")
	if err := os.WriteFile(conf, []byte("listen = \"unix://"+sock+"\"\ndrain_timeout = \"60s\"\nretain_jobs = 10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startServeSim(t, "2,1s", "--config", conf)
	if p.addr != "unix://"+sock {
		t.Fatalf("listening on %s, want the --config address", p.addr)
	}
	if fi, err := os.Stat(sock); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket: %v %v", fi, err)
	}
	c := dialT(t, p.addr)
	res := make(chan *pb.AwaitProofResponse, 1)
	go func() {
		r, err := c.Prove(context.Background(), doubleReq("drain-1"))
		if err != nil {
			t.Errorf("Prove during drain: %v", err)
		}
		res <- r
	}()
	waitRunning(t, c)
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	r := <-res
	if r.GetStatus() != pb.AwaitProofResponse_COMPLETED || len(r.GetProof()) == 0 {
		t.Fatalf("the running job after SIGTERM: %v", r)
	}
	if code := p.wait(t, 60*time.Second); code != 0 {
		t.Fatalf("exit %d after SIGTERM:\n%s", code, p.log())
	}
	if _, err := os.Stat(sock); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket left behind: %v", err)
	}
	if l := p.log(); !strings.Contains(l, "draining") || !strings.Contains(l, "stopped (1 completed, 0 failed, 0 cancelled)") {
		t.Errorf("stderr:\n%s", l)
	}
}

// TestServeDrainTimeout: a job longer than --drain-timeout is cancelled
// (its caller gets CANCELLED) and the exit is still 0.
func TestServeDrainTimeout(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s.sock")
	p := startServeSim(t, "1,60s", "--listen", "unix://"+sock, "--drain-timeout", "300ms")
	c := dialT(t, p.addr)
	res := make(chan *pb.AwaitProofResponse, 1)
	go func() {
		r, _ := c.Prove(context.Background(), doubleReq("long"))
		res <- r
	}()
	waitRunning(t, c)
	if el := p.stop(t, syscall.SIGINT); el > 20*time.Second {
		t.Errorf("stopping took %s with --drain-timeout 300ms", el)
	}
	select {
	case r := <-res:
		if r.GetStatus() != pb.AwaitProofResponse_CANCELLED || !strings.Contains(r.GetErrorMessage(), "stopping") {
			t.Errorf("the long job: %v", r)
		}
	case <-time.After(10 * time.Second):
		t.Error("the caller of the cancelled job got no answer")
	}
	if !strings.Contains(p.log(), "0 completed, 0 failed, 1 cancelled") {
		t.Errorf("stderr:\n%s", p.log())
	}
}

// TestServeDrainTimeoutUninterruptible: a cancelled partition that cannot be
// interrupted (a CPU MSM) does not hold the exit past the drain timeout.
func TestServeDrainTimeoutUninterruptible(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s.sock")
	p := startServeSim(t, "1,30s,uninterruptible", "--listen", "unix://"+sock, "--drain-timeout", "300ms")
	c := dialT(t, p.addr)
	go c.Prove(context.Background(), doubleReq("long"))
	waitProving(t, c)
	if el := p.stop(t, syscall.SIGTERM); el > 15*time.Second {
		t.Errorf("stopping took %s with --drain-timeout 300ms", el)
	}
	if !strings.Contains(p.log(), "exiting without them") {
		t.Errorf("stderr does not say the partition was abandoned:\n%s", p.log())
	}
	if _, err := os.Stat(sock); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket is left: %v", err)
	}
}

// TestServeMissingParamsDir: a --params-dir that does not exist is warned
// about at start, not found only by the first proof.
func TestServeMissingParamsDir(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-params")
	p := startServeSim(t, "1,1ms", "--listen", "unix://"+filepath.Join(dir, "s.sock"), "--params-dir", missing)
	p.cmd.Process.Signal(syscall.SIGTERM)
	if code := p.wait(t, 30*time.Second); code != 0 {
		t.Fatalf("exit %d:\n%s", code, p.log())
	}
	if !strings.Contains(p.log(), "cuseal: warning: --params-dir "+missing+" is not a directory") {
		t.Errorf("no warning about the missing --params-dir:\n%s", p.log())
	}
}

// TestServeKill9Restart: kill -9 during a job leaves a stale socket; a new
// server replaces it and serves, and the client that was waiting writes no
// proof file, partial or temporary.
func TestServeKill9Restart(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "s.sock")
	p := startServeSim(t, "1,60s", "--listen", "unix://"+sock)
	outDir := filepath.Join(dir, "out")
	if err := os.Mkdir(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	// A client waiting on a job, writing its proof with the CLI's atomic writer.
	done := make(chan error, 1)
	go func() {
		c := dialT(t, p.addr)
		r, err := c.Prove(context.Background(), doubleReq("killed"))
		if err == nil {
			err = writeProofOut(io.Discard, filepath.Join(outDir, "proof"), r.Proof, false)
			if err == nil {
				err = errors.New("Prove succeeded on a killed server")
			}
		}
		done <- err
	}()
	waitRunning(t, dialT(t, p.addr))
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.wait(t, 30*time.Second)
	if err := <-done; err == nil {
		t.Fatal("the waiting client got no error")
	}
	if fi, err := os.Lstat(sock); err != nil || fi.Mode().Type() != os.ModeSocket {
		t.Fatalf("kill -9 should leave the socket: %v", err)
	}
	p2 := startServeSim(t, "1,10ms", "--listen", "unix://"+sock)
	r, err := dialT(t, p2.addr).Prove(context.Background(), doubleReq("after-restart"))
	if err != nil || r.Status != pb.AwaitProofResponse_COMPLETED {
		t.Fatalf("the restarted server: %v %v", r, err)
	}
	if ents, _ := os.ReadDir(outDir); len(ents) != 0 {
		t.Errorf("files left in the output directory: %v", ents)
	}
	p2.cmd.Process.Signal(syscall.SIGTERM)
	if code := p2.wait(t, 30*time.Second); code != 0 {
		t.Fatalf("exit %d:\n%s", code, p2.log())
	}
}

// TestServeUsageErrors: each bad setting is one line and exit 2, before anything listens.
func TestServeUsageErrors(t *testing.T) {
	dir := t.TempDir()
	badKey := filepath.Join(dir, "bad.toml")
	os.WriteFile(badKey, []byte("paramsdir = \"/x\"\n"), 0o644)
	badSyntax := filepath.Join(dir, "syntax.toml")
	os.WriteFile(badSyntax, []byte("listen = \n"), 0o644)
	badType := filepath.Join(dir, "type.toml")
	os.WriteFile(badType, []byte("budget = 1.5\n"), 0o644)
	badDuration := filepath.Join(dir, "duration.toml")
	os.WriteFile(badDuration, []byte("drain_timeout = 600\n"), 0o644)
	sock := "unix://" + filepath.Join(dir, "s.sock")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--listen", "0.0.0.0:0"}, "--insecure-listen"},
		{[]string{"serve", "--listen", "unix://relative.sock"}, "want unix:///absolute/path"},
		{[]string{"serve", "--listen", sock, "--config", badKey}, `unknown key "paramsdir"`},
		{[]string{"serve", "--listen", sock, "--config", badSyntax}, "line 1"},
		{[]string{"serve", "--listen", sock, "--config", badType}, "budget = 1.5"},
		{[]string{"serve", "--listen", sock, "--config", badDuration}, `drain_timeout = 600: want a duration string such as "10m"`},
		{[]string{"serve", "--listen", sock, "--config", filepath.Join(dir, "missing.toml")}, "--config"},
		{[]string{"serve", "--listen", sock, "--max-message", "1KiB"}, "--max-message"},
		{[]string{"serve", "--listen", sock, "--budget", "lots"}, "--budget"},
		{[]string{"serve", "--listen", sock, "--devices", "0,x"}, "--devices"},
		{[]string{"serve", "--listen", sock, "--synthesis-workers", "-1"}, "--synthesis-workers -1"},
		{[]string{"serve", "--listen", sock, "--tls-cert", filepath.Join(dir, "missing.pem")}, "--tls-cert and --tls-key go together"},
		{[]string{"serve", "--listen", sock, "--socket-group", "no-such-group-cuseal"}, "--socket-group no-such-group-cuseal"},
		{[]string{"serve", "--listen", "127.0.0.1:0", "--socket-group", "0"}, "--socket-group 0: applies to a unix socket"},
		{[]string{"serve", "--listen", sock, "--metrics-listen", "0.0.0.0:0"}, "--metrics-listen 0.0.0.0:0: not a loopback address"},
		{[]string{"serve", "--listen", sock, "--metrics-listen", "9821"}, "--metrics-listen \"9821\": want host:port"},
		{[]string{"client", "status", "--addr", sock, "--metrics-addr", "http://127.0.0.1:1/status"}, "--metrics-addr"},
		{[]string{"client", "cancel", "--addr", sock}, "JOB_ID"},
		{[]string{"client", "prove", "--addr", sock, "--c1", filepath.Join(dir, "missing.json")}, "--c1"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want 2: %s", tc.args, code, stderr)
			continue
		}
		wantOneLineError(t, stderr, tc.want)
	}
	if _, err := os.Stat(filepath.Join(dir, "s.sock")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused serve left its socket: %v", err)
	}
	// No server: exit 3, one line.
	code, _, stderr := runCLI(t, "client", "status", "--addr", sock, "--timeout", "2s")
	if code != exitInternal {
		t.Fatalf("client status without a server: exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "cannot reach the server")
}

// TestClientCommands: status (text and the JSON status document, over
// gRPC and from --metrics-addr, which equals GET /status), metrics and
// cancel against a served test double.
func TestClientCommands(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s.sock")
	p := startServeSim(t, "1,60s", "--listen", "unix://"+sock, "--metrics-listen", "127.0.0.1:0")
	m := regexp.MustCompile(`status page on http://(\S+)/ `).FindStringSubmatch(p.log())
	if m == nil {
		t.Fatalf("serve did not say where its status page is:\n%s", p.log())
	}
	httpAddr := m[1]
	c := dialT(t, p.addr)
	sub, err := c.Submit(context.Background(), doubleReq("to-cancel"))
	if err != nil {
		t.Fatal(err)
	}
	waitRunning(t, c)
	code, out, stderr := runCLI(t, "client", "status", "--addr", p.addr)
	if code != 0 || !strings.Contains(out, "queue POREP_SEAL_COMMIT: 0 pending, 1 in progress") || !strings.Contains(out, "device 0: double") {
		t.Fatalf("client status: exit %d\n%s%s", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "client", "status", "--addr", p.addr, "--json")
	wire := decodeStatusDoc(t, code, out, stderr)
	if wire.Source != service.SourceCuzk || wire.Jobs != nil || len(wire.Devices) != 1 || wire.Devices[0].Name != "double" ||
		wire.Queues[0].Kind != "POREP_SEAL_COMMIT" || wire.Queues[0].InProgress != 1 {
		t.Fatalf("client status --json over gRPC: %s", out)
	}
	code, out, stderr = runCLI(t, "client", "status", "--metrics-addr", httpAddr, "--json")
	full := decodeStatusDoc(t, code, out, stderr)
	resp, err := http.Get("http://" + httpAddr + "/status")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	direct := decodeStatusDoc(t, 0, string(body), "")
	if full.Source != service.SourceEngine || len(full.Jobs) != 1 || full.Jobs[0].JobID != sub.JobId || full.Jobs[0].State != "RUNNING" ||
		len(direct.Jobs) != 1 || direct.Jobs[0].JobID != sub.JobId || direct.Jobs[0].SubmittedAt != full.Jobs[0].SubmittedAt {
		t.Fatalf("client status --metrics-addr --json:\n%s\nGET /status:\n%s", out, body)
	}
	for i, d := range full.Devices {
		if w := wire.Devices[i]; d.Name != w.Name || d.Ordinal != w.Ordinal || d.BusyFraction == nil {
			t.Errorf("device %d: from /status %+v, over gRPC %+v", i, d, w)
		}
	}
	// host:port, or the URL serve prints.
	for _, a := range []string{httpAddr, "http://" + httpAddr + "/", "http://" + httpAddr} {
		code, out, stderr = runCLI(t, "client", "status", "--metrics-addr", a)
		if code != 0 || !strings.Contains(out, "job "+sub.JobId+": POREP_SEAL_COMMIT NORMAL RUNNING, 0/1 partitions") || !strings.Contains(out, "busy ") {
			t.Fatalf("client status --metrics-addr %s: exit %d\n%s%s", a, code, out, stderr)
		}
	}
	code, out, stderr = runCLI(t, "client", "metrics", "--addr", p.addr)
	if code != 0 || !strings.Contains(out, "cuseal_rpc_requests_total") {
		t.Fatalf("client metrics: exit %d\n%s%s", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "client", "cancel", "--addr", p.addr, sub.JobId)
	if code != 0 || !strings.Contains(out, "cancelled job "+sub.JobId+" (was running)") {
		t.Fatalf("client cancel: exit %d\n%s%s", code, out, stderr)
	}
	r, err := c.Await(context.Background(), sub.JobId, 0)
	if r.GetStatus() != pb.AwaitProofResponse_CANCELLED {
		t.Fatalf("after client cancel: %v %v", r, err)
	}
	code, _, stderr = runCLI(t, "client", "cancel", "--addr", p.addr, "job-unknown")
	if code != exitUsage {
		t.Fatalf("cancel of an unknown job: exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "NotFound")
	p.cmd.Process.Signal(syscall.SIGTERM)
	if code := p.wait(t, 30*time.Second); code != 0 {
		t.Fatalf("exit %d:\n%s", code, p.log())
	}
}

// decodeStatusDoc decodes a status document, failing on any key it does not have.
func decodeStatusDoc(t *testing.T, code int, out, stderr string) service.StatusDoc {
	t.Helper()
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var d service.StatusDoc
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil || d.Schema != service.StatusSchema {
		t.Fatalf("not a status document (%v):\n%s", err, out)
	}
	return d
}

// TestClientProveRefused: `cuseal client prove` sends a real C1 as Curio
// does; the server's engine refuses it for another miner (replica_id), the
// exit is 2 with one line, and no --out file is written.
func TestClientProveRefused(t *testing.T) {
	sector := sealedSample(t)
	sock := filepath.Join(t.TempDir(), "s.sock")
	p := startServe(t, "--listen", "unix://"+sock, "--params-dir", t.TempDir())
	out := filepath.Join(t.TempDir(), "proof")
	code, _, stderr := runCLI(t, "client", "prove", "--addr", p.addr, "--c1", filepath.Join(sector, FileC1),
		"--miner", "t01001", "--sector", "7", "--out", out)
	if code != exitUsage {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "InvalidArgument")
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("--out written for a refused request: %v", err)
	}
	code, _, stderr = runCLI(t, "client", "prove", "--addr", p.addr, "--c1", filepath.Join(sector, FileC1), "--out", out)
	if code != exitUsage {
		t.Fatalf("raw C1 without --sector: exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "--sector: required for a raw C1")
	p.cmd.Process.Signal(syscall.SIGTERM)
	if code := p.wait(t, 30*time.Second); code != 0 {
		t.Fatalf("exit %d:\n%s", code, p.log())
	}
}
