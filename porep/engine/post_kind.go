// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"errors"
	"fmt"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/cs"
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
	var job *porep.Job
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
	m, err := job.Keys().Memory(pk.backend)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	return newJobPlan(job, pk.pool, pk.spec(&cfg, m.Params), m.PerPartition+m.Backend), nil
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
	return newParamsSpec(postCircuitID(&c), porep.KeysFor(&c, pk.opts...), bytes)
}

// circuit knows the PoSt circuits of its kind for every sector size.
func (pk *postKind) circuit(id string) (*paramsSpec, bool) {
	for _, cfg := range post.Configs() {
		if cfg.Kind != pk.kind || postCircuitID(&cfg) != id {
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
