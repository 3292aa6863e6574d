// SPDX-License-Identifier: Apache-2.0 OR MIT

package service

import (
	"cmp"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cuseal/cuseal/porep/engine/engineapi"
	pb "github.com/cuseal/cuseal/service/cuzkv1"
)

// StatusSchema names the shape of StatusDoc; a change a reader could
// notice gets a new name.
const StatusSchema = "cuseal.status.v1"

// Sources of a StatusDoc.
const (
	SourceEngine = "engine"  // GET /status: everything below
	SourceCuzk   = "cuzk.v1" // built from GetStatus: fields it does not carry are null
)

// TimeFormat is how a StatusDoc writes times: RFC 3339 in UTC with
// milliseconds.
const TimeFormat = "2006-01-02T15:04:05.000Z07:00"

// StatusDoc is the documented JSON of GET /status (docs/service.md) and of
// `cuseal client status --json`: snake_case keys; kinds, priorities and
// states as cuzk.v1 names them (WINNING_POST, CRITICAL, RUNNING);
// durations in seconds (float); times in TimeFormat; bytes as integers. A
// null is a value the source does not know (SourceCuzk: what GetStatus
// does not carry); an empty string or list is "none".
type StatusDoc struct {
	Schema        string         `json:"schema"` // StatusSchema
	Source        string         `json:"source"` // SourceEngine or SourceCuzk
	Time          string         `json:"time"`   // when the snapshot was taken
	UptimeSeconds float64        `json:"uptime_seconds"`
	Draining      *bool          `json:"draining"` // stopping: no new work is accepted; null from SourceCuzk
	Counters      StatusCounters `json:"counters"`
	Memory        StatusMemory   `json:"memory"`
	Devices       []StatusDevice `json:"devices"`
	Queues        []StatusQueue  `json:"queues"`
	Jobs          []StatusJob    `json:"jobs"` // null from SourceCuzk; finished oldest first, then unfinished in submission order (SelectJobs)
	Params        []StatusParams `json:"params"`
	Build         *StatusBuild   `json:"build"` // the build serving; null from SourceCuzk
}

// StatusCounters are jobs finished since the server started.
type StatusCounters struct {
	Completed uint64  `json:"completed"`
	Failed    uint64  `json:"failed"`
	Cancelled *uint64 `json:"cancelled"`
	Retries   *uint64 `json:"retries"` // partitions proven again after a prover failed them
}

// StatusMemory is the one memory budget (bytes) and its use.
type StatusMemory struct {
	BudgetBytes uint64       `json:"budget_bytes"`
	UsedBytes   uint64       `json:"used_bytes"`
	ByUse       *StatusByUse `json:"by_use"`
}

// StatusByUse splits UsedBytes: resident parameters, synthesis buffers in
// use or pooled, synthesized partitions waiting or proving.
type StatusByUse struct {
	ParamsBytes      uint64 `json:"params_bytes"`
	SynthesisBytes   uint64 `json:"synthesis_bytes"`
	AssignmentsBytes uint64 `json:"assignments_bytes"`
}

// StatusDevice is one prover (a GPU, or the CPU backend).
type StatusDevice struct {
	Ordinal             int      `json:"ordinal"`
	Name                string   `json:"name"`
	Backend             *string  `json:"backend"`
	State               string   `json:"state"` // BUSY, IDLE or QUARANTINED
	CurrentJobID        string   `json:"current_job_id"`
	CurrentKind         string   `json:"current_kind"`
	BusyFraction        *float64 `json:"busy_fraction"` // of the last minute (or the uptime, when shorter), 0 to 1
	BusySecondsTotal    *float64 `json:"busy_seconds_total"`
	ConsecutiveFailures *int     `json:"consecutive_failures"`
	CriticalOnly        *bool    `json:"critical_only"`    // kept for CRITICAL partitions (WinningPoSt); null over gRPC
	VRAMTotalBytes      uint64   `json:"vram_total_bytes"` // 0: not a device, or not reported
	VRAMFreeBytes       uint64   `json:"vram_free_bytes"`
}

// StatusQueue is the unfinished jobs of one kind: pending (no partition
// started yet) and in progress.
type StatusQueue struct {
	Kind       string                `json:"kind"`
	Pending    int                   `json:"pending"`
	InProgress int                   `json:"in_progress"`
	ByPriority []StatusPriorityQueue `json:"by_priority"` // LOW, NORMAL, HIGH, CRITICAL
}

// StatusPriorityQueue is a StatusQueue's jobs of one priority.
type StatusPriorityQueue struct {
	Priority   string `json:"priority"`
	Pending    int    `json:"pending"`
	InProgress int    `json:"in_progress"`
}

// StatusJob is one pending, running or retained job. Never the request's
// payload (vanilla proofs, randomness).
type StatusJob struct {
	JobID           string            `json:"job_id"`
	RequestID       string            `json:"request_id"`
	Kind            string            `json:"kind"`
	Priority        string            `json:"priority"`
	State           string            `json:"state"` // QUEUED, RUNNING, COMPLETED, FAILED, CANCELLED
	SubmittedAt     string            `json:"submitted_at"`
	StartedAt       *string           `json:"started_at"` // the first partition's start; null while queued
	EndedAt         *string           `json:"ended_at"`   // null until final
	PartitionsDone  int               `json:"partitions_done"`
	PartitionsTotal int               `json:"partitions_total"`
	Stages          StatusStages      `json:"stages"`
	Provers         []string          `json:"provers"` // the provers its partitions were proven on, in order of first use
	Retries         int               `json:"retries"` // proving attempts beyond one per partition
	Error           *string           `json:"error"`   // FAILED or CANCELLED: why (first line)
	Partitions      []StatusPartition `json:"partitions"`
}

// StatusStages are a job's times per stage, seconds, summed over its
// partitions (which overlap: the sum may exceed total_seconds).
type StatusStages struct {
	QueueWaitSeconds    float64 `json:"queue_wait_seconds"` // submission → first partition (so far, while queued)
	ProveWaitSeconds    float64 `json:"prove_wait_seconds"` // submission → first partition proving (so far, until then)
	ParamsLoadSeconds   float64 `json:"params_load_seconds"`
	SynthesisSeconds    float64 `json:"synthesis_seconds"`
	ProverWaitSeconds   float64 `json:"prover_wait_seconds"` // synthesized, waiting for a prover (so far, while waiting)
	ProvingSeconds      float64 `json:"proving_seconds"`
	VerificationSeconds float64 `json:"verification_seconds"`
	TotalSeconds        float64 `json:"total_seconds"` // submission → result (so far, while unfinished)
}

// StatusPartition is one partition of a job: the timeline of its stages.
// A stage in progress has its start and a duration of 0.
type StatusPartition struct {
	Index               int     `json:"index"`
	State               string  `json:"state"` // QUEUED, SYNTHESIZING, SYNTHESIZED, PROVING, PROVEN, FAILED, CANCELLED
	Prover              string  `json:"prover"`
	Attempts            int     `json:"attempts"`
	SynthesisStartedAt  *string `json:"synthesis_started_at"` // parameters' wait, then synthesis
	ParamsWaitSeconds   float64 `json:"params_wait_seconds"`
	SynthesisSeconds    float64 `json:"synthesis_seconds"`
	ProverWaitSeconds   float64 `json:"prover_wait_seconds"` // synthesized, waiting for a prover (every attempt's wait, so far)
	ProvingStartedAt    *string `json:"proving_started_at"`  // the first attempt
	ProvingEndedAt      *string `json:"proving_ended_at"`    // the last attempt, verification included
	ProvingSeconds      float64 `json:"proving_seconds"`
	VerificationSeconds float64 `json:"verification_seconds"`
}

// StatusParams is one circuit's parameter file known to the server.
type StatusParams struct {
	CircuitID  string  `json:"circuit_id"` // e.g. porep-32g
	File       *string `json:"file"`       // base name in the parameter directory; null: not known
	Tier       string  `json:"tier"`       // HOT (device or pinned), WARM (mapped), COLD (on disk)
	Bytes      uint64  `json:"bytes"`
	RefCount   int     `json:"ref_count"` // jobs using it now
	LastUsedAt *string `json:"last_used_at"`
}

var priorities = []engineapi.Priority{engineapi.PriorityLow, engineapi.PriorityNormal, engineapi.PriorityHigh, engineapi.PriorityCritical}

// NewStatusDoc is st as a StatusDoc taken at now, with the jobs
// SelectJobs(st.Jobs, maxJobs) keeps (maxJobs < 0: all).
func NewStatusDoc(st engineapi.Status, now time.Time, maxJobs int) StatusDoc {
	d := StatusDoc{
		Schema: StatusSchema, Source: SourceEngine, Time: stamp(now), UptimeSeconds: secs(st.Uptime), Draining: ptr(st.Draining),
		Counters: StatusCounters{Completed: st.Counters.Completed, Failed: st.Counters.Failed,
			Cancelled: ptr(st.Counters.Cancelled), Retries: ptr(st.Counters.Retries)},
		Memory: StatusMemory{BudgetBytes: st.Budget.Total, UsedBytes: st.Budget.Used, ByUse: &StatusByUse{
			ParamsBytes: st.Budget.Params, SynthesisBytes: st.Budget.Synthesis, AssignmentsBytes: st.Budget.Assignments}},
		Devices: []StatusDevice{}, Queues: []StatusQueue{}, Jobs: []StatusJob{}, Params: []StatusParams{},
	}
	for _, dv := range st.Devices {
		sd := StatusDevice{Ordinal: dv.Ordinal, Name: dv.Name, Backend: ptr(dv.Backend), State: "IDLE",
			CurrentJobID: dv.CurrentJobID, BusyFraction: ptr(dv.BusyFraction), BusySecondsTotal: ptr(secs(dv.Busy)),
			ConsecutiveFailures: ptr(dv.ConsecutiveFailures), CriticalOnly: ptr(dv.CriticalOnly), VRAMTotalBytes: dv.VRAMTotal, VRAMFreeBytes: dv.VRAMFree}
		if dv.CurrentJobID != "" {
			sd.State, sd.CurrentKind = "BUSY", dv.CurrentKind.String()
		}
		if dv.Quarantined {
			sd.State = "QUARANTINED"
		}
		d.Devices = append(d.Devices, sd)
	}
	for _, q := range st.Queues {
		sq := StatusQueue{Kind: q.Kind.String(), Pending: q.Pending, InProgress: q.InProgress, ByPriority: []StatusPriorityQueue{}}
		for _, p := range priorities {
			pq := StatusPriorityQueue{Priority: p.String()}
			for _, j := range st.Jobs {
				if j.Kind != q.Kind || j.Priority != p {
					continue
				}
				switch j.State {
				case engineapi.StateQueued:
					pq.Pending++
				case engineapi.StateRunning:
					pq.InProgress++
				}
			}
			sq.ByPriority = append(sq.ByPriority, pq)
		}
		d.Queues = append(d.Queues, sq)
	}
	for _, j := range SelectJobs(st.Jobs, maxJobs) {
		d.Jobs = append(d.Jobs, statusJob(j, now))
	}
	for _, p := range st.Params {
		sp := StatusParams{CircuitID: p.CircuitID, Tier: strings.ToUpper(p.Tier), Bytes: p.Bytes, RefCount: p.RefCount, LastUsedAt: optStamp(p.LastUsed)}
		if p.File != "" {
			sp.File = ptr(filepath.Base(p.File)) // no path outside the parameter directory
		}
		d.Params = append(d.Params, sp)
	}
	return d
}

// SelectJobs is what ?jobs=limit keeps of jobs (Status's order: finished
// oldest first, then unfinished in submission order), in that order.
// limit bounds the list except for running jobs: every RUNNING job is
// kept (among them every job a prover works on); the room left goes to
// QUEUED jobs, those that start first (priority, then submission) first,
// then to the most recently finished. limit < 0 keeps all.
func SelectJobs(jobs []engineapi.JobStatus, limit int) []engineapi.JobStatus {
	if limit < 0 || len(jobs) <= limit {
		return jobs
	}
	keep := make([]bool, len(jobs))
	room := limit
	var queued, finished []int
	for i, j := range jobs {
		switch {
		case j.State == engineapi.StateRunning:
			keep[i] = true
			room--
		case j.State == engineapi.StateQueued:
			queued = append(queued, i)
		default:
			finished = append(finished, i)
		}
	}
	// The queue's order: priority, then submission (jobs' order).
	slices.SortStableFunc(queued, func(a, b int) int { return cmp.Compare(jobs[b].Priority, jobs[a].Priority) })
	for _, i := range queued {
		if room <= 0 {
			break
		}
		keep[i] = true
		room--
	}
	for k := len(finished) - 1; k >= 0 && room > 0; k-- { // the most recently finished
		keep[finished[k]] = true
		room--
	}
	out := make([]engineapi.JobStatus, 0, limit)
	for i, j := range jobs {
		if keep[i] {
			out = append(out, j)
		}
	}
	return out
}

func statusJob(j engineapi.JobStatus, now time.Time) StatusJob {
	sj := StatusJob{
		JobID: j.JobID, RequestID: j.RequestID, Kind: j.Kind.String(), Priority: j.Priority.String(),
		State: strings.ToUpper(j.State.String()), SubmittedAt: stamp(j.Submitted), EndedAt: optStamp(j.Ended),
		PartitionsTotal: len(j.Partitions), Provers: []string{}, Partitions: []StatusPartition{},
		Stages: StatusStages{QueueWaitSeconds: secs(j.Timings.QueueWait), ProveWaitSeconds: secs(j.Timings.ProveWait), ParamsLoadSeconds: secs(j.Timings.ParamsLoad),
			SynthesisSeconds: secs(j.Timings.Synthesis), ProvingSeconds: secs(j.Timings.Prove),
			VerificationSeconds: secs(j.Timings.Verify), TotalSeconds: secs(j.Timings.Total)},
	}
	if !j.State.Final() { // so far, as of the document's time
		sj.Stages.TotalSeconds = secs(now.Sub(j.Submitted))
		if j.State == engineapi.StateQueued {
			sj.Stages.QueueWaitSeconds = sj.Stages.TotalSeconds
		}
		if j.Timings.ProveWait == 0 {
			sj.Stages.ProveWaitSeconds = sj.Stages.TotalSeconds
		}
	}
	if j.Error != "" {
		// The first line: a panic's stack (source paths) stays in the log.
		first, _, _ := strings.Cut(j.Error, "\n")
		first = BaseNames(first)
		sj.Error = &first
	}
	var started time.Time
	for _, p := range j.Partitions {
		if p.State == "proven" {
			sj.PartitionsDone++
		}
		if p.Attempts > 1 {
			sj.Retries += p.Attempts - 1
		}
		sj.Stages.ProverWaitSeconds += secs(p.ProverWait)
		if p.Device != "" && !slices.Contains(sj.Provers, p.Device) {
			sj.Provers = append(sj.Provers, p.Device)
		}
		if !p.SynthesisStart.IsZero() && (started.IsZero() || p.SynthesisStart.Before(started)) {
			started = p.SynthesisStart
		}
		sj.Partitions = append(sj.Partitions, StatusPartition{
			Index: p.Index, State: strings.ToUpper(p.State), Prover: p.Device, Attempts: p.Attempts,
			SynthesisStartedAt: optStamp(p.SynthesisStart), ParamsWaitSeconds: secs(p.ParamsWait), SynthesisSeconds: secs(p.Synthesis),
			ProverWaitSeconds: secs(p.ProverWait),
			ProvingStartedAt:  optStamp(p.ProveStart), ProvingEndedAt: optStamp(p.ProveEnd),
			ProvingSeconds: secs(p.Prove), VerificationSeconds: secs(p.Verify),
		})
	}
	sj.StartedAt = optStamp(started)
	return sj
}

// StatusDocFromWire is a cuzk.v1 GetStatusResponse as a StatusDoc taken
// at now (SourceCuzk): what the wire does not carry is null. A device
// whose name ends in cuseal's " [quarantined after N failures]" (or
// "[quarantined: lost N bytes of device memory]") is QUARANTINED, under its
// name without that suffix.
func StatusDocFromWire(r *pb.GetStatusResponse, now time.Time) StatusDoc {
	d := StatusDoc{
		Schema: StatusSchema, Source: SourceCuzk, Time: stamp(now), UptimeSeconds: float64(r.GetUptimeSeconds()),
		Counters: StatusCounters{Completed: r.GetTotalProofsCompleted(), Failed: r.GetTotalProofsFailed()},
		Memory:   StatusMemory{BudgetBytes: r.GetPinnedMemoryLimitBytes(), UsedBytes: r.GetPinnedMemoryBytes()},
		Devices:  []StatusDevice{}, Queues: []StatusQueue{}, Params: []StatusParams{},
	}
	for _, g := range r.GetGpus() {
		sd := StatusDevice{Ordinal: int(g.GetOrdinal()), Name: g.GetName(), State: "IDLE", CurrentJobID: g.GetCurrentJobId(),
			VRAMTotalBytes: g.GetVramTotalBytes(), VRAMFreeBytes: g.GetVramFreeBytes()}
		if g.GetCurrentJobId() != "" {
			sd.State, sd.CurrentKind = "BUSY", g.GetCurrentProofKind()
		}
		if name, _, ok := strings.Cut(sd.Name, quarantineMark); ok && strings.HasSuffix(sd.Name, "]") {
			sd.Name, sd.State = name, "QUARANTINED"
		}
		d.Devices = append(d.Devices, sd)
	}
	for _, q := range r.GetQueues() {
		d.Queues = append(d.Queues, StatusQueue{Kind: q.GetProofKind(), Pending: int(q.GetPending()), InProgress: int(q.GetInProgress())})
	}
	for _, s := range r.GetLoadedSrs() {
		d.Params = append(d.Params, StatusParams{CircuitID: s.GetCircuitId(), Tier: s.GetTier().String(),
			Bytes: s.GetSizeBytes(), RefCount: int(s.GetRefCount())})
	}
	return d
}

// absPath is an absolute path in a message: a '/' that starts a word (or
// follows '=', a quote or a bracket), then what a file name may hold up
// to a space, a quote, a bracket, ',', ';' or ':'.
// Compiled at first use: every cuseal process links this package.
var absPath = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|[\s"'(\[=])(/[^\s"'()\[\],;:]+)`)
})

// BaseNames is msg with every absolute path in it replaced by its base
// name: a failure's message names a parameter file
// ("/var/tmp/filecoin-proof-parameters/v28-….params") by its name alone,
// and no path of the server's machine reaches /status, the page or
// `cuseal client status`.
func BaseNames(msg string) string {
	return absPath().ReplaceAllStringFunc(msg, func(m string) string {
		i := strings.IndexByte(m, '/')
		return m[:i] + filepath.Base(m[i:])
	})
}

// quarantineMark starts the suffix StatusResponse gives a quarantined
// device's name (" [quarantined after N failures]", " [quarantined: lost N
// bytes of device memory]").
const quarantineMark = " [quarantined"

func stamp(t time.Time) string { return t.UTC().Format(TimeFormat) }

func optStamp(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := stamp(t)
	return &s
}

func secs(d time.Duration) float64 { return d.Seconds() }

func ptr[T any](v T) *T { return &v }
