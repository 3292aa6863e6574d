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
	"github.com/cuseal/cuseal/porep/post"
)

// postKind proves KindWinningPoSt or KindWindowPoStPartition through
// porep's job API (PrepareWinningPoSt, PrepareWindowPoStPartition): one
// circuit per job, its bytes GenerateWinningPoStWithVanilla's /
// GenerateSinglePartitionWindowPoStWithVanilla's.
type postKind struct {
	kind    post.Kind // post.Winning or post.Window
	opts    []porep.Option
	backend string         // what the memory estimate assumes
	pool    *cs.BufferPool // the engine's synthesis buffers
}

func (pk *postKind) name() string {
	if pk.kind == post.Winning {
		return KindWinningPoSt.String()
	}
	return KindWindowPoStPartition.String()
}

func (pk *postKind) prepare(req *Request) (plan, error) {
	if len(req.VanillaProofs) == 0 {
		return nil, badInputf("engine: %s: vanilla_proofs is empty (want one vanilla proof per sector)", pk.name())
	}
	if len(req.Randomness) != 32 {
		return nil, badInputf("engine: %s: randomness is %d bytes, want 32", pk.name(), len(req.Randomness))
	}
	cfg, err := post.ConfigFor(abi.RegisteredPoStProof(req.RegisteredProof))
	if err != nil {
		return nil, badInputf("engine: %s: registered_proof: %w", pk.name(), err)
	}
	if cfg.Kind != pk.kind {
		return nil, badInputf("engine: %s: registered_proof = %d (%s) is a %sPoSt proof", pk.name(), req.RegisteredProof, cfg.Name, cfg.Kind)
	}
	if req.SectorSize != 0 && req.SectorSize != cfg.SectorSize {
		return nil, badInputf("engine: %s: sector_size = %d, but registered_proof %d (%s) is for sector size %d", pk.name(), req.SectorSize, req.RegisteredProof, cfg.Name, cfg.SectorSize)
	}
	var job *porep.PoStJob
	if pk.kind == post.Winning {
		if req.PartitionIndex != 0 {
			return nil, badInputf("engine: %s: partition_index = %d, WinningPoSt has one circuit", pk.name(), req.PartitionIndex)
		}
		job, err = porep.PrepareWinningPoSt(cfg.Proof, abi.ActorID(req.MinerID), req.Randomness, req.VanillaProofs, pk.opts...)
	} else {
		job, err = porep.PrepareWindowPoStPartition(cfg.Proof, abi.ActorID(req.MinerID), req.Randomness, req.VanillaProofs, uint(req.PartitionIndex), pk.opts...)
	}
	if err != nil {
		if errors.Is(err, porep.ErrBadInput) {
			return nil, badInput(fmt.Errorf("engine: %s: vanilla_proofs: %w", pk.name(), err))
		}
		return nil, err
	}
	m, err := job.Memory(pk.backend)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	return &postPlan{job: job, pool: pk.pool, spec: pk.spec(job.Config(), m.Params), bytes: m.PerPartition + m.Backend}, nil
}

// postCircuitID is the cuzk-style id of cfg's circuit: winning-32g,
// wpost-32g, wpost-2k.
func postCircuitID(cfg *post.Config) string {
	if cfg.Kind == post.Winning {
		return "winning-" + sizeID(cfg.SectorSize)
	}
	return "wpost-" + sizeID(cfg.SectorSize)
}

func (pk *postKind) spec(cfg *post.Config, bytes uint64) *paramsSpec {
	c := *cfg
	file, _ := porep.PoStParameterPaths(&c, pk.opts...)
	return newParamsSpec(postCircuitID(&c), file, bytes,
		func() (*groth16.Params, *groth16.PreparedVerifyingKey, error) {
			return porep.LoadPoStKeys(&c, pk.opts...)
		},
		func() { porep.EvictPoStKeys(&c, pk.opts...) })
}

// circuit knows the PoSt circuits of its kind for every sector size.
func (pk *postKind) circuit(id string) (*paramsSpec, bool) {
	for _, cfg := range post.Configs() {
		if cfg.Kind != pk.kind || postCircuitID(&cfg) != id {
			continue
		}
		m, err := porep.EstimatePoStMemory(&cfg, pk.backend, pk.opts...)
		if err != nil {
			return nil, false
		}
		return pk.spec(&cfg, m.Params), true
	}
	return nil, false
}

type postPlan struct {
	job   *porep.PoStJob
	pool  *cs.BufferPool
	spec  *paramsSpec
	bytes uint64
	// public is checked against the assignment at synthesis; written by the
	// synthesis goroutine, read by the proving one after the engine's lock
	// hands the partition over.
	public []fr.Element
}

func (p *postPlan) partitions() int        { return 1 }
func (p *postPlan) params() *paramsSpec    { return p.spec }
func (p *postPlan) partitionBytes() uint64 { return p.bytes }

// blindingIndex: a WindowPoSt partition is blinded as partition
// partition_index, as porep blinds it.
func (p *postPlan) blindingIndex(int) int { return p.job.Index() }

func (p *postPlan) synthesize(ctx context.Context, _ int, threads int) (*cs.Assignment, error) {
	a, err := p.job.Synthesize(ctx, p.pool, threads)
	if err != nil {
		return nil, err
	}
	if p.public, err = p.job.PublicInputs(a); err != nil {
		p.pool.Release(a)
		return nil, err
	}
	return a, nil
}

func (p *postPlan) release(a *cs.Assignment) { p.pool.Release(a) }

func (p *postPlan) verify(_ int, _ *cs.Assignment, proof *groth16.Proof, keys *keys) error {
	return p.job.Verify(keys.pvk, proof, p.public)
}

func (p *postPlan) finish(proofs []groth16.Proof) ([]byte, error) {
	if len(proofs) != 1 {
		return nil, fmt.Errorf("engine: %d proofs for one PoSt circuit", len(proofs))
	}
	return groth16.EncodeProofs(proofs), nil
}
