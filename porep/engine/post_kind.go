// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"fmt"

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
		if err == nil && cfg.Kind != kind {
			err = fmt.Errorf("%s is a %sPoSt proof", cfg.Name, cfg.Kind)
		}
		return &cfg, err
	}
	f.job = func(req *Request, c paramfile.Circuit, opts []porep.Option) (*porep.Job, error) {
		// Else porep's message would come under vanilla_proofs.
		if len(req.Randomness) != 32 {
			return nil, badInputf("engine: %s: randomness: %d bytes, want 32", f.kind, len(req.Randomness))
		}
		if err := post.CheckCommitment("randomness:", (*[32]byte)(req.Randomness)); err != nil {
			return nil, badInputf("engine: %s: %w", f.kind, err)
		}
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
