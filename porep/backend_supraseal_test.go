package porep

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cuseal/cuseal/bridge/supraseal"
)

// TestSupraSealRegistration: "supraseal" is registered exactly in supraseal builds; "auto"
// never picks it; without a device (or the build) asking for it fails with a reason.
func TestSupraSealRegistration(t *testing.T) {
	registered := slices.Contains(Backends(), BackendSupraSeal)
	if registered != supraseal.Built {
		t.Fatalf("registered %v, built %v", registered, supraseal.Built)
	}
	if _, name, err := NewBackend(BackendAuto); err != nil || name == BackendSupraSeal {
		t.Fatalf("auto chose %q (%v)", name, err)
	}
	_, _, err := NewBackend(BackendSupraSeal)
	switch {
	case !registered:
		if !errors.Is(err, ErrUnknownBackend) || !strings.Contains(err.Error(), "-tags supraseal") {
			t.Fatalf("unregistered supraseal: %v", err)
		}
	case supraseal.DeviceCount() == 0:
		if err == nil {
			t.Fatal("supraseal backend created without a device")
		}
	}
}

// TestSealCommitPhase2SupraSeal proves the sealed 2 KiB sector with supraseal-c2 and with
// the CPU backend: for fixed randomness the bytes must be equal, and the proof must verify.
// It logs both times (docs/BENCHMARKS.md). It skips without the supraseal build or a device.
func TestSealCommitPhase2SupraSeal(t *testing.T) {
	if !slices.Contains(Backends(), BackendSupraSeal) {
		t.Skip("skipping supraseal test: built without the supraseal tag (./build.sh supraseal)")
	}
	if supraseal.DeviceCount() == 0 {
		t.Skip("skipping GPU test: no CUDA device supraseal can use")
	}
	if testing.Short() {
		t.Skip("-short: 2 KiB test parameters take minutes to generate")
	}
	s := seal2K(t)
	dir := testParams2K(t)
	prove := func(backend string) ([]byte, time.Duration) {
		t.Helper()
		start := time.Now()
		pf, err := SealCommitPhase2(s.c1, testSector, testMiner, WithParamsDir(dir), WithBackend(backend),
			WithDeterministicRandomness(testRSSeed))
		if err != nil {
			t.Fatalf("%s: %v", backend, err)
		}
		return pf, time.Since(start)
	}
	_, first := prove(BackendSupraSeal) // loads the SRS
	ss, tSS := prove(BackendSupraSeal)
	cpu, tCPU := prove(BackendCPU)
	t.Logf("2 KiB C2: supraseal %v (first call %v, incl. SRS load), CPU %v", tSS, first, tCPU)
	if !bytes.Equal(ss, cpu) {
		t.Fatalf("supraseal proof differs from the CPU proof:\n supraseal %x\n cpu       %x", ss, cpu)
	}
	if ok, err := VerifySeal(verifyInfo(t, s, ss), WithParamsDir(dir)); err != nil || !ok {
		t.Fatalf("VerifySeal(supraseal proof) = %v, %v", ok, err)
	}
}
