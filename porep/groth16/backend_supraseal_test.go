// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/bridge/supraseal"
	"github.com/cuseal/cuseal/porep/cs"
)

// supraCircuits returns three assignments of testCircuit's shape (shared densities, as
// supraseal needs) with different values, and their public inputs.
func supraCircuits(t *testing.T) ([]*cs.Assignment, []supraseal.Circuit) {
	t.Helper()
	var as []*cs.Assignment
	var cc []supraseal.Circuit
	for v := uint64(1); v <= 3; v++ {
		c := testCircuit
		c.valueSeed = v
		a, _ := c.assignment(t)
		as = append(as, a)
		cc = append(cc, nativeCircuit(a))
	}
	return as, cc
}

// TestSupraSealBackendWithoutDevice: what works on any machine — the constructor's errors
// (BELLMAN_NO_GPU is porep's TestBackendGPUDisabled),
// QuerySums refusing, params not from a file rejected, and (supraseal builds) the Rust
// shim's consistency checks through cgo.
func TestSupraSealBackendWithoutDevice(t *testing.T) {
	switch _, err := NewSupraSealBackend(); {
	case !supraseal.Built:
		if !errors.Is(err, supraseal.ErrNotBuilt) {
			t.Fatalf("without the supraseal tag: %v, want ErrNotBuilt", err)
		}
	case supraseal.DeviceCount() == 0:
		if _, err := NewSupraSealBackend(); !errors.Is(err, supraseal.ErrNoDevice) {
			t.Fatalf("without a device: %v, want ErrNoDevice", err)
		}
	}
	b := &SupraSealBackend{srs: map[string]supraSRS{}}
	if _, err := b.QuerySums(context.Background(), nil, nil); !errors.Is(err, ErrWholeProofsOnly) {
		t.Fatalf("QuerySums: %v", err)
	}
	p := sharedParams(t)
	as, cc := supraCircuits(t)
	rs := []Randomness{RandomnessFromSeed(seed32(9), 0)}
	if _, err := b.ProveWith(context.Background(), p, as[:1], rs); err == nil || !strings.Contains(err.Error(), "not opened from a file") {
		t.Fatalf("memory-backed params: %v", err)
	}
	if _, err := b.ProveWith(context.Background(), p, as[:2], rs); err == nil {
		t.Fatal("2 assignments with 1 randomness pair accepted")
	}
	bad := *as[0]
	bad.Aux = bad.Aux[:len(bad.Aux)-1]
	if _, err := b.ProveWith(context.Background(), p, []*cs.Assignment{&bad}, rs); !errors.Is(err, ErrShape) {
		t.Fatalf("short aux: %v, want ErrShape", err)
	}

	if !supraseal.Built {
		if err := supraseal.ValidateCircuits(cc); !errors.Is(err, supraseal.ErrNotBuilt) {
			t.Fatalf("ValidateCircuits without the tag: %v", err)
		}
		return
	}
	if err := supraseal.ValidateCircuits(cc); err != nil {
		t.Fatalf("ValidateCircuits(valid batch): %v", err)
	}
	one := func(mut func(c *supraseal.Circuit)) []supraseal.Circuit {
		out := append([]supraseal.Circuit(nil), cc...)
		c := out[1]
		c.ADensityAux.Words = append([]uint64(nil), c.ADensityAux.Words...)
		mut(&c)
		out[1] = c
		return out
	}
	for _, tc := range []struct {
		name string
		cc   []supraseal.Circuit
		want string
	}{
		{"aux bit length", one(func(c *supraseal.Circuit) { c.BDensityAux.BitLen-- }), "circuit 1: aux density bit lengths"},
		{"input bit length", one(func(c *supraseal.Circuit) { c.BDensityInput.BitLen = 0 }), "circuit 1: B-input density has 0 bits"},
		{"other densities", one(func(c *supraseal.Circuit) { c.ADensityAux.Words[0] ^= 1 }), "circuit 1: sizes or densities differ from circuit 0's"},
		{"no inputs", one(func(c *supraseal.Circuit) { c.Input = nil; c.BDensityInput.BitLen = 0 }), "circuit 1: input assignment is empty"},
	} {
		err := supraseal.ValidateCircuits(tc.cc)
		var se *supraseal.Error
		if !errors.As(err, &se) || se.Code != 1 || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want code 1 and %q", tc.name, err, tc.want)
		}
	}
}

// TestSupraSealMatchesCPU proves a batch of three circuits with supraseal and with the CPU
// backend for the same (r, s): the proofs must be byte-identical and verify. Needs the
// supraseal build and a CUDA device.
func TestSupraSealMatchesCPU(t *testing.T) {
	if !supraseal.Built {
		t.Skip("skipping supraseal test: built without the supraseal tag (./build.sh supraseal)")
	}
	if n := supraseal.DeviceCount(); n == 0 {
		t.Skip("skipping GPU test: no CUDA device supraseal can use" + visibleDevicesNote())
	}
	t.Setenv("BELLMAN_NO_GPU", "0")
	b, err := NewSupraSealBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	path := filepath.Join(t.TempDir(), "test.params")
	if err := WriteParamsFile(path, sharedParams(t)); err != nil {
		t.Fatal(err)
	}
	fp, err := OpenParams(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer fp.Close()
	as, _ := supraCircuits(t)
	rs := make([]Randomness, len(as))
	for i := range rs {
		rs[i] = RandomnessFromSeed(seed32(9), uint64(i))
	}
	ctx := context.Background()
	want, err := Prove(ctx, &CPUBackend{}, fp, as, rs)
	if err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 2; round++ { // the second reuses the SRS handle
		got, err := ProveAndVerify(ctx, b, fp, as, rs)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		for i := range got {
			if got[i].Bytes() != want[i].Bytes() {
				t.Errorf("round %d: proof %d: supraseal %x\n cpu %x", round, i, got[i].Bytes(), want[i].Bytes())
			}
		}
	}
}
