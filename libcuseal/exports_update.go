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
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"
	"github.com/ipfs/go-cid"

	"github.com/cuseal/cuseal/porep"
)

// The SnapDeals calls of include/cuseal_porep.h (ABI version 2):
// filecoin-ffi's names over the Go API of porep/family_update.go.

// updateArgs converts what both SnapDeals calls take after their first
// arguments: the three 32-byte commitments filecoin-ffi passes, into the
// CIDs the Go API takes in a ReplicaUpdateInfo (go-fil-commcid: sealed for
// comm_r_old and comm_r_new, unsealed for comm_d_new; the Go API then
// checks each is a canonical field element, naming it), then the options.
func updateArgs(registeredProof C.int64_t, commROld, commRNew, commDNew *C.uint8_t, o *C.cuseal_porep_options) (proof.ReplicaUpdateInfo, *callOptions, error) {
	info := proof.ReplicaUpdateInfo{UpdateProofType: abi.RegisteredUpdateProof(registeredProof)}
	for _, a := range []struct {
		p      *C.uint8_t
		name   string
		sealed bool
		dst    *cid.Cid
	}{
		{commROld, "comm_r_old", true, &info.OldSealedSectorCID},
		{commRNew, "comm_r_new", true, &info.NewSealedSectorCID},
		{commDNew, "comm_d_new", false, &info.NewUnsealedSectorCID},
	} {
		b, err := bytes32(a.p, a.name)
		if err != nil {
			return info, nil, err
		}
		if *a.dst, err = commitment(a.name, b[:], a.sealed); err != nil {
			return info, nil, err
		}
	}
	co, err := readOptions(o)
	return info, co, err
}

//export libcuseal_go_generate_empty_sector_update_proof_with_vanilla
func libcuseal_go_generate_empty_sector_update_proof_with_vanilla(registeredProof C.int64_t, vanilla *C.cuseal_porep_bytes,
	vanillaLen C.size_t, commROld, commRNew, commDNew *C.uint8_t, o *C.cuseal_porep_options,
	proofOut **C.uint8_t, proofLen *C.size_t, errMsg **C.char) C.int {
	return export("generate_empty_sector_update_proof_with_vanilla", errMsg, bytesOut("proof", proofOut, proofLen), func() error {
		vps, err := byteStrings("vanilla_proofs", "vanilla_proofs_len", vanilla, vanillaLen)
		if err != nil {
			return err
		}
		info, co, err := updateArgs(registeredProof, commROld, commRNew, commDNew, o)
		if err != nil {
			return err
		}
		b, err := porep.GenerateUpdateProofWithVanilla(info.UpdateProofType, info.OldSealedSectorCID, info.NewSealedSectorCID, info.NewUnsealedSectorCID, vps, co.opts...)
		if err != nil {
			return err
		}
		setBytes(proofOut, proofLen, b)
		return nil
	})
}

//export libcuseal_go_verify_empty_sector_update_proof
func libcuseal_go_verify_empty_sector_update_proof(registeredProof C.int64_t, proofBytes *C.uint8_t, proofLen C.size_t,
	commROld, commRNew, commDNew *C.uint8_t, o *C.cuseal_porep_options, errMsg **C.char) C.int {
	return export("verify_empty_sector_update_proof", errMsg, nil, func() error {
		pf, err := byteString("proof", "proof_len", proofBytes, proofLen, maxInputBytes)
		if err != nil {
			return err
		}
		info, co, err := updateArgs(registeredProof, commROld, commRNew, commDNew, o)
		if err != nil {
			return err
		}
		info.Proof = pf
		return verdict(porep.VerifyReplicaUpdate(info, co.opts...))
	})
}
