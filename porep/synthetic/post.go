// SPDX-License-Identifier: Apache-2.0 OR MIT

package synthetic

import (
	"fmt"
	"math/rand/v2"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/internal/parallel"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
)

// PoStOptions tune PoSt. Zero values take the defaults named.
type PoStOptions struct {
	// Sectors is the number of sectors (vanilla proofs); 0: one full
	// partition (the proof's sectors per partition; 1 for WinningPoSt,
	// which takes exactly one).
	Sectors int
	// Miner is the prover's actor id; 0: 1000.
	Miner abi.ActorID
	// Seed makes the output reproducible: the randomness, the sector
	// numbers, every comm_c and every challenged leaf derive from it.
	Seed uint64
}

// PoStSet is a set of vanilla proofs and what a verifier is given with the
// proof made from them.
type PoStSet struct {
	Config     post.Config
	Miner      abi.ActorID
	Randomness abi.PoStRandomness // 32 bytes, byte 31 ≤ 0x3f
	// Sectors are the public sector infos (V1_1 seal proof of the size,
	// sealed CID of comm_r), in ascending sector number.
	Sectors []proof.SectorInfo
	// Vanilla[i] is Sectors[i]'s vanilla proof: GenerateSingleVanillaProof
	// bytes.
	Vanilla [][]byte
}

// PoSt builds valid vanilla proofs of the registered PoSt proof p for
// synthetic sectors of any size (32 and 64 GiB included), cheaply: each
// sector's tree R is sparse — every leaf but the challenged ones holds one
// fill value, so an untouched subtree is a precomputed hash per level and
// a sector costs only its challenged paths. comm_c is random and comm_r =
// Poseidon-2(comm_c, comm_r_last); the challenges are the real prover's
// (post.SectorChallenges) and the proofs come from post.NewVanillaProof, so
// a proof made from them verifies with VerifyWindowPoSt/VerifyWinningPoSt.
// Unlike C1, nothing marks them: they are what a sector with those replica
// nodes would give. Errors: an unsupported proof, a sector count < 0, or
// other than 1 for WinningPoSt.
func PoSt(p abi.RegisteredPoStProof, opt PoStOptions) (*PoStSet, error) {
	cfg, err := post.ConfigFor(p)
	if err != nil {
		return nil, fmt.Errorf("synthetic post: %w", err)
	}
	n := opt.Sectors
	if n == 0 {
		n = cfg.SectorCount
	}
	if n < 0 || (cfg.Kind == post.Winning && n != post.WinningSectorCount) {
		return nil, fmt.Errorf("synthetic post: %d sectors for %s (WinningPoSt takes %d, WindowPoSt at least 1)", opt.Sectors, cfg.Name, post.WinningSectorCount)
	}
	miner := opt.Miner
	if miner == 0 {
		miner = 1000
	}
	seal, ok := stacked.SealProofV1_1(cfg.SectorSize)
	if !ok {
		return nil, fmt.Errorf("synthetic post: %s: no seal proof for %d-byte sectors", cfg.Name, cfg.SectorSize)
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x9057))
	rnd := randomDomain(rng)
	fill := randomDomain(rng)
	first := abi.SectorNumber(rng.Uint64N(1 << 20))
	ids := make([]abi.SectorNumber, n)
	for i := range ids {
		ids[i] = first + abi.SectorNumber(i)
	}
	chs, err := post.SectorChallenges(&cfg, rnd, ids)
	if err != nil {
		return nil, fmt.Errorf("synthetic post: %w", err)
	}
	fillFr, _ := stacked.FrFromBytes((*[32]byte)(&fill))
	defaults, err := newSparseDefaults(cfg.Leaves(), cfg.Shape.Base, cfg.Shape.Sub, cfg.Shape.Top, fillFr)
	if err != nil {
		return nil, fmt.Errorf("synthetic post: %s: %w", cfg.Name, err)
	}
	out := &PoStSet{Config: cfg, Miner: miner, Randomness: rnd[:], Sectors: make([]proof.SectorInfo, n), Vanilla: make([][]byte, n)}
	err = parallel.Each(n, func(i int) error {
		srng := rand.New(rand.NewPCG(opt.Seed, uint64(i)+1))
		leaves := make(map[uint64]fr.Element, cfg.ChallengeCount)
		for _, c := range chs[ids[i]] {
			d := randomDomain(srng)
			leaves[c], _ = stacked.FrFromBytes((*[32]byte)(&d))
		}
		tree, err := newSparseTree(defaults, leaves)
		if err != nil {
			return err
		}
		d := randomDomain(srng)
		commC, _ := stacked.FrFromBytes((*[32]byte)(&d))
		v, err := post.NewVanillaProof(&cfg, ids[i], tree, commC, chs[ids[i]])
		if err != nil {
			return err
		}
		sealed, err := commcid.ReplicaCommitmentV1ToCID(v.CommR[:])
		if err != nil {
			return err
		}
		out.Sectors[i] = proof.SectorInfo{SealProof: seal, SectorNumber: ids[i], SealedCID: sealed}
		out.Vanilla[i] = v.Bytes()
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("synthetic post: %s: %w", cfg.Name, err)
	}
	return out, nil
}
