// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"bytes"
	"testing"
	"time"
)

// proveTimed proves the sealed 2 KiB sector with backend and the test r, s
// (SealCommitPhase2 with dir's parameters) and returns the proof and its time.
func proveTimed(t *testing.T, s *sealed2K, dir, backend string) ([]byte, time.Duration) {
	t.Helper()
	start := time.Now()
	pf, err := SealCommitPhase2(s.c1, testSector, testMiner, WithParamsDir(dir), WithBackend(backend),
		WithDeterministicRandomness(testRSSeed))
	if err != nil {
		t.Fatalf("%s: %v", backend, err)
	}
	return pf, time.Since(start)
}

// proveMatchesCPU proves the sealed 2 KiB sector with backend twice (the
// first call loads or uploads the SRS; the second is the steady state) and
// with the CPU backend, all with the test r, s; it requires byte-identical
// proofs that VerifySeal accepts, and returns the CPU proof.
func proveMatchesCPU(t *testing.T, s *sealed2K, dir, backend string) []byte {
	t.Helper()
	_, first := proveTimed(t, s, dir, backend)
	got, took := proveTimed(t, s, dir, backend)
	cpu, tCPU := proveTimed(t, s, dir, BackendCPU)
	t.Logf("2 KiB C2: %s %v (first call %v, incl. the SRS load), CPU %v", backend, took, first, tCPU)
	if !bytes.Equal(got, cpu) {
		t.Fatalf("%s proof differs from the CPU proof:\n %s %x\n cpu %x", backend, backend, got, cpu)
	}
	if ok, err := VerifySeal(verifyInfo(t, s, got), WithParamsDir(dir)); err != nil || !ok {
		t.Fatalf("VerifySeal(%s proof) = %v, %v", backend, ok, err)
	}
	return cpu
}
