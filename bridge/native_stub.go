// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build !cuda || !cgo

package bridge

import (
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// Buffer is device memory owned by the native library (see NewBuffer).
type Buffer struct{}

// Version reports the linked native library; without the cuda tag, ErrNoCUDA.
func Version() (VersionInfo, error) { return VersionInfo{}, ErrNoCUDA }

// DeviceCount returns the number of CUDA devices; without the cuda tag, 0 and ErrNoCUDA.
func DeviceCount() (int, error) { return 0, ErrNoCUDA }

// Devices describes every CUDA device; without the cuda tag, ErrNoCUDA.
func Devices() ([]DeviceInfo, error) { return nil, ErrNoCUDA }

// MSMG1 returns Σ scalars[i]·points[i]; without the cuda tag, ErrNoCUDA.
func MSMG1(points []bls12381.G1Affine, scalars []fr.Element, device int) (bls12381.G1Jac, error) {
	return bls12381.G1Jac{}, ErrNoCUDA
}

// MSMG1With is MSMG1 with options; without the cuda tag, ErrNoCUDA.
func MSMG1With(points []bls12381.G1Affine, scalars []fr.Element, device int, opts MSMOptions) (bls12381.G1Jac, error) {
	return bls12381.G1Jac{}, ErrNoCUDA
}

// MSMG1Host runs MSMG1 in host emulation; without the cuda tag, ErrNoCUDA.
func MSMG1Host(points []bls12381.G1Affine, scalars []fr.Element, opts MSMOptions) (bls12381.G1Jac, error) {
	return bls12381.G1Jac{}, ErrNoCUDA
}

// MSMG2 returns Σ scalars[i]·points[i] over G2; without the cuda tag, ErrNoCUDA.
func MSMG2(points []bls12381.G2Affine, scalars []fr.Element, device int) (bls12381.G2Jac, error) {
	return bls12381.G2Jac{}, ErrNoCUDA
}

// MSMG2With is MSMG2 with options; without the cuda tag, ErrNoCUDA.
func MSMG2With(points []bls12381.G2Affine, scalars []fr.Element, device int, opts MSMOptions) (bls12381.G2Jac, error) {
	return bls12381.G2Jac{}, ErrNoCUDA
}

// MSMG2Host runs MSMG2 in host emulation; without the cuda tag, ErrNoCUDA.
func MSMG2Host(points []bls12381.G2Affine, scalars []fr.Element, opts MSMOptions) (bls12381.G2Jac, error) {
	return bls12381.G2Jac{}, ErrNoCUDA
}

// NTT transforms data in place; without the cuda tag, ErrNoCUDA.
func NTT(data []fr.Element, device int, opts NTTOptions) error { return ErrNoCUDA }

// NTTHost runs NTT in host emulation; without the cuda tag, ErrNoCUDA.
func NTTHost(data []fr.Element, opts NTTOptions) error { return ErrNoCUDA }

// NewBuffer allocates device memory; without the cuda tag, ErrNoCUDA.
func NewBuffer(device int, bytes uint64) (*Buffer, error) { return nil, ErrNoCUDA }

// Free releases the buffer; without the cuda tag, a no-op.
func (b *Buffer) Free() error { return nil }

// Size returns the buffer's size in bytes; without the cuda tag, 0.
func (b *Buffer) Size() uint64 { return 0 }

// Device returns the buffer's device; without the cuda tag, HostDevice.
func (b *Buffer) Device() int { return HostDevice }

// UploadFr copies src to the buffer at element offset off; without the cuda tag, ErrNoCUDA.
func (b *Buffer) UploadFr(off uint64, src []fr.Element) error { return ErrNoCUDA }

// DownloadFr copies from element offset off into dst; without the cuda tag, ErrNoCUDA.
func (b *Buffer) DownloadFr(off uint64, dst []fr.Element) error { return ErrNoCUDA }

// NTT transforms 2^logN elements at element offset off; without the cuda tag, ErrNoCUDA.
func (b *Buffer) NTT(off uint64, logN uint32, opts NTTOptions) error { return ErrNoCUDA }
