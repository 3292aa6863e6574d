// SPDX-License-Identifier: Apache-2.0 OR MIT

package post

import (
	"errors"
	"fmt"
	"slices"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/internal/parallel"
	"github.com/cuseal/cuseal/porep/stacked"
)

// PublicSector is fallback::PublicSector: a sector the verifier knows by
// number and comm_r.
type PublicSector struct {
	ID    abi.SectorNumber
	CommR stacked.Domain
}

// Slot is one sector position of a partition circuit (post-circuit.md §2):
// the public sector, its SlotChallenges leaf challenges as the verifier
// derives them, and — on the prover's side — the SectorProof whose
// inclusion proofs answer them.
type Slot struct {
	Sector PublicSector
	// Padding: a copy of the partition's last sector filling a short
	// window partition.
	Padding    bool
	Challenges []uint64
	// Proof is nil in slots built by VerifierSlots.
	Proof *SectorProof
}

// slotChallenges returns the leaf challenges of the sector at position
// sectorIndex of the verifier's list (compound generate_public_inputs).
func slotChallenges(cfg *Config, randomness *[32]byte, id abi.SectorNumber, sectorIndex int) []uint64 {
	out := make([]uint64, cfg.SlotChallenges)
	for j := range out {
		out[j] = LeafChallenge(cfg.SectorSize, randomness, id, challengeIndex(cfg.APIVersion, sectorIndex, cfg.SlotChallenges, j))
	}
	return out
}

// VerifierSlots returns partition k's cfg.Slots slots as the verifier
// builds them (verify_window_post / verify_winning_post →
// FallbackPoStCompound::verify → generate_public_inputs). Window: sectors
// are the proven sectors in the verifier's order (ascending sector number
// when they come from Rust's BTreeMap); partition k takes
// sectors[k·SectorCount…] and a short last partition repeats its last
// sector. Winning: sectors is the one challenged sector, repeated in all 66
// slots with sector index = slot index.
func VerifierSlots(cfg *Config, randomness [32]byte, sectors []PublicSector, k int) ([]Slot, error) {
	if err := CheckCommitment("randomness", &randomness); err != nil {
		return nil, fmt.Errorf("post: %w", err)
	}
	if len(sectors) == 0 {
		return nil, errors.New("post: no sectors")
	}
	if cfg.Kind == Winning {
		if len(sectors) != WinningSectorCount {
			return nil, fmt.Errorf("post: winning: %d sectors, want %d", len(sectors), WinningSectorCount)
		}
		rep := make([]PublicSector, cfg.Slots)
		for i := range rep {
			rep[i] = sectors[0]
		}
		sectors = rep
	}
	chunk, err := partitionChunk(cfg, len(sectors), k)
	if err != nil {
		return nil, err
	}
	slots := make([]Slot, cfg.Slots)
	for i := range slots {
		if i >= len(chunk) {
			slots[i] = slots[i-1]
			slots[i].Padding = true
			continue
		}
		s := sectors[chunk[i]]
		if err := CheckCommitment(fmt.Sprintf("sector %d comm_r", s.ID), (*[32]byte)(&s.CommR)); err != nil {
			return nil, fmt.Errorf("post: %w", err)
		}
		slots[i] = Slot{Sector: s, Challenges: slotChallenges(cfg, &randomness, s.ID, chunk[i])}
	}
	return slots, nil
}

// partitionChunk returns the indices, into a list of n sectors, of
// partition k's sectors: [k·Slots, min((k+1)·Slots, n)).
func partitionChunk(cfg *Config, n, k int) ([]int, error) {
	parts := (n + cfg.Slots - 1) / cfg.Slots
	if k < 0 || k >= parts {
		return nil, fmt.Errorf("post: partition %d out of range (%d sectors make %d partitions of %d)", k, n, parts, cfg.Slots)
	}
	lo, hi := k*cfg.Slots, min((k+1)*cfg.Slots, n)
	out := make([]int, 0, hi-lo)
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out, nil
}

// ProverSlots returns partition k's slots from parsed vanilla proofs, as
// filecoin-proofs partition_vanilla_proofs / single_partition_vanilla_proofs
// and FallbackPoStCompound::circuit arrange them, each with the verifier's
// challenges. Window: the public sectors are the vanilla proofs' (sector_id,
// comm_r) in the order given; partition k takes proofs[k·SectorCount…] and
// pads with its last sector proof. Winning: exactly one vanilla proof, whose
// 66 inclusion proofs are unrolled into 66 one-challenge slots. A sector
// listed twice is an error. Then every slot must answer its challenges:
// CheckSlot (the FallbackPoSt::verify that Rust runs before proving).
func ProverSlots(cfg *Config, randomness [32]byte, proofs []*VanillaProof, k int) ([]Slot, error) {
	if len(proofs) == 0 {
		return nil, errors.New("post: no vanilla proofs")
	}
	seen := make(map[abi.SectorNumber]int, len(proofs))
	pub := make([]PublicSector, len(proofs))
	for i, p := range proofs {
		if len(p.Sectors) != 1 {
			return nil, fmt.Errorf("post: vanilla proof %d (sector %d): %d sector proofs, want 1", i, p.SectorID, len(p.Sectors))
		}
		if j, ok := seen[p.SectorID]; ok {
			return nil, fmt.Errorf("post: vanilla proofs %d and %d are both for sector %d", j, i, p.SectorID)
		}
		seen[p.SectorID] = i
		pub[i] = PublicSector{ID: p.SectorID, CommR: p.CommR}
	}
	var slots []Slot
	switch cfg.Kind {
	case Winning:
		if len(proofs) != WinningSectorCount {
			return nil, fmt.Errorf("post: winning: %d vanilla proofs, want %d", len(proofs), WinningSectorCount)
		}
		var err error
		if slots, err = VerifierSlots(cfg, randomness, pub, k); err != nil {
			return nil, err
		}
		sp := &proofs[0].Sectors[0]
		if len(sp.InclusionProofs) != cfg.Slots {
			return nil, fmt.Errorf("post: winning: sector %d: %d inclusion proofs, want %d", proofs[0].SectorID, len(sp.InclusionProofs), cfg.Slots)
		}
		for i := range slots {
			slots[i].Proof = &SectorProof{InclusionProofs: sp.InclusionProofs[i : i+1], CommC: sp.CommC, CommRLast: sp.CommRLast}
		}
	default:
		var err error
		if slots, err = VerifierSlots(cfg, randomness, pub, k); err != nil {
			return nil, err
		}
		for i := range slots {
			j := min(k*cfg.Slots+i, len(proofs)-1)
			slots[i].Proof = &proofs[j].Sectors[0]
		}
	}
	// A padding slot repeats the slot before it (same proof, sector and,
	// from ApiVersion 1.2.0 on, challenges): checking it again would cost
	// a full 32 GiB partition's worth of hashing for a short one.
	err := parallel.Each(len(slots), func(i int) error {
		if i > 0 && slots[i].Padding && slots[i].Proof == slots[i-1].Proof && slots[i].Sector == slots[i-1].Sector &&
			slices.Equal(slots[i].Challenges, slots[i-1].Challenges) {
			return nil
		}
		if err := CheckSlot(cfg, &slots[i]); err != nil {
			return fmt.Errorf("post: partition %d slot %d: %w", k, i, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return slots, nil
}

// PublicInputs returns the partition's public inputs without the leading
// ONE (post-circuit.md §4): per slot Fr(comm_r), then its leaf challenges.
// Length cfg.NumPublicInputs()−1.
func PublicInputs(slots []Slot) ([]fr.Element, error) {
	var out []fr.Element
	for i := range slots {
		s := &slots[i]
		c, err := stacked.FrFromBytes((*[32]byte)(&s.Sector.CommR))
		if err != nil {
			return nil, fmt.Errorf("post: slot %d comm_r: %w", i, err)
		}
		out = append(out, c)
		for _, ch := range s.Challenges {
			out = append(out, stacked.FrFromUint64(ch))
		}
	}
	return out, nil
}
