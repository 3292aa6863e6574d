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
	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"
	"github.com/ipfs/go-cid"

	"github.com/cuseal/cuseal/porep"
)

// The SnapDeals calls of include/cuseal_porep.h (ABI version 2):
// filecoin-ffi's names over the Go API of porep/update.go.

// updateCIDs turns the three 32-byte commitments filecoin-ffi passes into
// the CIDs the Go API takes (go-fil-commcid: sealed for comm_r_old and
// comm_r_new, unsealed for comm_d_new). The Go API then checks each is a
// canonical field element, naming it.
func updateCIDs(call string, commROld, commRNew, commDNew *C.uint8_t) (oldSealed, newSealed, newUnsealed cid.Cid, err error) {
	var b [3][32]byte
	for i, a := range []struct {
		p    *C.uint8_t
		name string
	}{{commROld, "comm_r_old"}, {commRNew, "comm_r_new"}, {commDNew, "comm_d_new"}} {
		if b[i], err = bytes32(a.p, call+": "+a.name); err != nil {
			return
		}
	}
	if oldSealed, err = commcid.ReplicaCommitmentV1ToCID(b[0][:]); err != nil {
		return oldSealed, newSealed, newUnsealed, badInputf("libcuseal: %s: comm_r_old: %w", call, err)
	}
	if newSealed, err = commcid.ReplicaCommitmentV1ToCID(b[1][:]); err != nil {
		return oldSealed, newSealed, newUnsealed, badInputf("libcuseal: %s: comm_r_new: %w", call, err)
	}
	if newUnsealed, err = commcid.DataCommitmentV1ToCID(b[2][:]); err != nil {
		return oldSealed, newSealed, newUnsealed, badInputf("libcuseal: %s: comm_d_new: %w", call, err)
	}
	return oldSealed, newSealed, newUnsealed, nil
}

//export cuseal_porep_generate_empty_sector_update_proof_with_vanilla
func cuseal_porep_generate_empty_sector_update_proof_with_vanilla(registeredProof C.int64_t, vanilla *C.cuseal_porep_bytes,
	vanillaLen C.size_t, commROld, commRNew, commDNew *C.uint8_t, o *C.cuseal_porep_options,
	proofOut **C.uint8_t, proofLen *C.size_t, errMsg **C.char) (rc C.int) {
	defer recoverPanic(&rc, errMsg)
	const call = "generate_empty_sector_update_proof_with_vanilla"
	if err := proofOutputs(call, "proof", proofOut, proofLen); err != nil {
		return finish(err, errMsg)
	}
	vps, err := byteStrings(call, "vanilla_proofs", vanilla, vanillaLen)
	if err != nil {
		return finish(err, errMsg)
	}
	oldSealed, newSealed, newUnsealed, err := updateCIDs(call, commROld, commRNew, commDNew)
	if err != nil {
		return finish(err, errMsg)
	}
	co, err := readOptions(o)
	if err != nil {
		return finish(err, errMsg)
	}
	if err := co.ctx.Err(); err != nil {
		return finish(err, errMsg)
	}
	b, err := porep.GenerateUpdateProofWithVanilla(abi.RegisteredUpdateProof(registeredProof), oldSealed, newSealed, newUnsealed, vps, co.opts...)
	if err != nil {
		return finish(err, errMsg)
	}
	setBytes(proofOut, proofLen, b)
	return finish(nil, errMsg)
}

//export cuseal_porep_verify_empty_sector_update_proof
func cuseal_porep_verify_empty_sector_update_proof(registeredProof C.int64_t, proofBytes *C.uint8_t, proofLen C.size_t,
	commROld, commRNew, commDNew *C.uint8_t, o *C.cuseal_porep_options, errMsg **C.char) (rc C.int) {
	defer recoverPanic(&rc, errMsg)
	const call = "verify_empty_sector_update_proof"
	pf, err := byteString(call, "proof", proofBytes, proofLen)
	if err != nil {
		return finish(err, errMsg)
	}
	oldSealed, newSealed, newUnsealed, err := updateCIDs(call, commROld, commRNew, commDNew)
	if err != nil {
		return finish(err, errMsg)
	}
	co, err := readOptions(o)
	if err != nil {
		return finish(err, errMsg)
	}
	if err := co.ctx.Err(); err != nil {
		return finish(err, errMsg)
	}
	ok, err := porep.VerifyReplicaUpdate(proof.ReplicaUpdateInfo{
		UpdateProofType:      abi.RegisteredUpdateProof(registeredProof),
		OldSealedSectorCID:   oldSealed,
		NewSealedSectorCID:   newSealed,
		NewUnsealedSectorCID: newUnsealed,
		Proof:                pf,
	}, co.opts...)
	if err != nil {
		return finish(err, errMsg)
	}
	if !ok {
		return finish(errInvalidProof(), errMsg)
	}
	return finish(nil, errMsg)
}
