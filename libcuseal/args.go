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
	"fmt"
	"unsafe"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"
	"github.com/ipfs/go-cid"

	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/update"
)

// The conversions of the calls' arguments. Each copies what the caller
// passed into Go memory (inputs are never retained) and names the
// argument (as the header does), the index and the field of what it
// refuses, as "ARG[i].FIELD ..." (export puts "libcuseal: CALL: " in front).

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

// byteString copies the n bytes at p (argument name, its length lenName);
// NULL is allowed only with n == 0, which gives an empty slice.
func byteString(name, lenName string, p *C.uint8_t, n C.size_t, max uint64) ([]byte, error) {
	if uint64(n) > max {
		return nil, badInputf("%s %d is more than %d bytes", lenName, uint64(n), max)
	}
	if n == 0 {
		return []byte{}, nil
	}
	if p == nil {
		return nil, badInputf("%s is NULL with %s %d", name, lenName, uint64(n))
	}
	return bytes.Clone(unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n))), nil
}

// bytes32 copies a 32-byte argument, naming it when it is NULL.
func bytes32(p *C.uint8_t, name string) ([32]byte, error) {
	var out [32]byte
	if p == nil {
		return out, badInputf("%s is NULL (want %d bytes)", name, randomnessLen)
	}
	copy(out[:], unsafe.Slice((*byte)(unsafe.Pointer(p)), randomnessLen))
	return out, nil
}

// postRandomness copies the PoSt randomness argument, which must be 32
// bytes (the Go API then checks that it is a canonical field element).
func postRandomness(p *C.uint8_t, n C.size_t) (abi.PoStRandomness, error) {
	if n != randomnessLen && p != nil {
		return nil, badInputf("randomness_len is %d, want %d (the PoSt randomness)", uint64(n), randomnessLen)
	}
	b, err := bytes32(p, "randomness")
	return b[:], err
}

// arrayLen checks an array argument and its count (countName): NULL only
// with count 0, and a count below maxInputItems.
func arrayLen(name, countName string, isNull bool, n C.size_t) (int, error) {
	if uint64(n) > maxInputItems {
		return 0, badInputf("%s %d is more than %d entries", countName, uint64(n), maxInputItems)
	}
	if isNull && n != 0 {
		return 0, badInputf("%s is NULL with %s %d", name, countName, uint64(n))
	}
	return int(n), nil
}

// cArray is the caller's array p of n entries (countName its count) as a
// slice of its C structs (nil when empty), checked by arrayLen.
func cArray[T any](name, countName string, p *T, n C.size_t) ([]T, error) {
	count, err := arrayLen(name, countName, p == nil, n)
	if err != nil || count == 0 {
		return nil, err
	}
	return unsafe.Slice(p, count), nil
}

// byteStrings copies an array of cuseal_porep_bytes: entry i is the
// caller's name[i]. An empty array gives an empty (non-nil) slice, which
// the Go API refuses with its own message where it needs entries.
func byteStrings(name, countName string, p *C.cuseal_porep_bytes, n C.size_t) ([][]byte, error) {
	in, err := cArray(name, countName, p, n)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(in))
	for i, e := range in {
		if uint64(e.len) > maxInputBytes {
			return nil, badInputf("%s[%d].len %d is more than %d bytes", name, i, uint64(e.len), uint64(maxInputBytes))
		}
		if e.len == 0 {
			out[i] = []byte{}
			continue
		}
		if e.ptr == nil {
			return nil, badInputf("%s[%d].ptr is NULL with len %d", name, i, uint64(e.len))
		}
		out[i] = bytes.Clone(unsafe.Slice((*byte)(unsafe.Pointer(e.ptr)), int(e.len)))
	}
	return out, nil
}

// sectorNumbers copies an array of uint64 sector numbers.
func sectorNumbers(name, countName string, p *C.uint64_t, n C.size_t) ([]abi.SectorNumber, error) {
	in, err := cArray(name, countName, p, n)
	if err != nil {
		return nil, err
	}
	out := make([]abi.SectorNumber, len(in))
	for i, v := range in {
		out[i] = abi.SectorNumber(v)
	}
	return out, nil
}

// commitment is a 32-byte commitment as the CID the Go API takes
// (go-fil-commcid: sealed for a comm_r, unsealed for a comm_d), naming
// the argument or field.
func commitment(name string, b []byte, sealed bool) (cid.Cid, error) {
	toCID := commcid.DataCommitmentV1ToCID
	if sealed {
		toCID = commcid.ReplicaCommitmentV1ToCID
	}
	c, err := toCID(b)
	if err != nil {
		return cid.Undef, badInputf("%s: %w", name, err)
	}
	return c, nil
}

// postSectors converts the challenged sectors of a PoSt verification into
// go-state-types sector infos. The C struct carries no seal proof (as
// filecoin-ffi's PublicReplicaInfo carries none): each gets the V1_1 seal
// proof of the PoSt proof's sector size, which is all the Go API reads of
// it (an unknown PoSt proof leaves it 0, and the Go API names the proof).
func postSectors(p abi.RegisteredPoStProof, sectors *C.cuseal_porep_sector_info, n C.size_t) ([]proof.SectorInfo, error) {
	in, err := cArray("sectors", "sectors_len", sectors, n)
	if err != nil {
		return nil, err
	}
	var seal abi.RegisteredSealProof
	if size, err := p.SectorSize(); err == nil {
		seal, _ = stacked.SealProofV1_1(uint64(size))
	}
	out := make([]proof.SectorInfo, len(in))
	for i, s := range in {
		sealed, err := commitment(fmt.Sprintf("sectors[%d].comm_r", i), C.GoBytes(unsafe.Pointer(&s.comm_r[0]), randomnessLen), true)
		if err != nil {
			return nil, err
		}
		out[i] = proof.SectorInfo{SealProof: seal, SectorNumber: abi.SectorNumber(s.sector_number), SealedCID: sealed}
	}
	return out, nil
}

// aggregationInputs converts the per-sector inputs of an aggregate
// (argument inputs, its count countName) into go-state-types'
// AggregateSealVerifyInfo (commitments as CIDs).
func aggregationInputs(countName string, p *C.cuseal_porep_aggregation_input, n C.size_t) ([]proof.AggregateSealVerifyInfo, error) {
	in, err := cArray("inputs", countName, p, n)
	if err != nil {
		return nil, err
	}
	out := make([]proof.AggregateSealVerifyInfo, len(in))
	for i, e := range in {
		sealed, err := commitment(fmt.Sprintf("inputs[%d].comm_r", i), C.GoBytes(unsafe.Pointer(&e.comm_r[0]), randomnessLen), true)
		if err != nil {
			return nil, err
		}
		unsealed, err := commitment(fmt.Sprintf("inputs[%d].comm_d", i), C.GoBytes(unsafe.Pointer(&e.comm_d[0]), randomnessLen), false)
		if err != nil {
			return nil, err
		}
		out[i] = proof.AggregateSealVerifyInfo{
			Number:                abi.SectorNumber(e.sector_number),
			Randomness:            C.GoBytes(unsafe.Pointer(&e.ticket[0]), randomnessLen),
			InteractiveRandomness: C.GoBytes(unsafe.Pointer(&e.seed[0]), randomnessLen),
			SealedCID:             sealed,
			UnsealedCID:           unsealed,
		}
	}
	return out, nil
}

// sealProofArg checks the registered seal proof first: the Go API reports
// an unknown one as a plain error, which the C ABI owes the caller as bad
// input naming the argument.
func sealProofArg(registeredProof C.int64_t) (abi.RegisteredSealProof, *stacked.SectorConfig, error) {
	p := abi.RegisteredSealProof(registeredProof)
	cfg, err := stacked.ConfigFor(p)
	if err != nil {
		return p, nil, badInputf("registered_proof %d: %w", int64(registeredProof), err)
	}
	return p, &cfg, nil
}

// The circuits of generate_circuit_test_params (CUSEAL_POREP_CIRCUIT_*).
const (
	circuitSeal   = C.CUSEAL_POREP_CIRCUIT_SEAL
	circuitPoSt   = C.CUSEAL_POREP_CIRCUIT_POST
	circuitUpdate = C.CUSEAL_POREP_CIRCUIT_UPDATE
)

// testCircuitArg is the circuit registeredProof names in family circuit,
// with its name and number of constraints (for the memory estimate); an
// unknown circuit or proof is bad input naming the argument.
func testCircuitArg(circuit C.int32_t, registeredProof C.int64_t) (paramfile.Circuit, string, int, error) {
	switch circuit {
	case circuitSeal:
		_, cfg, err := sealProofArg(registeredProof)
		if err != nil {
			return nil, "", 0, err
		}
		constraints, _ := paramfile.EstimateTestParamsMemory(cfg)
		return cfg, cfg.Name, constraints, nil
	case circuitPoSt:
		cfg, err := post.ConfigFor(abi.RegisteredPoStProof(registeredProof))
		return sizedCircuit(registeredProof, &cfg, cfg.Name, err, func() (int, error) {
			h, err := post.SizeHintFor(&cfg)
			return h.Constraints + h.Inputs, err
		})
	case circuitUpdate:
		cfg, err := update.ConfigFor(abi.RegisteredUpdateProof(registeredProof))
		return sizedCircuit(registeredProof, &cfg, cfg.Name, err, func() (int, error) {
			h, err := update.SizeHintFor(&cfg)
			return h.Constraints + h.Inputs, err
		})
	}
	return nil, "", 0, badInputf("circuit %d: want CUSEAL_POREP_CIRCUIT_SEAL (%d), CUSEAL_POREP_CIRCUIT_POST (%d) or CUSEAL_POREP_CIRCUIT_UPDATE (%d)",
		int32(circuit), circuitSeal, circuitPoSt, circuitUpdate)
}

// sizedCircuit is testCircuitArg's answer for a circuit c named name, whose
// ConfigFor gave cfgErr (bad input naming registered_proof), with the
// number of constraints size counts.
func sizedCircuit(registeredProof C.int64_t, c paramfile.Circuit, name string, cfgErr error, size func() (int, error)) (paramfile.Circuit, string, int, error) {
	if cfgErr != nil {
		return nil, "", 0, badInputf("registered_proof %d: %w", int64(registeredProof), cfgErr)
	}
	n, err := size()
	if err != nil {
		return nil, "", 0, err
	}
	return c, name, n, nil
}

// sealProofs checks each C2 output of an aggregate (argument seal_proofs)
// as the Go API would, but naming the entry: 192 bytes per partition of
// cfg, each a decodable Groth16 proof.
func sealProofs(cfg *stacked.SectorConfig, proofs [][]byte) error {
	want := cfg.Partitions * groth16.ProofSize
	for i, b := range proofs {
		if len(b) != want {
			return badInputf("seal_proofs[%d] is %d bytes, want %d (%d partitions × %d) for %s", i, len(b), want, cfg.Partitions, groth16.ProofSize, cfg.Name)
		}
		if _, err := groth16.DecodeProofs(b); err != nil {
			return badInputf("seal_proofs[%d]: %w", i, err)
		}
	}
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
		panic("out of C memory")
	}
	dst := unsafe.Slice(p, len(v))
	for i, x := range v {
		dst[i] = C.uint64_t(x)
	}
	return p
}
