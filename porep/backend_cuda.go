//go:build cuda

package porep

import (
	"fmt"
	"sync"

	"github.com/cuseal/cuseal/porep/groth16"
)

// The CUDA backend (groth16.CUDABackend over the bridge package) is
// registered as "cuda" in binaries built with the cuda tag. One backend is
// shared by the whole process, so the native SRS made from a cached
// parameter file stays device-resident across SealCommitPhase2 calls.
func init() {
	if err := RegisterBackend(BackendCUDA, sharedCUDABackend); err != nil {
		panic(err)
	}
}

var (
	cudaMu      sync.Mutex
	cudaBackend *groth16.CUDABackend
)

// sharedCUDABackend returns the process-wide CUDA backend, creating it on
// first use (devices: $CUSEAL_CUDA_DEVICES, e.g. "host" for the host
// emulation, else every visible device). It fails with
// groth16.ErrGPUDisabled under BELLMAN_NO_GPU (unless CUSEAL_CUDA_DEVICES=host),
// bridge.ErrNoCUDA / bridge.ErrNoDevice without a usable device, so "auto"
// falls back to the CPU.
func sharedCUDABackend() (groth16.Backend, error) {
	if ok, why := groth16.CUDAUsable(); !ok && groth16.GPUDisabledByEnv() {
		return nil, fmt.Errorf("%w (%s)", groth16.ErrGPUDisabled, why)
	}
	cudaMu.Lock()
	defer cudaMu.Unlock()
	if cudaBackend == nil {
		b, err := groth16.NewCUDABackend(groth16.CUDAOptions{})
		if err != nil {
			return nil, err
		}
		cudaBackend = b
	}
	return cudaBackend, nil
}
