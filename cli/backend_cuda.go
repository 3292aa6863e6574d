// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cuda

package cli

import (
	"fmt"

	"github.com/cuseal/cuseal/bridge"
	"github.com/cuseal/cuseal/internal/buildinfo"
)

// cudaBuild reports whether this binary was built with the CUDA backend (tag cuda).
const cudaBuild = true

// probeBackend asks the linked native library for its version, compiled architectures and
// devices. A library built without nvcc, or a machine without a driver, reports no devices.
func probeBackend(info *buildInfo) {
	v, err := bridge.Version()
	if err != nil {
		info.DeviceError = err.Error()
		return
	}
	info.NativeVersion = fmt.Sprintf("ABI %d, %s", v.ABIVersion, v.Build)
	info.CUDAArchs = archsFromBuild(v.Build)
	info.Kernels = kernelsFromBuild(v.Build)
	if !v.BuiltWithCUDA {
		info.DeviceError = "native library built without CUDA (CUSEAL_CUDA=OFF)"
		return
	}
	devs, err := bridge.Devices()
	if err != nil {
		info.DeviceError = err.Error()
		return
	}
	for _, d := range devs {
		info.Devices = append(info.Devices, deviceInfo{
			Index: d.Index, Name: d.Name, MemoryBytes: d.TotalMemory, SM: fmt.Sprintf("%d%d", d.Major, d.Minor),
		})
	}
}

// nativeBuild fills in the linked native library's version and compiled architectures
// (nothing where it cannot be asked: `cuseal info` says why).
func nativeBuild(b *buildinfo.Info) {
	v, err := bridge.Version()
	if err != nil {
		return
	}
	b.NativeVersion = fmt.Sprintf("ABI %d, %s", v.ABIVersion, v.Build)
	b.CUDAArchs = archsFromBuild(v.Build)
}

// gpuProbe is doctor's view of the GPUs: the native library's runtime and archs, and each
// device with its free memory.
func gpuProbe() gpuFacts {
	g := gpuFacts{Built: true}
	v, err := bridge.Version()
	if err != nil {
		g.Err = err.Error()
		return g
	}
	g.Runtime, g.Archs = v.CUDARuntimeVersion, archsFromBuild(v.Build)
	if !v.BuiltWithCUDA {
		g.Err = "native library built without CUDA (CUSEAL_CUDA=OFF)"
		return g
	}
	if g.Devices, err = bridge.Devices(); err != nil {
		g.Err = err.Error()
	}
	return g
}
