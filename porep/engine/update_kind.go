// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"errors"
	"fmt"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/ipfs/go-cid"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/update"
)

// updateKind proves KindSnapDealsUpdate through porep's job API
// (PrepareUpdate): every partition of the update, the bytes
// GenerateUpdateProofWithVanilla's.
type updateKind struct {
	opts    []porep.Option
	backend string         // what the memory estimate assumes
	pool    *cs.BufferPool // the engine's synthesis buffers
}

// updateCommitmentCIDs turns Curio's raw 32-byte commitments into the CIDs
// porep takes (go-fil-commcid: sealed for comm_r_*, unsealed for comm_d).
func updateCommitmentCIDs(req *Request) (oldSealed, newSealed, unsealed cid.Cid, err error) {
	for _, c := range []struct {
		name  string
		b     []byte
		dst   *cid.Cid
		toCID func([]byte) (cid.Cid, error)
	}{{"comm_r_old", req.CommROld, &oldSealed, commcid.ReplicaCommitmentV1ToCID}, {"comm_r_new", req.CommRNew, &newSealed, commcid.ReplicaCommitmentV1ToCID},
		{"comm_d_new", req.CommDNew, &unsealed, commcid.DataCommitmentV1ToCID}} {
		if len(c.b) != 32 {
			return oldSealed, newSealed, unsealed, badInputf("engine: SNAP_DEALS_UPDATE: %s is %d bytes, want 32", c.name, len(c.b))
		}
		if *c.dst, err = c.toCID(c.b); err != nil {
			return oldSealed, newSealed, unsealed, badInputf("engine: SNAP_DEALS_UPDATE: %s: %w", c.name, err)
		}
	}
	return oldSealed, newSealed, unsealed, nil
}

func (uk *updateKind) prepare(req *Request) (plan, error) {
	if len(req.VanillaProofs) == 0 {
		return nil, badInputf("engine: SNAP_DEALS_UPDATE: vanilla_proofs is empty (want one partition proof per partition)")
	}
	cfg, err := update.ConfigFor(abi.RegisteredUpdateProof(req.RegisteredProof))
	if err != nil {
		return nil, badInputf("engine: SNAP_DEALS_UPDATE: registered_proof: %w", err)
	}
	if req.SectorSize != 0 && req.SectorSize != cfg.SectorSize {
		return nil, badInputf("engine: SNAP_DEALS_UPDATE: sector_size = %d, but registered_proof %d (%s) is for sector size %d", req.SectorSize, req.RegisteredProof, cfg.Name, cfg.SectorSize)
	}
	oldSealed, newSealed, unsealed, err := updateCommitmentCIDs(req)
	if err != nil {
		return nil, err
	}
	job, err := porep.PrepareUpdate(cfg.Proof, oldSealed, newSealed, unsealed, req.VanillaProofs, uk.opts...)
	if err != nil {
		if errors.Is(err, porep.ErrBadInput) {
			return nil, badInput(fmt.Errorf("engine: SNAP_DEALS_UPDATE: %w", err))
		}
		return nil, err
	}
	m, err := job.Keys().Memory(uk.backend)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	return newJobPlan(job, uk.pool, uk.spec(&cfg, m.Params), m.PerPartition+m.Backend), nil
}

// updateCircuitID is the cuzk-style id of cfg's circuit: snap-32g.
func updateCircuitID(cfg *update.Config) string { return "snap-" + sizeID(cfg.SectorSize) }

func (uk *updateKind) spec(cfg *update.Config, bytes uint64) *paramsSpec {
	c := *cfg
	return newParamsSpec(updateCircuitID(&c), porep.KeysFor(&c, uk.opts...), bytes)
}

// circuit knows the update circuits of every sector size.
func (uk *updateKind) circuit(id string) (*paramsSpec, bool) {
	for _, cfg := range update.Configs() {
		if updateCircuitID(&cfg) != id {
			continue
		}
		m, err := porep.KeysFor(&cfg, uk.opts...).Memory(uk.backend)
		if err != nil {
			return nil, false
		}
		return uk.spec(&cfg, m.Params), true
	}
	return nil, false
}
