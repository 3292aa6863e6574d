// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/stacked"
)

// Commit2Job is one SealCommitPhase2 split into the steps a scheduler runs
// on its own workers (porep/engine): parse and validate once, load the
// keys, synthesize and prove partitions in any order and on any prover,
// check each proof against the .vk, and finish (concatenate, or aggregate
// for NI-PoRep). With the same randomness per partition its Finish bytes
// are SealCommitPhase2's. Safe for concurrent use by partition.
type Commit2Job struct {
	s         *settings
	pc        *parsedC1
	g         *stacked.Graph
	sectorNum abi.SectorNumber
	minerID   abi.ActorID
	start     time.Time
}

// PrepareCommit2 parses and validates a C1 output (raw JSON or the
// Commit2In wrapper) exactly as SealCommitPhase2 does, before anything is
// synthesized; errors caused by the input wrap ErrBadInput. Of opts,
// WithParamsDir, WithRequireProductionParams, WithLogger and WithProgress
// (warnings) apply; the scheduler owns backends, randomness and workers.
func PrepareCommit2(phase1Output []byte, sectorNum abi.SectorNumber, minerID abi.ActorID, opts ...Option) (*Commit2Job, error) {
	s := newSettings(opts)
	start := time.Now()
	pc, err := parseC1(phase1Output, sectorNum, minerID)
	if err != nil {
		return nil, err
	}
	g, err := stacked.GraphFor(&pc.cfg)
	if err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	// Measured once per shape; also the size every partition is made for.
	if _, err := stacked.SizeHintFor(&pc.cfg); err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	return &Commit2Job{s: s, pc: pc, g: g, sectorNum: sectorNum, minerID: minerID, start: start}, nil
}

// Config is the sector configuration of the C1 output's registered proof.
func (j *Commit2Job) Config() *stacked.SectorConfig { return &j.pc.cfg }

// Partitions is the number of partition circuits (the C1's vanilla proofs).
func (j *Commit2Job) Partitions() int { return len(j.pc.c1.VanillaProofs) }

// ParamsPaths returns the .params and .vk paths the job proves and
// verifies with.
func (j *Commit2Job) ParamsPaths() (params, vk string) {
	params, vk, _ = j.pc.cfg.ParameterPaths(j.s.paramsDir)
	return params, vk
}

// LoadKeys is LoadCommit2Keys for the job's circuit and options.
func (j *Commit2Job) LoadKeys() (*groth16.Params, *groth16.PreparedVerifyingKey, error) {
	return loadCommit2Keys(j.s, &j.pc.cfg)
}

// LoadCommit2Keys checks cfg's parameter files as SealCommitPhase2 does
// (WithRequireProductionParams, test stamps; of opts, WithParamsDir,
// WithRequireProductionParams, WithLogger and WithProgress apply) and
// returns the .params and the prepared .vk after checking that they hold
// the same verifying key. Both are cached per process (path, size, mtime).
func LoadCommit2Keys(cfg *stacked.SectorConfig, opts ...Option) (*groth16.Params, *groth16.PreparedVerifyingKey, error) {
	return loadCommit2Keys(newSettings(opts), cfg)
}

func loadCommit2Keys(s *settings, cfg *stacked.SectorConfig) (*groth16.Params, *groth16.PreparedVerifyingKey, error) {
	if err := productionCheck(s, cfg, true); err != nil {
		return nil, nil, err
	}
	return loadProvingKeys(s.paramsDir, cfg)
}

// SynthesizePartition synthesizes partition k (0 ≤ k < Partitions) into an
// assignment (stacked.SynthesizePartition), its challenges on up to workers
// goroutines (1: sequentially), with storage from pool (nil:
// SealCommitPhase2's pool); hand it back with pool.Release.
func (j *Commit2Job) SynthesizePartition(ctx context.Context, k int, pool *cs.BufferPool, workers int) (*cs.Assignment, error) {
	if k < 0 || k >= j.Partitions() {
		return nil, fmt.Errorf("porep: partition %d of %d", k, j.Partitions())
	}
	if pool == nil {
		pool = synthPool
	}
	a, err := stacked.SynthesizePartition(ctx, j.pc.c1, &j.pc.cfg, k, pool, workers)
	if err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	return a, nil
}

// PublicInputs returns partition k's public inputs (ONE excluded) as the
// verifier derives them, after checking that the synthesized assignment a
// carries the same ones.
func (j *Commit2Job) PublicInputs(k int, a *cs.Assignment) ([]fr.Element, error) {
	public, err := j.pc.c1.PublicInputs(&j.pc.cfg, j.g, k)
	if err != nil {
		return nil, fmt.Errorf("porep: partition %d: %w", k, err)
	}
	if a != nil && !frSliceEqual(a.Input[1:], public) {
		return nil, fmt.Errorf("porep: partition %d: synthesized inputs differ from the public inputs the verifier derives", k)
	}
	return public, nil
}

// VerifyPartition checks partition k's proof against the .vk's prepared key
// with the verifier's public inputs; an error wraps ErrInvalidProof and
// names the .vk file.
func (j *Commit2Job) VerifyPartition(pvk *groth16.PreparedVerifyingKey, k int, proof *groth16.Proof, public []fr.Element) error {
	if err := pvk.Verify(proof, public); err != nil {
		_, vp := j.ParamsPaths()
		return fmt.Errorf("porep: partition %d: the produced proof does not verify against %s: %w", k, vp, err)
	}
	return nil
}

// Finish turns the verified partition proofs, in partition order, into
// SealCommitPhase2's result: their 192-byte encodings concatenated, or for
// NI-PoRep their SnarkPack V2 aggregate, verified as VerifySeal does.
func (j *Commit2Job) Finish(proofs []groth16.Proof) ([]byte, error) {
	if len(proofs) != j.Partitions() {
		return nil, fmt.Errorf("porep: %d proofs for %d partitions", len(proofs), j.Partitions())
	}
	if j.pc.cfg.Challenges == stacked.ChallengesNonInteractive {
		return sealCommitNI(j.s, j.pc, proofs, j.sectorNum, j.minerID, j.start)
	}
	return groth16.EncodeProofs(proofs), nil
}

// Memory is EstimateCommit2Memory for this job's circuit with one
// partition in flight, no preload, and the .params file's size when it can
// be read.
func (j *Commit2Job) Memory(backend string) (Commit2Memory, error) {
	return EstimateCommit2Memory(&j.pc.cfg, backend, 1, false, ParamsFileSize(&j.pc.cfg, WithParamsDir(j.s.paramsDir)))
}

// ParameterPaths returns cfg's .params and .vk paths in the parameter
// directory opts select (WithParamsDir, else the default).
func ParameterPaths(cfg *stacked.SectorConfig, opts ...Option) (params, vk string) {
	params, vk, _ = cfg.ParameterPaths(newSettings(opts).paramsDir)
	return params, vk
}

// ParamsFileSize is the size of cfg's .params file in bytes (0 when it
// cannot be read: EstimateCommit2Memory then computes it from the shape).
func ParamsFileSize(cfg *stacked.SectorConfig, opts ...Option) uint64 {
	pp, _ := ParameterPaths(cfg, opts...)
	if fi, err := os.Stat(pp); err == nil && fi.Mode().IsRegular() {
		return uint64(fi.Size())
	}
	return 0
}

// EvictCommit2Keys drops cfg's .params and .vk from the process-wide cache
// (a later LoadCommit2Keys or SealCommitPhase2 maps them again). The
// mapping is released when the last user lets go of it (a finalizer calls
// Close), so a proof still running on it is not disturbed.
func EvictCommit2Keys(cfg *stacked.SectorConfig, opts ...Option) (wasLoaded bool) {
	pp, vp := ParameterPaths(cfg, opts...)
	paramsCacheMu.Lock()
	defer paramsCacheMu.Unlock()
	if c, ok := paramsCache[pp]; ok {
		delete(paramsCache, pp)
		runtime.SetFinalizer(c.p, (*groth16.Params).Close)
		wasLoaded = true
	}
	delete(vkCache, vp)
	return wasLoaded
}
