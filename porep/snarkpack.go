// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep/aggregate"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/stacked"
)

// SnarkPack aggregation as filecoin-proofs 19.1.0 wraps it
// (api/seal.rs aggregate_seal_commit_proofs, verify_aggregate_seal_commit_proofs,
// and the NI-PoRep branches of seal_commit_phase2 / verify_seal), on
// bellperson's groth16::aggregate (porep/aggregate).

var (
	srsCacheMu sync.Mutex
	srsCache   = map[string]cachedSRS{}
)

type cachedSRS struct {
	id  paramfile.FileID
	srs *aggregate.GenericSRS
}

// loadSRS reads (or returns the already read) SnarkPack SRS
// v28-fil-inner-product-v1.srs of dir, as storage-proofs-core
// read_cached_srs_key reads it (the first (2 << 14) + 1 points of each vector).
func loadSRS(dir string) (*aggregate.GenericSRS, error) {
	path := filepath.Join(dir, aggregate.SRSFileName)
	id, err := paramfile.StatID(path)
	if err != nil {
		return nil, err
	}
	srsCacheMu.Lock()
	defer srsCacheMu.Unlock()
	if c, ok := srsCache[path]; ok && c.id == id {
		return c.srs, nil
	}
	s, err := aggregate.ReadSRSFile(path)
	if err != nil {
		var se *aggregate.SRSError
		if errors.As(err, &se) {
			return nil, badInputf("porep: %w", err)
		}
		return nil, fmt.Errorf("porep: %w", err)
	}
	srsCache[path] = cachedSRS{id, s}
	return s, nil
}

// aggregateTargetLen is filecoin-proofs get_aggregate_target_len: 1 → 2,
// otherwise the next power of two.
func aggregateTargetLen(n int) int {
	if n <= 1 {
		return 2
	}
	t := 1
	for t < n {
		t <<= 1
	}
	return t
}

// transcriptInclude is the SHA-256 filecoin-proofs puts in the SnarkPack
// transcript: of seed ‖ comm_r per sector, or of the comm_rs alone for
// NI-PoRep (whose challenges do not come from a seed).
func transcriptInclude(ni bool, commRs, seeds [][32]byte) []byte {
	h := sha256.New()
	for i := range commRs {
		if !ni {
			h.Write(seeds[i][:])
		}
		h.Write(commRs[i][:])
	}
	return h.Sum(nil)
}

func checkAggregateKind(kind abi.RegisteredAggregationProof) error {
	switch kind {
	case abi.RegisteredAggregationProof_SnarkPackV2:
		return nil
	case abi.RegisteredAggregationProof_SnarkPackV1:
		return fmt.Errorf("%w: SnarkPackV1 aggregation (only SnarkPackV2 is implemented)", ErrUnsupportedProof)
	default:
		return fmt.Errorf("%w: aggregation proof type %d", ErrUnsupportedProof, kind)
	}
}

// aggregateProofs pads proofs to a power of two with copies of the last
// one (pad_proofs_to_target), specializes the SRS in s's parameter
// directory and aggregates, reporting each stage to WithProgress.
func aggregateProofs(s *settings, include []byte, proofs []groth16.Proof) ([]byte, error) {
	dir := s.paramsDir
	stage := func(name string) { s.progress(PhaseEvent{Phase: PhaseStage, Partition: -1, Stage: name}) }
	target := aggregateTargetLen(len(proofs))
	for len(proofs) < target {
		proofs = append(proofs, proofs[len(proofs)-1])
	}
	stage("loading the SRS")
	srs, err := loadSRS(dir)
	if err != nil {
		return nil, err
	}
	stage(fmt.Sprintf("specializing the SRS for %d proofs", target))
	pk, _, err := srs.Specialize(target)
	if err != nil {
		return nil, badInputf("porep: %s: %w", filepath.Join(dir, aggregate.SRSFileName), err)
	}
	stage(fmt.Sprintf("aggregating %d proofs", target))
	agg, err := aggregate.Aggregate(pk, include, proofs)
	if err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	return agg.Bytes()
}

// AggregateSealProofs is filecoin-ffi's AggregateSealProofs
// (filecoin-proofs aggregate_seal_commit_proofs): proofs[i] is the C2
// output of the sector info.Infos[i] (192 bytes per partition); all
// partition proofs, in order, padded to a power of two with the last, are
// aggregated with SnarkPack V2 over the SRS v28-fil-inner-product-v1.srs in
// the parameter directory. The transcript binds SHA-256 of every sector's
// seed (InteractiveRandomness) and comm_r (SealedCID), or of the comm_rs
// alone for NI-PoRep. Like filecoin-proofs it does not verify the input
// proofs; VerifyAggregateSeals does that for the result.
func AggregateSealProofs(info proof.AggregateSealVerifyProofAndInfos, proofs [][]byte, opts ...Option) ([]byte, error) {
	s := newSettings(opts)
	cfg, err := stacked.ConfigFor(info.SealProof)
	if err != nil {
		return nil, fmt.Errorf("porep: %w", err)
	}
	if err := checkAggregateKind(info.AggregateProof); err != nil {
		return nil, err
	}
	if len(proofs) == 0 {
		return nil, badInputf("porep: cannot aggregate with empty outputs")
	}
	if len(info.Infos) != len(proofs) {
		return nil, badInputf("porep: %d seal proofs but %d sector infos", len(proofs), len(info.Infos))
	}
	ni := cfg.Challenges == stacked.ChallengesNonInteractive
	if ni && len(proofs) > 65 {
		// FIP92_{MIN,MAX}_NI_POREP_AGGREGATION_PROOFS = 1, 65
		return nil, badInputf("porep: %d proofs is outside of FIP-0090 specified NI-PoRep aggregation bounds", len(proofs))
	}
	var all []groth16.Proof
	for i, b := range proofs {
		if want := cfg.Partitions * groth16.ProofSize; len(b) != want {
			return nil, badInputf("porep: proof %d is %d bytes, want %d (%d partitions × %d) for %s", i, len(b), want, cfg.Partitions, groth16.ProofSize, cfg.Name)
		}
		ps, err := groth16.DecodeProofs(b)
		if err != nil {
			return nil, badInputf("porep: proof %d: %w", i, err)
		}
		all = append(all, ps...)
	}
	commRs, seeds, err := aggregateCommitments(info.Infos, ni)
	if err != nil {
		return nil, err
	}
	return aggregateProofs(s, transcriptInclude(ni, commRs, seeds), all)
}

// aggregateCommitments takes comm_r and the seed of every info (the seed
// is not needed, and not checked, for NI-PoRep).
func aggregateCommitments(infos []proof.AggregateSealVerifyInfo, ni bool) (commRs, seeds [][32]byte, err error) {
	commRs = make([][32]byte, len(infos))
	seeds = make([][32]byte, len(infos))
	for i, in := range infos {
		b, err := commcid.CIDToReplicaCommitmentV1(in.SealedCID)
		if err != nil {
			return nil, nil, badInputf("porep: info %d: sealed CID %s: %w", i, in.SealedCID, err)
		}
		if commRs[i], err = to32(b, fmt.Sprintf("info %d comm_r", i)); err != nil {
			return nil, nil, err
		}
		if !ni {
			if seeds[i], err = to32(in.InteractiveRandomness, fmt.Sprintf("info %d seed (InteractiveRandomness)", i)); err != nil {
				return nil, nil, err
			}
		}
	}
	return commRs, seeds, nil
}

// sealInputs derives the public inputs of every partition of one sector
// (filecoin-proofs get_seal_inputs).
func sealInputs(cfg *stacked.SectorConfig, g *stacked.Graph, miner abi.ActorID, in proof.AggregateSealVerifyInfo) ([][]fr.Element, error) {
	commRb, err := commcid.CIDToReplicaCommitmentV1(in.SealedCID)
	if err != nil {
		return nil, badInputf("porep: sealed CID %s: %w", in.SealedCID, err)
	}
	commDb, err := commcid.CIDToDataCommitmentV1(in.UnsealedCID)
	if err != nil {
		return nil, badInputf("porep: unsealed CID %s: %w", in.UnsealedCID, err)
	}
	commR, err := to32(commRb, "comm_r")
	if err != nil {
		return nil, err
	}
	commD, err := to32(commDb, "comm_d")
	if err != nil {
		return nil, err
	}
	if commR == [32]byte{} || commD == [32]byte{} {
		return nil, badInputf("porep: sector %d: invalid all-zero commitment", in.Number)
	}
	if !stacked.IsCanonical(&commR) {
		return nil, badInputf("porep: comm_r %x is not a canonical field element", commR[:])
	}
	if !stacked.IsCanonical(&commD) {
		return nil, badInputf("porep: comm_d %x is not a canonical field element", commD[:])
	}
	ticket, err := to32(in.Randomness, "ticket (Randomness)")
	if err != nil {
		return nil, err
	}
	var seed [32]byte
	if cfg.Challenges != stacked.ChallengesNonInteractive || len(in.InteractiveRandomness) != 0 {
		if seed, err = to32(in.InteractiveRandomness, "seed (InteractiveRandomness)"); err != nil {
			return nil, err
		}
	}
	replicaID := stacked.ReplicaID(stacked.ProverID(miner), in.Number, ticket, commD, cfg.PoRepID)
	out := make([][]fr.Element, cfg.Partitions)
	for k := range out {
		if out[k], err = stacked.PublicInputs(cfg, g, replicaID, commD, commR, seed, k); err != nil {
			return nil, fmt.Errorf("porep: sector %d partition %d: %w", in.Number, k, err)
		}
	}
	return out, nil
}

// VerifyAggregateSeals is filecoin-ffi's VerifyAggregateSeals
// (filecoin-proofs verify_aggregate_seal_commit_proofs): it derives the
// public inputs of every partition of every sector in info.Infos, pads
// them like the proofs were padded, and verifies info.Proof against the
// .vk and the SRS in the parameter directory. (false, nil): a well-formed
// aggregate that does not verify; an error: inputs that cannot be checked
// (an undecodable aggregate — the error names the field and byte offset —,
// bad CIDs or randomness, missing files, counts that do not fit).
func VerifyAggregateSeals(info proof.AggregateSealVerifyProofAndInfos, opts ...Option) (bool, error) {
	s := newSettings(opts)
	cfg, err := stacked.ConfigFor(info.SealProof)
	if err != nil {
		return false, fmt.Errorf("porep: %w", err)
	}
	if err := checkAggregateKind(info.AggregateProof); err != nil {
		return false, err
	}
	if len(info.Infos) == 0 {
		return false, badInputf("porep: cannot verify with empty inputs")
	}
	return verifyAggregate(s, &cfg, info.Miner, info.Infos, info.Proof)
}

func verifyAggregate(s *settings, cfg *stacked.SectorConfig, miner abi.ActorID, infos []proof.AggregateSealVerifyInfo, proofBytes []byte) (bool, error) {
	agg, err := aggregate.ParseAggregateProof(proofBytes)
	if err != nil {
		return false, badInputf("porep: %w", err)
	}
	ni := cfg.Challenges == stacked.ChallengesNonInteractive
	commRs, seeds, err := aggregateCommitments(infos, ni)
	if err != nil {
		return false, err
	}
	g, err := stacked.GraphFor(cfg)
	if err != nil {
		return false, fmt.Errorf("porep: %w", err)
	}
	var public [][]fr.Element
	for _, in := range infos {
		p, err := sealInputs(cfg, g, miner, in)
		if err != nil {
			return false, err
		}
		public = append(public, p...)
	}
	n := int(agg.NProofs)
	if aggregateTargetLen(len(public)) != n {
		return false, badInputf("porep: the aggregate holds %d proofs, but %d sectors × %d partitions = %d proofs pad to %d",
			n, len(infos), cfg.Partitions, len(public), aggregateTargetLen(len(public)))
	}
	for len(public) < n {
		public = append(public, public[len(public)-1])
	}
	pvk, err := keysOf(s, cfg).loadVK()
	if err != nil {
		return false, err
	}
	srs, err := loadSRS(s.paramsDir)
	if err != nil {
		return false, err
	}
	_, vsrs, err := srs.Specialize(n)
	if err != nil {
		return false, badInputf("porep: %s: %w", filepath.Join(s.paramsDir, aggregate.SRSFileName), err)
	}
	err = aggregate.Verify(vsrs, &pvk.VK, public, transcriptInclude(ni, commRs, seeds), agg)
	if errors.Is(err, aggregate.ErrInvalidAggregate) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("porep: %w", err)
	}
	return true, nil
}

// verifyNISeal is VerifySeal for NI-PoRep (filecoin-proofs verify_seal's
// NI branch): info.Proof is the SnarkPack aggregate of the partition
// proofs.
func verifyNISeal(s *settings, cfg *stacked.SectorConfig, info proof.SealVerifyInfo) (bool, error) {
	// The aggregate's size follows from the partition count alone; say so
	// before parsing (192-byte partition proofs are the usual mistake).
	if n := aggregateTargetLen(cfg.Partitions); len(info.Proof) != aggregate.ProofSize(n) {
		return false, badInputf("porep: proof is %d bytes, want %d for %s: an NI-PoRep proof is the SnarkPack aggregate of the sector's %d partition proofs (padded to %d), as SealCommitPhase2 returns it, not %d-byte partition proofs",
			len(info.Proof), aggregate.ProofSize(n), cfg.Name, cfg.Partitions, n, groth16.ProofSize)
	}
	in := proof.AggregateSealVerifyInfo{
		Number:                info.Number,
		Randomness:            info.Randomness,
		InteractiveRandomness: info.InteractiveRandomness,
		SealedCID:             info.SealedCID,
		UnsealedCID:           info.UnsealedCID,
	}
	return verifyAggregate(s, cfg, info.Miner, []proof.AggregateSealVerifyInfo{in}, info.Proof)
}

// sealCommitNI aggregates the NI-PoRep partition proofs (filecoin-proofs
// seal_commit_phase2 → aggregate_seal_commit_proofs with the one comm_r,
// V2) and verifies the aggregate as verify_seal does before returning it.
func sealCommitNI(s *settings, pc *parsedC1, proofs []groth16.Proof, sectorNum abi.SectorNumber, minerID abi.ActorID) ([]byte, error) {
	t0 := time.Now()
	c1 := pc.c1
	out, err := aggregateProofs(s, transcriptInclude(true, [][32]byte{c1.CommR}, nil), proofs)
	if err != nil {
		return nil, err
	}
	s.log.Info("partition proofs aggregated", "proofs", len(proofs), "bytes", len(out), "took", time.Since(t0))
	sealed, err := commcid.ReplicaCommitmentV1ToCID(c1.CommR[:])
	if err != nil {
		return nil, fmt.Errorf("porep: comm_r: %w", err)
	}
	unsealed, err := commcid.DataCommitmentV1ToCID(c1.CommD[:])
	if err != nil {
		return nil, fmt.Errorf("porep: comm_d: %w", err)
	}
	in := proof.AggregateSealVerifyInfo{Number: sectorNum, Randomness: c1.Ticket[:], InteractiveRandomness: c1.Seed[:], SealedCID: sealed, UnsealedCID: unsealed}
	ok, err := verifyAggregate(s, &pc.cfg, minerID, []proof.AggregateSealVerifyInfo{in}, out)
	if err != nil {
		return nil, fmt.Errorf("porep: verify the NI-PoRep aggregate: %w", err)
	}
	if !ok {
		return nil, fmt.Errorf("porep: the produced NI-PoRep aggregate does not verify: %w", ErrAggregateInvalid)
	}
	return out, nil
}
