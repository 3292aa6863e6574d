// SPDX-License-Identifier: Apache-2.0 OR MIT

package supraseal

import (
	"errors"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

func TestPopcount(t *testing.T) {
	w := []uint64{^uint64(0), 0b1011}
	for _, tc := range []struct{ bits, want int }{{0, 0}, {1, 1}, {64, 64}, {65, 65}, {66, 66}, {67, 66}, {68, 67}, {128, 67}} {
		if got := popcount(w, tc.bits); got != tc.want {
			t.Errorf("popcount(%d bits) = %d, want %d", tc.bits, got, tc.want)
		}
	}
}

// tiny is a hand-made circuit: ONE and one public input, two aux variables, three rows.
func tiny() Circuit {
	v := make([]fr.Element, 3)
	for i := range v {
		v[i].SetUint64(uint64(i + 2))
	}
	return Circuit{
		A: v, B: v, C: v, Input: v[:2], Aux: v[:2],
		ADensityAux:   Density{Words: []uint64{0b01}, BitLen: 2},
		BDensityInput: Density{Words: []uint64{0b11}, BitLen: 2},
		BDensityAux:   Density{Words: []uint64{0b10}, BitLen: 2},
	}
}

func TestWithoutDevice(t *testing.T) {
	if !Built {
		if _, err := LoadSRS("/nonexistent.params"); !errors.Is(err, ErrNotBuilt) {
			t.Fatalf("LoadSRS: %v, want ErrNotBuilt", err)
		}
		if DeviceCount() != 0 {
			t.Fatal("devices without the build")
		}
		return
	}
	if DeviceCount() == 0 {
		if _, err := LoadSRS("/nonexistent.params"); !errors.Is(err, ErrNoDevice) {
			t.Fatalf("LoadSRS without a device: %v, want ErrNoDevice", err)
		}
	}
	if err := ValidateCircuits([]Circuit{tiny(), tiny()}); err != nil {
		t.Fatalf("valid batch: %v", err)
	}
	c := tiny()
	c.B = c.B[:2]
	if err := ValidateCircuits([]Circuit{c}); err == nil || !strings.Contains(err.Error(), "|b|=2") {
		t.Fatalf("short b: %v", err)
	}
	c = tiny()
	c.ADensityAux.BitLen = 65 // more bits than words
	if err := ValidateCircuits([]Circuit{c}); err == nil || !strings.Contains(err.Error(), "A-aux density has 1 words for 65 bits") {
		t.Fatalf("density past its words: %v", err)
	}
	c = tiny()
	c.Aux = nil // densities say 2 aux variables
	var se *Error
	if err := ValidateCircuits([]Circuit{c}); !errors.As(err, &se) || se.Code != 1 || !strings.Contains(err.Error(), "circuit 0: aux density bit lengths") {
		t.Fatalf("no aux: %v", err)
	}
	c = tiny()
	c.BDensityAux.Words = []uint64{0b11}
	if err := ValidateCircuits([]Circuit{tiny(), c}); err == nil || !strings.Contains(err.Error(), "circuit 1: sizes or densities differ") {
		t.Fatalf("mixed shapes: %v", err)
	}
}
