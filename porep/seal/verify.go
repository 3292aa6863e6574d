// SPDX-License-Identifier: Apache-2.0 OR MIT

package seal

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
)

// VerifyC1 checks a C1 output the way rust-fil-proofs' vanilla
// Proof::verify does, challenge by challenge: structure (C1Output.Validate),
// challenge derivation and graph parents (ValidateChallenges), every Merkle path
// recomputed to its root (comm_d SHA-256, comm_r_last and the 15 column
// proofs in tree C), every column proof's leaf equal to the Poseidon hash of
// its rows, every labeling proof's parents equal to the parent columns'
// rows, every label recomputed and equal to the challenged column's row, and
// the encoding (comm_r_last leaf = key + comm_d leaf). Errors name the JSON
// path. It is the test oracle for Seal/CommitPhase1.
func VerifyC1(c1 *stacked.C1Output, cfg *stacked.SectorConfig) error {
	if err := c1.Validate(cfg); err != nil {
		return err
	}
	if c1.SyntheticInvalid {
		return fmt.Errorf("c1: marked %s: synthetic benchmark data, not a real C1 output", stacked.SyntheticMarkerField)
	}
	if err := c1.ValidateChallenges(cfg); err != nil {
		return err
	}
	rid := [32]byte(c1.ReplicaID)
	for k, part := range c1.VanillaProofs {
		for i := range part {
			p := fmt.Sprintf("vanilla_proofs.%s[%d][%d]", c1.VanillaTag, k, i)
			if err := verifyVanilla(&part[i], cfg, &rid, p); err != nil {
				return err
			}
		}
	}
	return nil
}

func verr(path, format string, args ...any) error {
	return &stacked.ParseError{Path: path, Offset: -1, Msg: fmt.Sprintf(format, args...)}
}

func verifyColumn(cp *stacked.ColumnProof, p string) error {
	col := make([]fr.Element, len(cp.Column.Rows))
	for r := range cp.Column.Rows {
		col[r], _ = stacked.FrFromBytes((*[32]byte)(&cp.Column.Rows[r])) // canonical: validated
	}
	h := poseidon.Hash(col)
	if stacked.FrToBytes(&h) != [32]byte(cp.InclusionProof.Leaf) {
		return verr(p+".inclusion_proof", "leaf is not the Poseidon hash of the column rows")
	}
	root, err := cp.InclusionProof.RootPoseidon()
	if err != nil {
		return verr(p+".inclusion_proof", "%v", err)
	}
	if root != cp.InclusionProof.Root {
		return verr(p+".inclusion_proof", "path does not lead to its root")
	}
	return nil
}

func verifyVanilla(v *stacked.VanillaProof, cfg *stacked.SectorConfig, rid *[32]byte, p string) error {
	root, err := v.CommDProofs.RootSha256()
	if err != nil || root != v.CommDProofs.Root {
		return verr(p+".comm_d_proofs", "path does not lead to comm_d")
	}
	root, err = v.CommRLastProof.RootPoseidon()
	if err != nil || root != v.CommRLastProof.Root {
		return verr(p+".comm_r_last_proof", "path does not lead to comm_r_last")
	}
	rc := &v.ReplicaColumnProofs
	rp := p + ".replica_column_proofs"
	if err := verifyColumn(&rc.CX, rp+".c_x"); err != nil {
		return err
	}
	for j := range rc.DRGParents {
		if err := verifyColumn(&rc.DRGParents[j], fmt.Sprintf("%s.drg_parents[%d]", rp, j)); err != nil {
			return err
		}
	}
	for j := range rc.ExpParents {
		if err := verifyColumn(&rc.ExpParents[j], fmt.Sprintf("%s.exp_parents[%d]", rp, j)); err != nil {
			return err
		}
	}
	c := v.Challenge()
	want, wantEnc := LabelingProofs(cfg.Layers, c, rc.DRGParents, rc.ExpParents)
	for li := range v.LabelingProofs {
		lp := &v.LabelingProofs[li]
		lpath := fmt.Sprintf("%s.labeling_proofs[%d]", p, li)
		for j := range lp.Parents {
			if lp.Parents[j] != want[li].Parents[j] {
				return verr(fmt.Sprintf("%s.parents[%d]", lpath, j), "differs from the parent columns' layer rows")
			}
		}
		label := LabelFromParents(rid, lp.LayerIndex, lp.Node, lp.Parents)
		if label != rc.CX.Column.Rows[li] {
			return verr(lpath, "recomputed label %x differs from c_x row %d", label, li)
		}
	}
	ep := &v.EncodingProof
	for j := range ep.Parents {
		if ep.Parents[j] != wantEnc.Parents[j] {
			return verr(fmt.Sprintf("%s.encoding_proof.parents[%d]", p, j), "differs from the last labeling proof")
		}
	}
	key := LabelFromParents(rid, ep.LayerIndex, ep.Node, ep.Parents)
	kf, _ := stacked.FrFromBytes((*[32]byte)(&key))
	df, _ := stacked.FrFromBytes((*[32]byte)(&v.CommDProofs.Leaf))
	kf.Add(&kf, &df)
	if stacked.FrToBytes(&kf) != [32]byte(v.CommRLastProof.Leaf) {
		return verr(p+".comm_r_last_proof", "leaf is not key + data (encoding check failed)")
	}
	return nil
}

// ValidateReplicaID reports whether c1's replica_id is the one of (miner,
// sector, ticket, comm_d, porep_id) for cfg.
func ValidateReplicaID(c1 *stacked.C1Output, cfg *stacked.SectorConfig, proverID [32]byte, sector uint64) error {
	want := stacked.ReplicaID(proverID, abiSector(sector), c1.Ticket, c1.CommD, cfg.PoRepID)
	if want != [32]byte(c1.ReplicaID) {
		return verr("replica_id", "%x is not the replica_id %x of this prover, sector, ticket and comm_d", c1.ReplicaID, want)
	}
	return nil
}

func abiSector(s uint64) abi.SectorNumber { return abi.SectorNumber(s) }
