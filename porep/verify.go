// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"errors"
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/stacked"
)

// VerifySeal is filecoin-ffi's VerifySeal (rust-fil-proofs verify_seal): it
// derives comm_r and comm_d from the sealed and unsealed CIDs
// (go-fil-commcid), the replica id from the miner, sector number, ticket,
// comm_d and porep_id, each partition's challenges from the interactive
// randomness, and checks every partition proof against the .vk file in the
// parameter directory.
//
// It returns (false, nil) for a well-formed proof that does not verify, and
// (false, err) for inputs that cannot be checked at all. Like rust-fil-proofs
// verify_seal (whose MultiProof::new_from_reader fails, so filecoin-ffi's
// VerifySeal returns an error), proof bytes that do not decode to curve
// points are an error, not a false result. Errors wrap ErrBadInput for
// CIDs that are not v1 commitments, commitments that are not canonical field
// elements, randomness that is not 32 bytes, a proof whose length is not
// 192 × partitions, and proof bytes that do not decode; ErrParamsNotFound
// for a missing verifying key (or, for NI-PoRep, SRS). For NI-PoRep the
// proof is the SnarkPack aggregate of the partition proofs (see
// VerifyAggregateSeals). An unknown
// registered proof or a corrupt verifying key is an error too.
func VerifySeal(info proof.SealVerifyInfo, opts ...Option) (bool, error) {
	s := newSettings(opts)
	cfg, err := stacked.ConfigFor(info.SealProof)
	if err != nil {
		return false, fmt.Errorf("porep: %w", err)
	}
	if cfg.Challenges == stacked.ChallengesNonInteractive {
		return verifyNISeal(s, &cfg, info) // the proof is a SnarkPack aggregate
	}
	commRb, err := commcid.CIDToReplicaCommitmentV1(info.SealedCID)
	if err != nil {
		return false, badInputf("porep: sealed CID %s: %w", info.SealedCID, err)
	}
	commDb, err := commcid.CIDToDataCommitmentV1(info.UnsealedCID)
	if err != nil {
		return false, badInputf("porep: unsealed CID %s: %w", info.UnsealedCID, err)
	}
	commR, err := to32(commRb, "comm_r")
	if err != nil {
		return false, err
	}
	commD, err := to32(commDb, "comm_d")
	if err != nil {
		return false, err
	}
	// as_safe_commitment: both must be canonical field elements.
	if !stacked.IsCanonical(&commR) {
		return false, badInputf("porep: comm_r %x is not a canonical field element", commR[:])
	}
	if !stacked.IsCanonical(&commD) {
		return false, badInputf("porep: comm_d %x is not a canonical field element", commD[:])
	}
	ticket, err := to32(info.Randomness, "ticket (Randomness)")
	if err != nil {
		return false, err
	}
	seed, err := to32(info.InteractiveRandomness, "seed (InteractiveRandomness)")
	if err != nil {
		return false, err
	}
	if want := cfg.Partitions * groth16.ProofSize; len(info.Proof) != want {
		return false, badInputf("porep: proof is %d bytes, want %d (%d partitions × %d) for %s",
			len(info.Proof), want, cfg.Partitions, groth16.ProofSize, cfg.Name)
	}
	pvk, err := keysOf(s, &cfg).loadVK()
	if err != nil {
		return false, err
	}
	if err := paramfile.CheckParamsHeader(s.paramsDir, &cfg); err != nil {
		return false, err
	}
	proofs, err := groth16.DecodeProofs(info.Proof)
	if err != nil {
		var fe *groth16.FormatError
		if errors.As(err, &fe) && fe.Offset >= 0 {
			// Name the byte offset in info.Proof, not groth16's "<memory>".
			return false, badInputf("porep: proof: byte offset %d (partition %d): %w", fe.Offset, fe.Offset/groth16.ProofSize, fe.Err)
		}
		return false, badInputf("porep: proof: %w", err)
	}
	replicaID := stacked.ReplicaID(stacked.ProverID(info.Miner), info.Number, ticket, commD, cfg.PoRepID)
	g, err := stacked.GraphFor(&cfg)
	if err != nil {
		return false, fmt.Errorf("porep: %w", err)
	}
	publics := make([][]fr.Element, cfg.Partitions)
	for k := range publics {
		if publics[k], err = stacked.PublicInputs(&cfg, g, replicaID, commD, commR, seed, k); err != nil {
			return false, fmt.Errorf("porep: partition %d: %w", k, err)
		}
	}
	return verifyProofs(pvk, proofs, publics)
}

// verifyProofs checks proofs[k] against publics[k] (one batch when there
// are several): (false, nil) when one does not verify, an error when they
// cannot be checked.
func verifyProofs(pvk *groth16.PreparedVerifyingKey, proofs []groth16.Proof, publics [][]fr.Element) (bool, error) {
	var err error
	if len(proofs) == 1 {
		err = pvk.Verify(&proofs[0], publics[0])
	} else {
		err = pvk.VerifyBatch(proofs, publics)
	}
	if errors.Is(err, groth16.ErrInvalidProof) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("porep: verify: %w", err)
	}
	return true, nil
}
