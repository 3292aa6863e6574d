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
	"bytes"
	"unsafe"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep/stacked"
)

// The conversions of the array and byte-string arguments of the PoSt,
// SnapDeals and aggregation calls. Each copies what the caller passed into
// Go memory (inputs are never retained) and names the argument, the index
// and the field of what it refuses, as "libcuseal: CALL: ARG[i].FIELD ...".

// maxInputBytes bounds one byte string a caller passes in, and maxInputItems
// the entries of one array: larger lengths are a caller's mistake (an
// uninitialised or negative size_t), not data.
const (
	maxInputBytes = 1 << 32
	maxInputItems = 1 << 24
)

// randomnessLen is the length of a PoSt randomness, a ticket, a seed and a
// commitment.
const randomnessLen = 32

// byteString copies n bytes at p (argument name of call); NULL is allowed
// only with n == 0, which gives an empty slice.
func byteString(call, name string, p *C.uint8_t, n C.size_t) ([]byte, error) {
	if uint64(n) > maxInputBytes {
		return nil, badInputf("libcuseal: %s: %s_len %d is more than %d bytes", call, name, uint64(n), uint64(maxInputBytes))
	}
	if n == 0 {
		return []byte{}, nil
	}
	if p == nil {
		return nil, badInputf("libcuseal: %s: %s is NULL with %s_len %d", call, name, name, uint64(n))
	}
	return bytes.Clone(unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n))), nil
}

// postRandomness copies the PoSt randomness argument, which must be 32
// bytes (the Go API then checks that it is a canonical field element).
func postRandomness(call string, p *C.uint8_t, n C.size_t) ([]byte, error) {
	if p == nil {
		return nil, badInputf("libcuseal: %s: randomness is NULL (want %d bytes)", call, randomnessLen)
	}
	if n != randomnessLen {
		return nil, badInputf("libcuseal: %s: randomness_len is %d, want %d (the PoSt randomness)", call, uint64(n), randomnessLen)
	}
	return byteString(call, "randomness", p, n)
}

// arrayLen checks an array argument: NULL only with count 0, and a count
// below maxInputItems.
func arrayLen(call, name string, isNull bool, n C.size_t) (int, error) {
	if uint64(n) > maxInputItems {
		return 0, badInputf("libcuseal: %s: %s_len %d is more than %d entries", call, name, uint64(n), maxInputItems)
	}
	if isNull && n != 0 {
		return 0, badInputf("libcuseal: %s: %s is NULL with %s_len %d", call, name, name, uint64(n))
	}
	return int(n), nil
}

// byteStrings copies an array of cuseal_porep_bytes: entry i is the
// caller's arg[i]. An empty array gives an empty (non-nil) slice, which
// the Go API refuses with its own message where it needs entries.
func byteStrings(call, name string, p *C.cuseal_porep_bytes, n C.size_t) ([][]byte, error) {
	count, err := arrayLen(call, name, p == nil, n)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, count)
	if count == 0 {
		return out, nil
	}
	for i, e := range unsafe.Slice(p, count) {
		if uint64(e.len) > maxInputBytes {
			return nil, badInputf("libcuseal: %s: %s[%d].len %d is more than %d bytes", call, name, i, uint64(e.len), uint64(maxInputBytes))
		}
		if e.len == 0 {
			out[i] = []byte{}
			continue
		}
		if e.ptr == nil {
			return nil, badInputf("libcuseal: %s: %s[%d].ptr is NULL with len %d", call, name, i, uint64(e.len))
		}
		out[i] = bytes.Clone(unsafe.Slice((*byte)(unsafe.Pointer(e.ptr)), int(e.len)))
	}
	return out, nil
}

// sectorNumbers copies an array of uint64 sector numbers.
func sectorNumbers(call, name string, p *C.uint64_t, n C.size_t) ([]abi.SectorNumber, error) {
	count, err := arrayLen(call, name, p == nil, n)
	if err != nil {
		return nil, err
	}
	out := make([]abi.SectorNumber, count)
	if count > 0 {
		for i, v := range unsafe.Slice(p, count) {
			out[i] = abi.SectorNumber(v)
		}
	}
	return out, nil
}

// postSectors converts the challenged sectors of a PoSt verification into
// go-state-types sector infos. The C struct carries no seal proof (as
// filecoin-ffi's PublicReplicaInfo carries none): each gets the V1_1 seal
// proof of the PoSt proof's sector size, which is all the Go API reads of
// it (an unknown PoSt proof leaves it 0, and the Go API names the proof).
func postSectors(call string, p abi.RegisteredPoStProof, sectors *C.cuseal_porep_sector_info, n C.size_t) ([]proof.SectorInfo, error) {
	count, err := arrayLen(call, "sectors", sectors == nil, n)
	if err != nil {
		return nil, err
	}
	var seal abi.RegisteredSealProof
	if size, err := p.SectorSize(); err == nil {
		seal, _ = stacked.SealProofV1_1(uint64(size))
	}
	out := make([]proof.SectorInfo, count)
	if count == 0 {
		return out, nil
	}
	for i, s := range unsafe.Slice(sectors, count) {
		commR := C.GoBytes(unsafe.Pointer(&s.comm_r[0]), randomnessLen)
		sealed, err := commcid.ReplicaCommitmentV1ToCID(commR)
		if err != nil {
			return nil, badInputf("libcuseal: %s: sectors[%d].comm_r: %w", call, i, err)
		}
		out[i] = proof.SectorInfo{SealProof: seal, SectorNumber: abi.SectorNumber(s.sector_number), SealedCID: sealed}
	}
	return out, nil
}

// aggregationInputs converts the per-sector inputs of an aggregate into
// go-state-types' AggregateSealVerifyInfo (commitments as CIDs).
func aggregationInputs(call string, p *C.cuseal_porep_aggregation_input, n C.size_t) ([]proof.AggregateSealVerifyInfo, error) {
	count, err := arrayLen(call, "inputs", p == nil, n)
	if err != nil {
		return nil, err
	}
	out := make([]proof.AggregateSealVerifyInfo, count)
	if count == 0 {
		return out, nil
	}
	for i, in := range unsafe.Slice(p, count) {
		sealed, err := commcid.ReplicaCommitmentV1ToCID(C.GoBytes(unsafe.Pointer(&in.comm_r[0]), randomnessLen))
		if err != nil {
			return nil, badInputf("libcuseal: %s: inputs[%d].comm_r: %w", call, i, err)
		}
		unsealed, err := commcid.DataCommitmentV1ToCID(C.GoBytes(unsafe.Pointer(&in.comm_d[0]), randomnessLen))
		if err != nil {
			return nil, badInputf("libcuseal: %s: inputs[%d].comm_d: %w", call, i, err)
		}
		out[i] = proof.AggregateSealVerifyInfo{
			Number:                abi.SectorNumber(in.sector_number),
			Randomness:            C.GoBytes(unsafe.Pointer(&in.ticket[0]), randomnessLen),
			InteractiveRandomness: C.GoBytes(unsafe.Pointer(&in.seed[0]), randomnessLen),
			SealedCID:             sealed,
			UnsealedCID:           unsealed,
		}
	}
	return out, nil
}

// proofOutputs checks the two output pointers of a call that returns
// bytes (naming them) and clears them, so that they hold NULL and 0 unless
// the call succeeds.
func proofOutputs(call, name string, out **C.uint8_t, n *C.size_t) error {
	if out == nil || n == nil {
		return badInputf("libcuseal: %s: %s_out or %s_len is NULL", call, name, name)
	}
	*out, *n = nil, 0
	return nil
}

// setBytes hands b to the caller in C memory (cuseal_porep_proof_free).
func setBytes(out **C.uint8_t, n *C.size_t, b []byte) {
	*out = (*C.uint8_t)(C.CBytes(b))
	*n = C.size_t(len(b))
}

// u64Array copies v into C memory (cuseal_porep_u64_array_free); nil for
// an empty v.
func u64Array(v []uint64) *C.uint64_t {
	if len(v) == 0 {
		return nil
	}
	p := (*C.uint64_t)(C.malloc(C.size_t(len(v)) * C.size_t(unsafe.Sizeof(C.uint64_t(0)))))
	if p == nil {
		panic("libcuseal: out of C memory")
	}
	dst := unsafe.Slice(p, len(v))
	for i, x := range v {
		dst[i] = C.uint64_t(x)
	}
	return p
}
