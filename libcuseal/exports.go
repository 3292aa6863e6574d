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
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"unsafe"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/stacked"
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

// ---- status and messages --------------------------------------------------

// finish stores err's message in *errMsg (when errMsg is not NULL) and
// returns its status; on success *errMsg is set to NULL.
func finish(err error, errMsg **C.char) C.int {
	st := statusOf(err)
	setMessage(errMsg, err)
	return C.int(st)
}

func setMessage(errMsg **C.char, err error) {
	if errMsg == nil {
		return
	}
	if err == nil {
		*errMsg = nil
		return
	}
	*errMsg = C.CString(err.Error())
}

// recoverPanic turns a panic into CUSEAL_POREP_ERR_INTERNAL with the panic
// and its stack's first frames in the message. Deferred by every export.
func recoverPanic(rc *C.int, errMsg **C.char) {
	if r := recover(); r != nil {
		setMessage(errMsg, panicError(r, debug.Stack()))
		*rc = statusInternal
	}
}

// guarded runs f the way every export runs its body (recoverPanic
// deferred, the message through C memory) and returns the status and the
// message; the tests (which cannot use cgo) check the boundary with it.
func guarded(f func() error) (status int, msg string) {
	var cmsg *C.char
	rc := func() (rc C.int) {
		defer recoverPanic(&rc, &cmsg)
		return finish(f(), &cmsg)
	}()
	if cmsg != nil {
		msg = C.GoString(cmsg)
		C.free(unsafe.Pointer(cmsg))
	}
	return int(rc), msg
}

// panicError is the error a recovered panic is reported as.
func panicError(r any, stack []byte) error {
	return &callError{status: statusInternal, err: fmt.Errorf("libcuseal: internal error: panic: %v [%s]", r, firstFrames(stack))}
}

// firstFrames keeps the message short: the panicking function's frames.
func firstFrames(stack []byte) string {
	s := string(stack)
	if len(s) > 1500 {
		s = s[:1500] + "…"
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' || s[i] == '\t' {
			if len(out) > 0 && out[len(out)-1] != ' ' {
				out = append(out, ' ')
			}
			continue
		}
		out = append(out, s[i])
	}
	return string(out)
}

// ---- cancellation ----------------------------------------------------------

// cancelHandles maps the address of each live cuseal_porep_cancel (a byte
// of C memory, so the caller holds no Go pointer) to its context.
var cancelHandles sync.Map // uintptr → *cancelHandle

type cancelHandle struct {
	ctx    context.Context
	cancel context.CancelFunc
}

//export cuseal_porep_cancel_new
func cuseal_porep_cancel_new() *C.cuseal_porep_cancel {
	p := C.malloc(1)
	if p == nil {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancelHandles.Store(uintptr(p), &cancelHandle{ctx: ctx, cancel: cancel})
	return (*C.cuseal_porep_cancel)(p)
}

//export cuseal_porep_cancel_trigger
func cuseal_porep_cancel_trigger(c *C.cuseal_porep_cancel) {
	if h, ok := cancelHandles.Load(uintptr(unsafe.Pointer(c))); ok {
		h.(*cancelHandle).cancel()
	}
}

//export cuseal_porep_cancel_free
func cuseal_porep_cancel_free(c *C.cuseal_porep_cancel) {
	if c == nil {
		return
	}
	if h, ok := cancelHandles.LoadAndDelete(uintptr(unsafe.Pointer(c))); ok {
		h.(*cancelHandle).cancel()
		C.free(unsafe.Pointer(c))
	}
}

// ---- options ---------------------------------------------------------------

//export cuseal_porep_options_init
func cuseal_porep_options_init(o *C.cuseal_porep_options) {
	if o == nil {
		return
	}
	*o = C.cuseal_porep_options{}
	o.struct_size = C.uint32_t(C.sizeof_cuseal_porep_options)
	o.log_level = logOff
}

// optionsSizeV1 is sizeof(cuseal_porep_options) of ABI version 1 (through
// test_only_randomness_seed), which version 2 keeps.
const optionsSizeV1 = C.uint32_t(unsafe.Offsetof(C.cuseal_porep_options{}.test_only_randomness_seed) + unsafe.Sizeof(C.cuseal_porep_options{}.test_only_randomness_seed))

// callOptions is what one call takes from a cuseal_porep_options.
type callOptions struct {
	ctx    context.Context
	opts   []porep.Option
	logger *slog.Logger // nil: none asked for
}

// readOptions converts *o (NULL: defaults) into porep options. It checks
// struct_size, the cancel handle and the seed pointer.
func readOptions(o *C.cuseal_porep_options) (*callOptions, error) {
	co := &callOptions{ctx: context.Background()}
	if o == nil {
		return co, nil
	}
	// Callers of every ABI version since 1 are served: a later version may
	// append fields, and those past struct_size keep their defaults.
	if o.struct_size < optionsSizeV1 || o.struct_size > C.sizeof_cuseal_porep_options {
		return nil, badInputf("libcuseal: options.struct_size is %d, want %d (sizeof(cuseal_porep_options) of ABI version %d; %d for versions 1 and 2; fill the struct with cuseal_porep_options_init)",
			o.struct_size, C.sizeof_cuseal_porep_options, abiVersion, optionsSizeV1)
	}
	if o.cancel != nil {
		h, ok := cancelHandles.Load(uintptr(unsafe.Pointer(o.cancel)))
		if !ok {
			return nil, badInputf("libcuseal: options.cancel %p is not a live handle from cuseal_porep_cancel_new", unsafe.Pointer(o.cancel))
		}
		co.ctx = h.(*cancelHandle).ctx
	}
	co.opts = append(co.opts, porep.WithContext(co.ctx))
	if o.params_dir != nil {
		co.opts = append(co.opts, porep.WithParamsDir(C.GoString(o.params_dir)))
	}
	if o.backend != nil && C.GoString(o.backend) != "" {
		co.opts = append(co.opts, porep.WithBackend(C.GoString(o.backend)))
	}
	if o.partitions_in_flight > 0 {
		co.opts = append(co.opts, porep.WithMaxPartitionsInFlight(int(o.partitions_in_flight)))
	}
	if o.preload_params != 0 {
		co.opts = append(co.opts, porep.WithPreloadParams())
	}
	if l := newLogger(o.log_level, o.log_fn, o.log_user); l != nil {
		co.opts = append(co.opts, porep.WithLogger(l))
		co.logger = l
	}
	if o.test_only_randomness_seed != nil {
		var seed [32]byte
		copy(seed[:], unsafe.Slice((*byte)(unsafe.Pointer(o.test_only_randomness_seed)), 32))
		co.opts = append(co.opts, porep.WithDeterministicRandomness(seed))
	}
	return co, nil
}

// bytes32 copies a 32-byte argument, naming it when it is NULL.
func bytes32(p *C.uint8_t, name string) ([32]byte, error) {
	var out [32]byte
	if p == nil {
		return out, badInputf("libcuseal: %s is NULL (want 32 bytes)", name)
	}
	copy(out[:], unsafe.Slice((*byte)(unsafe.Pointer(p)), 32))
	return out, nil
}

// ---- the calls ---------------------------------------------------------------

//export cuseal_porep_abi_version
func cuseal_porep_abi_version() C.uint32_t { return abiVersion }

//export cuseal_porep_info
func cuseal_porep_info(jsonOut **C.char, errMsg **C.char) (rc C.int) {
	defer recoverPanic(&rc, errMsg)
	if jsonOut == nil {
		return finish(badInputf("libcuseal: info: json_out is NULL"), errMsg)
	}
	*jsonOut = nil
	b, err := json.Marshal(collectInfo())
	if err != nil {
		return finish(err, errMsg)
	}
	*jsonOut = C.CString(string(b))
	return finish(nil, errMsg)
}

//export cuseal_porep_seal_commit_phase2
func cuseal_porep_seal_commit_phase2(c1 *C.uint8_t, c1Len C.size_t, sectorNumber, minerID C.uint64_t,
	o *C.cuseal_porep_options, proofOut **C.uint8_t, proofLen *C.size_t, errMsg **C.char) (rc C.int) {
	defer recoverPanic(&rc, errMsg)
	if proofOut == nil || proofLen == nil {
		return finish(badInputf("libcuseal: seal_commit_phase2: proof_out or proof_len is NULL"), errMsg)
	}
	*proofOut, *proofLen = nil, 0
	if c1 == nil || c1Len == 0 {
		return finish(badInputf("libcuseal: seal_commit_phase2: c1 is NULL or empty (want the C1 output JSON)"), errMsg)
	}
	if uint64(c1Len) > maxC1Bytes {
		return finish(badInputf("libcuseal: seal_commit_phase2: c1_len %d is more than %d bytes", uint64(c1Len), uint64(maxC1Bytes)), errMsg)
	}
	co, err := readOptions(o)
	if err != nil {
		return finish(err, errMsg)
	}
	if err := co.ctx.Err(); err != nil {
		return finish(err, errMsg)
	}
	data := bytes.Clone(unsafe.Slice((*byte)(unsafe.Pointer(c1)), int(c1Len)))
	pf, err := porep.SealCommitPhase2(data, abi.SectorNumber(sectorNumber), abi.ActorID(minerID), co.opts...)
	if err != nil {
		return finish(err, errMsg)
	}
	*proofOut = (*C.uint8_t)(C.CBytes(pf))
	*proofLen = C.size_t(len(pf))
	return finish(nil, errMsg)
}

//export cuseal_porep_verify_seal
func cuseal_porep_verify_seal(registeredProof C.int64_t, commR, commD *C.uint8_t, minerID, sectorNumber C.uint64_t,
	ticket, seed, proofBytes *C.uint8_t, proofLen C.size_t, o *C.cuseal_porep_options, errMsg **C.char) (rc C.int) {
	defer recoverPanic(&rc, errMsg)
	if _, err := sealProofArg("verify_seal", registeredProof); err != nil {
		return finish(err, errMsg)
	}
	co, err := readOptions(o)
	if err != nil {
		return finish(err, errMsg)
	}
	var b [4][32]byte
	for i, a := range []struct {
		p    *C.uint8_t
		name string
	}{{commR, "comm_r"}, {commD, "comm_d"}, {ticket, "ticket"}, {seed, "seed"}} {
		if b[i], err = bytes32(a.p, a.name); err != nil {
			return finish(err, errMsg)
		}
	}
	if proofBytes == nil && proofLen != 0 {
		return finish(badInputf("libcuseal: verify_seal: proof is NULL with proof_len %d", uint64(proofLen)), errMsg)
	}
	if uint64(proofLen) > 1<<20 {
		return finish(badInputf("libcuseal: verify_seal: proof_len %d is implausible (%d bytes per partition)", uint64(proofLen), groth16.ProofSize), errMsg)
	}
	sealed, err := commcid.ReplicaCommitmentV1ToCID(b[0][:])
	if err != nil {
		return finish(badInputf("libcuseal: verify_seal: comm_r: %w", err), errMsg)
	}
	unsealed, err := commcid.DataCommitmentV1ToCID(b[1][:])
	if err != nil {
		return finish(badInputf("libcuseal: verify_seal: comm_d: %w", err), errMsg)
	}
	if err := co.ctx.Err(); err != nil {
		return finish(err, errMsg)
	}
	var pf []byte
	if proofLen > 0 {
		pf = bytes.Clone(unsafe.Slice((*byte)(unsafe.Pointer(proofBytes)), int(proofLen)))
	}
	ok, err := porep.VerifySeal(proof.SealVerifyInfo{
		SealProof:             abi.RegisteredSealProof(registeredProof),
		SectorID:              abi.SectorID{Miner: abi.ActorID(minerID), Number: abi.SectorNumber(sectorNumber)},
		Randomness:            abi.SealRandomness(b[2][:]),
		InteractiveRandomness: abi.InteractiveSealRandomness(b[3][:]),
		Proof:                 pf,
		SealedCID:             sealed,
		UnsealedCID:           unsealed,
	}, co.opts...)
	if err != nil {
		return finish(err, errMsg)
	}
	if !ok {
		return finish(&callError{status: statusInvalid, err: fmt.Errorf("porep: the proof is invalid")}, errMsg)
	}
	return finish(nil, errMsg)
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
	NotForProd  bool   `json:"not_for_production"`
}

//export cuseal_porep_generate_test_params
func cuseal_porep_generate_test_params(registeredProof C.int64_t, dir *C.char, seed *C.uint8_t, flags C.uint32_t,
	o *C.cuseal_porep_options, jsonOut **C.char, errMsg **C.char) (rc C.int) {
	defer recoverPanic(&rc, errMsg)
	if jsonOut == nil {
		return finish(badInputf("libcuseal: generate_test_params: json_out is NULL"), errMsg)
	}
	*jsonOut = nil
	if dir == nil || C.GoString(dir) == "" {
		return finish(badInputf("libcuseal: generate_test_params: dir is NULL or empty"), errMsg)
	}
	if flags&^genFlagForce != 0 {
		return finish(badInputf("libcuseal: generate_test_params: unknown flags %#x", uint32(flags)), errMsg)
	}
	co, err := readOptions(o)
	if err != nil {
		return finish(err, errMsg)
	}
	cfg, err := stacked.ConfigFor(abi.RegisteredSealProof(registeredProof))
	if err != nil {
		return finish(badInputf("libcuseal: generate_test_params: registered_proof %d: %w", int64(registeredProof), err), errMsg)
	}
	s := defaultParamsSeed
	if seed != nil {
		s, _ = bytes32(seed, "seed")
	}
	if flags&genFlagForce == 0 {
		if err := checkSetupMemory(&cfg); err != nil {
			return finish(err, errMsg)
		}
	}
	if err := co.ctx.Err(); err != nil {
		return finish(err, errMsg)
	}
	tp, err := paramfile.GenerateTestParams(C.GoString(dir), &cfg, s, co.logger)
	if err != nil {
		setMessage(errMsg, err)
		return C.int(fileStatus(err))
	}
	b, err := json.Marshal(testParamsJSON{
		Params: tp.ParamsPath, VK: tp.VKPath, Meta: tp.MetaPath, Stamp: tp.StampPath,
		R1CSDigest: fmt.Sprintf("%x", tp.R1CSDigest[:]), Reused: tp.Reused,
		Constraints: tp.Constraints, Inputs: tp.Inputs, Aux: tp.Aux, NotForProd: true,
	})
	if err != nil {
		return finish(err, errMsg)
	}
	*jsonOut = C.CString(string(b))
	return finish(nil, errMsg)
}

// ---- freeing -------------------------------------------------------------------

//export cuseal_porep_proof_free
func cuseal_porep_proof_free(p *C.uint8_t) { C.free(unsafe.Pointer(p)) }

//export cuseal_porep_string_free
func cuseal_porep_string_free(s *C.char) { C.free(unsafe.Pointer(s)) }

//export cuseal_porep_u64_array_free
func cuseal_porep_u64_array_free(a *C.uint64_t) { C.free(unsafe.Pointer(a)) }
