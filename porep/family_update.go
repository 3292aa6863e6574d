// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

// SnapDeals (empty-sector update, ProveReplicaUpdate2) as filecoin-ffi
// (proofs.go) offers it, on go-cid / go-state-types types: proving from the
// vanilla partition proofs GenerateUpdateVanillaProofs returns, and
// verification. The circuit, challenges and vanilla-proof format live in
// porep/update.

import (
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
		return nil, &FieldError{Field: FieldProofType, Err: err}
	}
	return &cfg, nil
}

// updateCommitment converts one commitment CID (go-fil-commcid: a sealed
// CID, codec 0xf102, for comm_r_*; an unsealed one, 0xf101, for comm_d_new)
// into a canonical field element; anything else is a FieldError of field
// (what says which CID it is).
func updateCommitment(field, what string, c cid.Cid, sealed bool) (fr.Element, error) {
	var b []byte
	var err error
	if sealed {
		b, err = commcid.CIDToReplicaCommitmentV1(c)
	} else {
		b, err = commcid.CIDToDataCommitmentV1(c)
	}
	if err != nil {
		return fr.Element{}, fieldErrorf(field, "%s CID %s: %w", what, c, err)
	}
	if len(b) != 32 {
		return fr.Element{}, fieldErrorf(field, "%d bytes, want 32", len(b))
	}
	e, err := stacked.FrFromBytes((*[32]byte)(b))
	if err != nil {
		return fr.Element{}, fieldErrorf(field, "%x is not a canonical field element", b)
	}
	return e, nil
}

// parseUpdateCommitments converts the three CIDs of an update.
func parseUpdateCommitments(oldSealedCID, newSealedCID, unsealedCID cid.Cid) (updateCommitments, error) {
	var c updateCommitments
	var err error
	if c.ROld, err = updateCommitment(FieldCommROld, "old sealed", oldSealedCID, true); err != nil {
		return c, err
	}
	if c.RNew, err = updateCommitment(FieldCommRNew, "new sealed", newSealedCID, true); err != nil {
		return c, err
	}
	c.DNew, err = updateCommitment(FieldCommDNew, "unsealed", unsealedCID, false)
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
	j, err := PrepareUpdate(proofType, oldSealedCID, newSealedCID, unsealedCID, vanillaProofs, opts...)
	if err != nil {
		return nil, err
	}
	return j.prove()
}

// PrepareUpdate checks the arguments of GenerateUpdateProofWithVanilla
// exactly as it does (errors wrap ErrBadInput and name the field) and
// returns its partitions as a Job with the options it takes. A scheduler
// that runs the steps itself (porep/engine) owns backends, randomness and
// workers: of opts, only WithParamsDir, WithRequireProductionParams,
// WithDigestCacheFile, WithLogger and WithProgress matter to it.
func PrepareUpdate(proofType abi.RegisteredUpdateProof, oldSealedCID, newSealedCID, unsealedCID cid.Cid, vanillaProofs [][]byte, opts ...Option) (*Job, error) {
	start := time.Now()
	in, err := updateProveInputs(proofType, oldSealedCID, newSealedCID, unsealedCID, vanillaProofs)
	if err != nil {
		return nil, err
	}
	f := &updateFamily{in}
	if err := checkPartitions(f); err != nil {
		return nil, err
	}
	return newJob(newSettings(opts), f, start)
}

// updateFamily is SnapDeals (EmptySectorUpdateCompound): one
// EmptySectorUpdate circuit per partition, the proofs concatenated.
type updateFamily struct{ *updateInputs }

func (f *updateFamily) circuit() paramfile.Circuit    { return f.cfg }
func (f *updateFamily) partitions() int               { return f.cfg.Partitions }
func (f *updateFamily) blinding(k int) int            { return k }
func (f *updateFamily) what() string                  { return "update" }
func (f *updateFamily) segment() (cs.SizeHint, error) { return update.ChallengeSizeHint(f.cfg) }

func (f *updateFamily) build(k int) (cs.Circuit, error) {
	c := &f.comms
	circ, err := update.NewCircuit(f.cfg, k, &c.ROld, &c.DNew, &c.RNew, f.proofs[k])
	if err != nil {
		return nil, fmt.Errorf("porep: partition %d: %w", k, err)
	}
	return circ, nil
}

func (f *updateFamily) public(k int) ([]fr.Element, error) {
	return updatePublicInputs(f.cfg, &f.comms, k)
}

func (f *updateFamily) finish(_ *settings, proofs []groth16.Proof) ([]byte, error) {
	return groth16.EncodeProofs(proofs), nil
}

// updatePublicInputs returns partition k's public inputs as the verifier
// derives them.
func updatePublicInputs(cfg *update.Config, c *updateCommitments, k int) ([]fr.Element, error) {
	public, err := update.PublicInputs(cfg, k, &c.ROld, &c.DNew, &c.RNew)
	if err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	return public, nil
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
	if want := cfg.Partitions * groth16.ProofSize; len(info.Proof) != want {
		return false, badInputf("porep: proof is %d bytes, want %d (%d partitions × %d) for %s",
			len(info.Proof), want, cfg.Partitions, groth16.ProofSize, cfg.Name)
	}
	ps, err := groth16.DecodeProofs(info.Proof)
	if err != nil {
		return false, badInputf("porep: proof: %w", err)
	}
	pvk, err := keysOf(s, cfg).loadVK()
	if err != nil {
		return false, err
	}
	publics := make([][]fr.Element, cfg.Partitions)
	for k := range publics {
		if publics[k], err = updatePublicInputs(cfg, &comms, k); err != nil {
			return false, err
		}
	}
	return verifyProofs(pvk, ps, publics)
}
