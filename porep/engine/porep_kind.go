// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/stacked"
)

// porepKind is KindPoRepC2: vanilla_proof, a C1 output (raw, or in
// lotus-bench's Commit2In wrapper), becomes porep.PrepareCommit2's job,
// whose bytes are SealCommitPhase2's.
func porepKind(f jobFamily) *jobFamily {
	f.kind, f.field = KindPoRepC2, "vanilla_proof"
	f.circuit = func(req *Request) (paramfile.Circuit, error) {
		cfg, err := stacked.ConfigFor(abi.RegisteredSealProof(req.RegisteredProof))
		return &cfg, err
	}
	f.job = func(req *Request, c paramfile.Circuit, opts []porep.Option) (*porep.Job, error) {
		job, err := porep.PrepareCommit2(req.VanillaProof, abi.SectorNumber(req.SectorNumber), abi.ActorID(req.MinerID), opts...)
		if err != nil {
			return nil, err
		}
		want, got := c.(*stacked.SectorConfig), job.Circuit().(*stacked.SectorConfig)
		if got.Registered && got.Proof != want.Proof {
			return nil, badInputf("engine: POREP_SEAL_COMMIT: vanilla_proof: the C1 is for %s (%d-byte sectors), but registered_proof %d is %s (%d-byte sectors)",
				got.Name, got.SectorSize, req.RegisteredProof, want.Name, want.SectorSize)
		}
		return job, nil
	}
	f.all = func() []paramfile.Circuit {
		var all []paramfile.Circuit
		for _, size := range stacked.SectorSizes() {
			if proof, ok := stacked.SealProofV1_1(size); ok {
				if cfg, err := stacked.ConfigFor(proof); err == nil {
					all = append(all, &cfg)
				}
			}
		}
		return all
	}
	f.id = func(c paramfile.Circuit) string { return circuitID(c.(*stacked.SectorConfig)) }
	return &f
}

// circuitID is the cuzk-style id of cfg's circuit: porep-32g, porep-2k;
// ni-porep-32g for NI-PoRep (other partitions and challenges). Preload and
// Evict know the interactive ones (synthetic PoRep proves the same circuit).
func circuitID(cfg *stacked.SectorConfig) string {
	if cfg.Challenges == stacked.ChallengesNonInteractive {
		return "ni-porep-" + sizeID(cfg.SectorSize)
	}
	return "porep-" + sizeID(cfg.SectorSize)
}
