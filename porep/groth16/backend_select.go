package groth16

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"

	"github.com/cuseal/cuseal/bridge"
)

// Backend names understood by SelectBackend (the same strings as porep's
// backend registry).
const (
	BackendNameCPU  = "cpu"
	BackendNameCUDA = "cuda"
	BackendNameAuto = "auto"
)

// ErrGPUDisabled: BELLMAN_NO_GPU is set (to anything but "0").
var ErrGPUDisabled = errors.New("groth16: GPU disabled by BELLMAN_NO_GPU")

// GPUDisabledByEnv reports whether BELLMAN_NO_GPU disables the GPU: any
// value except "0" does, the empty string included (bellperson
// src/gpu/mod.rs after bellperson#306, which fixed "0" disabling it).
func GPUDisabledByEnv() bool {
	v, ok := os.LookupEnv("BELLMAN_NO_GPU")
	return ok && v != "0"
}

// visibleDevicesNote names CUDA_VISIBLE_DEVICES in device errors when it is
// set, since the CUDA runtime hides every device it does not list.
func visibleDevicesNote() string {
	v, ok := os.LookupEnv("CUDA_VISIBLE_DEVICES")
	if !ok {
		return ""
	}
	return fmt.Sprintf("; CUDA_VISIBLE_DEVICES=%q", v)
}

// devicesFromEnv parses $CUSEAL_CUDA_DEVICES: comma-separated device
// indices, "host" (or -1) for the host emulation; unset or empty: nil.
func devicesFromEnv() ([]int, error) {
	v := strings.TrimSpace(os.Getenv("CUSEAL_CUDA_DEVICES"))
	if v == "" {
		return nil, nil
	}
	var devs []int
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		if f == "host" {
			devs = append(devs, bridge.HostDevice)
			continue
		}
		d, err := strconv.Atoi(f)
		if err != nil || d < bridge.HostDevice {
			return nil, fmt.Errorf("groth16: CUSEAL_CUDA_DEVICES=%q: %q is not a device index or \"host\"", v, f)
		}
		devs = append(devs, d)
	}
	return devs, nil
}

// cudaUsable says whether a CUDA backend can run here, and if not, why.
func cudaUsable() (bool, string) {
	if devs, err := devicesFromEnv(); err != nil {
		return false, err.Error()
	} else if hostOnly(devs) {
		if _, err := bridge.Version(); err != nil {
			return false, err.Error()
		}
		return true, "" // CUSEAL_CUDA_DEVICES=host: the host emulation
	}
	if GPUDisabledByEnv() {
		return false, "BELLMAN_NO_GPU is set"
	}
	if v, ok := os.LookupEnv("CUDA_VISIBLE_DEVICES"); ok && (strings.TrimSpace(v) == "" || strings.TrimSpace(v) == "-1") {
		return false, fmt.Sprintf("CUDA_VISIBLE_DEVICES=%q hides every device", v)
	}
	vi, err := bridge.Version()
	if err != nil {
		if errors.Is(err, bridge.ErrNoCUDA) {
			return false, "built without the cuda tag"
		}
		return false, err.Error()
	}
	if !vi.BuiltWithCUDA {
		return false, "native library built without CUDA (CUSEAL_CUDA=OFF)"
	}
	n, err := bridge.DeviceCount()
	if err != nil {
		return false, err.Error()
	}
	if n == 0 {
		return false, "no CUDA device found" + visibleDevicesNote()
	}
	return true, ""
}

// SelectBackend resolves a backend name:
//
//	"cpu"   CPUBackend;
//	"cuda"  NewCUDABackend(o); fails with ErrGPUDisabled under BELLMAN_NO_GPU,
//	        bridge.ErrNoCUDA without the cuda build, bridge.ErrNoDevice
//	        without a device (CUDA_VISIBLE_DEVICES is honoured by the CUDA
//	        runtime). o.Devices = [bridge.HostDevice] selects the host
//	        emulation, which needs only the cuda build;
//	"auto"  "cuda" when built with it and a device exists (and the GPU is not
//	        disabled), else "cpu" with one log line on o.Logger saying why.
//
// CUSEAL_CUDA_DEVICES (comma-separated indices, or "host") chooses the
// devices when o.Devices is empty; "host" makes "cuda" and "auto" use the
// host emulation of the kernels (slow; CPU-only test machines).
//
// It returns the backend and the name chosen.
func SelectBackend(name string, o CUDAOptions) (Backend, string, error) {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	switch name {
	case BackendNameCPU:
		return &CPUBackend{}, BackendNameCPU, nil
	case BackendNameCUDA:
		if GPUDisabledByEnv() && !hostOnly(o.Devices) && !hostOnlyEnv() {
			return nil, "", ErrGPUDisabled
		}
		b, err := NewCUDABackend(o)
		if err != nil {
			return nil, "", err
		}
		return b, BackendNameCUDA, nil
	case BackendNameAuto:
		if ok, why := cudaUsable(); !ok {
			log.Info("backend auto: using the CPU", "reason", why)
			return &CPUBackend{}, BackendNameCPU, nil
		}
		b, err := NewCUDABackend(o)
		if err != nil {
			log.Info("backend auto: using the CPU", "reason", err.Error())
			return &CPUBackend{}, BackendNameCPU, nil
		}
		return b, BackendNameCUDA, nil
	}
	return nil, "", fmt.Errorf("groth16: unknown backend %q (want %s, %s or %s)", name, BackendNameCPU, BackendNameCUDA, BackendNameAuto)
}

// CUDAUsable reports whether "auto" would pick the CUDA backend here, and if
// not, the reason (for `cuseal info`).
func CUDAUsable() (bool, string) { return cudaUsable() }

func hostOnlyEnv() bool {
	devs, err := devicesFromEnv()
	return err == nil && hostOnly(devs)
}

func hostOnly(devs []int) bool {
	if len(devs) == 0 {
		return false
	}
	for _, d := range devs {
		if d != bridge.HostDevice {
			return false
		}
	}
	return true
}
