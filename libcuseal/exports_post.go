// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

/*
#cgo CFLAGS: -I${SRCDIR}/../include
#define CUSEAL_POREP_BUILDING_LIBRARY 1
#include <stdlib.h>
#include "cuseal_porep.h"
*/
import "C"

import (
	"fmt"
	"slices"

	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep"
)

// The WindowPoSt and WinningPoSt calls of include/cuseal_porep.h (ABI
// version 2): filecoin-ffi's names over the Go API of porep/family_post.go.

//export libcuseal_go_generate_winning_post_sector_challenge
func libcuseal_go_generate_winning_post_sector_challenge(registeredProof C.int64_t, randomness *C.uint8_t, randomnessLen C.size_t,
	sectorSetLen, minerID C.uint64_t, indicesOut **C.uint64_t, indicesLen *C.size_t, errMsg **C.char) C.int {
	outs := []output{outMem("indices_out", indicesOut), outLen("indices_len", indicesLen)}
	return export("generate_winning_post_sector_challenge", errMsg, outs, func() error {
		rnd, err := postRandomness(randomness, randomnessLen)
		if err != nil {
			return err
		}
		idx, err := porep.GenerateWinningPoStSectorChallenge(abi.RegisteredPoStProof(registeredProof), abi.ActorID(minerID), rnd, uint64(sectorSetLen))
		if err != nil {
			return err
		}
		*indicesOut, *indicesLen = u64Array(idx), C.size_t(len(idx))
		return nil
	})
}

//export libcuseal_go_generate_fallback_sector_challenges
func libcuseal_go_generate_fallback_sector_challenges(registeredProof C.int64_t, randomness *C.uint8_t, randomnessLen C.size_t,
	sectorIDs *C.uint64_t, sectorIDsLen C.size_t, minerID C.uint64_t, sectorIDsOut **C.uint64_t, sectorIDsOutLen *C.size_t,
	challengesOut **C.uint64_t, challengesStride *C.size_t, errMsg **C.char) C.int {
	outs := []output{outMem("sector_ids_out", sectorIDsOut), outLen("sector_ids_out_len", sectorIDsOutLen),
		outMem("challenges_out", challengesOut), outLen("challenges_stride", challengesStride)}
	return export("generate_fallback_sector_challenges", errMsg, outs, func() error {
		rnd, err := postRandomness(randomness, randomnessLen)
		if err != nil {
			return err
		}
		ids, err := sectorNumbers("sector_ids", "sector_ids_len", sectorIDs, sectorIDsLen)
		if err != nil {
			return err
		}
		fc, err := porep.GeneratePoStFallbackSectorChallenges(abi.RegisteredPoStProof(registeredProof), abi.ActorID(minerID), rnd, ids)
		if err != nil {
			return err
		}
		if len(fc.Sectors) == 0 {
			return fmt.Errorf("the Go API challenged no sector of %d", len(ids))
		}
		// filecoin-ffi returns the keys of rust-fil-proofs' BTreeMap
		// (generate_fallback_sector_challenges): ascending, each once.
		sectors := slices.Sorted(slices.Values(fc.Sectors))
		// One flat array with a stride: every challenged sector has the proof
		// type's challenge count.
		stride := len(fc.Challenges[sectors[0]])
		out := make([]uint64, 0, len(sectors)*stride)
		idsOut := make([]uint64, len(sectors))
		for i, s := range sectors {
			chs := fc.Challenges[s]
			if len(chs) != stride {
				return fmt.Errorf("sector %d has %d challenges, sector %d %d", s, len(chs), sectors[0], stride)
			}
			idsOut[i] = uint64(s)
			out = append(out, chs...)
		}
		*sectorIDsOut, *sectorIDsOutLen = u64Array(idsOut), C.size_t(len(idsOut))
		*challengesOut, *challengesStride = u64Array(out), C.size_t(stride)
		return nil
	})
}

// postProver is one of the Go API's PoSt provers, returning the proof bytes.
type postProver func(p abi.RegisteredPoStProof, miner abi.ActorID, rnd abi.PoStRandomness, vanilla [][]byte, opts []porep.Option) ([]byte, error)

// provePoSt is the three Generate*WithVanilla exports: the arguments
// copied and checked, the options read, then prove.
func provePoSt(call string, registeredProof C.int64_t, randomness *C.uint8_t, randomnessLen C.size_t, minerID C.uint64_t,
	vanilla *C.cuseal_porep_bytes, vanillaLen C.size_t, o *C.cuseal_porep_options, proofOut **C.uint8_t, proofLen *C.size_t,
	errMsg **C.char, prove postProver) C.int {
	return export(call, errMsg, bytesOut("proof", proofOut, proofLen), func() error {
		rnd, err := postRandomness(randomness, randomnessLen)
		if err != nil {
			return err
		}
		vps, err := byteStrings("vanilla_proofs", "vanilla_proofs_len", vanilla, vanillaLen)
		if err != nil {
			return err
		}
		co, err := readOptions(o)
		if err != nil {
			return err
		}
		b, err := prove(abi.RegisteredPoStProof(registeredProof), abi.ActorID(minerID), rnd, vps, co.opts)
		if err != nil {
			return err
		}
		setBytes(proofOut, proofLen, b)
		return nil
	})
}

// onePoStProof is the bytes of the one PoStProof the Go API returns.
func onePoStProof(ps []proof.PoStProof, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	if len(ps) != 1 {
		return nil, fmt.Errorf("the Go API returned %d PoSt proofs, want 1", len(ps))
	}
	return ps[0].ProofBytes, nil
}

//export libcuseal_go_generate_winning_post_with_vanilla
func libcuseal_go_generate_winning_post_with_vanilla(registeredProof C.int64_t, randomness *C.uint8_t, randomnessLen C.size_t,
	minerID C.uint64_t, vanilla *C.cuseal_porep_bytes, vanillaLen C.size_t, o *C.cuseal_porep_options,
	proofOut **C.uint8_t, proofLen *C.size_t, errMsg **C.char) C.int {
	return provePoSt("generate_winning_post_with_vanilla", registeredProof, randomness, randomnessLen, minerID, vanilla, vanillaLen, o, proofOut, proofLen, errMsg,
		func(p abi.RegisteredPoStProof, miner abi.ActorID, rnd abi.PoStRandomness, vps [][]byte, opts []porep.Option) ([]byte, error) {
			return onePoStProof(porep.GenerateWinningPoStWithVanilla(p, miner, rnd, vps, opts...))
		})
}

//export libcuseal_go_generate_window_post_with_vanilla
func libcuseal_go_generate_window_post_with_vanilla(registeredProof C.int64_t, randomness *C.uint8_t, randomnessLen C.size_t,
	minerID C.uint64_t, vanilla *C.cuseal_porep_bytes, vanillaLen C.size_t, o *C.cuseal_porep_options,
	proofOut **C.uint8_t, proofLen *C.size_t, errMsg **C.char) C.int {
	return provePoSt("generate_window_post_with_vanilla", registeredProof, randomness, randomnessLen, minerID, vanilla, vanillaLen, o, proofOut, proofLen, errMsg,
		func(p abi.RegisteredPoStProof, miner abi.ActorID, rnd abi.PoStRandomness, vps [][]byte, opts []porep.Option) ([]byte, error) {
			return onePoStProof(porep.GenerateWindowPoStWithVanilla(p, miner, rnd, vps, opts...))
		})
}

// maxPartitionIndex bounds partition_index: it only selects the blinding
// with test_only_randomness_seed (porep.WithDeterministicRandomness takes
// the partition's index as a small integer), and no deadline has more
// partitions than a WindowPoSt has sectors.
const maxPartitionIndex = maxInputItems

//export libcuseal_go_generate_single_window_post_with_vanilla
func libcuseal_go_generate_single_window_post_with_vanilla(registeredProof C.int64_t, randomness *C.uint8_t, randomnessLen C.size_t,
	minerID C.uint64_t, vanilla *C.cuseal_porep_bytes, vanillaLen C.size_t, partitionIndex C.size_t, o *C.cuseal_porep_options,
	proofOut **C.uint8_t, proofLen *C.size_t, errMsg **C.char) C.int {
	return provePoSt("generate_single_window_post_with_vanilla", registeredProof, randomness, randomnessLen, minerID, vanilla, vanillaLen, o, proofOut, proofLen, errMsg,
		func(p abi.RegisteredPoStProof, miner abi.ActorID, rnd abi.PoStRandomness, vps [][]byte, opts []porep.Option) ([]byte, error) {
			if uint64(partitionIndex) > maxPartitionIndex {
				return nil, badInputf("partition_index %d is more than %d", uint64(partitionIndex), maxPartitionIndex)
			}
			pp, err := porep.GenerateSinglePartitionWindowPoStWithVanilla(p, miner, rnd, vps, uint(partitionIndex), opts...)
			if err != nil {
				return nil, err
			}
			return pp.ProofBytes, nil
		})
}

//export libcuseal_go_merge_window_post_partition_proofs
func libcuseal_go_merge_window_post_partition_proofs(registeredProof C.int64_t, partitionProofs *C.cuseal_porep_bytes,
	partitionProofsLen C.size_t, proofOut **C.uint8_t, proofLen *C.size_t, errMsg **C.char) C.int {
	return export("merge_window_post_partition_proofs", errMsg, bytesOut("proof", proofOut, proofLen), func() error {
		parts, err := byteStrings("partition_proofs", "partition_proofs_len", partitionProofs, partitionProofsLen)
		if err != nil {
			return err
		}
		p := abi.RegisteredPoStProof(registeredProof)
		pps := make([]porep.PartitionProof, len(parts))
		for i, b := range parts {
			pps[i] = porep.PartitionProof{PoStProof: p, ProofBytes: b}
		}
		merged, err := porep.MergeWindowPoStPartitionProofs(p, pps)
		if err != nil {
			return err
		}
		setBytes(proofOut, proofLen, merged.ProofBytes)
		return nil
	})
}

// postVerifier is one of the Go API's PoSt verifiers.
type postVerifier func(rnd abi.PoStRandomness, proofs []proof.PoStProof, sectors []proof.SectorInfo, opts []porep.Option) (bool, error)

// verifyPoSt is the two verify exports: the arguments copied and checked,
// the options read, then verify on the Go API's types.
func verifyPoSt(call string, registeredProof C.int64_t, randomness *C.uint8_t, randomnessLen C.size_t,
	sectors *C.cuseal_porep_sector_info, sectorsLen C.size_t, proofBytes *C.uint8_t, proofLen C.size_t, o *C.cuseal_porep_options,
	errMsg **C.char, verify postVerifier) C.int {
	return export(call, errMsg, nil, func() error {
		rnd, err := postRandomness(randomness, randomnessLen)
		if err != nil {
			return err
		}
		p := abi.RegisteredPoStProof(registeredProof)
		infos, err := postSectors(p, sectors, sectorsLen)
		if err != nil {
			return err
		}
		pf, err := byteString("proof", "proof_len", proofBytes, proofLen, maxInputBytes)
		if err != nil {
			return err
		}
		co, err := readOptions(o)
		if err != nil {
			return err
		}
		return verdict(verify(rnd, []proof.PoStProof{{PoStProof: p, ProofBytes: pf}}, infos, co.opts))
	})
}

//export libcuseal_go_verify_winning_post
func libcuseal_go_verify_winning_post(registeredProof C.int64_t, randomness *C.uint8_t, randomnessLen C.size_t,
	sectors *C.cuseal_porep_sector_info, sectorsLen C.size_t, proofBytes *C.uint8_t, proofLen C.size_t, minerID C.uint64_t,
	o *C.cuseal_porep_options, errMsg **C.char) C.int {
	return verifyPoSt("verify_winning_post", registeredProof, randomness, randomnessLen, sectors, sectorsLen, proofBytes, proofLen, o, errMsg,
		func(rnd abi.PoStRandomness, proofs []proof.PoStProof, infos []proof.SectorInfo, opts []porep.Option) (bool, error) {
			return porep.VerifyWinningPoSt(proof.WinningPoStVerifyInfo{Randomness: rnd, Proofs: proofs, ChallengedSectors: infos, Prover: abi.ActorID(minerID)}, opts...)
		})
}

//export libcuseal_go_verify_window_post
func libcuseal_go_verify_window_post(registeredProof C.int64_t, randomness *C.uint8_t, randomnessLen C.size_t,
	sectors *C.cuseal_porep_sector_info, sectorsLen C.size_t, proofBytes *C.uint8_t, proofLen C.size_t, minerID C.uint64_t,
	o *C.cuseal_porep_options, errMsg **C.char) C.int {
	return verifyPoSt("verify_window_post", registeredProof, randomness, randomnessLen, sectors, sectorsLen, proofBytes, proofLen, o, errMsg,
		func(rnd abi.PoStRandomness, proofs []proof.PoStProof, infos []proof.SectorInfo, opts []porep.Option) (bool, error) {
			return porep.VerifyWindowPoSt(proof.WindowPoStVerifyInfo{Randomness: rnd, Proofs: proofs, ChallengedSectors: infos, Prover: abi.ActorID(minerID)}, opts...)
		})
}
