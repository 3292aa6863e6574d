// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/post"
)

// postKind is KindWinningPoSt (kind post.Winning) or
// KindWindowPoStPartition: vanilla_proofs, one per sector, become
// porep.PrepareWinningPoSt's or PrepareWindowPoStPartition's job, whose
// bytes are GenerateWinningPoStWithVanilla's or
// GenerateSinglePartitionWindowPoStWithVanilla's.
func postKind(f jobFamily, kind post.Kind) *jobFamily {
	f.kind, f.field = KindWindowPoStPartition, "vanilla_proofs"
	if kind == post.Winning {
		f.kind = KindWinningPoSt
	}
	f.circuit = func(req *Request) (paramfile.Circuit, error) {
		cfg, err := post.ConfigFor(abi.RegisteredPoStProof(req.RegisteredProof))
		return &cfg, err
	}
	f.job = func(req *Request, c paramfile.Circuit, opts []porep.Option) (*porep.Job, error) {
		proof, miner := c.(*post.Config).Proof, abi.ActorID(req.MinerID)
		if kind == post.Window {
			return porep.PrepareWindowPoStPartition(proof, miner, req.Randomness, req.VanillaProofs, uint(req.PartitionIndex), opts...)
		}
		if req.PartitionIndex != 0 {
			return nil, badInputf("engine: WINNING_POST: partition_index: %d, WinningPoSt has one circuit", req.PartitionIndex)
		}
		return porep.PrepareWinningPoSt(proof, miner, req.Randomness, req.VanillaProofs, opts...)
	}
	f.all = func() []paramfile.Circuit {
		var all []paramfile.Circuit
		for _, cfg := range post.Configs() {
			if cfg.Kind == kind {
				all = append(all, &cfg)
			}
		}
		return all
	}
	f.id = func(c paramfile.Circuit) string {
		if kind == post.Winning {
			return "winning-" + sizeID(c.ProofSectorSize())
		}
		return "wpost-" + sizeID(c.ProofSectorSize())
	}
	return &f
}
