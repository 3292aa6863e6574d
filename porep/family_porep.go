// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"fmt"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/stacked"
)

// parsedC1 is one parsed, checked C1 output ready for proving.
type parsedC1 struct {
	c1  *stacked.C1Output
	cfg stacked.SectorConfig
}

// parseC1 accepts raw C1 JSON or a lotus-bench Commit2In wrapper, validates
// it against its registered proof, checks that its replica_id is the one
// of (minerID, sectorNum, ticket, comm_d, porep_id), and re-derives every
// partition's challenges and parents and every Merkle inclusion proof and
// column hash and compares them with the vanilla proofs, so that input
// mistakes are reported (wrapping ErrBadInput, naming
// the JSON path) before any synthesis.
func parseC1(phase1Output []byte, sectorNum abi.SectorNumber, minerID abi.ActorID) (*parsedC1, error) {
	raw, wrapper, err := stacked.UnwrapC1Input(phase1Output)
	if err != nil {
		return nil, badInputf("porep: %w", err)
	}
	c1, cfg, err := stacked.ParseC1(raw)
	if err != nil {
		return nil, badInputf("porep: C1: %w", err)
	}
	if wrapper != nil {
		if wrapper.SectorNum != int64(sectorNum) {
			return nil, badInputf("porep: Commit2In.SectorNum = %d, but sector number %d was given", wrapper.SectorNum, sectorNum)
		}
		if wrapper.SectorSize != 0 && wrapper.SectorSize != cfg.SectorSize {
			return nil, badInputf("porep: Commit2In.SectorSize = %d, but registered_proof %s has %d", wrapper.SectorSize, cfg.Name, cfg.SectorSize)
		}
	}
	if c1.SyntheticInvalid {
		return nil, badInputf("porep: %w", stacked.ErrSyntheticC1)
	}
	want := stacked.ReplicaID(stacked.ProverID(minerID), sectorNum, c1.Ticket, c1.CommD, cfg.PoRepID)
	if stacked.Domain(want) != c1.ReplicaID {
		return nil, badInputf("porep: C1 replica_id %x is not the replica id of miner %d, sector %d with the C1's ticket, comm_d and porep_id of %s (want %x): wrong miner or sector number, or an altered ticket, comm_d or registered_proof",
			c1.ReplicaID[:], minerID, sectorNum, cfg.Name, want[:])
	}
	if err := c1.ValidateChallenges(&cfg); err != nil {
		return nil, badInputf("porep: C1: %w", err)
	}
	// A corrupted Merkle path would otherwise only show up as a proof that
	// does not verify, after synthesis and proving.
	if err := c1.ValidateInclusionProofs(&cfg); err != nil {
		return nil, badInputf("porep: C1: %w", err)
	}
	return &parsedC1{c1: c1, cfg: cfg}, nil
}

// SealCommitPhase2 is filecoin-ffi's SealCommitPhase2: from a C1 output
// (serde JSON of SealCommitPhase1Output, or lotus-bench's Commit2In JSON
// wrapping it) it proves every partition's Stacked-DRG circuit and returns
// the proofs, 192 bytes per partition, concatenated in partition order
// (rust-fil-proofs seal_commit_phase2).
//
// The C1 output is validated strictly before anything is synthesized
// (errors wrap ErrBadInput and name the JSON path): its shape, its
// replica_id (that of minerID and sectorNum), its challenges and every
// Merkle path and column hash; then the parameters' shape is checked
// against the circuit. Parameters are read
// from the parameter directory under their Filecoin names; the .vk file
// must hold the same verifying key as the .params file (else an error
// wrapping ErrBadInput names both), and every proof is verified against
// that .vk — the key VerifySeal and rust-fil-proofs verify_seal use — with
// the public inputs VerifySeal would use before anything is returned
// (rust-fil-proofs' post-seal verification sanity check); a failure is an
// error wrapping groth16.ErrInvalidProof, never a bad proof. Test-stamped
// parameters give one warning (WithProgress PhaseWarning, and the logger);
// WithRequireProductionParams refuses anything but the official files.
// For NI-PoRep the result is the SnarkPack V2 aggregate of the partition
// proofs (filecoin-proofs seal_commit_phase2), verified as VerifySeal does
// before it is returned; it needs v28-fil-inner-product-v1.srs in the
// parameter directory.
func SealCommitPhase2(phase1Output []byte, sectorNum abi.SectorNumber, minerID abi.ActorID, opts ...Option) ([]byte, error) {
	j, err := PrepareCommit2(phase1Output, sectorNum, minerID, opts...)
	if err != nil {
		return nil, err
	}
	return j.prove()
}

// PrepareCommit2 parses and validates a C1 output (raw JSON or the
// Commit2In wrapper) exactly as SealCommitPhase2 does, before anything is
// synthesized or any parameter read (errors caused by the input wrap
// ErrBadInput), and returns its partitions as a Job with the options
// SealCommitPhase2 takes. A scheduler that runs the steps itself
// (porep/engine) owns backends, randomness and workers: of opts, only
// WithParamsDir, WithRequireProductionParams, WithDigestCacheFile,
// WithLogger and WithProgress matter to it.
func PrepareCommit2(phase1Output []byte, sectorNum abi.SectorNumber, minerID abi.ActorID, opts ...Option) (*Job, error) {
	s := newSettings(opts)
	start := time.Now()
	pc, err := parseC1(phase1Output, sectorNum, minerID)
	if err != nil {
		return nil, err
	}
	g, err := stacked.GraphFor(&pc.cfg)
	if err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	return newJob(s, &porepFamily{pc: pc, g: g, sectorNum: sectorNum, minerID: minerID}, start)
}

// porepFamily is PoRep C2 (StackedCompound): one Stacked-DRG circuit per
// partition of the C1's vanilla proofs; NI-PoRep finishes with the
// SnarkPack V2 aggregate of the partition proofs.
type porepFamily struct {
	pc        *parsedC1
	g         *stacked.Graph
	sectorNum abi.SectorNumber
	minerID   abi.ActorID
}

func (f *porepFamily) circuit() paramfile.Circuit { return &f.pc.cfg }
func (f *porepFamily) partitions() int            { return len(f.pc.c1.VanillaProofs) }
func (f *porepFamily) blinding(k int) int         { return k }
func (f *porepFamily) what() string               { return "commit2" }

func (f *porepFamily) build(k int) (cs.Circuit, error) {
	c, err := stacked.NewCircuit(f.pc.c1, &f.pc.cfg, k)
	if err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	return c, nil
}

func (f *porepFamily) segment() (cs.SizeHint, error) { return stacked.ChallengeSizeHint(&f.pc.cfg) }

func (f *porepFamily) public(k int) ([]fr.Element, error) {
	public, err := f.pc.c1.PublicInputs(&f.pc.cfg, f.g, k)
	if err != nil {
		return nil, fmt.Errorf("porep: partition %d: %w", k, err)
	}
	return public, nil
}

func (f *porepFamily) finish(s *settings, proofs []groth16.Proof) ([]byte, error) {
	if f.pc.cfg.Challenges == stacked.ChallengesNonInteractive {
		return sealCommitNI(s, f.pc, proofs, f.sectorNum, f.minerID)
	}
	return groth16.EncodeProofs(proofs), nil
}
