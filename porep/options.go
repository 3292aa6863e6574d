// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"context"
	"io"
	"log/slog"
	"runtime"
	"time"

	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/stacked"
)

// Option configures the calls of this package: the provers of every family
// (SealCommitPhase2, the Generate* calls, a Job), the verifiers and KeysFor.
type Option func(*settings)

type settings struct {
	ctx       context.Context
	paramsDir string
	backend   string
	seed      *[32]byte
	log       *slog.Logger
	progress  func(PhaseEvent)
	inFlight  int
	preload   bool
	workers   int  // synthesis workers per partition; 0: GOMAXPROCS
	only      *int // WithOnlyPartition's index; nil: every partition

	requireProduction bool
	digestCacheFile   string
}

func newSettings(opts []Option) *settings {
	s := &settings{
		ctx:       context.Background(),
		paramsDir: stacked.ParameterDir(),
		backend:   BackendAuto,
		log:       slog.New(slog.NewTextHandler(io.Discard, nil)),
		inFlight:  1,
		progress:  func(PhaseEvent) {},

		requireProduction: isProductionParamsEnv(),
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

// WithContext makes the call honour ctx: cancellation stops synthesis and
// proving between stages and returns ctx's error.
func WithContext(ctx context.Context) Option {
	return func(s *settings) {
		if ctx != nil {
			s.ctx = ctx
		}
	}
}

// WithParamsDir sets the directory holding the Filecoin parameter files
// (v28-stacked-proof-of-replication-….params / .vk). The default is
// $FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters.
func WithParamsDir(dir string) Option {
	return func(s *settings) {
		if dir != "" {
			s.paramsDir = dir
		}
	}
}

// WithBackend chooses the proving backend by name (backend.go's registry):
// BackendCPU, BackendCUDA (tag cuda), BackendSupraSeal (tag supraseal) or
// BackendAuto (the default: CUDA when built and usable, else the CPU, with
// the reason logged on WithLogger's logger).
func WithBackend(name string) Option {
	return func(s *settings) { s.backend = name }
}

// WithDeterministicRandomness makes proofs reproducible: the blinding
// (r, s) of partition k is groth16.RandomnessFromSeed(seed, k) instead of
// fresh crypto/rand values. FOR TESTS ONLY: a production prover must use
// fresh randomness, or its proofs leak information about the witness.
func WithDeterministicRandomness(seed [32]byte) Option {
	return func(s *settings) {
		c := seed
		s.seed = &c
	}
}

// WithLogger sets the logger for progress messages (per partition:
// synthesis and proving times). The default discards everything.
func WithLogger(l *slog.Logger) Option {
	return func(s *settings) {
		if l != nil {
			s.log = l
		}
	}
}

// Phase names a step of a proof (of any family: SealCommitPhase2, the
// PoSt and SnapDeals calls) or of a verification, reported to a
// WithProgress callback.
type Phase int

const (
	// PhaseStart: parameters loaded, backend chosen; Partition is -1,
	// Partitions the number of partitions to prove.
	PhaseStart Phase = iota
	// PhaseSynthesized: one partition's circuit synthesized; Took is its synthesis time.
	PhaseSynthesized
	// PhaseProven: one partition proven and its proof verified; Took is that time.
	PhaseProven
	// PhaseSynthesizing: synthesis of one partition starts.
	PhaseSynthesizing
	// PhaseStage: a stage of proving one partition starts; Stage names it
	// ("H polynomial", "H MSM", "L MSM", "A MSM", "B_G1 MSM", "B_G2 MSM",
	// "GPU batch", "verify"). AggregateSealProofs reports its stages with
	// Partition -1 ("loading the SRS", "specializing the SRS for N proofs",
	// "aggregating N proofs").
	PhaseStage
	// PhaseHash: a parameter file is being hashed against the official
	// table; File, Done and Total (bytes) say how far (Partition -1).
	PhaseHash
	// PhaseWarning: Message is a one-line warning for the user (test
	// parameters), given once per process and file.
	PhaseWarning
)

// PhaseEvent is one step of a proof: which phase, for which partition, on
// which backend (its registered name) and how long it took.
type PhaseEvent struct {
	Phase     Phase
	Partition int
	// Partitions is the number of partitions of the proof (PhaseStart).
	Partitions int
	Backend    string
	Took       time.Duration
	// Stage names the proving stage (PhaseStage).
	Stage string
	// File, Done and Total describe a file being hashed (PhaseHash);
	// File is also the file a PhaseWarning is about.
	File        string
	Done, Total int64
	// Message is the text of a PhaseWarning.
	Message string
}

// WithProgress calls f at the start, when each partition's synthesis
// starts and ends, at each proving stage and after each partition's proof,
// while parameter files are hashed, and for warnings, so callers can show
// progress and per-phase timings without parsing log records. With more
// than one partition in flight f is called from several goroutines; it must
// be safe for that and return quickly.
func WithProgress(f func(PhaseEvent)) Option {
	return func(s *settings) {
		if f != nil {
			s.progress = f
		}
	}
}

// WithRequireProductionParams makes SealCommitPhase2, VerifySeal and the
// PoSt calls (GenerateWinningPoStWithVanilla, GenerateWindowPoStWithVanilla,
// GenerateSinglePartitionWindowPoStWithVanilla, VerifyWinningPoSt,
// VerifyWindowPoSt), the SnapDeals calls (GenerateUpdateProofWithVanilla,
// VerifyReplicaUpdate) and Keys.Load hash the parameter files they use
// against the official table of rust-fil-proofs 19.1.0 (parameters.json;
// see paramfile.ParamsStatus) before using them, and fail
// with an error wrapping ErrBadInput, naming the file, its digest and the
// expected one, for anything but the official files (test parameters
// included). It is on by default when FIL_PROOFS_VERIFY_PRODUCTION_PARAMS
// is 1 or true, as in rust-fil-proofs. A digest is computed once per
// process and file (path, size, mtime).
func WithRequireProductionParams() Option {
	return func(s *settings) { s.requireProduction = true }
}

// WithDigestCacheFile makes the production-parameter check
// (WithRequireProductionParams) remember digests in the JSON file at path
// across processes (paramfile.WithDigestCacheFile: by path, size and
// modification time; rewritten atomically; an unreadable or corrupt cache
// is ignored). The in-process cache always applies.
func WithDigestCacheFile(path string) Option {
	return func(s *settings) { s.digestCacheFile = path }
}

// WithMaxPartitionsInFlight bounds how many partitions' assignments are
// alive at once in a proof of any family with several partitions (C2, a
// whole WindowPoSt, SnapDeals; n ≥ 1; default 1: synthesize, prove,
// release, next). With n = 2 the synthesis of partition k+1 overlaps the
// proving of k. A 32 GiB C2 partition's assignment takes about 16 GiB.
func WithMaxPartitionsInFlight(n int) Option {
	return func(s *settings) {
		if n >= 1 {
			s.inFlight = n
		}
	}
}

// WithSynthesisWorkers bounds the goroutines that synthesize one
// partition's equal parts concurrently — PoRep and SnapDeals challenges,
// PoSt sectors (cs.Circuit.SynthesizeParallel; the result is
// bit-identical to a sequential synthesis). n = 0 (the default) means
// runtime.GOMAXPROCS(0), capped at the number of parts; n = 1 synthesizes
// sequentially on one goroutine. The workers share the partition's pre-sized assignment: each
// adds only one challenge's gadget scratch (stacked.ChallengeScratchBytes,
// ~300 MB at 32 GiB), and SynthesizeParallel starts no more workers than
// half of MemAvailable holds scratch for. With
// WithMaxPartitionsInFlight(2) a synthesis overlaps a proof, which also
// wants the cores: lower n to keep some for it.
func WithSynthesisWorkers(n int) Option {
	return func(s *settings) {
		if n >= 0 {
			s.workers = n
		}
	}
}

// synthWorkers is the number of synthesis workers per partition.
func (s *settings) synthWorkers() int {
	if s.workers > 0 {
		return s.workers
	}
	return runtime.GOMAXPROCS(0)
}

// WithOnlyPartition makes a prover (SealCommitPhase2, the Generate* calls)
// synthesize, prove and verify (with the .vk and the verifier's public
// inputs) only partition k of its job, and return that partition's proof
// alone (groth16.ProofSize bytes, blinded as partition k): for measuring one
// partition of a large sector. The result is the whole proof only for a
// one-partition job; NI-PoRep's aggregate is not made. Errors: k out of the
// job's range (ErrBadInput), when the prover starts.
func WithOnlyPartition(k int) Option {
	return func(s *settings) { s.only = &k }
}

// WithPreloadParams decodes the whole .params file of a proof's circuit
// (any family) once, before the first partition, and keeps the decoded queries with the process-wide cached
// parameters (groth16.Params.Preload): later partitions and calls then skip
// decoding. It costs about the file size in memory (2 KiB: 1.1 GB;
// 32 GiB: ~47 GB), so it is off by default; it helps the CPU backend with
// several partitions or repeated calls.
func WithPreloadParams() Option {
	return func(s *settings) { s.preload = true }
}

// randomness returns partition k's blinding.
func (s *settings) randomness(k int) (groth16.Randomness, error) {
	if s.seed != nil {
		return groth16.RandomnessFromSeed(*s.seed, uint64(k)), nil
	}
	return groth16.NewRandomness()
}
