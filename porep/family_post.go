// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

// WindowPoSt and WinningPoSt as filecoin-ffi (proofs.go, distributed.go)
// offers them, on go-state-types types: challenges, proving from the vanilla
// proofs GenerateSingleVanillaProof returns, and verification. The circuit,
// challenges and vanilla-proof format live in porep/post.

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
)

// FallbackChallenges is filecoin-ffi's FallbackChallenges: the sectors asked
// for and the leaf challenges of each.
type FallbackChallenges struct {
	Sectors    []abi.SectorNumber
	Challenges map[abi.SectorNumber][]uint64
}

// PartitionProof is filecoin-ffi's PartitionProof: one WindowPoSt partition
// proof (192 bytes).
type PartitionProof proof.PoStProof

// postConfig returns the configuration of a registered PoSt proof of the
// wanted kind; anything else is bad input.
func postConfig(p abi.RegisteredPoStProof, kind post.Kind) (*post.Config, error) {
	cfg, err := post.ConfigFor(p)
	if err != nil {
		return nil, &FieldError{Field: FieldProofType, Err: err}
	}
	if cfg.Kind != kind {
		return nil, fieldErrorf(FieldProofType, "%s is a %sPoSt proof, want %sPoSt", cfg.Name, cfg.Kind, kind)
	}
	return &cfg, nil
}

// postRandomness checks the 32-byte PoSt randomness (as_safe_commitment:
// callers mask byte 31 with 0x3f); errors are FieldErrors.
func postRandomness(r abi.PoStRandomness) ([32]byte, error) {
	var b [32]byte
	if len(r) != len(b) {
		return b, fieldErrorf(FieldRandomness, "%d bytes, want 32", len(r))
	}
	copy(b[:], r)
	if !stacked.IsCanonical(&b) {
		return b, fieldErrorf(FieldRandomness, "%x is not a canonical field element (mask byte 31 with 0x3f)", b[:])
	}
	return b, nil
}

// GenerateWinningPoStSectorChallenge is filecoin-ffi's
// GenerateWinningPoStSectorChallenge: the index, among eligibleSectorsLen
// sectors, of the sector WinningPoSt challenges (one index; see
// post.WinningSectorChallenge). Errors wrap ErrBadInput for a window proof
// type, randomness that is not 32 bytes or not canonical, and no sectors.
func GenerateWinningPoStSectorChallenge(proofType abi.RegisteredPoStProof, minerID abi.ActorID, randomness abi.PoStRandomness, eligibleSectorsLen uint64) ([]uint64, error) {
	if _, err := postConfig(proofType, post.Winning); err != nil {
		return nil, err
	}
	rnd, err := postRandomness(randomness)
	if err != nil {
		return nil, err
	}
	idx, err := post.WinningSectorChallenge(rnd, stacked.ProverID(minerID), eligibleSectorsLen)
	if err != nil {
		return nil, badInput(fmt.Errorf("porep: %w", err))
	}
	return []uint64{idx}, nil
}

// GeneratePoStFallbackSectorChallenges is filecoin-ffi's
// GeneratePoStFallbackSectorChallenges (filecoin-proofs
// generate_fallback_sector_challenges): per sector the leaf challenges its
// vanilla proof must answer — 10 per sector for WindowPoSt, 66 for the one
// WinningPoSt sector (only the first sector of the list is challenged).
func GeneratePoStFallbackSectorChallenges(proofType abi.RegisteredPoStProof, minerID abi.ActorID, randomness abi.PoStRandomness, sectorIDs []abi.SectorNumber) (*FallbackChallenges, error) {
	cfg, err := post.ConfigFor(proofType)
	if err != nil {
		return nil, badInput(fmt.Errorf("porep: %w", err))
	}
	rnd, err := postRandomness(randomness)
	if err != nil {
		return nil, err
	}
	chs, err := post.SectorChallenges(&cfg, rnd, sectorIDs)
	if err != nil {
		return nil, badInput(fmt.Errorf("porep: %w", err))
	}
	out := &FallbackChallenges{Challenges: chs}
	for _, s := range sectorIDs {
		if _, ok := chs[s]; ok && !containsSector(out.Sectors, s) {
			out.Sectors = append(out.Sectors, s)
		}
	}
	return out, nil
}

func containsSector(list []abi.SectorNumber, s abi.SectorNumber) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// parseVanillaProofs parses each vanilla proof; a defect is bad input
// naming the proof's position and the field's byte offset.
func parseVanillaProofs(cfg *post.Config, proofs [][]byte) ([]*post.VanillaProof, error) {
	if len(proofs) == 0 {
		return nil, badInputf("porep: no vanilla proofs")
	}
	out := make([]*post.VanillaProof, len(proofs))
	for i, b := range proofs {
		v, err := post.ParseVanillaProof(b, cfg)
		if err != nil {
			return nil, badInputf("porep: vanilla proof %d (%d bytes, %s wants %d): %w", i, len(b), cfg.Name, post.VanillaProofSize(cfg), err)
		}
		out[i] = v
	}
	return out, nil
}

// postProveInputs checks the arguments every Generate*WithVanilla call
// takes: the proof type's kind, the randomness, the number of vanilla
// proofs (count, when not nil) and each vanilla proof's bytes.
func postProveInputs(proofType abi.RegisteredPoStProof, kind post.Kind, randomness abi.PoStRandomness, proofs [][]byte,
	count func(cfg *post.Config, n int) error) (*post.Config, [32]byte, []*post.VanillaProof, error) {
	cfg, err := postConfig(proofType, kind)
	if err != nil {
		return nil, [32]byte{}, nil, err
	}
	rnd, err := postRandomness(randomness)
	if err != nil {
		return nil, rnd, nil, err
	}
	if count != nil {
		if err := count(cfg, len(proofs)); err != nil {
			return nil, rnd, nil, err
		}
	}
	vps, err := parseVanillaProofs(cfg, proofs)
	if err != nil {
		return nil, rnd, nil, err
	}
	if kind == post.Window {
		if _, err := WindowPoStSectorOrder(proofs); err != nil {
			return nil, rnd, nil, err
		}
	}
	return cfg, rnd, vps, nil
}

// WindowPoStSectorOrder checks that WindowPoSt vanilla proofs come in
// strictly ascending sector number (the sector_id, a vanilla proof's first
// 8 bytes, bincode u64; shorter proofs are left to the parser). Proven in
// another order, the proof verifies with the .vk but not with
// VerifyWindowPoSt, whose verifier lists the sectors by number (Rust's
// verify_window_post: a BTreeMap). It returns the position of the first
// proof out of order and an error wrapping ErrBadInput naming both
// positions and sector numbers (a sector given twice likewise), or -1, nil.
func WindowPoStSectorOrder(proofs [][]byte) (int, error) {
	for i := 1; i < len(proofs); i++ {
		a, b := proofs[i-1], proofs[i]
		if len(a) < 8 || len(b) < 8 {
			continue
		}
		prev, id := binary.LittleEndian.Uint64(a), binary.LittleEndian.Uint64(b)
		switch {
		case id == prev:
			return i, badInputf("porep: vanilla proofs %d and %d are both for sector %d", i-1, i, id)
		case id < prev:
			return i, badInputf("porep: vanilla proof %d (sector %d) after vanilla proof %d (sector %d): WindowPoSt wants ascending sector numbers, as VerifyWindowPoSt lists them",
				i, id, i-1, prev)
		}
	}
	return -1, nil
}

// GenerateWinningPoStWithVanilla is filecoin-ffi's
// GenerateWinningPoStWithVanilla: from the one challenged sector's vanilla
// proof (66 inclusion proofs) it proves the 66-slot circuit and returns one
// PoStProof of 192 bytes, verified with the .vk before it is returned.
// Errors wrap ErrBadInput for a window proof type, bad randomness, a
// number of vanilla proofs other than one, a vanilla proof that does not
// parse or does not answer the randomness's challenges, and parameters of
// another circuit; ErrParamsNotFound for missing parameter files.
func GenerateWinningPoStWithVanilla(proofType abi.RegisteredPoStProof, minerID abi.ActorID, randomness abi.PoStRandomness, proofs [][]byte, opts ...Option) ([]proof.PoStProof, error) {
	j, err := PrepareWinningPoSt(proofType, minerID, randomness, proofs, opts...)
	if err != nil {
		return nil, err
	}
	b, err := j.prove()
	if err != nil {
		return nil, err
	}
	return []proof.PoStProof{{PoStProof: proofType, ProofBytes: b}}, nil
}

// GenerateWindowPoStWithVanilla is filecoin-ffi's
// GenerateWindowPoStWithVanilla: the vanilla proofs of all sectors (in the
// order the verifier will list them: ascending sector number), partitioned
// by the proof type's sectors per partition with the last one padded; one
// PoStProof holding the partition proofs concatenated (192 bytes each),
// every one verified with the .vk before it is returned. Errors as
// GenerateWinningPoStWithVanilla; vanilla proofs out of ascending sector
// number, or a sector given twice, are bad input (WindowPoStSectorOrder)
// before any SNARK work.
func GenerateWindowPoStWithVanilla(proofType abi.RegisteredPoStProof, minerID abi.ActorID, randomness abi.PoStRandomness, proofs [][]byte, opts ...Option) ([]proof.PoStProof, error) {
	j, err := preparePoSt(proofType, post.Window, randomness, proofs, nil, -1, opts)
	if err != nil {
		return nil, err
	}
	b, err := j.prove()
	if err != nil {
		return nil, err
	}
	return []proof.PoStProof{{PoStProof: proofType, ProofBytes: b}}, nil
}

// GenerateSinglePartitionWindowPoStWithVanilla is filecoin-ffi's
// GenerateSinglePartitionWindowPoStWithVanilla: one partition's proof from
// the vanilla proofs of that partition's sectors (at most the proof type's
// sectors per partition; fewer are padded). With WindowPoSt V1_1 the
// challenges do not depend on a sector's position, so the proof equals
// partition partitionIndex of GenerateWindowPoStWithVanilla's (with
// WithDeterministicRandomness, r and s are those of partitionIndex).
// Errors as GenerateWindowPoStWithVanilla.
func GenerateSinglePartitionWindowPoStWithVanilla(proofType abi.RegisteredPoStProof, minerID abi.ActorID, randomness abi.PoStRandomness, proofs [][]byte, partitionIndex uint, opts ...Option) (*PartitionProof, error) {
	j, err := PrepareWindowPoStPartition(proofType, minerID, randomness, proofs, partitionIndex, opts...)
	if err != nil {
		return nil, err
	}
	b, err := j.prove()
	if err != nil {
		return nil, err
	}
	return &PartitionProof{PoStProof: proofType, ProofBytes: b}, nil
}

// MergeWindowPoStPartitionProofs is filecoin-ffi's
// MergeWindowPoStPartitionProofs (merge_window_post_partition_proofs): the
// partition proofs concatenated in the order given. Each must be one
// 192-byte proof of proofType, a WindowPoSt proof; anything else is bad
// input.
func MergeWindowPoStPartitionProofs(proofType abi.RegisteredPoStProof, partitionProofs []PartitionProof) (*proof.PoStProof, error) {
	cfg, err := postConfig(proofType, post.Window)
	if err != nil {
		return nil, err
	}
	if len(partitionProofs) == 0 {
		return nil, badInputf("porep: no partition proofs to merge")
	}
	out := &proof.PoStProof{PoStProof: proofType, ProofBytes: make([]byte, 0, len(partitionProofs)*groth16.ProofSize)}
	for i, p := range partitionProofs {
		if p.PoStProof != proofType || len(p.ProofBytes) != groth16.ProofSize {
			return nil, badInputf("porep: partition proof %d: %d bytes of proof type %d, want %d bytes of %s (%d)",
				i, len(p.ProofBytes), int64(p.PoStProof), groth16.ProofSize, cfg.Name, int64(proofType))
		}
		out.ProofBytes = append(out.ProofBytes, p.ProofBytes...)
	}
	return out, nil
}

// winningCount: WinningPoSt proves the one challenged sector.
func winningCount(cfg *post.Config, n int) error {
	if n != post.WinningSectorCount {
		return badInputf("porep: %s: %d vanilla proofs, want %d (the challenged sector's)", cfg.Name, n, post.WinningSectorCount)
	}
	return nil
}

// partitionCount: one WindowPoSt partition holds at most SectorCount sectors.
func partitionCount(cfg *post.Config, n int) error {
	if n > cfg.SectorCount {
		return badInputf("porep: %s: %d vanilla proofs for one partition, at most %d", cfg.Name, n, cfg.SectorCount)
	}
	return nil
}

// PrepareWinningPoSt checks the arguments of GenerateWinningPoStWithVanilla
// exactly as it does (errors wrap ErrBadInput) and returns its one circuit
// as a Job (blinding index 0) with the options it takes. A scheduler that
// runs the steps itself (porep/engine) owns backends, randomness and
// workers: of opts, only WithParamsDir, WithRequireProductionParams,
// WithDigestCacheFile, WithLogger and WithProgress matter to it.
func PrepareWinningPoSt(proofType abi.RegisteredPoStProof, minerID abi.ActorID, randomness abi.PoStRandomness, proofs [][]byte, opts ...Option) (*Job, error) {
	return preparePoSt(proofType, post.Winning, randomness, proofs, winningCount, 0, opts)
}

// PrepareWindowPoStPartition checks the arguments of
// GenerateSinglePartitionWindowPoStWithVanilla exactly as it does (errors
// wrap ErrBadInput) and returns partition partitionIndex as a Job of one
// partition (blinding index partitionIndex), options as PrepareWinningPoSt.
func PrepareWindowPoStPartition(proofType abi.RegisteredPoStProof, minerID abi.ActorID, randomness abi.PoStRandomness, proofs [][]byte, partitionIndex uint, opts ...Option) (*Job, error) {
	return preparePoSt(proofType, post.Window, randomness, proofs, partitionCount, int(partitionIndex), opts)
}

// preparePoSt checks a Generate*WithVanilla call's arguments and computes
// every partition's slots, so that a bad vanilla proof is reported before
// any parameter is read or any work done. index ≥ 0 makes a job of the
// vanilla proofs as one partition blinded as partition index; index < 0
// one of all of them (WindowPoSt: ⌈sectors / SectorCount⌉ partitions, the
// last padded).
func preparePoSt(proofType abi.RegisteredPoStProof, kind post.Kind, randomness abi.PoStRandomness, proofs [][]byte,
	count func(*post.Config, int) error, index int, opts []Option) (*Job, error) {
	start := time.Now()
	cfg, rnd, vps, err := postProveInputs(proofType, kind, randomness, proofs, count)
	if err != nil {
		return nil, err
	}
	n, base := 1, index
	if index < 0 {
		n, base = cfg.Partitions(len(vps)), 0
	}
	f := &postFamily{cfg: cfg, slots: make([][]post.Slot, n), base: base}
	for k := range f.slots {
		if f.slots[k], err = post.ProverSlots(cfg, rnd, vps, k); err != nil {
			return nil, badInput(fmt.Errorf("porep: %s: %w", cfg.Name, err))
		}
	}
	if err := checkPartitions(f); err != nil {
		return nil, err
	}
	return newJob(newSettings(opts), f, start)
}

// postFamily is FallbackPoSt (FallbackPoStCompound): one circuit per
// partition of its slots (a sector's challenges each), the proofs
// concatenated; partition k is blinded as partition base+k.
type postFamily struct {
	cfg   *post.Config
	slots [][]post.Slot
	base  int
}

func (f *postFamily) circuit() paramfile.Circuit    { return f.cfg }
func (f *postFamily) partitions() int               { return len(f.slots) }
func (f *postFamily) blinding(k int) int            { return f.base + k }
func (f *postFamily) what() string                  { return "post" }
func (f *postFamily) segment() (cs.SizeHint, error) { return post.SectorSizeHint(f.cfg) }

func (f *postFamily) build(k int) (cs.Circuit, error) {
	c, err := post.NewCircuit(f.cfg, f.slots[k])
	if err != nil {
		return nil, fmt.Errorf("porep: partition %d: %w", k, err)
	}
	return c, nil
}

func (f *postFamily) public(k int) ([]fr.Element, error) {
	public, err := post.PublicInputs(f.slots[k])
	if err != nil {
		return nil, fmt.Errorf("porep: partition %d: %w", k, err)
	}
	return public, nil
}

func (f *postFamily) finish(_ *settings, proofs []groth16.Proof) ([]byte, error) {
	return groth16.EncodeProofs(proofs), nil
}

// postPublicSectors converts the challenged sectors of a verify info:
// comm_r from the sealed CID (canonical), and a seal proof of the PoSt
// proof's sector size.
func postPublicSectors(cfg *post.Config, sectors []proof.SectorInfo) ([]post.PublicSector, error) {
	out := make([]post.PublicSector, len(sectors))
	for i, s := range sectors {
		sc, err := stacked.ConfigFor(s.SealProof)
		if err != nil {
			return nil, badInputf("porep: challenged sector %d: %w", s.SectorNumber, err)
		}
		if sc.SectorSize != cfg.SectorSize {
			return nil, badInputf("porep: challenged sector %d is sealed with %s (%s), %s proves %s sectors",
				s.SectorNumber, sc.Name, stacked.SizeLabel(sc.SectorSize), cfg.Name, stacked.SizeLabel(cfg.SectorSize))
		}
		b, err := commcid.CIDToReplicaCommitmentV1(s.SealedCID)
		if err != nil {
			return nil, badInputf("porep: challenged sector %d: sealed CID %s: %w", s.SectorNumber, s.SealedCID, err)
		}
		c, err := to32(b, "comm_r")
		if err != nil {
			return nil, err
		}
		if err := post.CheckCommitment(fmt.Sprintf("porep: challenged sector %d comm_r", s.SectorNumber), &c); err != nil {
			return nil, badInput(err)
		}
		out[i] = post.PublicSector{ID: s.SectorNumber, CommR: stacked.Domain(c)}
	}
	return out, nil
}

// verifyPoSt checks the proof bytes of proofs[0] (one PoStProof, as
// filecoin-proofs-api accepts) against the verifier's public inputs of
// every partition.
func verifyPoSt(s *settings, kind post.Kind, randomness abi.PoStRandomness, proofs []proof.PoStProof, sectors []proof.SectorInfo) (bool, error) {
	if len(proofs) != 1 {
		return false, badInputf("porep: %d PoSt proofs, want 1", len(proofs))
	}
	cfg, err := postConfig(proofs[0].PoStProof, kind)
	if err != nil {
		return false, err
	}
	rnd, err := postRandomness(randomness)
	if err != nil {
		return false, err
	}
	if len(sectors) == 0 {
		return false, badInputf("porep: no challenged sectors")
	}
	// Rust keys the sectors by number (BTreeMap): ascending order.
	sectors = slices.Clone(sectors)
	slices.SortStableFunc(sectors, func(a, b proof.SectorInfo) int { return cmp.Compare(a.SectorNumber, b.SectorNumber) })
	for i := 1; i < len(sectors); i++ {
		if sectors[i].SectorNumber == sectors[i-1].SectorNumber {
			return false, badInputf("porep: challenged sector %d is listed twice", sectors[i].SectorNumber)
		}
	}
	if kind == post.Winning && len(sectors) != post.WinningSectorCount {
		return false, badInputf("porep: %s: %d challenged sectors, want %d", cfg.Name, len(sectors), post.WinningSectorCount)
	}
	pub, err := postPublicSectors(cfg, sectors)
	if err != nil {
		return false, err
	}
	n := cfg.Partitions(len(pub))
	if want := n * groth16.ProofSize; len(proofs[0].ProofBytes) != want {
		return false, badInputf("porep: proof is %d bytes, want %d (%d partitions × %d) for %d sectors of %s",
			len(proofs[0].ProofBytes), want, n, groth16.ProofSize, len(pub), cfg.Name)
	}
	ps, err := groth16.DecodeProofs(proofs[0].ProofBytes)
	if err != nil {
		return false, badInputf("porep: proof: %w", err)
	}
	pvk, err := keysOf(s, cfg).loadVK()
	if err != nil {
		return false, err
	}
	publics := make([][]fr.Element, n)
	for k := range publics {
		slots, err := post.VerifierSlots(cfg, rnd, pub, k)
		if err != nil {
			return false, badInput(fmt.Errorf("porep: %w", err))
		}
		if publics[k], err = post.PublicInputs(slots); err != nil {
			return false, badInput(fmt.Errorf("porep: %w", err))
		}
	}
	return verifyProofs(pvk, ps, publics)
}

// VerifyWinningPoSt is filecoin-ffi's VerifyWinningPoSt (filecoin-proofs
// verify_winning_post): one PoStProof of 192 bytes for the one challenged
// sector, checked with the .vk in the parameter directory. It returns
// (false, nil) for a well-formed proof that does not verify; errors wrap
// ErrBadInput for malformed input (randomness, proof length or points,
// sector count, sealed CIDs, a window proof type, a .vk of another
// circuit) and ErrParamsNotFound for a missing .vk.
func VerifyWinningPoSt(info proof.WinningPoStVerifyInfo, opts ...Option) (bool, error) {
	return verifyPoSt(newSettings(opts), post.Winning, info.Randomness, info.Proofs, info.ChallengedSectors)
}

// VerifyWindowPoSt is filecoin-ffi's VerifyWindowPoSt (filecoin-proofs
// verify_window_post): one PoStProof holding every partition's proof for
// the challenged sectors, taken in ascending sector number as Rust's
// BTreeMap orders them (the prover must have passed its vanilla proofs in
// that order); a sector listed twice is bad input.
// Results and errors as VerifyWinningPoSt.
func VerifyWindowPoSt(info proof.WindowPoStVerifyInfo, opts ...Option) (bool, error) {
	return verifyPoSt(newSettings(opts), post.Window, info.Randomness, info.Proofs, info.ChallengedSectors)
}
