// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cuda

package porep

import (
	"bytes"
	"sync"
	"testing"

	"github.com/cuseal/cuseal/bridge"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testparams"
)

// TestSealCommitPhase2CUDA proves the sealed 2 KiB sector with the CUDA
// backend and the CPU backend in one run: the bytes must be equal for fixed
// randomness, the proof must verify, and two concurrent CUDA proofs on one
// device must both be right. It logs both times (docs/BENCHMARKS.md). It
// skips without a usable device; test parameters are generated (minutes) or
// reused from $CUSEAL_TEST_PARAMS_DIR.
func TestSealCommitPhase2CUDA(t *testing.T) {
	if ok, why := cudaUsable(); !ok {
		t.Skip("skipping GPU test: " + why)
	}
	s := seal2K(t)
	dir := testparams.Get2K(t)
	cpu := proveMatchesCPU(t, s, dir, BackendCUDA)
	var wg sync.WaitGroup
	res := make([][]byte, 2)
	errs := make([]error, 2)
	for i := range res {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			res[i], errs[i] = SealCommitPhase2(s.c1, testSector, testMiner, WithParamsDir(dir), WithBackend(BackendCUDA),
				WithDeterministicRandomness(testRSSeed))
		}(i)
	}
	wg.Wait()
	for i := range res {
		if errs[i] != nil || !bytes.Equal(res[i], cpu) {
			t.Errorf("concurrent CUDA proof %d: err %v, equal %v", i, errs[i], bytes.Equal(res[i], cpu))
		}
	}
}

// TestSealCommitPhase2HostEmulation proves the 2 KiB sector through the CUDA
// backend's host emulation of the kernels (no GPU needed) and requires the
// CPU backend's bytes. About 2.7 M constraints (domain 2^22) run serially in
// emulation: minutes, so it is huge.
func TestSealCommitPhase2HostEmulation(t *testing.T) {
	testenv.Huge(t, "the 2 KiB C2 through the CUDA backend's host emulation: minutes")
	t.Setenv("CUSEAL_CUDA_DEVICES", "host")
	s := seal2K(t)
	dir := testparams.Get2K(t)
	emu, tEmu := proveTimed(t, s, dir, BackendCUDA)
	cpu, tCPU := proveTimed(t, s, dir, BackendCPU)
	t.Logf("2 KiB C2: CUDA backend in host emulation %v, CPU %v", tEmu, tCPU)
	if !bytes.Equal(emu, cpu) {
		t.Fatalf("host-emulation proof differs from the CPU proof:\n emu %x\n cpu %x", emu, cpu)
	}
}

// TestBackendHostEnv: CUSEAL_CUDA_DEVICES=host makes "auto" and "cuda" pick
// the CUDA backend in its host emulation, even with BELLMAN_NO_GPU set (no
// GPU is used).
func TestBackendHostEnv(t *testing.T) {
	t.Setenv("CUSEAL_CUDA_DEVICES", "host")
	t.Setenv("BELLMAN_NO_GPU", "1")
	cudaMu.Lock()
	saved := cudaBackend
	cudaMu.Unlock()
	for _, name := range []string{BackendAuto, BackendCUDA} {
		cudaMu.Lock()
		cudaBackend = nil // a fresh shared backend, made from this environment
		cudaMu.Unlock()
		b, got, err := NewBackend(name)
		if err != nil || got != BackendCUDA {
			t.Fatalf("%s: %q %v", name, got, err)
		}
		cb := b.(*groth16.CUDABackend)
		if d := cb.Devices(); len(d) != 1 || d[0] != bridge.HostDevice {
			t.Errorf("%s: devices %v", name, d)
		}
		if name, reason := AutoBackend(); name != BackendCUDA || reason != "" {
			t.Errorf("AutoBackend = %q, %q", name, reason)
		}
		cb.Close()
	}
	cudaMu.Lock()
	cudaBackend = saved
	cudaMu.Unlock()
}
