// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

// SnapDeals (empty-sector update, ProveReplicaUpdate2) as filecoin-ffi
// (proofs.go) offers it, on go-cid / go-state-types types: proving from the
// vanilla partition proofs GenerateUpdateVanillaProofs returns, and
// verification. The circuit, challenges and vanilla-proof format live in
// porep/update.

import (
	"context"
	"fmt"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"
	"github.com/ipfs/go-cid"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/update"
)

// updateCommitments are the three public commitments of an update proof as
// field elements.
type updateCommitments struct {
	ROld, DNew, RNew fr.Element
}

// updateInputs are the checked arguments of GenerateUpdateProofWithVanilla.
type updateInputs struct {
	cfg    *update.Config
	comms  updateCommitments
	proofs []*update.PartitionProof // one per partition, in order
}

// updateConfig returns the configuration of a registered update proof;
// an unknown one is bad input.
func updateConfig(p abi.RegisteredUpdateProof) (*update.Config, error) {
	cfg, err := update.ConfigFor(p)
	if err != nil {
		return nil, badInput(fmt.Errorf("porep: %w", err))
	}
	return &cfg, nil
}

// updateCommitment converts one commitment CID (go-fil-commcid: a sealed
// CID, codec 0xf102, for comm_r_*; an unsealed one, 0xf101, for comm_d_new)
// into a canonical field element; anything else is bad input naming field.
func updateCommitment(field string, c cid.Cid, sealed bool) (fr.Element, error) {
	var b []byte
	var err error
	if sealed {
		b, err = commcid.CIDToReplicaCommitmentV1(c)
	} else {
		b, err = commcid.CIDToDataCommitmentV1(c)
	}
	if err != nil {
		return fr.Element{}, badInputf("porep: %s CID %s: %w", field, c, err)
	}
	c32, err := to32(b, field)
	if err != nil {
		return fr.Element{}, err
	}
	e, err := stacked.FrFromBytes(&c32)
	if err != nil {
		return fr.Element{}, badInputf("porep: %s %x is not a canonical field element", field, c32[:])
	}
	return e, nil
}

// parseUpdateCommitments converts the three CIDs of an update.
func parseUpdateCommitments(oldSealedCID, newSealedCID, unsealedCID cid.Cid) (updateCommitments, error) {
	var c updateCommitments
	var err error
	if c.ROld, err = updateCommitment("comm_r_old (old sealed)", oldSealedCID, true); err != nil {
		return c, err
	}
	if c.RNew, err = updateCommitment("comm_r_new (new sealed)", newSealedCID, true); err != nil {
		return c, err
	}
	c.DNew, err = updateCommitment("comm_d_new (unsealed)", unsealedCID, false)
	return c, err
}

// checkUpdateInputs parses every partition's vanilla proof strictly and
// checks it against the commitments (update.CheckPartitionProof, as
// filecoin-proofs does before proving): vanilla[i] is partition first+i's.
func checkUpdateInputs(cfg *update.Config, comms updateCommitments, vanilla [][]byte, first int) ([]*update.PartitionProof, error) {
	out := make([]*update.PartitionProof, len(vanilla))
	for i, b := range vanilla {
		k := first + i
		p, err := update.ParsePartitionProof(b, cfg)
		if err != nil {
			return nil, badInputf("porep: vanilla proof of partition %d (%d bytes, %s wants %d): %w", k, len(b), cfg.Name, update.PartitionProofSize(cfg), err)
		}
		if err := update.CheckPartitionProof(cfg, k, &comms.ROld, &comms.DNew, &comms.RNew, p); err != nil {
			return nil, badInputf("porep: vanilla proof: %w", err)
		}
		out[i] = p
	}
	return out, nil
}

// updateProveInputs checks the arguments of GenerateUpdateProofWithVanilla:
// the proof type, the three CIDs, one vanilla proof per partition, each
// parsing and matching the commitments.
func updateProveInputs(proofType abi.RegisteredUpdateProof, oldSealedCID, newSealedCID, unsealedCID cid.Cid, vanilla [][]byte) (*updateInputs, error) {
	cfg, err := updateConfig(proofType)
	if err != nil {
		return nil, err
	}
	comms, err := parseUpdateCommitments(oldSealedCID, newSealedCID, unsealedCID)
	if err != nil {
		return nil, err
	}
	if len(vanilla) != cfg.Partitions {
		return nil, badInputf("porep: %s: %d vanilla partition proofs, want %d (one per partition)", cfg.Name, len(vanilla), cfg.Partitions)
	}
	ps, err := checkUpdateInputs(cfg, comms, vanilla, 0)
	if err != nil {
		return nil, err
	}
	return &updateInputs{cfg: cfg, comms: comms, proofs: ps}, nil
}

// GenerateUpdateProofWithVanilla is filecoin-ffi's
// GenerateUpdateProofWithVanilla (filecoin-proofs
// generate_empty_sector_update_proof_with_vanilla): from the vanilla
// partition proofs GenerateUpdateVanillaProofs returns (one per partition,
// in order) it proves every partition's EmptySectorUpdate circuit and
// returns the proofs concatenated, 192 bytes each (proofType's
// Partitions: 1, 4 or 16). Every proof is verified with the .vk before it
// is returned. Errors wrap ErrBadInput for an unknown proof type, CIDs of
// the wrong codec or not canonical, a partition count wrong for the size,
// vanilla proofs that do not parse (naming partition, field and byte
// offset) or do not match the commitments, and parameters of another
// circuit; ErrParamsNotFound for missing parameter files.
// Options: WithParamsDir, WithBackend, WithDeterministicRandomness (r, s of
// partition k from index k), WithMaxPartitionsInFlight,
// WithSynthesisWorkers (challenges synthesized in parallel),
// WithRequireProductionParams, WithContext, WithLogger, WithProgress.
func GenerateUpdateProofWithVanilla(proofType abi.RegisteredUpdateProof, oldSealedCID, newSealedCID, unsealedCID cid.Cid, vanillaProofs [][]byte, opts ...Option) ([]byte, error) {
	in, err := updateProveInputs(proofType, oldSealedCID, newSealedCID, unsealedCID, vanillaProofs)
	if err != nil {
		return nil, err
	}
	return proveUpdate(newSettings(opts), in)
}

// proveUpdate proves every partition of in, synthesis of partition k+1
// overlapping the proof of k (WithMaxPartitionsInFlight), and checks each
// proof against the .vk.
func proveUpdate(s *settings, in *updateInputs) ([]byte, error) {
	start := time.Now()
	cfg := in.cfg
	backend, bname, err := newBackend(s.backend, s.log)
	if err != nil {
		return nil, err
	}
	if err := productionCheck(s, cfg, true); err != nil {
		return nil, err
	}
	params, pvk, err := loadKeys(s.paramsDir, cfg, cfg.Name, true)
	if err != nil {
		return nil, err
	}
	if _, err := update.SizeHintFor(cfg); err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	s.log.Info("update start", "proof", cfg.Name, "partitions", cfg.Partitions, "backend", bname, "params", params.Name())
	s.progress(PhaseEvent{Phase: PhaseStart, Partition: -1, Backend: bname})
	ctx := s.ctx
	proofs := make([]groth16.Proof, cfg.Partitions)
	synth := func(k int) (*cs.Assignment, error) {
		t0 := time.Now()
		s.progress(PhaseEvent{Phase: PhaseSynthesizing, Partition: k, Backend: bname})
		a, err := synthesizeUpdate(ctx, cfg, &in.comms, in.proofs[k], k, synthPool, s.synthWorkers())
		if err != nil {
			return nil, err
		}
		s.progress(PhaseEvent{Phase: PhaseSynthesized, Partition: k, Backend: bname, Took: time.Since(t0)})
		return a, nil
	}
	prove := func(k int, a *cs.Assignment) error {
		t0 := time.Now()
		public, err := updatePublicInputs(cfg, &in.comms, a, k)
		if err != nil {
			return err
		}
		rs, err := s.randomness(k)
		if err != nil {
			return fmt.Errorf("porep: partition %d: %w", k, err)
		}
		ps, err := groth16.Prove(ctx, backend, params, []*cs.Assignment{a}, []groth16.Randomness{rs})
		if err != nil {
			return fmt.Errorf("porep: partition %d: prove: %w", k, err)
		}
		if err := verifyPartition(s.paramsDir, cfg, pvk, &ps[0], public, k); err != nil {
			return err
		}
		proofs[k] = ps[0]
		synthPool.Release(a) // a is not used after this
		s.progress(PhaseEvent{Phase: PhaseProven, Partition: k, Backend: bname, Took: time.Since(t0)})
		return nil
	}
	synthPool.Reserve(s.inFlight)
	if err := pipeline(ctx, cfg.Partitions, s.inFlight, synth, prove); err != nil {
		return nil, err
	}
	s.log.Info("update done", "proof", cfg.Name, "bytes", cfg.ProofSize(), "took", time.Since(start))
	return groth16.EncodeProofs(proofs), nil
}

// synthesizeUpdate synthesizes partition k's circuit into an assignment
// from pool, its challenges on up to workers goroutines (1:
// sequentially).
func synthesizeUpdate(ctx context.Context, cfg *update.Config, c *updateCommitments, p *update.PartitionProof, k int, pool *cs.BufferPool, workers int) (*cs.Assignment, error) {
	hint, err := update.SizeHintFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	circ, err := update.NewCircuit(cfg, k, &c.ROld, &c.DNew, &c.RNew, p)
	if err != nil {
		return nil, badInput(fmt.Errorf("porep: partition %d: %w", k, err))
	}
	pa := pool.NewProvingAssignment(hint)
	if workers > 1 {
		err = circ.SynthesizeParallel(ctx, pa, workers)
	} else {
		err = circ.Synthesize(ctx, pa)
	}
	a := pa.Assignment()
	if err != nil {
		pool.Release(a)
		return nil, fmt.Errorf("porep: partition %d: synthesize: %w", k, err)
	}
	return a, nil
}

// updatePublicInputs returns partition k's public inputs as the verifier
// derives them, after checking that a (when not nil) carries them.
func updatePublicInputs(cfg *update.Config, c *updateCommitments, a *cs.Assignment, k int) ([]fr.Element, error) {
	public, err := update.PublicInputs(cfg, k, &c.ROld, &c.DNew, &c.RNew)
	if err != nil {
		return nil, badInput(fmt.Errorf("porep: %w", err))
	}
	return public, checkInputs(a, public, k)
}

// VerifyReplicaUpdate is filecoin-ffi's VerifyReplicaUpdate (filecoin-proofs
// verify_empty_sector_update_proof): info.Proof must be exactly
// Partitions × 192 bytes of info.UpdateProofType, checked partition by
// partition (one batch) against the public inputs of the three commitment
// CIDs with the .vk in the parameter directory. It returns (false, nil) for
// a well-formed proof that does not verify; errors wrap ErrBadInput for an
// unknown proof type, CIDs of the wrong codec or not canonical, a proof of
// the wrong length or whose bytes are not curve points, and a .vk of
// another circuit; ErrParamsNotFound for a missing .vk.
func VerifyReplicaUpdate(info proof.ReplicaUpdateInfo, opts ...Option) (bool, error) {
	s := newSettings(opts)
	cfg, err := updateConfig(info.UpdateProofType)
	if err != nil {
		return false, err
	}
	comms, err := parseUpdateCommitments(info.OldSealedSectorCID, info.NewSealedSectorCID, info.NewUnsealedSectorCID)
	if err != nil {
		return false, err
	}
	if len(info.Proof) != cfg.ProofSize() {
		return false, badInputf("porep: proof is %d bytes, want %d (%d partitions × %d) for %s",
			len(info.Proof), cfg.ProofSize(), cfg.Partitions, groth16.ProofSize, cfg.Name)
	}
	ps, err := groth16.DecodeProofs(info.Proof)
	if err != nil {
		return false, badInputf("porep: proof: %w", err)
	}
	if err := productionCheck(s, cfg, false); err != nil {
		return false, err
	}
	_, pvk, err := loadKeys(s.paramsDir, cfg, cfg.Name, false)
	if err != nil {
		return false, err
	}
	publics := make([][]fr.Element, cfg.Partitions)
	for k := range publics {
		if publics[k], err = updatePublicInputs(cfg, &comms, nil, k); err != nil {
			return false, err
		}
	}
	return verifyProofs(pvk, ps, publics)
}

// UpdateParameterPaths returns cfg's .params and .vk paths in the
// parameter directory opts select (WithParamsDir, else the default).
func UpdateParameterPaths(cfg *update.Config, opts ...Option) (params, vk string) {
	params, vk, _ = cfg.ParameterPaths(newSettings(opts).paramsDir)
	return params, vk
}

// UpdateTestCircuit is cfg's circuit for paramfile.GenerateTestParamsFor
// (`cuseal params generate --circuit update`): its official file names and
// identity, and the R1CS of its blank circuit (update.BlankCircuit, as
// rust-fil-proofs' parameter generation).
func UpdateTestCircuit(cfg *update.Config) paramfile.TestCircuit {
	c := *cfg
	return blankTestCircuit(c.Name, c.SectorSize, &c, func() blankCircuit { return update.BlankCircuit(&c) })
}
