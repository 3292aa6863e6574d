// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/big"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/chacha20"
)

// Challenge derivation of storage-proofs-porep stacked/vanilla/challenges.rs.

const (
	synthGenerationKey = "filecoin.io|PoRep|1|Synthetic|1|Generation"
	synthSelectionKey  = "filecoin.io|PoRep|1|Synthetic|1|Selection"
	niChallengeTag     = "filecoin.io|PoRep|1|NonInteractive|1"
	// DefaultSynthChallengeCount is the size of the synthetic challenge set
	// cap (DEFAULT_SYNTH_CHALLENGE_COUNT = 2^18).
	DefaultSynthChallengeCount = 1 << 18
)

var synthNonce = []byte("synth-porep\x00")

// bigintToChallenge maps a little-endian integer to (x mod (nodes−1)) + 1.
func bigintToChallenge(le []byte, nodes uint64) uint64 {
	be := reverse(le)
	x := new(big.Int).SetBytes(be)
	x.Mod(x, new(big.Int).SetUint64(nodes-1))
	return x.Uint64() + 1
}

// InteractiveChallenges derives the count challenges of partition k:
// c = sha256(replica_id ‖ seed ‖ (count·k+i) u32 LE) mod (nodes−1) + 1.
func InteractiveChallenges(nodes uint64, replicaID, seed [32]byte, count, k int) []uint64 {
	out := make([]uint64, count)
	var buf [68]byte
	copy(buf[:32], replicaID[:])
	copy(buf[32:64], seed[:])
	for i := range out {
		// Rust casts k to u8 before use; partitions never exceed 255.
		j := uint32(count*int(uint8(k)) + i)
		binary.LittleEndian.PutUint32(buf[64:], j)
		h := sha256.Sum256(buf[:])
		out[i] = bigintToChallenge(h[:], nodes)
	}
	return out
}

// NonInteractiveChallenges derives NI-PoRep challenges of partition k:
// sha256("filecoin.io|PoRep|1|NonInteractive|1" ‖ replica_id ‖ comm_r ‖ j LE).
func NonInteractiveChallenges(nodes uint64, replicaID, commR [32]byte, count, k int) []uint64 {
	out := make([]uint64, count)
	for i := range out {
		j := uint32(count*int(uint8(k)) + i)
		h := sha256.New()
		h.Write([]byte(niChallengeTag))
		h.Write(replicaID[:])
		h.Write(commR[:])
		var jb [4]byte
		binary.LittleEndian.PutUint32(jb[:], j)
		h.Write(jb[:])
		out[i] = bigintToChallenge(h.Sum(nil), nodes)
	}
	return out
}

// SynthGenerator is SynthChallengeGenerator: the synthetic challenge set
// S[0..Count) keyed by (replica_id, comm_r), and the per-partition selection
// keyed by (replica_id, seed).
type SynthGenerator struct {
	nodes     uint64
	count     uint64
	replicaID [32]byte
	genKey    [32]byte
}

func keyedBlake2b256(key string, a, b []byte) [32]byte {
	h, err := blake2b.New(32, []byte(key))
	if err != nil {
		panic(err) // keys are constants shorter than 64 bytes
	}
	h.Write(a)
	h.Write(b)
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// NewSynthGenerator returns the generator with count synthetic challenges
// (SynthChallengeGenerator::new); count must be < 2^32 and ≥ 1.
func NewSynthGenerator(nodes uint64, replicaID, commR [32]byte, count uint64) (*SynthGenerator, error) {
	if count == 0 || count >= 1<<32 {
		return nil, fmt.Errorf("synthetic challenges: count %d not in 1..2^32-1", count)
	}
	if nodes < 2 {
		return nil, fmt.Errorf("synthetic challenges: %d nodes", nodes)
	}
	return &SynthGenerator{
		nodes:     nodes,
		count:     count,
		replicaID: replicaID,
		genKey:    keyedBlake2b256(synthGenerationKey, replicaID[:], commR[:]),
	}, nil
}

// DefaultSynthGenerator uses min(nodes, 2^18) synthetic challenges
// (SynthChallengeGenerator::default).
func DefaultSynthGenerator(nodes uint64, replicaID, commR [32]byte) (*SynthGenerator, error) {
	return NewSynthGenerator(nodes, replicaID, commR, min(nodes, DefaultSynthChallengeCount))
}

// Count is the size of the synthetic challenge set.
func (s *SynthGenerator) Count() uint64 { return s.count }

// keystream returns n keystream bytes starting at byte offset off.
func keystream(key *[32]byte, off uint64, n int) []byte {
	c, err := chacha20.NewUnauthenticatedCipher(key[:], synthNonce)
	if err != nil {
		panic(err) // fixed sizes
	}
	c.SetCounter(uint32(off / 64))
	skip := int(off % 64)
	buf := make([]byte, skip+n)
	c.XORKeyStream(buf, buf)
	return buf[skip:]
}

// Challenge returns synthetic challenge S[i] (gen_synth_challenge).
func (s *SynthGenerator) Challenge(i uint64) uint64 {
	return bigintToChallenge(keystream(&s.genKey, 32*i, 32), s.nodes)
}

// All returns the whole synthetic challenge set S[0..Count).
func (s *SynthGenerator) All() []uint64 {
	ks := keystream(&s.genKey, 0, int(32*s.count))
	out := make([]uint64, s.count)
	for i := range out {
		out[i] = bigintToChallenge(ks[32*i:32*i+32], s.nodes)
	}
	return out
}

// PartitionIndexes returns the synthetic-set indexes selected for partition
// k (gen_partition_synth_indexes).
func (s *SynthGenerator) PartitionIndexes(seed [32]byte, count, k int) []uint64 {
	key := keyedBlake2b256(synthSelectionKey, s.replicaID[:], seed[:])
	first := uint64(k) * uint64(count)
	ks := keystream(&key, 4*first, 4*count)
	out := make([]uint64, count)
	for i := range out {
		out[i] = uint64(binary.LittleEndian.Uint32(ks[4*i:])) % s.count
	}
	return out
}

// PartitionChallenges returns the PoRep challenges of partition k
// (gen_porep_partition_challenges).
func (s *SynthGenerator) PartitionChallenges(seed [32]byte, count, k int) []uint64 {
	idx := s.PartitionIndexes(seed, count, k)
	for i, j := range idx {
		idx[i] = s.Challenge(j)
	}
	return idx
}

// PartitionChallenges derives the challenges of partition k for a sector
// configuration (PublicInputs::challenges): interactive ones use seed;
// synthetic ones use comm_r and seed; NI ones use comm_r only.
func PartitionChallenges(c *SectorConfig, replicaID, commR, seed [32]byte, k int) ([]uint64, error) {
	if k < 0 || k >= c.Partitions {
		return nil, fmt.Errorf("partition %d out of range 0..%d", k, c.Partitions-1)
	}
	switch c.Challenges {
	case ChallengesInteractive:
		return InteractiveChallenges(c.Nodes, replicaID, seed, c.ChallengesPerPartition, k), nil
	case ChallengesSynthetic:
		g, err := DefaultSynthGenerator(c.Nodes, replicaID, commR)
		if err != nil {
			return nil, err
		}
		return g.PartitionChallenges(seed, c.ChallengesPerPartition, k), nil
	case ChallengesNonInteractive:
		return NonInteractiveChallenges(c.Nodes, replicaID, commR, c.ChallengesPerPartition, k), nil
	}
	return nil, fmt.Errorf("unknown challenge kind %d", int(c.Challenges))
}
