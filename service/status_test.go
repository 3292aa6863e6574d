// SPDX-License-Identifier: Apache-2.0 OR MIT

package service_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/porep/engine/enginetest"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/service"
	pb "github.com/cuseal/cuseal/service/cuzkv1"
)

// gateProver is enginetest's Prover that, while hold is set, proves
// nothing until its job is cancelled: "a proof that runs" for as long as a
// test looks at it.
type gateProver struct {
	enginetest.Prover
	hold *atomic.Bool
}

func (g *gateProver) Prove(ctx context.Context, w *engine.Work) (groth16.Proof, error) {
	if g.hold.Load() {
		<-ctx.Done()
		return groth16.Proof{}, ctx.Err()
	}
	return g.Prover.Prove(ctx, w)
}

// scene is a real engine (its test double kind) behind a Server and its
// HTTP handler, with finished jobs (one retried, one failed by a panic), a
// running job on both provers, a CRITICAL job waiting for a prover and a
// NORMAL job queued.
type scene struct {
	eng                       *engine.Engine
	srv                       *service.Server
	url                       string
	done, failed              string // job ids
	running, critical, queued string
}

func newScene(t *testing.T) *scene {
	t.Helper()
	hold := new(atomic.Bool)
	first := &gateProver{hold: hold, Prover: enginetest.Prover{ProverName: "double-0", PerPartition: 20 * time.Millisecond,
		Fail: func(n int, _ *engine.Work) error {
			if n == 1 {
				return errors.New("the first proof fails on purpose")
			}
			return nil
		}}}
	second := &gateProver{hold: hold, Prover: enginetest.Prover{ProverName: "double-1", PerPartition: 30 * time.Millisecond}}
	eng, err := engine.New(engine.Config{
		Provers:           []engine.Prover{first, second},
		BudgetBytes:       1 << 30,
		PartitionsWaiting: 1,
		// The simulated kind in POREP_SEAL_COMMIT's place, as `cuseal serve` tests plug it in.
		Families: map[engine.Kind]engine.Family{engine.KindPoRepC2: &enginetest.Family{Partitions: 3, SynthesisTime: 15 * time.Millisecond, PartitionBytes: 48 << 20, ParamsBytes: 96 << 20}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	s := &scene{eng: eng, srv: service.New(eng, service.Options{})}
	hs := httptest.NewServer(s.srv.MetricsHandler())
	t.Cleanup(hs.Close)
	s.url = hs.URL
	ctx := context.Background()
	req := func(id string, prio engine.Priority, mode string) *engine.Request {
		return &engine.Request{RequestID: id, Kind: engine.KindPoRepC2, Priority: prio, VanillaProof: []byte(mode)}
	}
	r, err := eng.Prove(ctx, req("porep-1000-7", 0, ""))
	if err != nil || r.State != engine.StateCompleted {
		t.Fatalf("the first job: %+v, %v", r, err)
	}
	s.done = r.JobID
	// A panic's error carries its stack (source paths): the status must not.
	r, err = eng.Prove(ctx, req("porep-1000-8", 0, "panic"))
	if err != nil || r.State != engine.StateFailed || !strings.Contains(r.Err.Error(), "goroutine") {
		t.Fatalf("the panicking job: %+v, %v", r, err)
	}
	s.failed = r.JobID

	hold.Store(true)
	tk, err := eng.Submit(ctx, req("porep-1000-9", 0, ""))
	if err != nil {
		t.Fatal(err)
	}
	s.running = tk.JobID
	s.wait(t, "two partitions of the running job proving", func(st engine.Status) bool {
		j := findJob(st, s.running)
		return j != nil && countParts(j, "proving") == 2
	})
	if tk, err = eng.Submit(ctx, req("winning-1000", engine.PriorityCritical, "")); err != nil {
		t.Fatal(err)
	}
	s.critical = tk.JobID
	if tk, err = eng.Submit(ctx, req("porep-1000-10", 0, "")); err != nil {
		t.Fatal(err)
	}
	s.queued = tk.JobID
	s.wait(t, "the CRITICAL job synthesized", func(st engine.Status) bool {
		j := findJob(st, s.critical)
		return j != nil && countParts(j, "synthesized") == 1
	})
	return s
}

func (s *scene) wait(t *testing.T, what string, ok func(engine.Status) bool) {
	t.Helper()
	for range 1000 {
		if ok(s.eng.Status()) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no %s within 10 s: %+v", what, s.eng.Status().Jobs)
}

func findJob(st engine.Status, id string) *engine.JobStatus {
	for i := range st.Jobs {
		if st.Jobs[i].JobID == id {
			return &st.Jobs[i]
		}
	}
	return nil
}

func countParts(j *engine.JobStatus, state string) int {
	n := 0
	for _, p := range j.Partitions {
		if p.State == state {
			n++
		}
	}
	return n
}

// get fetches url and returns the status code, the Content-Type and the body.
func get(t *testing.T, url string) (int, http.Header, []byte) {
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
	return resp.StatusCode, resp.Header, b
}

// decodeStrict decodes b into a StatusDoc, failing on a key it does not have.
func decodeStrict(t *testing.T, b []byte) service.StatusDoc {
	t.Helper()
	var d service.StatusDoc
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("not a StatusDoc: %v\n%.3000s", err, b)
	}
	return d
}

var snake = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// nullable are the keys /status may leave null: times of what has not happened, no error.
var nullable = map[string]bool{"started_at": true, "ended_at": true, "error": true, "synthesis_started_at": true,
	"proving_started_at": true, "proving_ended_at": true, "last_used_at": true}

// walkKeys checks every key of v (decoded JSON) is snake_case and that
// only nullable keys are null.
func walkKeys(t *testing.T, path string, v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if !snake.MatchString(k) {
				t.Errorf("%s.%s: not a snake_case key", path, k)
			}
			if e == nil && !nullable[k] {
				t.Errorf("%s.%s: null in the engine's status", path, k)
			}
			walkKeys(t, path+"."+k, e)
		}
	case []any:
		for i, e := range x {
			walkKeys(t, path+"["+strconv.Itoa(i)+"]", e)
		}
	}
}

// TestStatusJSON: GET /status is the documented StatusDoc: snake_case keys,
// cuzk.v1's names for kinds, priorities and states, RFC 3339 times, seconds
// and bytes; the jobs with their stages, the devices with their busy
// fraction and job, the queues per priority, the memory by use; no stack,
// no request payload.
func TestStatusJSON(t *testing.T) {
	s := newScene(t)
	code, h, b := get(t, s.url+"/status")
	if code != http.StatusOK || h.Get("Content-Type") != "application/json" {
		t.Fatalf("GET /status: %d %s", code, h.Get("Content-Type"))
	}
	var generic map[string]any
	if err := json.Unmarshal(b, &generic); err != nil {
		t.Fatal(err)
	}
	walkKeys(t, "status", generic)
	for _, leak := range []string{"goroutine", ".go:", "panic(", "vanilla"} {
		if bytes.Contains(b, []byte(leak)) {
			t.Errorf("/status contains %q", leak)
		}
	}
	d := decodeStrict(t, b)
	if d.Schema != service.StatusSchema || d.Source != service.SourceEngine || d.UptimeSeconds <= 0 || d.Draining == nil || *d.Draining {
		t.Fatalf("head: %q %q %v draining %v", d.Schema, d.Source, d.UptimeSeconds, d.Draining)
	}
	now := parseTime(t, "time", d.Time)
	if c := d.Counters; c.Completed != 1 || c.Failed != 1 || *c.Cancelled != 0 || *c.Retries != 1 {
		t.Errorf("counters %+v", c)
	}
	if m := d.Memory; m.ByUse == nil || m.BudgetBytes != 1<<30 || m.UsedBytes != m.ByUse.ParamsBytes+m.ByUse.SynthesisBytes+m.ByUse.AssignmentsBytes ||
		m.ByUse.ParamsBytes != 96<<20 || m.ByUse.AssignmentsBytes < 3*48<<20 {
		t.Errorf("memory %+v by use %+v: want 96 MiB of parameters and at least 3 partitions of 48 MiB", m, m.ByUse)
	}
	if len(d.Devices) != 2 {
		t.Fatalf("devices %+v", d.Devices)
	}
	for _, dv := range d.Devices {
		if dv.State != "BUSY" || dv.CurrentJobID != s.running || dv.CurrentKind != "POREP_SEAL_COMMIT" || *dv.Backend != "double" ||
			*dv.BusyFraction <= 0 || *dv.BusyFraction > 1 || *dv.BusySecondsTotal <= 0 {
			t.Errorf("device %+v: want BUSY with %s", dv, s.running)
		}
	}
	q := d.Queues[0]
	want := []service.StatusPriorityQueue{{Priority: "LOW"}, {Priority: "NORMAL", Pending: 1, InProgress: 1},
		{Priority: "HIGH"}, {Priority: "CRITICAL", InProgress: 1}}
	if q.Kind != "POREP_SEAL_COMMIT" || q.Pending != 1 || q.InProgress != 2 || !slices.Equal(q.ByPriority, want) {
		t.Errorf("queue %+v, want 1 pending and 2 in progress by priority %+v", q, want)
	}
	if kinds := len(d.Queues); kinds != 4 || d.Queues[0].Kind != "POREP_SEAL_COMMIT" || d.Queues[1].Kind != "WINNING_POST" {
		t.Errorf("queues %+v", d.Queues)
	}
	jobs := map[string]service.StatusJob{}
	for _, j := range d.Jobs {
		jobs[j.JobID] = j
		submitted := parseTime(t, "submitted_at", j.SubmittedAt)
		if submitted.After(now) || j.Kind != "POREP_SEAL_COMMIT" || j.PartitionsTotal != 3 {
			t.Errorf("job %+v", j)
		}
	}
	if len(jobs) != 5 {
		t.Fatalf("%d jobs, want 5", len(d.Jobs))
	}
	done := jobs[s.done]
	st := done.Stages
	if done.State != "COMPLETED" || done.Priority != "NORMAL" || done.RequestID != "porep-1000-7" || done.PartitionsDone != 3 ||
		done.Retries != 1 || done.StartedAt == nil || done.EndedAt == nil || done.Error != nil ||
		st.SynthesisSeconds < 3*0.015 || st.ProvingSeconds < 3*0.02 || st.TotalSeconds < st.QueueWaitSeconds ||
		len(done.Provers) == 0 || st.VerificationSeconds < 0 {
		t.Errorf("completed job %+v", done)
	}
	for _, p := range done.Partitions {
		ss, ps, pe := parseTime(t, "synthesis_started_at", *p.SynthesisStartedAt), parseTime(t, "proving_started_at", *p.ProvingStartedAt), parseTime(t, "proving_ended_at", *p.ProvingEndedAt)
		if p.State != "PROVEN" || ps.Before(ss) || !pe.After(ps) || p.SynthesisSeconds <= 0 || p.ProvingSeconds <= 0 {
			t.Errorf("completed job's partition %+v", p)
		}
	}
	failed := jobs[s.failed]
	if failed.State != "FAILED" || failed.Error == nil || !strings.Contains(*failed.Error, "panics on purpose") || strings.Contains(*failed.Error, "\n") {
		t.Errorf("failed job %+v (error %v): want the panic's first line", failed, failed.Error)
	}
	run := jobs[s.running]
	if run.State != "RUNNING" || run.EndedAt != nil || run.StartedAt == nil || run.PartitionsDone != 0 ||
		!slices.Equal(run.Provers, []string{"double-0", "double-1"}) && !slices.Equal(run.Provers, []string{"double-1", "double-0"}) {
		t.Errorf("running job %+v", run)
	}
	var proving int
	for _, p := range run.Partitions {
		if p.State == "PROVING" {
			proving++
			if p.ProvingStartedAt == nil || p.ProvingEndedAt != nil || p.ProvingSeconds != 0 {
				t.Errorf("a partition in progress: %+v", p)
			}
		}
	}
	if proving != 2 {
		t.Errorf("running job: %d partitions PROVING, want 2", proving)
	}
	// The CRITICAL job's partition waits for a prover (both prove the running job).
	if c := jobs[s.critical]; c.Priority != "CRITICAL" || c.State != "RUNNING" || c.Stages.ProverWaitSeconds <= 0 ||
		c.Partitions[0].State != "SYNTHESIZED" || c.Partitions[0].ProverWaitSeconds != c.Stages.ProverWaitSeconds {
		t.Errorf("critical job %+v: want its synthesized partition's wait for a prover in its stages", c)
	}
	if qd := jobs[s.queued]; qd.State != "QUEUED" || qd.StartedAt != nil || qd.Stages.QueueWaitSeconds <= 0 {
		t.Errorf("queued job %+v", qd)
	}
	// prove_wait_seconds: fixed once a partition proved, counting up until then.
	if c, r := jobs[s.critical], jobs[s.running]; c.Stages.ProveWaitSeconds < c.Stages.ProverWaitSeconds ||
		r.Stages.ProveWaitSeconds <= 0 || r.Stages.ProveWaitSeconds >= r.Stages.TotalSeconds {
		t.Errorf("prove_wait_seconds: critical %+v, running %+v", c.Stages, r.Stages)
	}
	for _, dv := range d.Devices {
		if dv.CriticalOnly == nil {
			t.Errorf("device %s: critical_only is null in the engine's own status", dv.Name)
		}
	}
	if len(d.Params) != 1 || d.Params[0].CircuitID != "double" || *d.Params[0].File != "double.params" || d.Params[0].Tier != "WARM" ||
		d.Params[0].Bytes != 96<<20 || d.Params[0].RefCount != 2 {
		t.Errorf("params %+v: want the double's, used by the two started jobs", d.Params)
	}

	// ?jobs=N: every running job whatever N, then the queued, then the
	// most recently finished; a bad N is refused naming it.
	for n, want := range map[string][]string{
		"0": {s.running, s.critical},
		"2": {s.running, s.critical},
		"3": {s.running, s.critical, s.queued},
		"4": {s.failed, s.running, s.critical, s.queued},
		"9": {s.done, s.failed, s.running, s.critical, s.queued},
	} {
		_, _, b := get(t, s.url+"/status?jobs="+n)
		var ids []string
		for _, j := range decodeStrict(t, b).Jobs {
			ids = append(ids, j.JobID)
		}
		if !slices.Equal(ids, want) {
			t.Errorf("?jobs=%s: jobs %v, want %v", n, ids, want)
		}
	}
	for bad, why := range map[string]string{"-1": "want a whole number", "x": "want a whole number", "1e3": "want a whole number",
		"99999999999999999999": "out of range"} {
		if code, _, b := get(t, s.url+"/status?jobs="+bad); code != http.StatusBadRequest || !strings.Contains(string(b), `jobs="`+bad+`": `+why) {
			t.Errorf("?jobs=%s: %d %s, want 400 saying %q", bad, code, b, why)
		}
	}
}

// TestSelectJobs: ?jobs=N and the page (PageJobs) keep every running job
// however many are queued behind it, then the queued that start first,
// then the most recently finished, in the document's order.
func TestSelectJobs(t *testing.T) {
	var jobs []engine.JobStatus
	add := func(id string, st engine.State, prio engine.Priority) {
		jobs = append(jobs, engine.JobStatus{JobID: id, State: st, Priority: prio})
	}
	add("done-1", engine.StateCompleted, engine.PriorityNormal)
	add("failed-2", engine.StateFailed, engine.PriorityNormal)
	add("run-3", engine.StateRunning, engine.PriorityNormal)
	add("run-4", engine.StateRunning, engine.PriorityNormal)
	for i := range 60 {
		add("queued-"+strconv.Itoa(5+i), engine.StateQueued, engine.PriorityNormal)
	}
	add("critical-65", engine.StateQueued, engine.PriorityCritical)
	ids := func(js []engine.JobStatus) []string {
		var out []string
		for _, j := range js {
			out = append(out, j.JobID)
		}
		return out
	}
	if got := ids(service.SelectJobs(jobs, 1)); !slices.Equal(got, []string{"run-3", "run-4"}) {
		t.Errorf("1 of 2 running and 61 queued: %v, want both running", got)
	}
	if got := ids(service.SelectJobs(jobs, 4)); !slices.Equal(got, []string{"run-3", "run-4", "queued-5", "critical-65"}) {
		t.Errorf("4: %v, want the running, then the CRITICAL and the oldest NORMAL queued", got)
	}
	if got := service.SelectJobs(jobs, service.PageJobs); len(got) != service.PageJobs || got[0].JobID != "run-3" || got[len(got)-1].JobID != "critical-65" {
		t.Errorf("the page's %d: %v", service.PageJobs, ids(got))
	}
	jobs = jobs[:4]
	if got := ids(service.SelectJobs(jobs, 3)); !slices.Equal(got, []string{"failed-2", "run-3", "run-4"}) {
		t.Errorf("3 of 2 finished and 2 running: %v, want the most recently finished and the running", got)
	}
	if got := service.SelectJobs(jobs, -1); len(got) != 4 {
		t.Errorf("-1: %v, want all", ids(got))
	}
}

// TestStatusDocBaseNames: a failure's message and the parameters name
// files by their base name, the partitions of a cancelled job are
// CANCELLED, and a draining engine says so.
func TestStatusDocBaseNames(t *testing.T) {
	const dir = "/var/tmp/filecoin-proof-parameters/"
	const file = "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.params"
	now := time.Now()
	st := engine.Status{Draining: true, Params: []engine.ParamsStatus{{CircuitID: "winning-2k", File: dir + file}},
		Jobs: []engine.JobStatus{
			{JobID: "job-1", State: engine.StateFailed, Submitted: now, Ended: now, Partitions: []engine.PartitionStatus{{State: "failed"}},
				Error: "engine: job job-1: partition 0: parameter load: porep: " + dir + file + ": groth16: " + dir + file + ": section h at byte offset 13636: truncated\ngoroutine 1 [running]:\n/root/go/src/x.go:12"},
			{JobID: "job-2", State: engine.StateCancelled, Submitted: now, Ended: now, Partitions: []engine.PartitionStatus{{State: "cancelled"}, {State: "cancelled"}},
				Error: "engine: job job-2 cancelled"},
		}}
	d := service.NewStatusDoc(st, now, -1)
	want := "engine: job job-1: partition 0: parameter load: porep: " + file + ": groth16: " + file + ": section h at byte offset 13636: truncated"
	if e := d.Jobs[0].Error; e == nil || *e != want {
		t.Errorf("error %v,\nwant %q", e, want)
	}
	if f := d.Params[0].File; f == nil || *f != file {
		t.Errorf("params file %v, want %s", f, file)
	}
	if p := d.Jobs[1].Partitions; p[0].State != "CANCELLED" || p[1].State != "CANCELLED" || d.Jobs[0].Partitions[0].State != "FAILED" {
		t.Errorf("partitions of the cancelled job %+v and of the failed one %+v", p, d.Jobs[0].Partitions)
	}
	if d.Draining == nil || !*d.Draining {
		t.Errorf("draining %v, want true", d.Draining)
	}
	for in, out := range map[string]string{
		"open /a/b/c.vk: no such file":             "open c.vk: no such file",
		`read "/a/b c": EOF`:                       `read "b c": EOF`,
		"path=/srv/params/x.params, size 3":        "path=x.params, size 3",
		"(/x/y/z)":                                 "(z)",
		"a/b/c relative, 1/2 of it, http://host/x": "a/b/c relative, 1/2 of it, http://host/x",
	} {
		if got := service.BaseNames(in); got != out {
			t.Errorf("BaseNames(%q) = %q, want %q", in, got, out)
		}
	}
}

func parseTime(t *testing.T, field, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatalf("%s %q: not RFC 3339: %v", field, s, err)
	}
	return tm
}

// TestStatusDocFromWire: what GetStatus carries, as a StatusDoc, equals
// /status's document on every field the wire has; the others are null.
func TestStatusDocFromWire(t *testing.T) {
	s := newScene(t)
	st := s.eng.Status()
	now := time.Now()
	full := service.NewStatusDoc(st, now, -1)
	wire := service.StatusDocFromWire(service.StatusResponse(st), now)
	if wire.Source != service.SourceCuzk || wire.Jobs != nil || wire.Memory.ByUse != nil || wire.Counters.Cancelled != nil {
		t.Fatalf("what the wire lacks is not null: %+v", wire)
	}
	if wire.Counters.Completed != full.Counters.Completed || wire.Counters.Failed != full.Counters.Failed ||
		wire.Memory.BudgetBytes != full.Memory.BudgetBytes || wire.Memory.UsedBytes != full.Memory.UsedBytes {
		t.Errorf("counters or memory: wire %+v %+v, engine %+v %+v", wire.Counters, wire.Memory, full.Counters, full.Memory)
	}
	if len(wire.Devices) != len(full.Devices) || len(wire.Queues) != len(full.Queues) || len(wire.Params) != len(full.Params) {
		t.Fatalf("lengths differ: wire %+v, engine %+v", wire, full)
	}
	for i, w := range wire.Devices {
		f := full.Devices[i]
		if w.Ordinal != f.Ordinal || w.Name != f.Name || w.State != f.State || w.CurrentJobID != f.CurrentJobID || w.CurrentKind != f.CurrentKind || w.BusyFraction != nil {
			t.Errorf("device %d: wire %+v, engine %+v", i, w, f)
		}
	}
	for i, w := range wire.Queues {
		f := full.Queues[i]
		if w.Kind != f.Kind || w.Pending != f.Pending || w.InProgress != f.InProgress || w.ByPriority != nil {
			t.Errorf("queue %d: wire %+v, engine %+v", i, w, f)
		}
	}
	for i, w := range wire.Params {
		f := full.Params[i]
		if w.CircuitID != f.CircuitID || w.Tier != f.Tier || w.Bytes != f.Bytes || w.RefCount != f.RefCount || w.File != nil {
			t.Errorf("params %d: wire %+v, engine %+v", i, w, f)
		}
	}
	// A quarantined device is named so on the wire; the document says QUARANTINED.
	q := service.StatusDocFromWire(&pb.GetStatusResponse{Gpus: []*pb.GPUStatus{{Ordinal: 1, Name: "cuda:1 NVIDIA H200 [quarantined after 2 failures]"}}}, now)
	if d := q.Devices[0]; d.State != "QUARANTINED" || d.Name != "cuda:1 NVIDIA H200" {
		t.Errorf("quarantined device: %+v", d)
	}
}

var scriptRE = regexp.MustCompile(`(?s)<script>(.*)</script>`)

// TestStatusPageHTML: GET / is one self-contained HTML page whose server-
// rendered tables show the jobs, devices and queues without JavaScript;
// its only script is allowed by hash and it loads nothing else.
func TestStatusPageHTML(t *testing.T) {
	s := newScene(t)
	code, h, b := get(t, s.url+"/")
	page := string(b)
	if code != http.StatusOK || h.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("GET /: %d %s", code, h.Get("Content-Type"))
	}
	m := scriptRE.FindStringSubmatch(page)
	if m == nil || strings.Count(page, "<script") != 1 {
		t.Fatal("want exactly one inline script")
	}
	sum := sha256.Sum256([]byte(m[1]))
	csp := h.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") {
		t.Errorf("CSP %q does not allow the page's script by its hash", csp)
	}
	for _, ext := range []string{"http://", "https://", " src=", "<link", "@import", "url("} {
		if strings.Contains(page, ext) {
			t.Errorf("the page refers to something outside it: %q", ext)
		}
	}
	for _, leak := range []string{"goroutine", ".go:"} {
		if strings.Contains(page, leak) {
			t.Errorf("the page contains %q", leak)
		}
	}
	row := regexp.MustCompile(`<tr data-job="` + regexp.QuoteMeta(s.running) + `">(.*?)</tr>`).FindStringSubmatch(page)
	if row == nil || !strings.Contains(row[1], "RUNNING") || !strings.Contains(row[1], "POREP_SEAL_COMMIT") || !strings.Contains(row[1], "0 / 3") {
		t.Errorf("the running job's row: %q", row)
	}
	for _, want := range []string{s.done, s.failed, s.queued, "QUEUED", "COMPLETED", "FAILED", "CRITICAL",
		`<span class="state BUSY">BUSY</span>`, "double-0", "double.params", "96.0 MiB", "1.00 GiB"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if code, _, _ := get(t, s.url+"/nothing-here"); code != http.StatusNotFound {
		t.Errorf("GET /nothing-here: %d, want 404", code)
	}
	for _, path := range []string{"/", "/status", "/metrics"} {
		resp, err := http.Post(s.url+path, "text/plain", strings.NewReader("x"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || !strings.Contains(resp.Header.Get("Allow"), "GET") {
			t.Errorf("POST %s: %s, Allow %q; want 405 allowing GET", path, resp.Status, resp.Header.Get("Allow"))
		}
	}
}

// TestMetricsHostCheck: on a loopback address the handler answers only to
// a loopback Host with its port (421 to another: a DNS name rebound to
// 127.0.0.1 does not let a web page read it); /metrics carries the
// process's own series.
func TestMetricsHostCheck(t *testing.T) {
	hs := httptest.NewServer(service.New(newFake(true), service.Options{}).MetricsHandler())
	defer hs.Close()
	_, port, _ := strings.Cut(strings.TrimPrefix(hs.URL, "http://"), ":")
	for host, want := range map[string]int{
		"127.0.0.1:" + port:         http.StatusOK,
		"localhost:" + port:         http.StatusOK,
		"LocalHost:" + port:         http.StatusOK,
		"[::1]:" + port:             http.StatusOK,
		"rebound.example:" + port:   http.StatusMisdirectedRequest,
		"127.0.0.1:1":               http.StatusMisdirectedRequest,
		"localhost":                 http.StatusMisdirectedRequest, // port 80
		"192.0.2.1:" + port:         http.StatusMisdirectedRequest,
		"localhost.example:" + port: http.StatusMisdirectedRequest,
	} {
		for _, path := range []string{"/", "/status", "/metrics"} {
			req, _ := http.NewRequest(http.MethodGet, hs.URL+path, nil)
			req.Host = host
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != want {
				t.Errorf("GET %s with Host %s: %s, want %d", path, host, resp.Status, want)
			} else if want != http.StatusOK && !strings.Contains(string(b), "DNS rebinding") {
				t.Errorf("GET %s with Host %s: %s", path, host, b)
			}
			if path == "/metrics" && want == http.StatusOK {
				for _, m := range []string{"process_resident_memory_bytes", "go_goroutines"} {
					if !strings.Contains(string(b), "\n"+m+" ") {
						t.Errorf("/metrics lacks %s", m)
					}
				}
			}
		}
	}
}
