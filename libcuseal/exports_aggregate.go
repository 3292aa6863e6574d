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
	"github.com/cuseal/cuseal/porep/stacked"
)

// The SnarkPack calls of include/cuseal_porep.h (ABI version 2):
// filecoin-ffi's aggregate_seal_proofs / verify_aggregate_seal_proof over
// porep.AggregateSealProofs / porep.VerifyAggregateSeals.

// sealProofArg checks the registered seal proof first: the Go API reports
// an unknown one as a plain error, which the C ABI owes the caller as bad
// input naming the argument.
func sealProofArg(call string, registeredProof C.int64_t) (abi.RegisteredSealProof, error) {
	p := abi.RegisteredSealProof(registeredProof)
	if _, err := stacked.ConfigFor(p); err != nil {
		return p, badInputf("libcuseal: %s: registered_proof %d: %w", call, int64(registeredProof), err)
	}
	return p, nil
}

//export cuseal_porep_aggregate_seal_proofs
func cuseal_porep_aggregate_seal_proofs(registeredProof, registeredAggregation C.int64_t, minerID C.uint64_t,
	inputs *C.cuseal_porep_aggregation_input, sealProofs *C.cuseal_porep_bytes, sectorsLen C.size_t, o *C.cuseal_porep_options,
	aggregateOut **C.uint8_t, aggregateLen *C.size_t, errMsg **C.char) (rc C.int) {
	defer recoverPanic(&rc, errMsg)
	const call = "aggregate_seal_proofs"
	if err := proofOutputs(call, "aggregate", aggregateOut, aggregateLen); err != nil {
		return finish(err, errMsg)
	}
	p, err := sealProofArg(call, registeredProof)
	if err != nil {
		return finish(err, errMsg)
	}
	infos, err := aggregationInputs(call, inputs, sectorsLen)
	if err != nil {
		return finish(err, errMsg)
	}
	proofs, err := byteStrings(call, "seal_proofs", sealProofs, sectorsLen)
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
	info := proof.AggregateSealVerifyProofAndInfos{
		Miner:          abi.ActorID(minerID),
		SealProof:      p,
		AggregateProof: abi.RegisteredAggregationProof(registeredAggregation),
		Infos:          infos,
	}
	agg, err := porep.AggregateSealProofs(info, proofs, co.opts...)
	if err != nil {
		return finish(err, errMsg)
	}
	// filecoin-proofs returns the aggregate unverified; the C ABI returns
	// only verified proofs, so it checks it against all the inputs.
	info.Proof = agg
	ok, err := porep.VerifyAggregateSeals(info, co.opts...)
	if err != nil {
		return finish(fmt.Errorf("libcuseal: %s: verify the aggregate: %w", call, err), errMsg)
	}
	if !ok {
		return finish(&callError{status: statusInvalid, err: fmt.Errorf("libcuseal: %s: the aggregate does not verify: a seal proof is not a valid proof of its sector's inputs", call)}, errMsg)
	}
	setBytes(aggregateOut, aggregateLen, agg)
	return finish(nil, errMsg)
}

//export cuseal_porep_verify_aggregate_seal_proof
func cuseal_porep_verify_aggregate_seal_proof(registeredProof, registeredAggregation C.int64_t, minerID C.uint64_t,
	aggregate *C.uint8_t, aggregateLen C.size_t, inputs *C.cuseal_porep_aggregation_input, inputsLen C.size_t,
	o *C.cuseal_porep_options, errMsg **C.char) (rc C.int) {
	defer recoverPanic(&rc, errMsg)
	const call = "verify_aggregate_seal_proof"
	p, err := sealProofArg(call, registeredProof)
	if err != nil {
		return finish(err, errMsg)
	}
	agg, err := byteString(call, "aggregate", aggregate, aggregateLen)
	if err != nil {
		return finish(err, errMsg)
	}
	infos, err := aggregationInputs(call, inputs, inputsLen)
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
	ok, err := porep.VerifyAggregateSeals(proof.AggregateSealVerifyProofAndInfos{
		Miner:          abi.ActorID(minerID),
		SealProof:      p,
		AggregateProof: abi.RegisteredAggregationProof(registeredAggregation),
		Infos:          infos,
		Proof:          agg,
	}, co.opts...)
	if err != nil {
		return finish(err, errMsg)
	}
	if !ok {
		return finish(errInvalidProof(), errMsg)
	}
	return finish(nil, errMsg)
}
