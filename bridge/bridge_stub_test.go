// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build !cuda || !cgo

package bridge

import (
	"errors"
	"testing"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// TestStubReturnsErrNoCUDA: without the cuda tag every entry point returns
// ErrNoCUDA instead of panicking.
func TestStubReturnsErrNoCUDA(t *testing.T) {
	p := make([]bls12381.G1Affine, 1)
	s := make([]fr.Element, 1)
	checks := map[string]error{}
	_, checks["Version"] = Version()
	_, checks["DeviceCount"] = DeviceCount()
	_, checks["Devices"] = Devices()
	_, checks["MSMG1"] = MSMG1(p, s, 0)
	_, checks["MSMG1Host"] = MSMG1Host(p, s, MSMOptions{})
	_, checks["MSMG2"] = MSMG2(make([]bls12381.G2Affine, 1), s, 0)
	checks["NTT"] = NTT(s, 0, NTTOptions{})
	_, checks["NewBuffer"] = NewBuffer(HostDevice, 32)
	for name, err := range checks {
		if !errors.Is(err, ErrNoCUDA) {
			t.Errorf("%s: got %v, want ErrNoCUDA", name, err)
		}
	}
}
