// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"fmt"
	"log/slog"
	"runtime"
	"time"

	"github.com/cuseal/cuseal/internal/hostmem"
)

// Config configures an Engine. The zero value is usable: parameters from
// $FIL_PROOFS_PARAMETER_CACHE (else /var/tmp/filecoin-proof-parameters),
// backend "auto", the budget from this machine's memory.
type Config struct {
	// ParamsDir holds the Filecoin parameter files ("": porep's default).
	ParamsDir string
	// Backend names the proving backend in porep's registry ("": "auto"):
	// one prover, or one per device for CUDA on several devices
	// (NewProvers). Ignored when Provers is set.
	Backend string
	// Provers replaces the backend: one proving worker per entry (a backend
	// per device, or any Prover). Names must be unique.
	Provers []Prover
	// CriticalProver is a prover kept for CRITICAL partitions (WinningPoSt):
	// it takes nothing else, and takes one only when no other prover is
	// idle and it is expected to finish it sooner than the first busy
	// prover would (see critical.go). nil: when the provers come from
	// Backend, New adds one — a second prover of a host backend (the CPU),
	// the CPU backend beside device backends (cuda, supraseal) — unless
	// NoCriticalProver; when Provers is set, none.
	CriticalProver Prover
	// NoCriticalProver: no prover is kept for CRITICAL partitions; they take
	// the next free prover (for comparison: `cuseal bench engine`).
	NoCriticalProver bool
	// CriticalTasks is the MSM parallelism (gnark-crypto NbTasks) of the
	// CPU prover New keeps for CRITICAL partitions (0: gnark's default, 2
	// × NumCPU, as the other CPU provers; at most 1024). More tasks than
	// the partition in progress has would give the CRITICAL proof more of
	// the cores they share, but gnark then splits its MSMs into more work:
	// 8 times the default measured no gain (docs/BENCHMARKS.md); it is a
	// knob for `cuseal bench engine --critical-tasks`.
	CriticalTasks int
	// DeviceMemoryLoss is how much free memory a device may lose, between
	// its first idle reading (after its first proof) and a later one,
	// before it is taken out of service as leaking (0: a tenth of its total
	// memory). Only provers that report a device (DeviceReporter) are read.
	DeviceMemoryLoss uint64
	// QuarantineFor is how long a prover that failed twice in a row stays
	// out of service before it gets another chance (0: 10 minutes; < 0:
	// for good). A wrong proof from a .params corrupted in a way that still
	// decodes looks like a prover failure; without the term, one such file
	// would retire every prover until serve restarts. A prover back from
	// quarantine that fails again is quarantined again at once. A device
	// retired for leaking memory (DeviceMemoryLoss) stays retired.
	QuarantineFor time.Duration
	// IdleRelease is how long the engine waits, once no job is left, before
	// it drops the synthesis buffers it keeps for the next partition and
	// hands the freed memory back to the system (0: DefaultIdleRelease;
	// < 0: never). Between bursts a daemon then holds what its idle state
	// needs, not the last partition's a, b, c and aux; a partition that
	// comes later faults its buffers in afresh (for a 32 GiB PoRep a few
	// seconds against minutes of proving).
	IdleRelease time.Duration
	// BudgetBytes is the memory budget (0: DefaultBudget()).
	BudgetBytes uint64
	// SynthesisWorkers is how many partitions are synthesized at once, per
	// priority and above (0: 2): a CRITICAL job's partition starts at once
	// even while lower work fills the workers.
	SynthesisWorkers int
	// SynthesisThreads is the goroutines one partition's synthesis uses
	// (porep.WithSynthesisWorkers; 0: GOMAXPROCS).
	SynthesisThreads int
	// PartitionsWaiting bounds the partitions synthesizing or synthesized
	// and not yet proving, per priority and above (0: provers + 1). Work of
	// a higher priority may use the bound again on top of lower work, so a
	// CRITICAL job never waits for NORMAL partitions to drain.
	PartitionsWaiting int
	// MaxQueued caps the jobs waiting to start (queued, no partition
	// begun): a submission past it is refused with ErrQueueFull (0:
	// DefaultMaxQueued; < 0: no cap). Jobs that do not fit the budget wait
	// in this queue; one that cannot fit it even alone is ErrTooLarge.
	MaxQueued int
	// RetainJobs and RetainFor bound how many finished jobs are kept, and
	// for how long, for Await and for a repeated RequestID (0: 1000 jobs;
	// 0: 1 hour).
	RetainJobs int
	RetainFor  time.Duration
	// RequireProductionParams: every kind's parameters must be the
	// official files (porep.WithRequireProductionParams).
	RequireProductionParams bool
	// DeterministicSeed, when set, makes the blinding of partition k
	// groth16.RandomnessFromSeed(seed, k) as porep.WithDeterministicRandomness
	// does. FOR TESTS ONLY: production proofs need fresh randomness.
	DeterministicSeed *[32]byte
	// Families adds proof kinds, or replaces the built-in family of one of
	// cuzk's four (any Family).
	Families map[Kind]Family
	// Logger receives job events ("": discarded).
	Logger *slog.Logger
}

// withDefaults fills the zero fields.
func (c Config) withDefaults() Config {
	if c.Backend == "" {
		c.Backend = "auto"
	}
	if c.SynthesisWorkers <= 0 {
		c.SynthesisWorkers = 2
	}
	if c.SynthesisThreads <= 0 {
		c.SynthesisThreads = runtime.GOMAXPROCS(0)
	}
	if c.MaxQueued == 0 {
		c.MaxQueued = DefaultMaxQueued
	}
	if c.RetainJobs <= 0 {
		c.RetainJobs = 1000
	}
	if c.RetainFor <= 0 {
		c.RetainFor = time.Hour
	}
	if c.QuarantineFor == 0 {
		c.QuarantineFor = DefaultQuarantineFor
	}
	if c.IdleRelease == 0 {
		c.IdleRelease = DefaultIdleRelease
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// DefaultQuarantineFor is Config.QuarantineFor's default.
const DefaultQuarantineFor = 10 * time.Minute

// DefaultIdleRelease is Config.IdleRelease's default.
const DefaultIdleRelease = 2 * time.Second

// DefaultMaxQueued is Config.MaxQueued's default: jobs waiting to start.
const DefaultMaxQueued = 1000

// DefaultBudget is the default memory budget: the smaller of MemTotal and
// the cgroup's memory limit (v2 memory.max, v1 memory.limit_in_bytes),
// less a margin of max(1 GiB, 10%) for the rest of the process and the
// system. Where neither can be read it is 8 GiB.
func DefaultBudget() uint64 {
	total, _ := hostmem.Total()
	if lim, _, ok := hostmem.CgroupLimit(); ok && (total == 0 || lim < total) {
		total = lim
	}
	if total == 0 {
		return 8 << 30
	}
	margin := max(uint64(1)<<30, total/10)
	if total <= margin {
		return total / 2
	}
	return total - margin
}

// formatBytes writes n as "N bytes (X.Y GiB)" for messages.
func formatBytes(n uint64) string {
	return fmt.Sprintf("%d bytes (%.2f GiB)", n, float64(n)/(1<<30))
}
