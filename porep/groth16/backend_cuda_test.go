// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cuda && cgo

package groth16

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/bridge"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/gadget"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// These tests run the native prover through the host emulation of its
// kernels (bridge.HostDevice), so they need the cuda build (native library
// built, `go test -tags cuda`) but no GPU; each must give the CPU backend's
// sums and therefore byte-identical proofs for fixed (r, s).

func hostBackend(t *testing.T, o CUDAOptions) *CUDABackend {
	t.Helper()
	if len(o.Devices) == 0 {
		o.Devices = []int{bridge.HostDevice}
	}
	b, err := NewCUDABackend(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// noDevice says why no CUDA device can be used here ("" when one can). Tests only:
// backend choice, BELLMAN_NO_GPU included, is porep's registry's.
func noDevice() string {
	v, err := bridge.Version()
	switch {
	case err != nil:
		return err.Error()
	case !v.BuiltWithCUDA:
		return "native library built without CUDA (CUSEAL_CUDA=OFF)"
	}
	if n, err := bridge.DeviceCount(); err != nil || n == 0 {
		return fmt.Sprintf("no CUDA device found (%v)", err)
	}
	return ""
}

// compareBackends proves as with the CPU backend and with b, comparing the
// sums and the proof bytes for fixed randomness, and verifies the proofs.
func compareBackends(t *testing.T, name string, b Backend, p *Params, as []*cs.Assignment, pubs [][]fr.Element) {
	t.Helper()
	ctx := context.Background()
	want, err := (&CPUBackend{}).QuerySums(ctx, p, as)
	if err != nil {
		t.Fatal(err)
	}
	got, err := b.QuerySums(ctx, p, as)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for i := range want {
		if got[i] != want[i] {
			w, g := want[i], got[i]
			t.Errorf("%s: assignment %d: sums differ: H %v L %v A %v BG1 %v BG2 %v", name, i,
				g.H.Equal(&w.H), g.L.Equal(&w.L), g.A.Equal(&w.A), g.BG1.Equal(&w.BG1), g.BG2.Equal(&w.BG2))
		}
	}
	rs := make([]Randomness, len(as))
	for i := range rs {
		rs[i] = RandomnessFromSeed(seed32(9), uint64(i))
	}
	cpuProofs, err := Prove(ctx, &CPUBackend{}, p, as, rs)
	if err != nil {
		t.Fatal(err)
	}
	proofs, err := ProveAndVerify(ctx, b, p, as, rs)
	if err != nil {
		t.Fatalf("%s: prove and verify: %v", name, err)
	}
	for i := range proofs {
		g, w := proofs[i].Bytes(), cpuProofs[i].Bytes()
		if !bytes.Equal(g[:], w[:]) {
			t.Errorf("%s: proof %d bytes differ from the CPU backend's", name, i)
		}
	}
	_ = pubs
}

func TestCUDABackendHostRandomCircuits(t *testing.T) {
	p := sharedParams(t)
	var as []*cs.Assignment
	var pubs [][]fr.Element
	for v := uint64(1); v <= 3; v++ {
		c := testCircuit
		c.valueSeed = v
		a, pub := c.assignment(t)
		as = append(as, a)
		pubs = append(pubs, pub)
	}
	for _, tc := range []struct {
		name string
		o    CUDAOptions
	}{
		{"default", CUDAOptions{}},
		{"split-never", CUDAOptions{Split: bridge.SplitNever}},
		{"split-always", CUDAOptions{Split: bridge.SplitAlways}},
		{"bg2-on-cpu", CUDAOptions{BG2OnCPU: true}},
		{"two-groups", CUDAOptions{Devices: []int{bridge.HostDevice, bridge.HostDevice}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := hostBackend(t, tc.o)
			compareBackends(t, tc.name, b, p, as, pubs)
			tm := b.LastTimings()
			if len(tm) == 0 || tm[0].Total <= 0 {
				t.Errorf("no timings: %+v", tm)
			}
		})
	}
}

// TestCUDABackendHostShapes: circuits of other shapes, each with its own
// parameters (inputs-only B density, no public inputs, a single constraint,
// constraints filling the domain exactly).
func TestCUDABackendHostShapes(t *testing.T) {
	for _, c := range []randomCircuit{
		{shapeSeed: 21, valueSeed: 1, nPub: 0, nAux0: 5, nCons: 30},
		{shapeSeed: 22, valueSeed: 2, nPub: 6, nAux0: 1, nCons: 1},
		{shapeSeed: 23, valueSeed: 3, nPub: 2, nAux0: 20, nCons: 125}, // 125 + 3 input rows = 128
	} {
		p, err := Setup(c.r1cs(t), ToxicWasteFromSeed(seed32(byte(c.shapeSeed))))
		if err != nil {
			t.Fatal(err)
		}
		a, pub := c.assignment(t)
		compareBackends(t, "shape", hostBackend(t, CUDAOptions{}), p, []*cs.Assignment{a}, [][]fr.Element{pub})
	}
}

// TestCUDABackendHostParamsFile: file-backed params — unchecked ones are
// decoded natively from the mmap'd sections, checked ones through Go — give
// the CPU backend's proofs.
func TestCUDABackendHostParamsFile(t *testing.T) {
	p := sharedParams(t)
	path := filepath.Join(t.TempDir(), "test.params")
	if err := WriteParamsFile(path, p); err != nil {
		t.Fatal(err)
	}
	a, pub := testCircuit.assignment(t)
	for _, checked := range []bool{false, true} {
		fp, err := OpenParams(path, checked)
		if err != nil {
			t.Fatal(err)
		}
		var logs bytes.Buffer
		b := hostBackend(t, CUDAOptions{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		compareBackends(t, "params file", b, fp, []*cs.Assignment{a}, [][]fr.Element{pub})
		if !bytes.Contains(logs.Bytes(), []byte("cuda: srs ready")) {
			t.Errorf("srs not logged: %q", logs.String())
		}
		b.Close()
		fp.Close()
	}
}

// sha256Circuit hashes an 8-byte private message with the SHA-256 gadget
// and exposes the first 32 digest bits packed as one public input.
type sha256Circuit struct{ msg [8]byte }

func (c sha256Circuit) synthesize(t testing.TB, sys cs.ConstraintSystem) []fr.Element {
	var bits []gadget.Boolean
	for _, by := range c.msg {
		for k := 7; k >= 0; k-- {
			bits = append(bits, gadget.Is(gadget.AllocBit(sys, by>>k&1 == 1)))
		}
	}
	out, err := gadget.SHA256(sys, bits)
	if err != nil {
		t.Fatal(err)
	}
	// Pack 32 output bits (LSB first) into a public input and enforce it.
	var acc, coeff fr.Element
	coeff.SetOne()
	var lc cs.LC
	for _, b := range out[:32] {
		lc = append(lc, b.LC(coeff)...)
		if b.Value() {
			acc.Add(&acc, &coeff)
		}
		coeff.Double(&coeff)
	}
	in := sys.AllocInput(&acc)
	var one fr.Element
	one.SetOne()
	sys.Enforce(lc, cs.LC{{Coeff: one, Var: cs.One}}, cs.LC{{Coeff: one, Var: in}})
	return []fr.Element{acc}
}

func TestCUDABackendHostSHA256Gadget(t *testing.T) {
	testenv.Long(t, "SHA-256 gadget proof through the host emulation (~30k constraints):")
	c := sha256Circuit{msg: [8]byte{'c', 'u', 's', 'e', 'a', 'l', 0, 7}}
	rec := cs.NewRecorder()
	c.synthesize(t, rec)
	p, err := Setup(rec.R1CS(), ToxicWasteFromSeed(seed32(31)))
	if err != nil {
		t.Fatal(err)
	}
	pa := cs.NewProvingAssignment(cs.SizeHint{})
	pub := c.synthesize(t, pa)
	compareBackends(t, "sha256", hostBackend(t, CUDAOptions{}), p, []*cs.Assignment{pa.Assignment()}, [][]fr.Element{pub})
}

func TestCUDABackendErrors(t *testing.T) {
	p := sharedParams(t)
	a, _ := testCircuit.assignment(t)
	ctx := context.Background()

	// Shape errors wrap ErrShape before anything runs.
	bad := *a
	bad.Aux = bad.Aux[1:]
	b := hostBackend(t, CUDAOptions{})
	if _, err := b.QuerySums(ctx, p, []*cs.Assignment{&bad}); !errors.Is(err, ErrShape) {
		t.Errorf("short aux: %v", err)
	}
	// Densities differing between circuits (same popcount) are a native error.
	other, _ := testCircuit.assignment(t)
	moved := *other
	moved.BDensityAux = cs.Density{Words: append([]uint64(nil), other.BDensityAux.Words...), BitLen: other.BDensityAux.BitLen}
	for j := 0; j+1 < moved.BDensityAux.BitLen; j++ {
		x, y := densityBit(&moved.BDensityAux, j), densityBit(&moved.BDensityAux, j+1)
		if x != y {
			moved.BDensityAux.Words[j/64] ^= 1 << (j % 64)
			moved.BDensityAux.Words[(j+1)/64] ^= 1 << ((j + 1) % 64)
			break
		}
	}
	// The CPU backend would reject it by count only if popcounts changed; they
	// did not, so this reaches the native check.
	if _, err := b.QuerySums(ctx, p, []*cs.Assignment{a, &moved}); err == nil {
		t.Error("differing densities accepted")
	}

	// A failing device: the error is returned, or with FallbackToCPU the
	// batch is computed on the CPU.
	var logs bytes.Buffer
	fb := hostBackend(t, CUDAOptions{FallbackToCPU: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	fb.opts.Devices = []int{63}
	want, _ := (&CPUBackend{}).QuerySums(ctx, p, []*cs.Assignment{a})
	got, err := fb.QuerySums(ctx, p, []*cs.Assignment{a})
	if err != nil || got[0] != want[0] {
		t.Errorf("fallback: %v", err)
	}
	if !bytes.Contains(logs.Bytes(), []byte("computing this batch on the CPU")) {
		t.Errorf("fallback not logged: %q", logs.String())
	}
	nb := hostBackend(t, CUDAOptions{})
	nb.opts.Devices = []int{63}
	if _, err := nb.QuerySums(ctx, p, []*cs.Assignment{a}); err == nil {
		t.Error("device 63 without fallback succeeded")
	}

	// Cancelled context.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := b.QuerySums(cctx, p, []*cs.Assignment{a}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}

	// SRS handles are kept per Params and released.
	if len(b.srs) != 1 {
		t.Errorf("%d SRS handles cached, want 1", len(b.srs))
	}
	if err := b.Release(p); err != nil || len(b.srs) != 0 {
		t.Errorf("release: %v, %d left", err, len(b.srs))
	}
}

// TestCUDABackendGPU: on a real device the CUDA backend gives the CPU
// backend's proof bytes (skips without a device).
func TestCUDABackendGPU(t *testing.T) {
	if why := noDevice(); why != "" {
		t.Skip("skipping GPU test: " + why)
	}
	p := sharedParams(t)
	a1, p1 := testCircuit.assignment(t)
	c2 := testCircuit
	c2.valueSeed = 5
	a2, p2 := c2.assignment(t)
	for _, o := range []CUDAOptions{{}, {BG2OnCPU: true}, {PinHost: true, Split: bridge.SplitAlways}} {
		b, err := NewCUDABackend(o)
		if err != nil {
			t.Fatal(err)
		}
		compareBackends(t, "gpu", b, p, []*cs.Assignment{a1, a2}, [][]fr.Element{p1, p2})
		b.Close()
	}
}
