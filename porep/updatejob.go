// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"context"
	"fmt"
	"os"
	"runtime"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/ipfs/go-cid"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/update"
)

// UpdateJob is one SnapDeals update proof split into the steps a scheduler
// runs on its own workers (porep/engine): parse and check once, load the
// keys, synthesize each partition, prove, check each proof against the
// .vk. With r, s of blinding index k for partition k its bytes are
// GenerateUpdateProofWithVanilla's. Safe for concurrent use.
type UpdateJob struct {
	s  *settings
	in *updateInputs
}

// PrepareUpdate checks the arguments of GenerateUpdateProofWithVanilla
// exactly as it does (errors wrap ErrBadInput and name the field) and
// returns the proof as a job. Of opts, WithParamsDir,
// WithRequireProductionParams and WithLogger apply.
func PrepareUpdate(proofType abi.RegisteredUpdateProof, oldSealedCID, newSealedCID, unsealedCID cid.Cid, vanillaProofs [][]byte, opts ...Option) (*UpdateJob, error) {
	in, err := updateProveInputs(proofType, oldSealedCID, newSealedCID, unsealedCID, vanillaProofs)
	if err != nil {
		return nil, err
	}
	if _, err := update.SizeHintFor(in.cfg); err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	return &UpdateJob{s: newSettings(opts), in: in}, nil
}

// Config is the registered update proof's configuration.
func (j *UpdateJob) Config() *update.Config { return j.in.cfg }

// Partitions is the number of partition circuits (Config().Partitions).
func (j *UpdateJob) Partitions() int { return j.in.cfg.Partitions }

// ParamsPaths returns the .params and .vk paths the job proves and
// verifies with.
func (j *UpdateJob) ParamsPaths() (params, vk string) {
	return UpdateParameterPaths(j.in.cfg, WithParamsDir(j.s.paramsDir))
}

// LoadKeys is LoadUpdateKeys for the job's circuit and options.
func (j *UpdateJob) LoadKeys() (*groth16.Params, *groth16.PreparedVerifyingKey, error) {
	return loadUpdateKeys(j.s, j.in.cfg)
}

// LoadUpdateKeys checks cfg's parameter files as
// GenerateUpdateProofWithVanilla does (WithRequireProductionParams, test
// stamps) and returns the .params and the prepared .vk after checking that
// they hold the same verifying key; cached per process.
func LoadUpdateKeys(cfg *update.Config, opts ...Option) (*groth16.Params, *groth16.PreparedVerifyingKey, error) {
	return loadUpdateKeys(newSettings(opts), cfg)
}

func loadUpdateKeys(s *settings, cfg *update.Config) (*groth16.Params, *groth16.PreparedVerifyingKey, error) {
	if err := productionCheck(s, cfg, true); err != nil {
		return nil, nil, err
	}
	return loadKeys(s.paramsDir, cfg, cfg.Name, true)
}

// SynthesizePartition synthesizes partition k (0 ≤ k < Partitions) into an
// assignment, its challenges on up to workers goroutines (1:
// sequentially), with storage from pool (nil: the Generate call's pool);
// hand it back with pool.Release.
func (j *UpdateJob) SynthesizePartition(ctx context.Context, k int, pool *cs.BufferPool, workers int) (*cs.Assignment, error) {
	if k < 0 || k >= j.Partitions() {
		return nil, fmt.Errorf("porep: partition %d of %d", k, j.Partitions())
	}
	if pool == nil {
		pool = synthPool
	}
	return synthesizeUpdate(ctx, j.in.cfg, &j.in.comms, j.in.proofs[k], k, pool, workers)
}

// Circuit builds partition k's circuit afresh, for callers that synthesize
// it into another constraint system (bench synth --digests).
func (j *UpdateJob) Circuit(k int) (*update.Circuit, error) {
	if k < 0 || k >= j.Partitions() {
		return nil, fmt.Errorf("porep: partition %d of %d", k, j.Partitions())
	}
	c := &j.in.comms
	circ, err := update.NewCircuit(j.in.cfg, k, &c.ROld, &c.DNew, &c.RNew, j.in.proofs[k])
	if err != nil {
		return nil, badInput(fmt.Errorf("porep: partition %d: %w", k, err))
	}
	return circ, nil
}

// PublicInputs returns partition k's public inputs (ONE excluded) as the
// verifier derives them, after checking that a (when not nil) carries the
// same ones.
func (j *UpdateJob) PublicInputs(k int, a *cs.Assignment) ([]fr.Element, error) {
	return updatePublicInputs(j.in.cfg, &j.in.comms, a, k)
}

// VerifyPartition checks partition k's proof against the .vk's prepared
// key with the verifier's public inputs; an error wraps ErrInvalidProof
// and names the .vk file.
func (j *UpdateJob) VerifyPartition(pvk *groth16.PreparedVerifyingKey, k int, proof *groth16.Proof, public []fr.Element) error {
	return verifyPartition(j.s.paramsDir, j.in.cfg, pvk, proof, public, k)
}

// Finish turns the verified partition proofs, in partition order, into
// GenerateUpdateProofWithVanilla's result: their encodings concatenated.
func (j *UpdateJob) Finish(proofs []groth16.Proof) ([]byte, error) {
	if len(proofs) != j.Partitions() {
		return nil, fmt.Errorf("porep: %d proofs for %d partitions", len(proofs), j.Partitions())
	}
	return groth16.EncodeProofs(proofs), nil
}

// Memory is EstimateUpdateMemory for the job's circuit.
func (j *UpdateJob) Memory(backend string) (Commit2Memory, error) {
	return EstimateUpdateMemory(j.in.cfg, backend, WithParamsDir(j.s.paramsDir))
}

// EstimateUpdateMemory is EstimateCommit2Memory's breakdown for one
// partition of cfg's circuit in flight, no preload, the .params file's
// size when it can be read.
func EstimateUpdateMemory(cfg *update.Config, backend string, opts ...Option) (Commit2Memory, error) {
	hint, err := update.SizeHintFor(cfg)
	if err != nil {
		return Commit2Memory{}, fmt.Errorf("porep: %w", err)
	}
	var size uint64
	pp, _ := UpdateParameterPaths(cfg, opts...)
	if fi, err := os.Stat(pp); err == nil && fi.Mode().IsRegular() {
		size = uint64(fi.Size())
	}
	return estimateMemory(hint, backend, 1, false, size), nil
}

// EvictUpdateKeys drops cfg's .params and .vk from the process-wide cache
// (EvictPoStKeys for the update circuit).
func EvictUpdateKeys(cfg *update.Config, opts ...Option) (wasLoaded bool) {
	return evictKeys(newSettings(opts).paramsDir, cfg)
}

// evictKeys drops cfg's .params and .vk in dir from the process-wide cache
// and reports whether the .params was loaded; the mapping is closed when
// its last user lets go of it.
func evictKeys(dir string, cfg parameterFiles) (wasLoaded bool) {
	pp, vp, _ := cfg.ParameterPaths(dir)
	postKeysMu.Lock()
	defer postKeysMu.Unlock()
	if e, ok := postKeys[pp]; ok {
		delete(postKeys, pp)
		runtime.SetFinalizer(e.params, (*groth16.Params).Close)
		wasLoaded = true
	}
	delete(postKeys, vp)
	return wasLoaded
}
