// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

/*
#cgo CFLAGS: -I${SRCDIR}/../include
// The header's prototypes declare read-only pointers const; cgo cannot,
// so CUSEAL_POREP_BUILDING_LIBRARY drops the const and the compiler checks
// each export against its prototype.
#define CUSEAL_POREP_BUILDING_LIBRARY 1
#include <stdlib.h>
#include "cuseal_porep.h"
*/
import "C"

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/paramfile"
)

// The header's CUSEAL_POREP_ABI_VERSION must be abiVersion (main.go): a
// compile error here means one was bumped without the other.
const (
	_ uint = abiVersion - C.CUSEAL_POREP_ABI_VERSION
	_ uint = C.CUSEAL_POREP_ABI_VERSION - abiVersion
)

// maxC1Bytes bounds the C1 input a caller may pass (a 64 GiB C1 output is
// about 100 MB of JSON): a larger length is a caller's mistake, not data.
const maxC1Bytes = 1 << 32

// ---- cancellation ----------------------------------------------------------

// cancelHandles maps the address of each live cuseal_porep_cancel (a byte
// of C memory, so the caller holds no Go pointer) to its context.
var cancelHandles sync.Map // uintptr → *cancelHandle

type cancelHandle struct {
	ctx    context.Context
	cancel context.CancelFunc
}

//export libcuseal_go_cancel_new
func libcuseal_go_cancel_new() *C.cuseal_porep_cancel {
	p := C.malloc(1)
	if p == nil {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancelHandles.Store(uintptr(p), &cancelHandle{ctx: ctx, cancel: cancel})
	return (*C.cuseal_porep_cancel)(p)
}

//export libcuseal_go_cancel_trigger
func libcuseal_go_cancel_trigger(c *C.cuseal_porep_cancel) {
	if h, ok := cancelHandles.Load(uintptr(unsafe.Pointer(c))); ok {
		h.(*cancelHandle).cancel()
	}
}

//export libcuseal_go_cancel_free
func libcuseal_go_cancel_free(c *C.cuseal_porep_cancel) {
	if c == nil {
		return
	}
	if h, ok := cancelHandles.LoadAndDelete(uintptr(unsafe.Pointer(c))); ok {
		h.(*cancelHandle).cancel()
		C.free(unsafe.Pointer(c))
	}
}

// ---- the calls ---------------------------------------------------------------

//export libcuseal_go_info
func libcuseal_go_info(jsonOut **C.char, errMsg **C.char) C.int {
	return export("info", errMsg, []output{outMem("json_out", jsonOut)}, func() error {
		b, err := json.Marshal(collectInfo())
		if err != nil {
			return err
		}
		*jsonOut = C.CString(string(b))
		return nil
	})
}

//export libcuseal_go_seal_commit_phase2
func libcuseal_go_seal_commit_phase2(c1 *C.uint8_t, c1Len C.size_t, sectorNumber, minerID C.uint64_t,
	o *C.cuseal_porep_options, proofOut **C.uint8_t, proofLen *C.size_t, errMsg **C.char) C.int {
	return export("seal_commit_phase2", errMsg, bytesOut("proof", proofOut, proofLen), func() error {
		if c1Len == 0 {
			return badInputf("c1_len is 0 (want the C1 output JSON)")
		}
		data, err := byteString("c1", "c1_len", c1, c1Len, maxC1Bytes)
		if err != nil {
			return err
		}
		co, err := readOptions(o)
		if err != nil {
			return err
		}
		pf, err := porep.SealCommitPhase2(data, abi.SectorNumber(sectorNumber), abi.ActorID(minerID), co.opts...)
		if err != nil {
			return err
		}
		setBytes(proofOut, proofLen, pf)
		return nil
	})
}

// maxSealProofBytes bounds verify_seal's proof: 192 bytes per partition
// (at most 10), or an NI-PoRep aggregate (tens of kB).
const maxSealProofBytes = 1 << 20

//export libcuseal_go_verify_seal
func libcuseal_go_verify_seal(registeredProof C.int64_t, commR, commD *C.uint8_t, minerID, sectorNumber C.uint64_t,
	ticket, seed, proofBytes *C.uint8_t, proofLen C.size_t, o *C.cuseal_porep_options, errMsg **C.char) C.int {
	return export("verify_seal", errMsg, nil, func() error {
		p, _, err := sealProofArg(registeredProof)
		if err != nil {
			return err
		}
		var b [4][32]byte
		for i, a := range []struct {
			p    *C.uint8_t
			name string
		}{{commR, "comm_r"}, {commD, "comm_d"}, {ticket, "ticket"}, {seed, "seed"}} {
			if b[i], err = bytes32(a.p, a.name); err != nil {
				return err
			}
		}
		pf, err := byteString("proof", "proof_len", proofBytes, proofLen, maxSealProofBytes)
		if err != nil {
			return err
		}
		sealed, err := commitment("comm_r", b[0][:], true)
		if err != nil {
			return err
		}
		unsealed, err := commitment("comm_d", b[1][:], false)
		if err != nil {
			return err
		}
		co, err := readOptions(o)
		if err != nil {
			return err
		}
		return verdict(porep.VerifySeal(proof.SealVerifyInfo{
			SealProof:             p,
			SectorID:              abi.SectorID{Miner: abi.ActorID(minerID), Number: abi.SectorNumber(sectorNumber)},
			Randomness:            abi.SealRandomness(b[2][:]),
			InteractiveRandomness: abi.InteractiveSealRandomness(b[3][:]),
			Proof:                 pf,
			SealedCID:             sealed,
			UnsealedCID:           unsealed,
		}, co.opts...))
	})
}

// verdict is a verify call's result as its error: nil for a valid proof,
// CUSEAL_POREP_INVALID for a well-formed one that does not verify.
func verdict(ok bool, err error) error {
	if err != nil {
		return err
	}
	if !ok {
		return &callError{status: statusInvalid, err: errors.New("porep: the proof is invalid")}
	}
	return nil
}

// genFlagForce is CUSEAL_POREP_GEN_FORCE.
const genFlagForce = 1

// testParamsJSON is what cuseal_porep_generate_test_params returns (the
// fields of `cuseal params generate --json` that describe the files).
type testParamsJSON struct {
	Params      string `json:"params"`
	VK          string `json:"vk"`
	Meta        string `json:"meta"`
	Stamp       string `json:"stamp"`
	R1CSDigest  string `json:"r1cs_digest"`
	Reused      bool   `json:"reused"`
	Constraints int    `json:"constraints"`
	Inputs      int    `json:"inputs"`
	Aux         int    `json:"aux"`
	NotForProd  bool   `json:"not_for_production"` // always true: test parameters
}

//export libcuseal_go_generate_test_params
func libcuseal_go_generate_test_params(registeredProof C.int64_t, dir *C.char, seed *C.uint8_t, flags C.uint32_t,
	o *C.cuseal_porep_options, jsonOut **C.char, errMsg **C.char) C.int {
	return export("generate_test_params", errMsg, []output{outMem("json_out", jsonOut)}, func() error {
		return generateTestParams("generate_test_params", circuitSeal, registeredProof, dir, seed, flags, o, jsonOut)
	})
}

//export libcuseal_go_generate_circuit_test_params
func libcuseal_go_generate_circuit_test_params(circuit C.int32_t, registeredProof C.int64_t, dir *C.char, seed *C.uint8_t, flags C.uint32_t,
	o *C.cuseal_porep_options, jsonOut **C.char, errMsg **C.char) C.int {
	return export("generate_circuit_test_params", errMsg, []output{outMem("json_out", jsonOut)}, func() error {
		return generateTestParams("generate_circuit_test_params", circuit, registeredProof, dir, seed, flags, o, jsonOut)
	})
}

// generateTestParams is the body of generate_test_params and
// generate_circuit_test_params (named call in messages): the arguments
// checked in the header's order, the memory estimate (unless
// CUSEAL_POREP_GEN_FORCE), then paramfile.GenerateTestParams.
func generateTestParams(call string, circuit C.int32_t, registeredProof C.int64_t, dir *C.char, seed *C.uint8_t, flags C.uint32_t,
	o *C.cuseal_porep_options, jsonOut **C.char) error {
	if dir == nil || C.GoString(dir) == "" {
		return badInputf("dir is NULL or empty")
	}
	if flags&^genFlagForce != 0 {
		return badInputf("flags %#x: unknown flags %#x (CUSEAL_POREP_GEN_FORCE is %#x)", uint32(flags), uint32(flags&^genFlagForce), genFlagForce)
	}
	cfg, name, _, err := testCircuitArg(circuit, registeredProof)
	if err != nil {
		return err
	}
	s := defaultParamsSeed
	if seed != nil {
		s, _ = bytes32(seed, "seed")
	}
	if flags&genFlagForce == 0 {
		if err := checkCircuitSetupMemory(call, name, cfg); err != nil {
			return err
		}
	}
	co, err := readOptions(o)
	if err != nil {
		return err
	}
	tp, err := paramfile.GenerateTestParams(C.GoString(dir), cfg, s, co.logger)
	if err != nil {
		return &callError{status: fileStatus(err), err: err}
	}
	b, err := json.Marshal(testParamsJSON{
		Params: tp.ParamsPath, VK: tp.VKPath, Meta: tp.MetaPath, Stamp: tp.StampPath,
		R1CSDigest: fmt.Sprintf("%x", tp.R1CSDigest[:]), Reused: tp.Reused,
		Constraints: tp.Constraints, Inputs: tp.Inputs, Aux: tp.Aux, NotForProd: true,
	})
	if err != nil {
		return err
	}
	*jsonOut = C.CString(string(b))
	return nil
}
