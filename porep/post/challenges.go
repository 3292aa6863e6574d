// SPDX-License-Identifier: Apache-2.0 OR MIT

package post

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/stacked"
)

// CheckCommitment fails unless b is a canonical field element, as
// filecoin-proofs as_safe_commitment requires of the randomness and the
// prover id (callers mask the chain randomness: b[31] &= 0x3f). name
// prefixes the error.
func CheckCommitment(name string, b *[32]byte) error {
	if !stacked.IsCanonical(b) {
		return fmt.Errorf("%s %x is not a canonical field element (mask byte 31 with 0x3f)", name, b[:])
	}
	return nil
}

// LeafChallenge is storage-proofs-post generate_leaf_challenge: the first 8
// bytes (little-endian) of SHA-256(randomness ‖ u64le(sector) ‖
// u64le(index)) modulo the sector's leaves (size / 32).
func LeafChallenge(sectorSize uint64, randomness *[32]byte, sector abi.SectorNumber, index uint64) uint64 {
	var buf [48]byte
	copy(buf[:32], randomness[:])
	binary.LittleEndian.PutUint64(buf[32:], uint64(sector))
	binary.LittleEndian.PutUint64(buf[40:], index)
	h := sha256.Sum256(buf[:])
	return binary.LittleEndian.Uint64(h[:8]) % (sectorSize / stacked.NodeSize)
}

// challengeIndex is fallback/utils.rs get_challenge_index: ApiVersion 1.2.0
// and later use n alone (the sector's position no longer matters); earlier
// versions sectorIndex·challengeCount + n.
func challengeIndex(api stacked.APIVersion, sectorIndex, challengeCount, n int) uint64 {
	if api >= stacked.APIVersion1_2_0 {
		return uint64(n)
	}
	return uint64(sectorIndex*challengeCount + n)
}

// SectorChallenges is filecoin-proofs generate_fallback_sector_challenges
// (filecoin-ffi GeneratePoStFallbackSectorChallenges): the
// cfg.ChallengeCount leaf challenges of each sector. Window: every sector,
// partition by partition. Winning: only the first sector (the one
// GenerateWinningPoStSectorChallenge picked; Rust reads one chunk of one
// sector). A sector listed twice gets the challenges of its last position,
// as Rust's BTreeMap keeps. Errors: no sectors, non-canonical randomness.
func SectorChallenges(cfg *Config, randomness [32]byte, sectors []abi.SectorNumber) (map[abi.SectorNumber][]uint64, error) {
	if err := CheckCommitment("randomness", &randomness); err != nil {
		return nil, fmt.Errorf("post: %w", err)
	}
	if len(sectors) == 0 {
		return nil, errors.New("post: sector challenges: no sectors")
	}
	n := len(sectors)
	if cfg.Kind == Winning {
		n = min(n, cfg.SectorCount)
	}
	out := make(map[abi.SectorNumber][]uint64, n)
	for i, s := range sectors[:n] {
		chs := make([]uint64, cfg.ChallengeCount)
		for j := range chs {
			chs[j] = LeafChallenge(cfg.SectorSize, &randomness, s, challengeIndex(cfg.APIVersion, i, cfg.ChallengeCount, j))
		}
		out[s] = chs
	}
	return out, nil
}

// WinningSectorChallenge is filecoin-proofs
// generate_winning_post_sector_challenge (WINNING_POST_SECTOR_COUNT = 1,
// fallback/vanilla.rs generate_sector_challenge with n = 0): the index, in
// the caller's list of eligibleSectors sectors, of the sector WinningPoSt
// challenges: u64le(SHA-256(prover_id ‖ randomness ‖ u64le(0))[0..8]) mod
// eligibleSectors. Errors: no sectors, a non-canonical value.
func WinningSectorChallenge(randomness, proverID [32]byte, eligibleSectors uint64) (uint64, error) {
	if err := CheckCommitment("randomness", &randomness); err != nil {
		return 0, fmt.Errorf("post: %w", err)
	}
	if err := CheckCommitment("prover_id", &proverID); err != nil {
		return 0, fmt.Errorf("post: %w", err)
	}
	if eligibleSectors == 0 {
		return 0, errors.New("post: winning sector challenge: no eligible sectors")
	}
	var buf [72]byte
	copy(buf[:32], proverID[:])
	copy(buf[32:64], randomness[:])
	// buf[64:72] = u64le(n), n = 0.
	h := sha256.Sum256(buf[:])
	return binary.LittleEndian.Uint64(h[:8]) % eligibleSectors, nil
}
