// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cuda && cgo

package bridge

/*
#cgo pkg-config: cuseal
#include "cuseal_native.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// initErr records a failed start-up check (ABI version, layout or
// constants); every entry point returns it.
var initErr = checkLibrary()

func checkLibrary() error {
	var vi C.cuseal_version_info
	if err := wrap(C.cuseal_version(&vi)); err != nil {
		return fmt.Errorf("bridge: querying native library version: %w", err)
	}
	// Two checks: the header cgo compiled against must be the one this Go
	// code was written for, and the linked library must have been built
	// from that header (a stale build/native is the usual cause).
	if C.CUSEAL_ABI_VERSION != ABIVersion {
		return fmt.Errorf("bridge: include/cuseal_native.h declares ABI version %d but package bridge is written for %d: update bridge with the header",
			C.CUSEAL_ABI_VERSION, ABIVersion)
	}
	if uint32(vi.abi_version) != ABIVersion {
		return fmt.Errorf("bridge: native library reports ABI version %d, include/cuseal_native.h and package bridge need %d: rebuild the library that cuseal.pc on PKG_CONFIG_PATH names (./build.sh cuda, or cmake --build build/native) from this version",
			uint32(vi.abi_version), ABIVersion)
	}
	if err := checkConstants([]headerConst{
		{"CUSEAL_ERR_INVALID_ARGUMENT", "CodeInvalidArgument", C.CUSEAL_ERR_INVALID_ARGUMENT, CodeInvalidArgument},
		{"CUSEAL_ERR_NO_DEVICE", "CodeNoDevice", C.CUSEAL_ERR_NO_DEVICE, CodeNoDevice},
		{"CUSEAL_ERR_CUDA", "CodeCUDA", C.CUSEAL_ERR_CUDA, CodeCUDA},
		{"CUSEAL_ERR_OUT_OF_MEMORY", "CodeOutOfMemory", C.CUSEAL_ERR_OUT_OF_MEMORY, CodeOutOfMemory},
		{"CUSEAL_ERR_NO_CUDA", "CodeNoCUDA", C.CUSEAL_ERR_NO_CUDA, CodeNoCUDA},
		{"CUSEAL_ERR_INTERNAL", "CodeInternal", C.CUSEAL_ERR_INTERNAL, CodeInternal},
		{"CUSEAL_DEVICE_HOST", "HostDevice", C.CUSEAL_DEVICE_HOST, HostDevice},
		{"CUSEAL_NTT_MAX_LOG", "MaxNTTLog", C.CUSEAL_NTT_MAX_LOG, MaxNTTLog},
		{"CUSEAL_NTT_NATURAL", "Natural", C.CUSEAL_NTT_NATURAL, int64(Natural)},
		{"CUSEAL_NTT_BIT_REVERSED", "BitReversed", C.CUSEAL_NTT_BIT_REVERSED, int64(BitReversed)},
		{"CUSEAL_SPLIT_AUTO", "SplitAuto", C.CUSEAL_SPLIT_AUTO, int64(SplitAuto)},
		{"CUSEAL_SPLIT_NEVER", "SplitNever", C.CUSEAL_SPLIT_NEVER, int64(SplitNever)},
		{"CUSEAL_SPLIT_ALWAYS", "SplitAlways", C.CUSEAL_SPLIT_ALWAYS, int64(SplitAlways)},
	}); err != nil {
		return err
	}
	sizes := []struct {
		name      string
		goSize, c uintptr
	}{
		{"fr.Element", unsafe.Sizeof(fr.Element{}), C.CUSEAL_FR_BYTES},
		{"G1Affine", unsafe.Sizeof(bls12381.G1Affine{}), C.CUSEAL_G1_AFFINE_BYTES},
		{"G1Jac", unsafe.Sizeof(bls12381.G1Jac{}), C.CUSEAL_G1_JAC_BYTES},
		{"G2Affine", unsafe.Sizeof(bls12381.G2Affine{}), C.CUSEAL_G2_AFFINE_BYTES},
		{"G2Jac", unsafe.Sizeof(bls12381.G2Jac{}), C.CUSEAL_G2_JAC_BYTES},
	}
	for _, s := range sizes {
		if s.goSize != s.c {
			return fmt.Errorf("bridge: %s is %d bytes in Go, %d in include/cuseal_native.h", s.name, s.goSize, s.c)
		}
	}
	return nil
}

// wrap converts a cuseal_error into a Go error (nil for CUSEAL_OK).
func wrap(e C.cuseal_error) error {
	if e.code == C.CUSEAL_OK {
		return nil
	}
	return &Error{Code: int(e.code), Message: C.GoString(&e.message[0])}
}

// Buffer is memory owned by the native library on one device (host memory for
// HostDevice). Free it explicitly; it is not garbage collected.
type Buffer struct {
	h      *C.cuseal_buffer
	device int
	size   uint64
}

// Version reports the linked native library.
func Version() (VersionInfo, error) {
	var vi C.cuseal_version_info
	if err := wrap(C.cuseal_version(&vi)); err != nil {
		return VersionInfo{}, err
	}
	return VersionInfo{
		ABIVersion:         uint32(vi.abi_version),
		BuiltWithCUDA:      vi.built_with_cuda != 0,
		CUDARuntimeVersion: int(vi.cuda_runtime_version),
		Build:              C.GoString(&vi.build[0]),
	}, initErr
}

// DeviceCount returns the number of CUDA devices (0 without a GPU or with a
// native library built without CUDA; that is not an error).
func DeviceCount() (int, error) {
	if initErr != nil {
		return 0, initErr
	}
	var n C.int32_t
	if err := wrap(C.cuseal_device_count(&n)); err != nil {
		return 0, err
	}
	return int(n), nil
}

// Devices describes every CUDA device.
func Devices() ([]DeviceInfo, error) {
	n, err := DeviceCount()
	if err != nil {
		return nil, err
	}
	out := make([]DeviceInfo, 0, n)
	for i := 0; i < n; i++ {
		var di C.cuseal_device_info
		if err := wrap(C.cuseal_device_get_info(C.int32_t(i), &di)); err != nil {
			return nil, fmt.Errorf("bridge: device %d: %w", i, err)
		}
		out = append(out, DeviceInfo{
			Index:           i,
			Name:            C.GoString(&di.name[0]),
			Major:           int(di.major),
			Minor:           int(di.minor),
			Multiprocessors: int(di.multiprocessors),
			TotalMemory:     uint64(di.total_memory),
			FreeMemory:      uint64(di.free_memory),
		})
	}
	return out, nil
}

func msmArgs(op string, np, ns int, opts MSMOptions) (*C.cuseal_msm_options, error) {
	if initErr != nil {
		return nil, initErr
	}
	if np != ns {
		return nil, fmt.Errorf("bridge: %s: %d points but %d scalars", op, np, ns)
	}
	return &C.cuseal_msm_options{window_bits: C.uint32_t(opts.WindowBits), chunk_points: C.uint64_t(opts.ChunkPoints)}, nil
}

// MSMG1 returns Σ scalars[i]·points[i] computed on device (an index below
// DeviceCount, or HostDevice). points and scalars must have equal length;
// scalars are fr.Element values (Montgomery form) as gnark-crypto stores them.
func MSMG1(points []bls12381.G1Affine, scalars []fr.Element, device int) (bls12381.G1Jac, error) {
	return MSMG1With(points, scalars, device, MSMOptions{})
}

// MSMG1With is MSMG1 with explicit options.
func MSMG1With(points []bls12381.G1Affine, scalars []fr.Element, device int, opts MSMOptions) (bls12381.G1Jac, error) {
	var res bls12381.G1Jac
	o, err := msmArgs("MSMG1", len(points), len(scalars), opts)
	if err != nil {
		return res, err
	}
	var p, s unsafe.Pointer
	if len(points) > 0 {
		p, s = unsafe.Pointer(&points[0]), unsafe.Pointer(&scalars[0])
	}
	err = wrap(C.cuseal_msm_g1(C.int32_t(device), p, s, C.uint64_t(len(points)), o, unsafe.Pointer(&res)))
	runtime.KeepAlive(points)
	runtime.KeepAlive(scalars)
	return res, err
}

// MSMG1Host runs MSMG1 in the host emulation of the CUDA kernels: the same
// digit, sort, bucket and reduction code on the CPU. For tests; slow.
func MSMG1Host(points []bls12381.G1Affine, scalars []fr.Element, opts MSMOptions) (bls12381.G1Jac, error) {
	return MSMG1With(points, scalars, HostDevice, opts)
}

// MSMG2 returns Σ scalars[i]·points[i] over G2 computed on device.
func MSMG2(points []bls12381.G2Affine, scalars []fr.Element, device int) (bls12381.G2Jac, error) {
	return MSMG2With(points, scalars, device, MSMOptions{})
}

// MSMG2With is MSMG2 with explicit options.
func MSMG2With(points []bls12381.G2Affine, scalars []fr.Element, device int, opts MSMOptions) (bls12381.G2Jac, error) {
	var res bls12381.G2Jac
	o, err := msmArgs("MSMG2", len(points), len(scalars), opts)
	if err != nil {
		return res, err
	}
	var p, s unsafe.Pointer
	if len(points) > 0 {
		p, s = unsafe.Pointer(&points[0]), unsafe.Pointer(&scalars[0])
	}
	err = wrap(C.cuseal_msm_g2(C.int32_t(device), p, s, C.uint64_t(len(points)), o, unsafe.Pointer(&res)))
	runtime.KeepAlive(points)
	runtime.KeepAlive(scalars)
	return res, err
}

// MSMG2Host runs MSMG2 in host emulation (tests; slow).
func MSMG2Host(points []bls12381.G2Affine, scalars []fr.Element, opts MSMOptions) (bls12381.G2Jac, error) {
	return MSMG2With(points, scalars, HostDevice, opts)
}

func nttOpts(lg uint32, o NTTOptions) *C.cuseal_ntt_options {
	b := func(v bool) C.uint32_t {
		if v {
			return 1
		}
		return 0
	}
	return &C.cuseal_ntt_options{
		log_n: C.uint32_t(lg), inverse: b(o.Inverse), in_order: C.uint32_t(o.In),
		out_order: C.uint32_t(o.Out), coset: b(o.Coset),
	}
}

// NTT transforms data in place on device; len(data) must be a power of two
// up to 2^MaxNTTLog.
func NTT(data []fr.Element, device int, opts NTTOptions) error {
	if initErr != nil {
		return initErr
	}
	lg, err := nttLog(len(data))
	if err != nil {
		return err
	}
	err = wrap(C.cuseal_ntt(C.int32_t(device), unsafe.Pointer(&data[0]), nttOpts(lg, opts)))
	runtime.KeepAlive(data)
	return err
}

// NTTHost runs NTT in host emulation (tests; slow).
func NTTHost(data []fr.Element, opts NTTOptions) error { return NTT(data, HostDevice, opts) }

// NewBuffer allocates bytes of memory on device, owned by the native library.
func NewBuffer(device int, bytes uint64) (*Buffer, error) {
	if initErr != nil {
		return nil, initErr
	}
	var h *C.cuseal_buffer
	if err := wrap(C.cuseal_buffer_alloc(C.int32_t(device), C.uint64_t(bytes), &h)); err != nil {
		return nil, err
	}
	return &Buffer{h: h, device: device, size: bytes}, nil
}

// Free releases the buffer; further use fails. Free on a freed buffer is a no-op.
func (b *Buffer) Free() error {
	if b == nil || b.h == nil {
		return nil
	}
	err := wrap(C.cuseal_buffer_free(b.h))
	b.h = nil
	return err
}

// Size returns the buffer's size in bytes.
func (b *Buffer) Size() uint64 { return b.size }

// Device returns the buffer's device index.
func (b *Buffer) Device() int { return b.device }

func (b *Buffer) live() error {
	if b == nil || b.h == nil {
		return fmt.Errorf("bridge: use of a freed or nil Buffer")
	}
	return nil
}

// UploadFr copies src into the buffer starting at element offset off (32-byte units).
func (b *Buffer) UploadFr(off uint64, src []fr.Element) error {
	if err := b.live(); err != nil || len(src) == 0 {
		return err
	}
	err := wrap(C.cuseal_buffer_upload(b.h, C.uint64_t(off*fr.Bytes), unsafe.Pointer(&src[0]), C.uint64_t(len(src)*fr.Bytes)))
	runtime.KeepAlive(src)
	return err
}

// DownloadFr copies len(dst) elements from element offset off into dst.
func (b *Buffer) DownloadFr(off uint64, dst []fr.Element) error {
	if err := b.live(); err != nil || len(dst) == 0 {
		return err
	}
	err := wrap(C.cuseal_buffer_download(b.h, C.uint64_t(off*fr.Bytes), unsafe.Pointer(&dst[0]), C.uint64_t(len(dst)*fr.Bytes)))
	runtime.KeepAlive(dst)
	return err
}

// NTT transforms 2^logN elements at element offset off in place, on the
// buffer's device.
func (b *Buffer) NTT(off uint64, logN uint32, opts NTTOptions) error {
	if err := b.live(); err != nil {
		return err
	}
	if logN > MaxNTTLog {
		return fmt.Errorf("bridge: NTT size 2^%d above 2^%d", logN, MaxNTTLog)
	}
	return wrap(C.cuseal_ntt_buffer(b.h, C.uint64_t(off*fr.Bytes), nttOpts(logN, opts)))
}
