// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

/*
#cgo CFLAGS: -I${SRCDIR}/../include
#define CUSEAL_POREP_BUILDING_LIBRARY 1
#include <stdlib.h>
#include "cuseal_porep.h"
*/
import "C"

import "unsafe"

// The package's tests cannot import "C"; they call the exports' Go side
// directly (libcuseal_go_*: a Go call, arguments may live in Go memory;
// the C entry points in front of them only check the process, entry.go),
// under the race detector, with the C types named here and the library's
// own C functions.
type (
	cInt        = C.int
	cU8         = C.uint8_t
	cU64        = C.uint64_t
	cI32        = C.int32_t
	cI64        = C.int64_t
	cSize       = C.size_t
	cChar       = C.char
	cBytes      = C.cuseal_porep_bytes
	cSectorInfo = C.cuseal_porep_sector_info
	cAggInput   = C.cuseal_porep_aggregation_input
	cOptions    = C.cuseal_porep_options
)

// cPtr points at b's first byte (NULL for an empty b).
func cPtr(b []byte) *cU8 {
	if len(b) == 0 {
		return nil
	}
	return (*cU8)(unsafe.Pointer(&b[0]))
}

// cStr is s NUL-terminated in Go memory.
func cStr(s string) *cChar {
	b := append([]byte(s), 0)
	return (*cChar)(unsafe.Pointer(&b[0]))
}

// takeBytes copies n bytes the library returned and frees them.
func takeBytes(p *cU8, n cSize) []byte {
	if p == nil {
		return nil
	}
	defer C.cuseal_porep_proof_free(p)
	return C.GoBytes(unsafe.Pointer(p), C.int(n))
}

// takeString copies a string the library returned and frees it.
func takeString(p *cChar) string {
	if p == nil {
		return ""
	}
	defer C.cuseal_porep_string_free(p)
	return C.GoString(p)
}

// takeU64s copies n uint64s the library returned and frees them.
func takeU64s(p *cU64, n cSize) []uint64 {
	if p == nil {
		return nil
	}
	defer C.cuseal_porep_u64_array_free(p)
	out := make([]uint64, n)
	for i, v := range unsafe.Slice(p, int(n)) {
		out[i] = uint64(v)
	}
	return out
}

// comm32 is b as a C uint8_t[32] (b must have 32 bytes).
func comm32(b []byte) (out [32]cU8) {
	for i := range out {
		out[i] = cU8(b[i])
	}
	return out
}

// optionsInit is cuseal_porep_options_init (C, entry.go).
func optionsInit(o *cOptions) { C.cuseal_porep_options_init(o) }
