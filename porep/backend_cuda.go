// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cuda

package porep

import (
	"fmt"
	"sync"

	"github.com/cuseal/cuseal/porep/groth16"
)

// The CUDA backend (groth16.CUDABackend over the bridge package): the
// registry entry BackendCUDA, built with the cuda tag. One backend is shared
// by the whole process, so the native SRS made from a cached parameter file
// stays device-resident across SealCommitPhase2 calls.
func init() { provideBackend(BackendCUDA, cudaUsable, sharedCUDABackend) }

var (
	cudaMu      sync.Mutex
	cudaBackend *groth16.CUDABackend
)

// sharedCUDABackend returns the process-wide CUDA backend, creating it on
// first use (devices: $CUSEAL_CUDA_DEVICES, e.g. "host" for the host
// emulation, else every visible device). It fails with ErrGPUDisabled under
// BELLMAN_NO_GPU (unless CUSEAL_CUDA_DEVICES=host), bridge.ErrNoCUDA /
// bridge.ErrNoDevice without a usable device.
func sharedCUDABackend() (groth16.Backend, error) {
	if ok, why := cudaUsable(); !ok && GPUDisabledByEnv() {
		return nil, fmt.Errorf("%w (%s)", ErrGPUDisabled, why)
	}
	cudaMu.Lock()
	defer cudaMu.Unlock()
	if cudaBackend == nil {
		devs, err := CUDADevicesFromEnv()
		if err != nil {
			return nil, err
		}
		b, err := groth16.NewCUDABackend(groth16.CUDAOptions{Devices: devs})
		if err != nil {
			return nil, err
		}
		cudaBackend = b
	}
	return cudaBackend, nil
}
