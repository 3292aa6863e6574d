// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
)

// genRandomnessID is the HashType::Custom(CType::Arbitrary(1)) id of
// storage-proofs-update constants.rs POSEIDON_CONSTANTS_GEN_RANDOMNESS.
const genRandomnessID = 1

// GenRandomnessConstants returns the constants of PoseidonG, the arity-2
// gen-randomness hash (domain tag 2^40) behind phi, rho and the challenge
// digests.
func GenRandomnessConstants() *poseidon.Constants {
	c, err := poseidon.CustomConstants(2, genRandomnessID)
	if err != nil {
		panic(err) // arity 2, id 1 are fixed
	}
	return c
}

// HashG is PoseidonG(a, b).
func HashG(a, b *fr.Element) fr.Element {
	out, err := poseidon.HashWith(GenRandomnessConstants(), []fr.Element{*a, *b})
	if err != nil {
		panic(err) // two inputs for arity 2
	}
	return out
}

// Phi is vanilla.rs phi: PoseidonG(comm_d_new, comm_r_old).
func Phi(commDNew, commROld *fr.Element) fr.Element { return HashG(commDNew, commROld) }

// Rho is vanilla.rs rho: PoseidonG(phi, Fr(high)), the encoding factor of
// every node i with i >> (cbl − h) = high.
func Rho(phi *fr.Element, high uint64) fr.Element {
	h := stacked.FrFromUint64(high)
	return HashG(phi, &h)
}

// ChallengeHigh is the rho index of node c: c >> (cbl − h)
// (get_challenge_high_bits' value).
func (c *Config) ChallengeHigh(ch uint64) uint64 { return ch >> uint(c.ChallengeBitLen-c.H) }

// Challenges is challenges.rs Challenges::new(sector_nodes, comm_r_new, k)
// taken N times: the cfg.ChallengeCount node indices partition k proves, in
// derivation order. Digest j (0 ≤ j < DigestsPerPartition) is
// PoseidonG(comm_r_new, Fr(k·dpp + j)); challenge i of a digest is its LE
// bits [i·rb, (i+1)·rb) with k in the top pbl bits. Errors: k out of range.
func Challenges(cfg *Config, commRNew *fr.Element, k int) ([]uint64, error) {
	if k < 0 || k >= cfg.Partitions {
		return nil, fmt.Errorf("update: challenges: partition %d out of range (%s has %d)", k, cfg.Name, cfg.Partitions)
	}
	rb, per, dpp := cfg.RandomBits(), cfg.ChallengesPerDigest(), cfg.DigestsPerPartition()
	out := make([]uint64, 0, cfg.ChallengeCount)
	for j := 0; j < dpp && len(out) < cfg.ChallengeCount; j++ {
		idx := stacked.FrFromUint64(uint64(k*dpp + j))
		d := HashG(commRNew, &idx)
		le := stacked.FrToBytes(&d)
		for i := 0; i < per && len(out) < cfg.ChallengeCount; i++ {
			var ch uint64
			for b := 0; b < rb; b++ {
				bit := i*rb + b
				ch |= uint64(le[bit/8]>>(bit%8)&1) << b
			}
			out = append(out, ch|uint64(k)<<uint(rb))
		}
	}
	return out, nil
}
