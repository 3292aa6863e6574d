// SPDX-License-Identifier: Apache-2.0 OR MIT

package service

import (
	"fmt"
	"unicode"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cuseal/cuseal/porep/engine/engineapi"
	pb "github.com/cuseal/cuseal/service/cuzkv1"
)

// request checks r's wire shape and converts it to an engine Request. A
// problem is codes.InvalidArgument naming the field; the service checks
// the wire only (enums, request_id's size, the presence of the fields the
// kind needs) — lengths and meaning (registered_proof, sector_size,
// randomness, commitments, the C1 or vanilla proofs) porep checks, once,
// and the engine names the request's field; their bad input is
// InvalidArgument too.
func (s *Server) request(r *pb.SubmitProofRequest) (*engineapi.Request, error) {
	if err := check(r); err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	return &engineapi.Request{
		RequestID:       r.GetRequestId(),
		Kind:            engineapi.Kind(r.GetProofKind()),
		Priority:        engineapi.Priority(r.GetPriority()),
		RegisteredProof: r.GetRegisteredProof(),
		SectorSize:      r.GetSectorSize(),
		SectorNumber:    r.GetSectorNumber(),
		MinerID:         r.GetMinerId(),
		VanillaProof:    r.GetVanillaProof(),
		VanillaProofs:   r.GetVanillaProofs(),
		Randomness:      r.GetRandomness(),
		PartitionIndex:  r.GetPartitionIndex(),
		CommROld:        r.GetCommROld(),
		CommRNew:        r.GetCommRNew(),
		CommDNew:        r.GetCommDNew(),
	}, nil
}

// MaxRequestIDBytes is the longest request_id a submission may carry.
// Curio's are "porep-<miner>-<sector>" and "snap-<miner>-<sector>" (under
// 50 bytes); the id is kept with the job and shown on the status page.
const MaxRequestIDBytes = 256

func check(r *pb.SubmitProofRequest) error {
	if n := len(r.GetRequestId()); n > MaxRequestIDBytes {
		return fmt.Errorf("request_id: %d bytes, at most %d (Curio sends porep-<miner>-<sector>)", n, MaxRequestIDBytes)
	}
	for i, c := range r.GetRequestId() {
		if !unicode.IsPrint(c) {
			return fmt.Errorf("request_id: byte %d is %U, not a printable character (the id is shown on the status page and in logs)", i, c)
		}
	}
	if p := r.GetPriority(); p < pb.Priority_PRIORITY_UNSPECIFIED || p > pb.Priority_CRITICAL {
		return fmt.Errorf("priority: unknown value %d (want 0-4: UNSPECIFIED, LOW, NORMAL, HIGH, CRITICAL)", int32(p))
	}
	switch k := r.GetProofKind(); k {
	case pb.ProofKind_PROOF_KIND_UNSPECIFIED:
		return fmt.Errorf("proof_kind: missing (PROOF_KIND_UNSPECIFIED); want POREP_SEAL_COMMIT, SNAP_DEALS_UPDATE, WINDOW_POST_PARTITION or WINNING_POST")
	case pb.ProofKind_POREP_SEAL_COMMIT:
		if len(r.GetVanillaProof()) == 0 {
			return fmt.Errorf("vanilla_proof: empty (POREP_SEAL_COMMIT takes the C1 output JSON or a Commit2In wrapper)")
		}
		return nil
	case pb.ProofKind_WINDOW_POST_PARTITION, pb.ProofKind_WINNING_POST:
		if len(r.GetVanillaProofs()) == 0 {
			return fmt.Errorf("vanilla_proofs: empty (%s takes one vanilla proof per sector)", k)
		}
		return present("randomness", r.GetRandomness())
	case pb.ProofKind_SNAP_DEALS_UPDATE:
		if len(r.GetVanillaProofs()) == 0 {
			return fmt.Errorf("vanilla_proofs: empty (SNAP_DEALS_UPDATE takes one partition proof per partition)")
		}
		for _, c := range []struct {
			name string
			b    []byte
		}{{"comm_r_old", r.GetCommROld()}, {"comm_r_new", r.GetCommRNew()}, {"comm_d_new", r.GetCommDNew()}} {
			if err := present(c.name, c.b); err != nil {
				return err
			}
		}
		return nil
	default:
		return fmt.Errorf("proof_kind: unknown value %d (want 1-4: POREP_SEAL_COMMIT, SNAP_DEALS_UPDATE, WINDOW_POST_PARTITION, WINNING_POST)", int32(k))
	}
}

// present refuses an empty field the kind needs (its length is porep's to
// check).
func present(field string, b []byte) error {
	if len(b) == 0 {
		return fmt.Errorf("%s: empty (want 32 bytes)", field)
	}
	return nil
}
