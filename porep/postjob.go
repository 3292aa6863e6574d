// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"context"
	"fmt"
	"os"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/post"
)

// PoStJob is one PoSt circuit — the WinningPoSt circuit, or one WindowPoSt
// partition — split into the steps a scheduler runs on its own workers
// (porep/engine): parse and validate once, load the keys, synthesize,
// prove, check the proof against the .vk. With r, s of blinding index
// Index() its proof bytes are GenerateWinningPoStWithVanilla's /
// GenerateSinglePartitionWindowPoStWithVanilla's. Safe for concurrent use.
type PoStJob struct {
	s     *settings
	cfg   *post.Config
	slots []post.Slot
	index int
}

// winningCount: WinningPoSt proves the one challenged sector.
func winningCount(cfg *post.Config, n int) error {
	if n != post.WinningSectorCount {
		return badInputf("porep: %s: %d vanilla proofs, want %d (the challenged sector's)", cfg.Name, n, post.WinningSectorCount)
	}
	return nil
}

// partitionCount: one WindowPoSt partition holds at most SectorCount sectors.
func partitionCount(cfg *post.Config, n int) error {
	if n > cfg.SectorCount {
		return badInputf("porep: %s: %d vanilla proofs for one partition, at most %d", cfg.Name, n, cfg.SectorCount)
	}
	return nil
}

// PrepareWinningPoSt checks the arguments of GenerateWinningPoStWithVanilla
// exactly as it does (errors wrap ErrBadInput) and returns its one circuit
// as a job (blinding index 0). Of opts, WithParamsDir, WithLogger,
// WithProgress and WithRequireProductionParams apply.
func PrepareWinningPoSt(proofType abi.RegisteredPoStProof, minerID abi.ActorID, randomness abi.PoStRandomness, proofs [][]byte, opts ...Option) (*PoStJob, error) {
	return preparePoSt(proofType, post.Winning, randomness, proofs, winningCount, 0, opts)
}

// PrepareWindowPoStPartition checks the arguments of
// GenerateSinglePartitionWindowPoStWithVanilla exactly as it does (errors
// wrap ErrBadInput) and returns partition partitionIndex as a job (blinding
// index partitionIndex). Of opts, WithParamsDir, WithLogger, WithProgress
// and WithRequireProductionParams apply.
func PrepareWindowPoStPartition(proofType abi.RegisteredPoStProof, minerID abi.ActorID, randomness abi.PoStRandomness, proofs [][]byte, partitionIndex uint, opts ...Option) (*PoStJob, error) {
	return preparePoSt(proofType, post.Window, randomness, proofs, partitionCount, int(partitionIndex), opts)
}

func preparePoSt(proofType abi.RegisteredPoStProof, kind post.Kind, randomness abi.PoStRandomness, proofs [][]byte,
	count func(*post.Config, int) error, index int, opts []Option) (*PoStJob, error) {
	cfg, rnd, vps, err := postProveInputs(proofType, kind, randomness, proofs, count)
	if err != nil {
		return nil, err
	}
	slots, err := post.ProverSlots(cfg, rnd, vps, 0)
	if err != nil {
		return nil, badInput(fmt.Errorf("porep: %s: %w", cfg.Name, err))
	}
	if _, err := post.SizeHintFor(cfg); err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	return &PoStJob{s: newSettings(opts), cfg: cfg, slots: slots, index: index}, nil
}

// Config is the registered PoSt proof's configuration.
func (j *PoStJob) Config() *post.Config { return j.cfg }

// Index is the blinding index: 0 for WinningPoSt, the partition index for
// a WindowPoSt partition (WithDeterministicRandomness's r, s of that index
// give porep's bytes).
func (j *PoStJob) Index() int { return j.index }

// ParamsPaths returns the .params and .vk paths the job proves and
// verifies with.
func (j *PoStJob) ParamsPaths() (params, vk string) {
	params, vk, _ = j.cfg.ParameterPaths(j.s.paramsDir)
	return params, vk
}

// LoadKeys reads the .params and the prepared .vk as the Generate calls do
// (cached per process; a .vk of another circuit, or a .params of another
// setup, is bad input; missing files ErrParamsNotFound).
func (j *PoStJob) LoadKeys() (*groth16.Params, *groth16.PreparedVerifyingKey, error) {
	return loadPoStKeys(j.s, j.cfg, true)
}

// Synthesize synthesizes the circuit into an assignment, its sectors on up
// to workers goroutines (1: sequentially), with storage from pool (nil:
// the Generate calls' pool); hand it back with pool.Release.
func (j *PoStJob) Synthesize(ctx context.Context, pool *cs.BufferPool, workers int) (*cs.Assignment, error) {
	if pool == nil {
		pool = synthPool
	}
	return synthesizePoSt(ctx, j.cfg, j.slots, j.index, pool, workers)
}

// Circuit builds the job's circuit afresh, for callers that synthesize it
// into another constraint system (bench synth --digests records its R1CS).
func (j *PoStJob) Circuit() (*post.Circuit, error) {
	c, err := post.NewCircuit(j.cfg, j.slots)
	if err != nil {
		return nil, badInput(fmt.Errorf("porep: partition %d: %w", j.index, err))
	}
	return c, nil
}

// PublicInputs returns the public inputs (ONE excluded) as the verifier
// derives them, after checking that a carries the same ones (a == nil: no
// check).
func (j *PoStJob) PublicInputs(a *cs.Assignment) ([]fr.Element, error) {
	return postPublicInputs(j.slots, a, j.index)
}

// Verify checks the proof against the .vk's prepared key with the
// verifier's public inputs; an error wraps ErrInvalidProof and names the
// .vk file.
func (j *PoStJob) Verify(pvk *groth16.PreparedVerifyingKey, proof *groth16.Proof, public []fr.Element) error {
	return verifyPartition(j.s.paramsDir, j.cfg, pvk, proof, public, j.index)
}

// Memory is EstimateCommit2Memory's breakdown for this circuit: one
// assignment in flight, no preload, the .params file's size when it can be
// read.
func (j *PoStJob) Memory(backend string) (Commit2Memory, error) {
	hint, err := post.SizeHintFor(j.cfg)
	if err != nil {
		return Commit2Memory{}, fmt.Errorf("porep: %w", err)
	}
	return estimateMemory(hint, backend, 1, false, PoStParamsFileSize(j.cfg, WithParamsDir(j.s.paramsDir))), nil
}

// PoStParameterPaths returns cfg's .params and .vk paths in the parameter
// directory opts select (WithParamsDir, else the default).
func PoStParameterPaths(cfg *post.Config, opts ...Option) (params, vk string) {
	params, vk, _ = cfg.ParameterPaths(newSettings(opts).paramsDir)
	return params, vk
}

// PoStParamsFileSize is the size of cfg's .params file in bytes (0 when it
// cannot be read).
func PoStParamsFileSize(cfg *post.Config, opts ...Option) uint64 {
	pp, _ := PoStParameterPaths(cfg, opts...)
	if fi, err := os.Stat(pp); err == nil && fi.Mode().IsRegular() {
		return uint64(fi.Size())
	}
	return 0
}

// EstimatePoStMemory is PoStJob.Memory for cfg's circuit without a job.
func EstimatePoStMemory(cfg *post.Config, backend string, opts ...Option) (Commit2Memory, error) {
	return (&PoStJob{s: newSettings(opts), cfg: cfg}).Memory(backend)
}

// LoadPoStKeys is PoStJob.LoadKeys for cfg's circuit without a job.
func LoadPoStKeys(cfg *post.Config, opts ...Option) (*groth16.Params, *groth16.PreparedVerifyingKey, error) {
	return loadPoStKeys(newSettings(opts), cfg, true)
}

// EvictPoStKeys drops cfg's .params and .vk from the process-wide cache (a
// later load opens them again) and reports whether the .params was
// loaded. The mapping is closed when its last user lets go of it.
func EvictPoStKeys(cfg *post.Config, opts ...Option) (wasLoaded bool) {
	return evictKeys(newSettings(opts).paramsDir, cfg)
}

// synthesizePoSt synthesizes the circuit of slots (partition k, for
// messages) into an assignment from pool.
func synthesizePoSt(ctx context.Context, cfg *post.Config, slots []post.Slot, k int, pool *cs.BufferPool, workers int) (*cs.Assignment, error) {
	hint, err := post.SizeHintFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	per, err := post.SectorSizeHint(cfg)
	if err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	circ, err := post.NewCircuit(cfg, slots)
	if err != nil {
		return nil, badInput(fmt.Errorf("porep: partition %d: %w", k, err))
	}
	pa := pool.NewProvingAssignment(hint)
	if workers > 1 {
		err = circ.SynthesizeParallel(ctx, pa, per, workers)
	} else {
		err = circ.Synthesize(ctx, pa)
	}
	a := pa.Assignment()
	if err != nil {
		pool.Release(a)
		return nil, fmt.Errorf("porep: partition %d: synthesize: %w", k, err)
	}
	return a, nil
}

// postPublicInputs returns the verifier's public inputs of slots after
// checking that a (when not nil) carries them.
func postPublicInputs(slots []post.Slot, a *cs.Assignment, k int) ([]fr.Element, error) {
	public, err := post.PublicInputs(slots)
	if err != nil {
		return nil, badInput(fmt.Errorf("porep: partition %d: %w", k, err))
	}
	return public, checkInputs(a, public, k)
}

// checkInputs checks that assignment a (when not nil) carries public,
// partition k's public inputs as the verifier derives them.
func checkInputs(a *cs.Assignment, public []fr.Element, k int) error {
	if a != nil && !frSliceEqual(a.Input[1:], public) {
		return fmt.Errorf("porep: partition %d: synthesized inputs differ from the public inputs the verifier derives", k)
	}
	return nil
}

// verifyPartition checks partition k's proof with the key of cfg's .vk in
// dir.
func verifyPartition(dir string, cfg parameterFiles, pvk *groth16.PreparedVerifyingKey, proof *groth16.Proof, public []fr.Element, k int) error {
	if err := pvk.Verify(proof, public); err != nil {
		_, vp, _ := cfg.ParameterPaths(dir)
		return fmt.Errorf("porep: partition %d: the produced proof does not verify against %s: %w", k, vp, err)
	}
	return nil
}

// PoStTestCircuit is cfg's circuit for paramfile.GenerateTestParamsFor
// (`cuseal params generate --circuit winning-post|window-post`): its
// official file names and identity, and the R1CS of its blank circuit
// (post.BlankCircuit, as rust-fil-proofs' parameter generation).
func PoStTestCircuit(cfg *post.Config) paramfile.TestCircuit {
	c := *cfg
	return blankTestCircuit(c.Name, c.SectorSize, &c, func() blankCircuit { return post.BlankCircuit(&c) })
}

// blankCircuit is a circuit without witness that can be recorded.
type blankCircuit interface {
	Synthesize(ctx context.Context, sys cs.ConstraintSystem) error
}

// blankTestCircuit is the paramfile.TestCircuit of a circuit whose R1CS
// is that of blank().
func blankTestCircuit(name string, sectorSize uint64, files paramfile.ParamFiles, blank func() blankCircuit) paramfile.TestCircuit {
	return paramfile.TestCircuit{Name: name, SectorSize: sectorSize, Files: files, Record: func() (*cs.R1CS, error) {
		rec := cs.NewRecorder()
		if err := blank().Synthesize(context.Background(), rec); err != nil {
			return nil, fmt.Errorf("porep: record %s: %w", name, err)
		}
		return rec.R1CS(), nil
	}}
}
