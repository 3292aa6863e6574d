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
	"errors"
	"fmt"

	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/stacked"
)

// The SnarkPack calls of include/cuseal_porep.h (ABI version 2):
// filecoin-ffi's aggregate_seal_proofs / verify_aggregate_seal_proof over
// porep.AggregateSealProofs / porep.VerifyAggregateSeals.

// aggregateInfo is the Go API's description of an aggregate from the
// arguments both calls take (inputs and their count countName).
func aggregateInfo(registeredProof, registeredAggregation C.int64_t, minerID C.uint64_t, countName string,
	inputs *C.cuseal_porep_aggregation_input, n C.size_t) (proof.AggregateSealVerifyProofAndInfos, *stacked.SectorConfig, error) {
	p, cfg, err := sealProofArg(registeredProof)
	if err != nil {
		return proof.AggregateSealVerifyProofAndInfos{}, nil, err
	}
	infos, err := aggregationInputs(countName, inputs, n)
	return proof.AggregateSealVerifyProofAndInfos{
		Miner:          abi.ActorID(minerID),
		SealProof:      p,
		AggregateProof: abi.RegisteredAggregationProof(registeredAggregation),
		Infos:          infos,
	}, cfg, err
}

//export libcuseal_go_aggregate_seal_proofs
func libcuseal_go_aggregate_seal_proofs(registeredProof, registeredAggregation C.int64_t, minerID C.uint64_t,
	inputs *C.cuseal_porep_aggregation_input, sealProofsArg *C.cuseal_porep_bytes, sectorsLen C.size_t, o *C.cuseal_porep_options,
	aggregateOut **C.uint8_t, aggregateLen *C.size_t, errMsg **C.char) C.int {
	return export("aggregate_seal_proofs", errMsg, bytesOut("aggregate", aggregateOut, aggregateLen), func() error {
		if sectorsLen == 0 {
			return badInputf("sectors_len is 0 (want at least one sector)")
		}
		info, cfg, err := aggregateInfo(registeredProof, registeredAggregation, minerID, "sectors_len", inputs, sectorsLen)
		if err != nil {
			return err
		}
		proofs, err := byteStrings("seal_proofs", "sectors_len", sealProofsArg, sectorsLen)
		if err != nil {
			return err
		}
		if err := sealProofs(cfg, proofs); err != nil {
			return err
		}
		co, err := readOptions(o)
		if err != nil {
			return err
		}
		agg, err := porep.AggregateSealProofs(info, proofs, co.opts...)
		if err != nil {
			return err
		}
		// filecoin-proofs returns the aggregate unverified; the C ABI returns
		// only verified proofs, so it checks it against all the inputs.
		info.Proof = agg
		ok, err := porep.VerifyAggregateSeals(info, co.opts...)
		if err != nil {
			return fmt.Errorf("verify the aggregate: %w", err)
		}
		if !ok {
			return &callError{status: statusInvalid, err: errors.New("the aggregate does not verify: a seal proof is not a valid proof of its sector's inputs")}
		}
		setBytes(aggregateOut, aggregateLen, agg)
		return nil
	})
}

//export libcuseal_go_verify_aggregate_seal_proof
func libcuseal_go_verify_aggregate_seal_proof(registeredProof, registeredAggregation C.int64_t, minerID C.uint64_t,
	aggregate *C.uint8_t, aggregateLen C.size_t, inputs *C.cuseal_porep_aggregation_input, inputsLen C.size_t,
	o *C.cuseal_porep_options, errMsg **C.char) C.int {
	return export("verify_aggregate_seal_proof", errMsg, nil, func() error {
		if inputsLen == 0 {
			return badInputf("inputs_len is 0 (want at least one sector)")
		}
		info, _, err := aggregateInfo(registeredProof, registeredAggregation, minerID, "inputs_len", inputs, inputsLen)
		if err != nil {
			return err
		}
		if info.Proof, err = byteString("aggregate", "aggregate_len", aggregate, aggregateLen, maxInputBytes); err != nil {
			return err
		}
		co, err := readOptions(o)
		if err != nil {
			return err
		}
		return verdict(porep.VerifyAggregateSeals(info, co.opts...))
	})
}
