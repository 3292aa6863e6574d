// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cuda && cgo

package bridge

/*
#include <stdlib.h>
#include "cuseal_native.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"
	"unsafe"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
)

// SRS is a handle on a Groth16 proving key owned by the native library: the
// h, l, a, b_g1 and b_g2 queries (density-filtered, as in the .params file),
// copied into library memory once, made resident on a device the first time
// a call uses it there (when it fits; otherwise streamed per call), and
// refcounted: Clone adds a reference, Close drops one; the memory is freed
// with the last. An SRS is safe for concurrent use.
type SRS struct {
	mu sync.RWMutex
	h  *C.cuseal_srs
}

// NewSRS copies the five queries into a new native SRS. The slices are only
// read during the call. h must have 2^k − 1 points (or none); bg1 and bg2
// must have the same length. Errors name the query and index of a bad point
// when opts.Validate is set.
func NewSRS(h, l, a, bg1 []bls12381.G1Affine, bg2 []bls12381.G2Affine, opts SRSOptions) (*SRS, error) {
	if initErr != nil {
		return nil, initErr
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	var v C.cuseal_srs_vectors
	v.h, v.n_h = g1Ptr(&pin, h), C.uint64_t(len(h))
	v.l, v.n_l = g1Ptr(&pin, l), C.uint64_t(len(l))
	v.a, v.n_a = g1Ptr(&pin, a), C.uint64_t(len(a))
	v.b_g1, v.n_b_g1 = g1Ptr(&pin, bg1), C.uint64_t(len(bg1))
	if len(bg2) > 0 {
		pin.Pin(&bg2[0])
		v.b_g2 = unsafe.Pointer(&bg2[0])
	}
	v.n_b_g2 = C.uint64_t(len(bg2))
	return createSRS(&v, opts, C.CUSEAL_SRS_AFFINE)
}

// NewSRSFromEncoded decodes the five query sections of a .params file
// (docs/formats.md §1.1: uncompressed zcash encoding, big-endian, G1 96 bytes,
// G2 192 bytes, without their u32 count prefixes — e.g. what
// groth16.Params.RawSection reads) natively, in parallel, into a new SRS. It
// checks the flags, canonical coordinates and rejects infinity; with
// opts.Validate also on-curve (never the subgroup: use it for unchecked
// params, as rust-fil-proofs does behind the file digest). Errors name the
// query, index and byte offset in the section.
func NewSRSFromEncoded(h, l, a, bg1, bg2 []byte, opts SRSOptions) (*SRS, error) {
	if initErr != nil {
		return nil, initErr
	}
	secs := []struct {
		name string
		b    []byte
		size int
	}{{"h", h, 96}, {"l", l, 96}, {"a", a, 96}, {"b_g1", bg1, 96}, {"b_g2", bg2, 192}}
	var ptr [5]unsafe.Pointer
	var n [5]C.uint64_t
	var pin runtime.Pinner
	defer pin.Unpin()
	for i, sec := range secs {
		if len(sec.b)%sec.size != 0 {
			return nil, fmt.Errorf("bridge: srs: section %s has %d bytes, not a multiple of %d", sec.name, len(sec.b), sec.size)
		}
		if len(sec.b) > 0 {
			pin.Pin(&sec.b[0]) // Go memory (a no-op for memory outside the Go heap)
			ptr[i] = unsafe.Pointer(&sec.b[0])
		}
		n[i] = C.uint64_t(len(sec.b) / sec.size)
	}
	v := C.cuseal_srs_vectors{h: ptr[0], n_h: n[0], l: ptr[1], n_l: n[1], a: ptr[2], n_a: n[2],
		b_g1: ptr[3], n_b_g1: n[3], b_g2: ptr[4], n_b_g2: n[4]}
	return createSRS(&v, opts, C.CUSEAL_SRS_ZCASH)
}

// createSRS is the one conversion of SRSOptions to cuseal_srs_options and
// the one cuseal_srs_create call, for both input formats.
func createSRS(v *C.cuseal_srs_vectors, opts SRSOptions, format C.uint32_t) (*SRS, error) {
	o := C.cuseal_srs_options{format: format}
	if opts.Validate {
		o.validate = 1
	}
	if opts.PinHost {
		o.pin_host = 1
	}
	s := &SRS{}
	if err := wrap(C.cuseal_srs_create(v, &o, &s.h)); err != nil {
		return nil, fmt.Errorf("bridge: srs: %w", err)
	}
	return s, nil
}

func g1Ptr(pin *runtime.Pinner, p []bls12381.G1Affine) unsafe.Pointer {
	if len(p) == 0 {
		return nil
	}
	pin.Pin(&p[0])
	return unsafe.Pointer(&p[0])
}

var errSRSClosed = errors.New("bridge: srs: handle is closed")

// Clone returns a new handle on the same native SRS (one more reference).
func (s *SRS) Clone() (*SRS, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.h == nil {
		return nil, errSRSClosed
	}
	if err := wrap(C.cuseal_srs_retain(s.h)); err != nil {
		return nil, err
	}
	return &SRS{h: s.h}, nil
}

// Close drops this handle's reference; the last one frees the host and
// device memory. It waits for calls in flight on this handle. Closing twice
// is a no-op.
func (s *SRS) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.h == nil {
		return nil
	}
	err := wrap(C.cuseal_srs_release(s.h))
	s.h = nil
	return err
}

// Info describes the SRS.
func (s *SRS) Info() (SRSInfo, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.h == nil {
		return SRSInfo{}, errSRSClosed
	}
	var in C.cuseal_srs_info
	if err := wrap(C.cuseal_srs_get_info(s.h, &in)); err != nil {
		return SRSInfo{}, err
	}
	return SRSInfo{
		NH: uint64(in.n_h), NL: uint64(in.n_l), NA: uint64(in.n_a), NBG1: uint64(in.n_b_g1), NBG2: uint64(in.n_b_g2),
		HostBytes:    uint64(in.host_bytes),
		ResidentMask: uint64(in.resident_mask),
		Pinned:       in.pinned != 0,
		Refs:         int(in.refcount),
		PinTime:      seconds(float64(in.pin_seconds)),
		CreateTime:   seconds(float64(in.create_seconds)),
		PinSkipped:   C.GoString(&in.pin_skipped[0]),
	}, nil
}

// Evict frees the SRS's resident copy on a CUDA device (no-op if none).
func (s *SRS) Evict(device int) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.h == nil {
		return errSRSClosed
	}
	return wrap(C.cuseal_srs_evict(s.h, C.int32_t(device)))
}

func seconds(x float64) time.Duration { return time.Duration(x * float64(time.Second)) }
