// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build !cuda || !cgo

package bridge

import (
	"time"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// SRS is a handle on a native Groth16 proving key; without the cuda tag it
// cannot be created (see the cuda build's documentation).
type SRS struct{}

// NewSRS returns ErrNoCUDA without the cuda build tag.
func NewSRS(h, l, a, bg1 []bls12381.G1Affine, bg2 []bls12381.G2Affine, opts SRSOptions) (*SRS, error) {
	return nil, ErrNoCUDA
}

// NewSRSFromEncoded returns ErrNoCUDA without the cuda build tag.
func NewSRSFromEncoded(h, l, a, bg1, bg2 []byte, opts SRSOptions) (*SRS, error) {
	return nil, ErrNoCUDA
}

// Clone returns ErrNoCUDA without the cuda build tag.
func (s *SRS) Clone() (*SRS, error) { return nil, ErrNoCUDA }

// Close is a no-op without the cuda build tag.
func (s *SRS) Close() error { return nil }

// Info returns ErrNoCUDA without the cuda build tag.
func (s *SRS) Info() (SRSInfo, error) { return SRSInfo{}, ErrNoCUDA }

// Evict returns ErrNoCUDA without the cuda build tag.
func (s *SRS) Evict(device int) error { return ErrNoCUDA }

// QuerySums returns ErrNoCUDA without the cuda build tag.
func (s *SRS) QuerySums(device int, circuits []Circuit, opts ProveOptions) ([]QuerySums, ProveTimings, error) {
	return nil, ProveTimings{}, ErrNoCUDA
}

// HostFr is native host memory for Fr elements; without the cuda build tag
// it cannot be allocated.
type HostFr struct {
	Pinned    bool
	AllocTime time.Duration
}

// NewHostFr returns ErrNoCUDA without the cuda build tag.
func NewHostFr(n int, pinned bool) (*HostFr, error) { return nil, ErrNoCUDA }

// Slice returns nil without the cuda build tag.
func (h *HostFr) Slice() []fr.Element { return nil }

// Free is a no-op without the cuda build tag.
func (h *HostFr) Free() error { return nil }
