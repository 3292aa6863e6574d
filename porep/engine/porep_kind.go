// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/stacked"
)

// porepKind proves KindPoRepC2 through porep's job API (PrepareCommit2):
// the bytes are SealCommitPhase2's.
type porepKind struct {
	opts    []porep.Option
	backend string         // what the memory estimate assumes ("cpu" or a GPU backend)
	pool    *cs.BufferPool // the engine's synthesis buffers
}

func (pk *porepKind) prepare(req *Request) (plan, error) {
	if len(req.VanillaProof) == 0 {
		return nil, badInputf("engine: POREP_SEAL_COMMIT: vanilla_proof is empty (want the C1 output JSON or a Commit2In wrapper)")
	}
	job, err := porep.PrepareCommit2(req.VanillaProof, abi.SectorNumber(req.SectorNumber), abi.ActorID(req.MinerID), pk.opts...)
	if err != nil {
		if errors.Is(err, porep.ErrBadInput) {
			return nil, badInput(fmt.Errorf("engine: POREP_SEAL_COMMIT: vanilla_proof: %w", err))
		}
		return nil, err
	}
	cfg := job.Circuit().(*stacked.SectorConfig)
	if cfg.Registered && uint64(cfg.Proof) != req.RegisteredProof {
		return nil, badInputf("engine: POREP_SEAL_COMMIT: registered_proof = %d, but the C1 output is for %s (%d)", req.RegisteredProof, cfg.Name, uint64(cfg.Proof))
	}
	if req.SectorSize != 0 && req.SectorSize != cfg.SectorSize {
		return nil, badInputf("engine: POREP_SEAL_COMMIT: sector_size = %d, but the C1 output is for %s (sector size %d)", req.SectorSize, cfg.Name, cfg.SectorSize)
	}
	m, err := job.Keys().Memory(pk.backend)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	return newJobPlan(job, pk.pool, pk.spec(cfg, m.Params), m.PerPartition+m.Backend), nil
}

// circuitID is the cuzk-style id of cfg's circuit: porep-32g, porep-2k;
// ni-porep-32g for NI-PoRep (other partitions and challenges).
func circuitID(cfg *stacked.SectorConfig) string {
	if cfg.Challenges == stacked.ChallengesNonInteractive {
		return "ni-porep-" + sizeID(cfg.SectorSize)
	}
	return "porep-" + sizeID(cfg.SectorSize)
}

func (pk *porepKind) spec(cfg *stacked.SectorConfig, bytes uint64) *paramsSpec {
	c := *cfg
	return newParamsSpec(circuitID(&c), porep.KeysFor(&c, pk.opts...), bytes)
}

// circuit knows the interactive PoRep circuits of every sector size
// (StackedDrg…V1_1; synthetic PoRep proves the same circuit).
func (pk *porepKind) circuit(id string) (*paramsSpec, bool) {
	for _, size := range stacked.SectorSizes() {
		proof, ok := stacked.SealProofV1_1(size)
		if !ok {
			continue
		}
		cfg, err := stacked.ConfigFor(proof)
		if err != nil || circuitID(&cfg) != id {
			continue
		}
		m, err := porep.KeysFor(&cfg, pk.opts...).Memory(pk.backend)
		if err != nil {
			return nil, false
		}
		return pk.spec(&cfg, m.Params), true
	}
	return nil, false
}

// jobPlan is the plan of a porep.Job, of any kind.
type jobPlan struct {
	job   *porep.Job
	pool  *cs.BufferPool
	spec  *paramsSpec
	bytes uint64
	// public[k] is partition k's public inputs, checked against its
	// assignment at synthesis (a mismatch is no prover's fault); written by
	// the synthesis goroutine, read by the proving one after the engine's
	// lock hands the partition over.
	public [][]fr.Element
}

func newJobPlan(job *porep.Job, pool *cs.BufferPool, spec *paramsSpec, bytes uint64) *jobPlan {
	return &jobPlan{job: job, pool: pool, spec: spec, bytes: bytes, public: make([][]fr.Element, job.Partitions())}
}

func (p *jobPlan) partitions() int        { return p.job.Partitions() }
func (p *jobPlan) params() *paramsSpec    { return p.spec }
func (p *jobPlan) partitionBytes() uint64 { return p.bytes }

// blindingIndex: a WindowPoSt partition is blinded as partition
// partition_index, as porep blinds it.
func (p *jobPlan) blindingIndex(k int) int { return p.job.BlindingIndex(k) }

func (p *jobPlan) synthesize(ctx context.Context, k, threads int) (*cs.Assignment, error) {
	a, err := p.job.SynthesizePartition(ctx, k, p.pool, threads)
	if err != nil {
		return nil, err
	}
	if p.public[k], err = p.job.PublicInputs(k, a); err != nil {
		p.pool.Release(a)
		return nil, err
	}
	return a, nil
}

func (p *jobPlan) release(a *cs.Assignment) { p.pool.Release(a) }

func (p *jobPlan) verify(k int, _ *cs.Assignment, proof *groth16.Proof, keys *keys) error {
	return p.job.VerifyPartition(keys.pvk, k, proof, p.public[k])
}

func (p *jobPlan) finish(proofs []groth16.Proof) ([]byte, error) { return p.job.Finish(proofs) }
