// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

// WindowPoSt and WinningPoSt as filecoin-ffi (proofs.go, distributed.go)
// offers them, on go-state-types types: challenges, proving from the vanilla
// proofs GenerateSingleVanillaProof returns, and verification. The circuit,
// challenges and vanilla-proof format live in porep/post.

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
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
		return nil, badInput(fmt.Errorf("porep: %w", err))
	}
	if cfg.Kind != kind {
		return nil, badInputf("porep: %s is a %sPoSt proof, want %sPoSt", cfg.Name, cfg.Kind, kind)
	}
	return &cfg, nil
}

// postRandomness checks the 32-byte PoSt randomness (as_safe_commitment:
// callers mask byte 31 with 0x3f).
func postRandomness(r abi.PoStRandomness) ([32]byte, error) {
	b, err := to32(r, "PoSt randomness")
	if err != nil {
		return b, err
	}
	if err := post.CheckCommitment("porep: PoSt randomness", &b); err != nil {
		return b, badInput(err)
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
	cfg, rnd, vps, err := postProveInputs(proofType, post.Winning, randomness, proofs, winningCount)
	if err != nil {
		return nil, err
	}
	b, err := provePoSt(newSettings(opts), cfg, rnd, vps, []int{0}, 0)
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
	cfg, rnd, vps, err := postProveInputs(proofType, post.Window, randomness, proofs, nil)
	if err != nil {
		return nil, err
	}
	ks := make([]int, cfg.Partitions(len(vps)))
	for k := range ks {
		ks[k] = k
	}
	b, err := provePoSt(newSettings(opts), cfg, rnd, vps, ks, 0)
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
	cfg, rnd, vps, err := postProveInputs(proofType, post.Window, randomness, proofs, partitionCount)
	if err != nil {
		return nil, err
	}
	b, err := provePoSt(newSettings(opts), cfg, rnd, vps, []int{0}, int(partitionIndex))
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

// provePoSt proves partitions ks of the vanilla proofs and returns the
// proofs concatenated; partition ks[i] is blinded as partition
// rsBase+ks[i]. Each partition's sectors are synthesized on
// WithSynthesisWorkers goroutines (default GOMAXPROCS) into storage from
// the shared pool, and each proof is checked against the verifier's public
// inputs with the .vk file.
func provePoSt(s *settings, cfg *post.Config, rnd [32]byte, vps []*post.VanillaProof, ks []int, rsBase int) ([]byte, error) {
	start := time.Now()
	// Every partition's slots first: a bad vanilla proof is reported before
	// any parameter is read or any work done.
	slots := make([][]post.Slot, len(ks))
	for i, k := range ks {
		var err error
		if slots[i], err = post.ProverSlots(cfg, rnd, vps, k); err != nil {
			return nil, badInput(fmt.Errorf("porep: %s: %w", cfg.Name, err))
		}
	}
	backend, bname, err := newBackend(s.backend, s.log)
	if err != nil {
		return nil, err
	}
	params, pvk, err := loadPoStKeys(s, cfg, true)
	if err != nil {
		return nil, err
	}
	synthPool.Reserve(1)
	s.log.Info("post start", "proof", cfg.Name, "partitions", len(ks), "backend", bname, "params", params.Name())
	s.progress(PhaseEvent{Phase: PhaseStart, Partition: -1, Backend: bname})
	out := make([]byte, 0, len(ks)*groth16.ProofSize)
	for i, k := range ks {
		t0 := time.Now()
		s.progress(PhaseEvent{Phase: PhaseSynthesizing, Partition: k, Backend: bname})
		a, err := synthesizePoSt(s.ctx, cfg, slots[i], k, synthPool, s.synthWorkers())
		if err != nil {
			return nil, err
		}
		s.progress(PhaseEvent{Phase: PhaseSynthesized, Partition: k, Backend: bname, Took: time.Since(t0)})
		public, err := postPublicInputs(slots[i], a, k)
		if err != nil {
			return nil, err
		}
		rs, err := s.randomness(rsBase + k)
		if err != nil {
			return nil, fmt.Errorf("porep: partition %d: %w", k, err)
		}
		ps, err := groth16.Prove(s.ctx, backend, params, []*cs.Assignment{a}, []groth16.Randomness{rs})
		if err != nil {
			return nil, fmt.Errorf("porep: partition %d: prove: %w", k, err)
		}
		if err := verifyPartition(s.paramsDir, cfg, pvk, &ps[0], public, k); err != nil {
			return nil, err
		}
		synthPool.Release(a) // a is not used after this
		b := ps[0].Bytes()
		out = append(out, b[:]...)
		s.progress(PhaseEvent{Phase: PhaseProven, Partition: k, Backend: bname, Took: time.Since(t0)})
	}
	s.log.Info("post done", "proof", cfg.Name, "bytes", len(out), "took", time.Since(start))
	return out, nil
}

// postKeys caches the opened PoSt parameter files by path (and identity).
var (
	postKeysMu sync.Mutex
	postKeys   = map[string]postKeyEntry{}
)

type postKeyEntry struct {
	size, mtime int64
	params      *groth16.Params
	pvk         *groth16.PreparedVerifyingKey
	vk          []byte // the .vk's encoding
}

// postFileError words an os error about a parameter file: missing is
// ErrParamsNotFound, anything else bad input naming the file.
func postFileError(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %s", ErrParamsNotFound, path)
	}
	var fe *groth16.FormatError
	var pe *fs.PathError
	if errors.As(err, &fe) || errors.As(err, &pe) {
		return badInputf("porep: %s: %w", path, err)
	}
	return fmt.Errorf("porep: %s: %w", path, err)
}

// loadPoStKeys reads cfg's .vk (and, withParams, its .params) from the
// parameter directory after the production-parameter policy
// (productionCheck: WithRequireProductionParams, the TEST warning), as
// loadKeys does.
func loadPoStKeys(s *settings, cfg *post.Config, withParams bool) (*groth16.Params, *groth16.PreparedVerifyingKey, error) {
	if err := productionCheck(s, cfg, withParams); err != nil {
		return nil, nil, err
	}
	return loadKeys(s.paramsDir, cfg, cfg.Name, withParams)
}

// keyFiles is a circuit whose keys loadKeys reads: its parameter paths and
// its number of public inputs (ONE included).
type keyFiles interface {
	parameterFiles
	NumPublicInputs() int
}

// loadKeys reads the .vk (and, withParams, the .params) of circuit name
// from dir, cached per path and identity. The .vk must have one IC point
// per public input of the circuit, and the .params must hold the same
// verifying key: parameters of another circuit are bad input.
func loadKeys(dir string, cfg keyFiles, name string, withParams bool) (*groth16.Params, *groth16.PreparedVerifyingKey, error) {
	pp, vp, _ := cfg.ParameterPaths(dir)
	vfi, err := os.Stat(vp)
	if err != nil {
		return nil, nil, postFileError(vp, err)
	}
	var pfi fs.FileInfo
	if withParams {
		if pfi, err = os.Stat(pp); err != nil {
			return nil, nil, postFileError(pp, err)
		}
	}
	postKeysMu.Lock()
	defer postKeysMu.Unlock()
	e, ok := postKeys[vp]
	if !ok || e.size != vfi.Size() || e.mtime != vfi.ModTime().UnixNano() {
		vk, err := groth16.ReadVerifyingKeyFile(vp)
		if err != nil {
			return nil, nil, postFileError(vp, err)
		}
		if len(vk.IC) != cfg.NumPublicInputs() {
			return nil, nil, badInputf("porep: %s: vk has %d IC points, the %s circuit has %d public inputs (ONE included): a key of another circuit",
				vp, len(vk.IC), name, cfg.NumPublicInputs())
		}
		pvk, err := groth16.PrepareVerifyingKey(vk)
		if err != nil {
			return nil, nil, fmt.Errorf("porep: %s: %w", vp, err)
		}
		e = postKeyEntry{size: vfi.Size(), mtime: vfi.ModTime().UnixNano(), pvk: pvk, vk: vk.Bytes()}
		postKeys[vp] = e
	}
	if !withParams {
		return nil, e.pvk, nil
	}
	pe, ok := postKeys[pp]
	if !ok || pe.size != pfi.Size() || pe.mtime != pfi.ModTime().UnixNano() {
		p, err := groth16.OpenParams(pp, false)
		if err != nil {
			return nil, nil, postFileError(pp, err)
		}
		pe = postKeyEntry{size: pfi.Size(), mtime: pfi.ModTime().UnixNano(), params: p}
		postKeys[pp] = pe
	}
	if !bytes.Equal(pe.params.VK.Bytes(), e.vk) {
		return nil, nil, badInputf("porep: %s and %s hold different verifying keys: they come from different setups, and proofs made with this .params would not verify against this .vk", vp, pp)
	}
	return pe.params, e.pvk, nil
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
	_, pvk, err := loadPoStKeys(s, cfg, false)
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
