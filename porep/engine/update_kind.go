// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/ipfs/go-cid"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/update"
)

// updateKind is KindSnapDealsUpdate: the raw commitments (as CIDs) and
// vanilla_proofs, one per partition, become porep.PrepareUpdate's job,
// whose bytes are GenerateUpdateProofWithVanilla's.
func updateKind(f jobFamily) *jobFamily {
	// porep's messages about a commitment name it; all else is about the
	// vanilla proofs (their count, bytes, or fit with the commitments).
	f.kind, f.field = KindSnapDealsUpdate, "vanilla_proofs"
	f.circuit = func(req *Request) (paramfile.Circuit, error) {
		cfg, err := update.ConfigFor(abi.RegisteredUpdateProof(req.RegisteredProof))
		return &cfg, err
	}
	f.job = func(req *Request, c paramfile.Circuit, opts []porep.Option) (*porep.Job, error) {
		var cids [3]cid.Cid
		for i, in := range []struct {
			name  string
			b     []byte
			toCID func([]byte) (cid.Cid, error)
		}{{"comm_r_old", req.CommROld, commcid.ReplicaCommitmentV1ToCID}, {"comm_r_new", req.CommRNew, commcid.ReplicaCommitmentV1ToCID},
			{"comm_d_new", req.CommDNew, commcid.DataCommitmentV1ToCID}} {
			var err error
			if cids[i], err = in.toCID(in.b); err != nil {
				return nil, badInputf("engine: SNAP_DEALS_UPDATE: %s: %d bytes: %w", in.name, len(in.b), err)
			}
		}
		return porep.PrepareUpdate(c.(*update.Config).Proof, cids[0], cids[1], cids[2], req.VanillaProofs, opts...)
	}
	f.all = func() []paramfile.Circuit {
		var all []paramfile.Circuit
		for _, cfg := range update.Configs() {
			all = append(all, &cfg)
		}
		return all
	}
	f.id = func(c paramfile.Circuit) string { return "snap-" + sizeID(c.ProofSectorSize()) }
	return &f
}
