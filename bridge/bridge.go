// SPDX-License-Identifier: Apache-2.0 OR MIT

package bridge

import (
	"errors"
	"fmt"
)

// ABIVersion is the CUSEAL_ABI_VERSION of include/cuseal_native.h this package was
// written against; the native library must report the same.
const ABIVersion = 2

// HostDevice selects the host emulation of the CUDA kernels.
const HostDevice = -1

// MaxNTTLog is the largest supported NTT size, 2^28 elements.
const MaxNTTLog = 28

// ErrNoCUDA reports that the package or the native library was built without
// CUDA support, so no device (or, without the tag, not even the host
// emulation) is available.
var ErrNoCUDA = errors.New("bridge: built without CUDA support (build the native library, then go build -tags cuda)")

// ErrNoDevice reports that a device index has no usable CUDA device behind it.
var ErrNoDevice = errors.New("bridge: no such CUDA device")

// Native error codes (CUSEAL_ERR_* in include/cuseal_native.h).
const (
	CodeInvalidArgument = 1
	CodeNoDevice        = 2
	CodeCUDA            = 3
	CodeOutOfMemory     = 4
	CodeNoCUDA          = 5
	CodeInternal        = 6
)

// Error is an error returned by the native library.
type Error struct {
	Code    int    // CUSEAL_ERR_* code
	Message string // the library's message, naming the function
}

func (e *Error) Error() string { return fmt.Sprintf("cuseal native (code %d): %s", e.Code, e.Message) }

// Is makes errors.Is(err, ErrNoCUDA) and errors.Is(err, ErrNoDevice) work for
// the matching native codes.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrNoCUDA:
		return e.Code == CodeNoCUDA
	case ErrNoDevice:
		return e.Code == CodeNoDevice
	}
	return false
}

// VersionInfo describes the linked native library.
type VersionInfo struct {
	ABIVersion         uint32
	BuiltWithCUDA      bool
	CUDARuntimeVersion int    // e.g. 11080 for 11.8; 0 without CUDA
	Build              string // compiler and architectures
}

// DeviceInfo describes one CUDA device.
type DeviceInfo struct {
	Index           int
	Name            string
	Major, Minor    int // compute capability
	Multiprocessors int
	TotalMemory     uint64 // bytes
	FreeMemory      uint64 // bytes, when queried
}

// MSMOptions tunes one MSM; the zero value chooses everything automatically.
type MSMOptions struct {
	WindowBits  uint32 // Pippenger window, 1..24; 0 = from the size
	ChunkPoints uint64 // points per device chunk; 0 = from free device memory
}

// Order is the element order of an NTT input or output.
type Order uint32

const (
	Natural     Order = 0
	BitReversed Order = 1
)

// NTTOptions selects the transform. The size comes from the data length.
// Forward: X_i = Σ x_j ω^(ij) with ω = 7^((r-1)/n), as gnark-crypto
// fft.NewDomain(n) and bellperson use; Inverse includes the 1/n factor;
// Coset evaluates on (or interpolates from) 7·⟨ω⟩.
type NTTOptions struct {
	Inverse bool
	In, Out Order
	Coset   bool
}

// headerConst pairs a constant of include/cuseal_native.h with its Go mirror.
type headerConst struct {
	header, goName string
	h, g           int64
}

// checkConstants reports the first constant whose header value differs from
// its Go mirror (a header changed without bridge, or the reverse).
func checkConstants(cs []headerConst) error {
	for _, c := range cs {
		if c.h != c.g {
			return fmt.Errorf("bridge: include/cuseal_native.h defines %s = %d but package bridge has %s = %d: update bridge with the header",
				c.header, c.h, c.goName, c.g)
		}
	}
	return nil
}

// nttLog returns log2(n) for a power of two n ≤ 2^MaxNTTLog.
func nttLog(n int) (uint32, error) {
	if n <= 0 || n&(n-1) != 0 {
		return 0, fmt.Errorf("bridge: NTT length %d is not a power of two", n)
	}
	lg := uint32(0)
	for 1<<lg < n {
		lg++
	}
	if lg > MaxNTTLog {
		return 0, fmt.Errorf("bridge: NTT length 2^%d above 2^%d", lg, MaxNTTLog)
	}
	return lg, nil
}
