// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package engineapi is the proving engine's external contract without
// its proving code: the request, result, ticket and status types, kinds,
// priorities, states and errors that `cuseal serve` (package service) and
// in-process Go callers use. porep/engine re-exports every name (engine.Request
// is engineapi.Request), so a front end that only maps requests and status
// (the cuzk.v1 server) depends on this package alone. The numbering of
// Kind and Priority is cuzk.v1's (ProofKind, Priority), so the gRPC layer
// converts by value.
package engineapi

import (
	"errors"
	"fmt"
	"time"
)

// Kind is the kind of proof a job makes; values are cuzk.v1.ProofKind's.
type Kind int32

const (
	KindUnspecified         Kind = 0
	KindPoRepC2             Kind = 1 // POREP_SEAL_COMMIT: SealCommitPhase2
	KindSnapDealsUpdate     Kind = 2 // SNAP_DEALS_UPDATE: GenerateUpdateProofWithVanilla
	KindWindowPoStPartition Kind = 3 // WINDOW_POST_PARTITION: GenerateSinglePartitionWindowPoStWithVanilla
	KindWinningPoSt         Kind = 4 // WINNING_POST: GenerateWinningPoStWithVanilla
)

// Priority orders work at every queue (admission, synthesis, proving);
// values are cuzk.v1.Priority's. PriorityUnspecified means the kind's
// default (DefaultPriority).
type Priority int32

const (
	PriorityUnspecified Priority = 0
	PriorityLow         Priority = 1
	PriorityNormal      Priority = 2 // PoRep, SnapDeals
	PriorityHigh        Priority = 3 // WindowPoSt
	PriorityCritical    Priority = 4 // WinningPoSt
)

// Request is one proof job, field for field cuzk.v1.SubmitProofRequest.
// Which fields a kind reads: PoRep: VanillaProof (raw C1 JSON or a
// lotus-bench Commit2In wrapper), RegisteredProof, SectorSize (0: not
// checked), SectorNumber, MinerID. WindowPoSt: VanillaProofs (one per
// sector of the partition), RegisteredProof, MinerID, Randomness (32
// bytes), PartitionIndex. WinningPoSt: VanillaProofs, RegisteredProof,
// MinerID, Randomness. SnapDeals: VanillaProofs (one per partition),
// RegisteredProof, CommROld, CommRNew, CommDNew (32 bytes each).
type Request struct {
	RequestID       string // the caller's idempotency key; "" = always a new job
	Kind            Kind
	Priority        Priority
	RegisteredProof uint64 // go-state-types abi number of the registered proof
	SectorSize      uint64 // bytes
	SectorNumber    uint64
	MinerID         uint64 // actor ID
	VanillaProof    []byte
	VanillaProofs   [][]byte
	Randomness      []byte
	PartitionIndex  uint32
	CommROld        []byte
	CommRNew        []byte
	CommDNew        []byte
}

// State is a job's state; the last three are final.
type State int

const (
	StateQueued State = iota
	StateRunning
	StateCompleted
	StateFailed
	StateCancelled
)

// Timings of one job, as cuzk.v1.AwaitProofResponse reports them.
type Timings struct {
	QueueWait  time.Duration // submit → first partition admitted
	ProveWait  time.Duration // submit → first partition proving (0 until then; not in cuzk.v1)
	ParamsLoad time.Duration // waiting for parameters to be loaded (0 when resident)
	Synthesis  time.Duration // sum over partitions
	Prove      time.Duration // sum over partitions of backend time (device or CPU)
	Verify     time.Duration // sum over partitions of checking the proof against the .vk
	Total      time.Duration // submit → result
}

// Result is a finished (or, from Await with a timeout, unfinished) job.
type Result struct {
	JobID     string
	RequestID string
	Kind      Kind
	State     State
	Proof     []byte // Completed only: the bytes filecoin-ffi's function returns
	Err       error  // Failed/Cancelled: why (errors.Is(Err, ErrBadInput) for the caller's input)
	Timings   Timings
}

// Ticket is what Submit returns.
type Ticket struct {
	JobID         string
	QueuePosition int    // jobs ahead of it at submission
	Device        string // device it is expected to prove on ("" if not yet known)
	Attached      bool   // the RequestID matched a pending, running or retained job
}

var (
	// ErrBadInput wraps every error caused by the request (porep.ErrBadInput
	// matches it too for PoRep).
	ErrBadInput = errors.New("engine: bad input")
	// ErrUnsupportedKind: a kind this build cannot prove yet.
	ErrUnsupportedKind = errors.New("engine: unsupported proof kind")
	// ErrUnknownJob: no pending, running or retained job has this id.
	ErrUnknownJob = errors.New("engine: unknown job")
	// ErrTooLarge: the job cannot fit the memory budget even alone; the
	// message gives both figures.
	ErrTooLarge = errors.New("engine: job exceeds the memory budget")
	// ErrQueueFull: as many jobs as the queue cap allows are already
	// waiting to start; the message gives the cap. Retry later.
	ErrQueueFull = errors.New("engine: queue full")
	// ErrDraining: the engine no longer accepts work (Drain or Close).
	ErrDraining = errors.New("engine: draining, not accepting new work")
)

// Status is a snapshot for GetStatus, /status and `cuseal client status`.
type Status struct {
	Uptime   time.Duration
	Queues   []QueueStatus // one per kind this build can prove
	Jobs     []JobStatus   // pending, running and retained
	Devices  []DeviceStatus
	Params   []ParamsStatus
	Budget   BudgetStatus
	Counters Counters
	Draining bool // Drain or Close was called: no new work is accepted
}

type QueueStatus struct {
	Kind       Kind
	Pending    int
	InProgress int
}

type JobStatus struct {
	JobID      string
	RequestID  string
	Kind       Kind
	Priority   Priority
	State      State
	Submitted  time.Time
	Ended      time.Time // zero until the job is final
	Partitions []PartitionStatus
	Timings    Timings // Total: so far while the job is not final
	Error      string
}

// PartitionStatus is one partition of a job. The times are zero until
// the stage starts; durations are of finished stages (a stage in progress
// has a start and no duration yet; ProverWait counts the wait in
// progress). State "failed" is a partition whose own parameter load,
// synthesis or proofs failed; "cancelled" one stopped unproven because its
// job was cancelled or failed elsewhere.
type PartitionStatus struct {
	Index          int
	State          string // queued, synthesizing, synthesized, proving, proven, failed, cancelled
	Device         string // the prover of the last attempt ("" before proving)
	SynthesisStart time.Time
	ParamsWait     time.Duration // from SynthesisStart, waiting for the parameters
	Synthesis      time.Duration // after ParamsWait
	ProverWait     time.Duration // synthesized, waiting for a prover (every attempt's wait)
	ProveStart     time.Time     // the first attempt's start
	ProveEnd       time.Time     // the last attempt's end
	Prove          time.Duration // backend time, all attempts
	Verify         time.Duration // checking the proofs, all attempts
	Attempts       int
}

type DeviceStatus struct {
	Ordinal             int
	Name                string // e.g. "cpu", "cuda:0 NVIDIA H200"
	Backend             string
	VRAMTotal, VRAMFree uint64
	CurrentJobID        string
	CurrentKind         Kind
	Quarantined         bool
	// MemoryLost: the device's free memory lost while idle when the
	// device-memory guard took it out of service (Quarantined); 0: not so.
	MemoryLost          uint64
	ConsecutiveFailures int
	Busy                time.Duration // total time proving since start, the proof in progress included
	// BusyFraction is the share of the last BusyWindow (or of the
	// engine's uptime, when shorter) the prover spent proving: 0 to 1.
	BusyFraction float64
	CriticalOnly bool // kept for CRITICAL partitions (Config.CriticalProver)
}

// BusyWindow is the window of DeviceStatus.BusyFraction.
const BusyWindow = time.Minute

type ParamsStatus struct {
	CircuitID string // cuzk-style id, e.g. "porep-32g", "wpost-2k"
	File      string // the .params path
	Tier      string // "hot" (device/pinned), "warm" (mapped/in memory), "cold" (on disk)
	Bytes     uint64
	RefCount  int // jobs using it now
	LastUsed  time.Time
}

type BudgetStatus struct {
	Total       uint64 // the configured budget, bytes
	Used        uint64 // Params + Synthesis + Assignments
	Params      uint64
	Synthesis   uint64 // synthesis buffers in use or pooled
	Assignments uint64 // synthesized partitions waiting or proving
}

type Counters struct {
	Completed, Failed, Cancelled, Retries uint64
}

// Methods of *Engine (implemented in engine.go):
//
//	New(cfg Config) (*Engine, error)
//	(*Engine).Submit(ctx, *Request) (Ticket, error)       // detached: runs without waiters
//	(*Engine).Await(ctx, jobID) (*Result, error)           // ctx's deadline is the timeout: on expiry
//	                                                      // it returns a Result with State Queued/Running and
//	                                                      // ctx.Err(); the job goes on
//	(*Engine).Prove(ctx, *Request) (*Result, error)        // submit + await; ctx done cancels the job
//	                                                      // unless another caller waits on it or it was Submitted
//	(*Engine).Cancel(jobID) (wasRunning bool, err error)
//	(*Engine).Status() Status
//	(*Engine).Preload(ctx, circuitID) (alreadyLoaded bool, took time.Duration, err error)
//	(*Engine).Evict(circuitID) (wasLoaded bool, freed uint64, err error)
//	(*Engine).Gatherer() prometheus.Gatherer               // metrics, Prometheus form
//	(*Engine).Drain(ctx) error                            // stop accepting; wait; cancel the rest at ctx done
//	(*Engine).Close() error

var kindNames = map[Kind]string{
	KindUnspecified:         "PROOF_KIND_UNSPECIFIED",
	KindPoRepC2:             "POREP_SEAL_COMMIT",
	KindSnapDealsUpdate:     "SNAP_DEALS_UPDATE",
	KindWindowPoStPartition: "WINDOW_POST_PARTITION",
	KindWinningPoSt:         "WINNING_POST",
}

// String is the cuzk.v1.ProofKind name (queue labels in status and metrics).
func (k Kind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("Kind(%d)", int32(k))
}

// String is the cuzk.v1.Priority name without its prefix.
func (p Priority) String() string {
	switch p {
	case PriorityLow:
		return "LOW"
	case PriorityNormal:
		return "NORMAL"
	case PriorityHigh:
		return "HIGH"
	case PriorityCritical:
		return "CRITICAL"
	}
	return "UNSPECIFIED"
}

// DefaultPriority is the priority Curio gives each kind: CRITICAL for
// WinningPoSt, HIGH for WindowPoSt, NORMAL otherwise.
func DefaultPriority(k Kind) Priority {
	switch k {
	case KindWinningPoSt:
		return PriorityCritical
	case KindWindowPoStPartition:
		return PriorityHigh
	}
	return PriorityNormal
}

func (s State) String() string {
	switch s {
	case StateQueued:
		return "queued"
	case StateRunning:
		return "running"
	case StateCompleted:
		return "completed"
	case StateFailed:
		return "failed"
	case StateCancelled:
		return "cancelled"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Final reports whether s is Completed, Failed or Cancelled.
func (s State) Final() bool { return s >= StateCompleted }
