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

	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep"
)

// The WindowPoSt and WinningPoSt calls of include/cuseal_porep.h (ABI
// version 2): filecoin-ffi's names over the Go API of porep/post.go.

//export cuseal_porep_generate_winning_post_sector_challenge
func cuseal_porep_generate_winning_post_sector_challenge(registeredProof C.int64_t, randomness *C.uint8_t, randomnessLen C.size_t,
	sectorSetLen, minerID C.uint64_t, indicesOut **C.uint64_t, indicesLen *C.size_t, errMsg **C.char) (rc C.int) {
	defer recoverPanic(&rc, errMsg)
	const call = "generate_winning_post_sector_challenge"
	if indicesOut == nil || indicesLen == nil {
		return finish(badInputf("libcuseal: %s: indices_out or indices_len is NULL", call), errMsg)
	}
	*indicesOut, *indicesLen = nil, 0
	rnd, err := postRandomness(call, randomness, randomnessLen)
	if err != nil {
		return finish(err, errMsg)
	}
	idx, err := porep.GenerateWinningPoStSectorChallenge(abi.RegisteredPoStProof(registeredProof), abi.ActorID(minerID), rnd, uint64(sectorSetLen))
	if err != nil {
		return finish(err, errMsg)
	}
	*indicesOut, *indicesLen = u64Array(idx), C.size_t(len(idx))
	return finish(nil, errMsg)
}

//export cuseal_porep_generate_fallback_sector_challenges
func cuseal_porep_generate_fallback_sector_challenges(registeredProof C.int64_t, randomness *C.uint8_t, randomnessLen C.size_t,
	sectorIDs *C.uint64_t, sectorIDsLen C.size_t, minerID C.uint64_t, sectorIDsOut **C.uint64_t, sectorIDsOutLen *C.size_t,
	challengesOut **C.uint64_t, challengesStride *C.size_t, errMsg **C.char) (rc C.int) {
	defer recoverPanic(&rc, errMsg)
	const call = "generate_fallback_sector_challenges"
	if sectorIDsOut == nil || sectorIDsOutLen == nil || challengesOut == nil || challengesStride == nil {
		return finish(badInputf("libcuseal: %s: sector_ids_out, sector_ids_out_len, challenges_out or challenges_stride is NULL", call), errMsg)
	}
	*sectorIDsOut, *sectorIDsOutLen, *challengesOut, *challengesStride = nil, 0, nil, 0
	rnd, err := postRandomness(call, randomness, randomnessLen)
	if err != nil {
		return finish(err, errMsg)
	}
	ids, err := sectorNumbers(call, "sector_ids", sectorIDs, sectorIDsLen)
	if err != nil {
		return finish(err, errMsg)
	}
	fc, err := porep.GeneratePoStFallbackSectorChallenges(abi.RegisteredPoStProof(registeredProof), abi.ActorID(minerID), rnd, ids)
	if err != nil {
		return finish(err, errMsg)
	}
	if len(fc.Sectors) == 0 {
		return finish(fmt.Errorf("libcuseal: %s: the Go API challenged no sector of %d", call, len(ids)), errMsg)
	}
	// One flat array with a stride: every challenged sector has the proof
	// type's challenge count.
	stride := len(fc.Challenges[fc.Sectors[0]])
	out := make([]uint64, 0, len(fc.Sectors)*stride)
	idsOut := make([]uint64, len(fc.Sectors))
	for i, s := range fc.Sectors {
		chs := fc.Challenges[s]
		if len(chs) != stride {
			return finish(fmt.Errorf("libcuseal: %s: sector %d has %d challenges, sector %d %d", call, s, len(chs), fc.Sectors[0], stride), errMsg)
		}
		idsOut[i] = uint64(s)
		out = append(out, chs...)
	}
	*sectorIDsOut, *sectorIDsOutLen = u64Array(idsOut), C.size_t(len(idsOut))
	*challengesOut, *challengesStride = u64Array(out), C.size_t(stride)
	return finish(nil, errMsg)
}

// postProver is one of the Go API's PoSt provers, returning the proof bytes.
type postProver func(p abi.RegisteredPoStProof, miner abi.ActorID, rnd abi.PoStRandomness, vanilla [][]byte, opts []porep.Option) ([]byte, error)

// provePoSt is the body of the three Generate*WithVanilla exports: the
// outputs cleared, the arguments copied and checked, the options read,
// cancellation checked, then prove.
func provePoSt(call string, registeredProof C.int64_t, randomness *C.uint8_t, randomnessLen C.size_t, minerID C.uint64_t,
	vanilla *C.cuseal_porep_bytes, vanillaLen C.size_t, o *C.cuseal_porep_options, proofOut **C.uint8_t, proofLen *C.size_t,
	prove postProver) error {
	if err := proofOutputs(call, "proof", proofOut, proofLen); err != nil {
		return err
	}
	rnd, err := postRandomness(call, randomness, randomnessLen)
	if err != nil {
		return err
	}
	vps, err := byteStrings(call, "vanilla_proofs", vanilla, vanillaLen)
	if err != nil {
		return err
	}
	co, err := readOptions(o)
	if err != nil {
		return err
	}
	if err := co.ctx.Err(); err != nil {
		return err
	}
	b, err := prove(abi.RegisteredPoStProof(registeredProof), abi.ActorID(minerID), rnd, vps, co.opts)
	if err != nil {
		return err
	}
	setBytes(proofOut, proofLen, b)
	return nil
}

// onePoStProof is the bytes of the one PoStProof the Go API returns.
func onePoStProof(ps []proof.PoStProof, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	if len(ps) != 1 {
		return nil, fmt.Errorf("libcuseal: the Go API returned %d PoSt proofs, want 1", len(ps))
	}
	return ps[0].ProofBytes, nil
}

//export cuseal_porep_generate_winning_post_with_vanilla
func cuseal_porep_generate_winning_post_with_vanilla(registeredProof C.int64_t, randomness *C.uint8_t, randomnessLen C.size_t,
	minerID C.uint64_t, vanilla *C.cuseal_porep_bytes, vanillaLen C.size_t, o *C.cuseal_porep_options,
	proofOut **C.uint8_t, proofLen *C.size_t, errMsg **C.char) (rc C.int) {
	defer recoverPanic(&rc, errMsg)
	return finish(provePoSt("generate_winning_post_with_vanilla", registeredProof, randomness, randomnessLen, minerID, vanilla, vanillaLen, o, proofOut, proofLen,
		func(p abi.RegisteredPoStProof, miner abi.ActorID, rnd abi.PoStRandomness, vps [][]byte, opts []porep.Option) ([]byte, error) {
			return onePoStProof(porep.GenerateWinningPoStWithVanilla(p, miner, rnd, vps, opts...))
		}), errMsg)
}

//export cuseal_porep_generate_window_post_with_vanilla
func cuseal_porep_generate_window_post_with_vanilla(registeredProof C.int64_t, randomness *C.uint8_t, randomnessLen C.size_t,
	minerID C.uint64_t, vanilla *C.cuseal_porep_bytes, vanillaLen C.size_t, o *C.cuseal_porep_options,
	proofOut **C.uint8_t, proofLen *C.size_t, errMsg **C.char) (rc C.int) {
	defer recoverPanic(&rc, errMsg)
	return finish(provePoSt("generate_window_post_with_vanilla", registeredProof, randomness, randomnessLen, minerID, vanilla, vanillaLen, o, proofOut, proofLen,
		func(p abi.RegisteredPoStProof, miner abi.ActorID, rnd abi.PoStRandomness, vps [][]byte, opts []porep.Option) ([]byte, error) {
			return onePoStProof(porep.GenerateWindowPoStWithVanilla(p, miner, rnd, vps, opts...))
		}), errMsg)
}

//export cuseal_porep_generate_single_window_post_with_vanilla
func cuseal_porep_generate_single_window_post_with_vanilla(registeredProof C.int64_t, randomness *C.uint8_t, randomnessLen C.size_t,
	minerID C.uint64_t, vanilla *C.cuseal_porep_bytes, vanillaLen C.size_t, partitionIndex C.size_t, o *C.cuseal_porep_options,
	proofOut **C.uint8_t, proofLen *C.size_t, errMsg **C.char) (rc C.int) {
	defer recoverPanic(&rc, errMsg)
	const call = "generate_single_window_post_with_vanilla"
	return finish(provePoSt(call, registeredProof, randomness, randomnessLen, minerID, vanilla, vanillaLen, o, proofOut, proofLen,
		func(p abi.RegisteredPoStProof, miner abi.ActorID, rnd abi.PoStRandomness, vps [][]byte, opts []porep.Option) ([]byte, error) {
			// An index past any deadline's partitions is a caller's mistake
			// (and would not fit the blinding index of WithDeterministicRandomness).
			if uint64(partitionIndex) > maxInputItems {
				return nil, badInputf("libcuseal: %s: partition_index %d is more than %d", call, uint64(partitionIndex), maxInputItems)
			}
			pp, err := porep.GenerateSinglePartitionWindowPoStWithVanilla(p, miner, rnd, vps, uint(partitionIndex), opts...)
			if err != nil {
				return nil, err
			}
			return pp.ProofBytes, nil
		}), errMsg)
}

//export cuseal_porep_merge_window_post_partition_proofs
func cuseal_porep_merge_window_post_partition_proofs(registeredProof C.int64_t, partitionProofs *C.cuseal_porep_bytes,
	partitionProofsLen C.size_t, proofOut **C.uint8_t, proofLen *C.size_t, errMsg **C.char) (rc C.int) {
	defer recoverPanic(&rc, errMsg)
	const call = "merge_window_post_partition_proofs"
	if err := proofOutputs(call, "proof", proofOut, proofLen); err != nil {
		return finish(err, errMsg)
	}
	parts, err := byteStrings(call, "partition_proofs", partitionProofs, partitionProofsLen)
	if err != nil {
		return finish(err, errMsg)
	}
	p := abi.RegisteredPoStProof(registeredProof)
	pps := make([]porep.PartitionProof, len(parts))
	for i, b := range parts {
		pps[i] = porep.PartitionProof{PoStProof: p, ProofBytes: b}
	}
	merged, err := porep.MergeWindowPoStPartitionProofs(p, pps)
	if err != nil {
		return finish(err, errMsg)
	}
	setBytes(proofOut, proofLen, merged.ProofBytes)
	return finish(nil, errMsg)
}

// errInvalidProof is the message of CUSEAL_POREP_INVALID from a verify
// call, as cuseal_porep_verify_seal words it.
func errInvalidProof() error {
	return &callError{status: statusInvalid, err: fmt.Errorf("porep: the proof is invalid")}
}

// verifyPoSt is the body of the two verify exports: the arguments copied
// and checked, then verify on the Go API's types.
func verifyPoSt(call string, registeredProof C.int64_t, randomness *C.uint8_t, randomnessLen C.size_t,
	sectors *C.cuseal_porep_sector_info, sectorsLen C.size_t, proofBytes *C.uint8_t, proofLen C.size_t, o *C.cuseal_porep_options,
	verify func(rnd abi.PoStRandomness, proofs []proof.PoStProof, sectors []proof.SectorInfo, opts []porep.Option) (bool, error)) error {
	rnd, err := postRandomness(call, randomness, randomnessLen)
	if err != nil {
		return err
	}
	p := abi.RegisteredPoStProof(registeredProof)
	infos, err := postSectors(call, p, sectors, sectorsLen)
	if err != nil {
		return err
	}
	pf, err := byteString(call, "proof", proofBytes, proofLen)
	if err != nil {
		return err
	}
	co, err := readOptions(o)
	if err != nil {
		return err
	}
	if err := co.ctx.Err(); err != nil {
		return err
	}
	ok, err := verify(rnd, []proof.PoStProof{{PoStProof: p, ProofBytes: pf}}, infos, co.opts)
	if err != nil {
		return err
	}
	if !ok {
		return errInvalidProof()
	}
	return nil
}

//export cuseal_porep_verify_winning_post
func cuseal_porep_verify_winning_post(registeredProof C.int64_t, randomness *C.uint8_t, randomnessLen C.size_t,
	sectors *C.cuseal_porep_sector_info, sectorsLen C.size_t, proofBytes *C.uint8_t, proofLen C.size_t, minerID C.uint64_t,
	o *C.cuseal_porep_options, errMsg **C.char) (rc C.int) {
	defer recoverPanic(&rc, errMsg)
	return finish(verifyPoSt("verify_winning_post", registeredProof, randomness, randomnessLen, sectors, sectorsLen, proofBytes, proofLen, o,
		func(rnd abi.PoStRandomness, proofs []proof.PoStProof, infos []proof.SectorInfo, opts []porep.Option) (bool, error) {
			return porep.VerifyWinningPoSt(proof.WinningPoStVerifyInfo{Randomness: rnd, Proofs: proofs, ChallengedSectors: infos, Prover: abi.ActorID(minerID)}, opts...)
		}), errMsg)
}

//export cuseal_porep_verify_window_post
func cuseal_porep_verify_window_post(registeredProof C.int64_t, randomness *C.uint8_t, randomnessLen C.size_t,
	sectors *C.cuseal_porep_sector_info, sectorsLen C.size_t, proofBytes *C.uint8_t, proofLen C.size_t, minerID C.uint64_t,
	o *C.cuseal_porep_options, errMsg **C.char) (rc C.int) {
	defer recoverPanic(&rc, errMsg)
	return finish(verifyPoSt("verify_window_post", registeredProof, randomness, randomnessLen, sectors, sectorsLen, proofBytes, proofLen, o,
		func(rnd abi.PoStRandomness, proofs []proof.PoStProof, infos []proof.SectorInfo, opts []porep.Option) (bool, error) {
			return porep.VerifyWindowPoSt(proof.WindowPoStVerifyInfo{Randomness: rnd, Proofs: proofs, ChallengedSectors: infos, Prover: abi.ActorID(minerID)}, opts...)
		}), errMsg)
}
