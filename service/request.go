// SPDX-License-Identifier: Apache-2.0 OR MIT

package service

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/filecoin-project/go-state-types/abi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/porep/stacked"
	pb "github.com/cuseal/cuseal/service/cuzkv1"
)

// request checks r and converts it to an engine Request. A problem is
// codes.InvalidArgument naming the field; the checks are the cheap ones
// (kind, priority, required fields, lengths, the PoRep wrapper and the
// sector size the C1 names) — the engine parses and validates the rest.
func (s *Server) request(r *pb.SubmitProofRequest) (*engine.Request, error) {
	if err := s.check(r); err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	return &engine.Request{
		RequestID:       r.GetRequestId(),
		Kind:            engine.Kind(r.GetProofKind()),
		Priority:        engine.Priority(r.GetPriority()),
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

func (s *Server) check(r *pb.SubmitProofRequest) error {
	if n := len(r.GetRequestId()); n > MaxRequestIDBytes {
		return fmt.Errorf("request_id: %d bytes, at most %d (Curio sends porep-<miner>-<sector>)", n, MaxRequestIDBytes)
	}
	if p := r.GetPriority(); p < pb.Priority_PRIORITY_UNSPECIFIED || p > pb.Priority_CRITICAL {
		return fmt.Errorf("priority: unknown value %d (want 0-4: UNSPECIFIED, LOW, NORMAL, HIGH, CRITICAL)", int32(p))
	}
	switch k := r.GetProofKind(); k {
	case pb.ProofKind_PROOF_KIND_UNSPECIFIED:
		return fmt.Errorf("proof_kind: missing (PROOF_KIND_UNSPECIFIED); want POREP_SEAL_COMMIT, SNAP_DEALS_UPDATE, WINDOW_POST_PARTITION or WINNING_POST")
	case pb.ProofKind_POREP_SEAL_COMMIT:
		return checkPoRep(r)
	case pb.ProofKind_WINDOW_POST_PARTITION, pb.ProofKind_WINNING_POST:
		if len(r.GetVanillaProofs()) == 0 {
			return fmt.Errorf("vanilla_proofs: empty (%s takes one vanilla proof per sector)", k)
		}
		return need32("randomness", r.GetRandomness())
	case pb.ProofKind_SNAP_DEALS_UPDATE:
		if len(r.GetVanillaProofs()) == 0 {
			return fmt.Errorf("vanilla_proofs: empty (SNAP_DEALS_UPDATE takes one partition proof per partition)")
		}
		for _, c := range []struct {
			name string
			b    []byte
		}{{"comm_r_old", r.GetCommROld()}, {"comm_r_new", r.GetCommRNew()}, {"comm_d_new", r.GetCommDNew()}} {
			if err := need32(c.name, c.b); err != nil {
				return err
			}
		}
		return nil
	default:
		// Kinds outside cuzk.v1's enum only when this engine has a queue for them (the test double).
		if !s.kinds[engine.Kind(k)] {
			return fmt.Errorf("proof_kind: unknown value %d (want 1-4: POREP_SEAL_COMMIT, SNAP_DEALS_UPDATE, WINDOW_POST_PARTITION, WINNING_POST)", int32(k))
		}
		return nil
	}
}

func need32(field string, b []byte) error {
	if len(b) != 32 {
		return fmt.Errorf("%s: %d bytes, want 32", field, len(b))
	}
	return nil
}

// checkPoRep: the C1 (raw JSON or lotus-bench's Commit2In wrapper) is there,
// registered_proof is a seal proof, and sector_size, the wrapper and the
// C1's own registered_proof agree on the sector size.
func checkPoRep(r *pb.SubmitProofRequest) error {
	if len(r.GetVanillaProof()) == 0 {
		return fmt.Errorf("vanilla_proof: empty (POREP_SEAL_COMMIT takes the C1 output JSON or a Commit2In wrapper)")
	}
	cfg, err := stacked.ConfigFor(abi.RegisteredSealProof(r.GetRegisteredProof()))
	if err != nil {
		return fmt.Errorf("registered_proof: %d: %v", r.GetRegisteredProof(), err)
	}
	if ss := r.GetSectorSize(); ss != 0 && ss != cfg.SectorSize {
		return fmt.Errorf("sector_size: %d, but registered_proof %d (%s) is for %d-byte sectors", ss, r.GetRegisteredProof(), cfg.Name, cfg.SectorSize)
	}
	raw, wrap, err := stacked.UnwrapC1Input(r.GetVanillaProof())
	if err != nil {
		return fmt.Errorf("vanilla_proof: %v", err)
	}
	if wrap != nil {
		if wrap.SectorSize != 0 && wrap.SectorSize != cfg.SectorSize {
			return fmt.Errorf("vanilla_proof: Commit2In SectorSize %d, but registered_proof %d (%s) is for %d-byte sectors", wrap.SectorSize, r.GetRegisteredProof(), cfg.Name, cfg.SectorSize)
		}
		if uint64(wrap.SectorNum) != r.GetSectorNumber() {
			return fmt.Errorf("vanilla_proof: Commit2In SectorNum %d, but sector_number %d", wrap.SectorNum, r.GetSectorNumber())
		}
	}
	name, err := c1RegisteredProof(raw)
	if err != nil {
		return fmt.Errorf("vanilla_proof: %v", err)
	}
	if name != "" {
		if c1cfg, err := stacked.ConfigByName(name); err == nil && c1cfg.SectorSize != cfg.SectorSize {
			return fmt.Errorf("vanilla_proof: the C1 is for %s (%d-byte sectors), but registered_proof %d (%s) is for %d-byte sectors", name, c1cfg.SectorSize, r.GetRegisteredProof(), cfg.Name, cfg.SectorSize)
		}
	}
	return nil
}

// c1RegisteredProof reads the top-level "registered_proof" string of C1
// JSON, stopping there (filecoin-ffi writes it first, so a 50 MB C1 is not
// scanned); "" when the object has none.
func c1RegisteredProof(raw []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", fmt.Errorf("not a C1 JSON object (offset %d)", dec.InputOffset())
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return "", fmt.Errorf("not valid JSON at offset %d: %v", dec.InputOffset(), err)
		}
		key, _ := t.(string)
		if key == "registered_proof" {
			var name string
			if err := dec.Decode(&name); err != nil {
				return "", fmt.Errorf("registered_proof: not a string (offset %d)", dec.InputOffset())
			}
			return name, nil
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return "", fmt.Errorf("not valid JSON at offset %d: %v", dec.InputOffset(), err)
		}
	}
	return "", nil
}
