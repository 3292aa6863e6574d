// SPDX-License-Identifier: Apache-2.0 OR MIT

package post

import (
	"fmt"

	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
)

// CheckSlot is what storage-proofs-post FallbackPoSt::verify checks of one
// sector proof before Rust proves (single_partition_vanilla_proofs): comm_r
// = Poseidon-2(comm_c, comm_r_last), and for every challenge j an inclusion
// proof whose root is comm_r_last, whose path index is Challenges[j] and
// whose path hashes from the leaf to that root. A slot that passes makes a
// satisfied circuit. Errors name the sector, the challenge and the leaf.
func CheckSlot(cfg *Config, s *Slot) error {
	sp := s.Proof
	if sp == nil {
		return fmt.Errorf("sector %d: no sector proof", s.Sector.ID)
	}
	if len(sp.InclusionProofs) != len(s.Challenges) || len(s.Challenges) != cfg.SlotChallenges {
		return fmt.Errorf("sector %d: %d inclusion proofs for %d challenges, want %d", s.Sector.ID, len(sp.InclusionProofs), len(s.Challenges), cfg.SlotChallenges)
	}
	commC, err := stacked.FrFromBytes((*[32]byte)(&sp.CommC))
	if err != nil {
		return fmt.Errorf("sector %d comm_c: %w", s.Sector.ID, err)
	}
	commRLast, err := stacked.FrFromBytes((*[32]byte)(&sp.CommRLast))
	if err != nil {
		return fmt.Errorf("sector %d comm_r_last: %w", s.Sector.ID, err)
	}
	h := poseidon.Hash2(&commC, &commRLast)
	if got := stacked.FrToBytes(&h); got != s.Sector.CommR {
		return fmt.Errorf("sector %d: comm_r %x is not H(comm_c, comm_r_last) = %x: the vanilla proof belongs to another sector or replica", s.Sector.ID, s.Sector.CommR[:], got[:])
	}
	arities := cfg.PathArities()
	for j := range sp.InclusionProofs {
		p := &sp.InclusionProofs[j]
		if p.Kind != cfg.ProofKind() || len(p.Path()) != len(arities) {
			return fmt.Errorf("sector %d challenge %d: %s proof of %d levels, want %s of %d", s.Sector.ID, j, p.Kind, len(p.Path()), cfg.ProofKind(), len(arities))
		}
		if p.Root != sp.CommRLast {
			return fmt.Errorf("sector %d challenge %d: inclusion proof root %x is not comm_r_last %x", s.Sector.ID, j, p.Root[:], sp.CommRLast[:])
		}
		if got := p.PathIndex(cfg.Shape.Base, cfg.Shape.Sub, cfg.Shape.Top); got != s.Challenges[j] {
			return fmt.Errorf("sector %d challenge %d: inclusion proof for leaf %d, the randomness challenges leaf %d (other randomness or challenges?)", s.Sector.ID, j, got, s.Challenges[j])
		}
		root, err := p.RootPoseidon()
		if err != nil {
			return fmt.Errorf("sector %d challenge %d: %w", s.Sector.ID, j, err)
		}
		if root != p.Root {
			return fmt.Errorf("sector %d challenge %d (leaf %d): Merkle path hashes to %x, not comm_r_last %x", s.Sector.ID, j, s.Challenges[j], root[:], p.Root[:])
		}
	}
	return nil
}
