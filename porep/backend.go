// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/cuseal/cuseal/bridge"
	"github.com/cuseal/cuseal/porep/groth16"
)

// This file owns the choice of a proving backend: the one registry of
// backend names (every backend cuseal knows, built into this binary or
// not), what "auto" picks and why, and the environment that steers it
// (BELLMAN_NO_GPU, CUSEAL_CUDA_DEVICES). groth16 only implements backends;
// the CLI and libcuseal ask this registry. Adding a backend: one entry in
// knownBackends below, plus a build-tagged file that calls provideBackend
// from init (see backend_cuda.go, backend_supraseal.go).

// Backend names understood by WithBackend.
const (
	BackendCPU  = "cpu"
	BackendCUDA = "cuda"
	// BackendSupraSeal is supraseal-c2 (Supranational's CUDA prover, through
	// native/supraseal), registered in binaries built with the supraseal
	// tag (bin/cuseal-supraseal). For comparison and as a proven fallback;
	// BackendAuto never picks it.
	BackendSupraSeal = "supraseal"
	// BackendAuto picks BackendCUDA when it is built, usable here and its
	// factory succeeds, else BackendCPU, logging why (see AutoBackend).
	BackendAuto = "auto"
)

// BackendFactory returns a ready backend, or an error saying why it cannot
// run here (e.g. no CUDA device). It is called once per SealCommitPhase2.
type BackendFactory func() (groth16.Backend, error)

// BackendSpec describes one backend cuseal knows, whether or not this
// binary was built with it.
type BackendSpec struct {
	Name string
	// GPU: the backend needs a GPU (or its host emulation), so --no-gpu and
	// BELLMAN_NO_GPU exclude it.
	GPU bool
	// Auto: BackendAuto tries it, in registry order, before the CPU.
	Auto bool
	// Built: this binary has it (its build tag was set, or RegisterBackend).
	Built bool
	// Missing completes "this build has no ..." when it is not built: how to
	// get a build that has it (Go API and libcuseal callers).
	Missing string
	// Without and Binary make the CLI's message for a binary without it:
	// "this binary was built without <Without>; use <Binary>".
	Without, Binary string
	// UsageNote is added to the CLI's --backend help ("" for none).
	UsageNote string
}

// backendEntry is a BackendSpec with its implementation (nil factory: not
// built into this binary).
type backendEntry struct {
	BackendSpec
	// usable says whether the backend can run here, and if not why; nil:
	// always (the factory's error is the reason).
	usable  func() (bool, string)
	factory BackendFactory
}

// knownBackends is the registry, in the order "auto" tries them (the CPU
// is always the last resort). The build-tagged files fill in the factory.
var knownBackends = []*backendEntry{
	{BackendSpec: BackendSpec{Name: BackendCPU, Built: true}, factory: func() (groth16.Backend, error) { return &groth16.CPUBackend{}, nil }},
	{BackendSpec: BackendSpec{
		Name: BackendCUDA, GPU: true, Auto: true,
		Missing: "CUDA backend (build with -tags cuda, as build.sh does for bin/cuseal-cuda)",
		Without: "CUDA (pure Go)", Binary: "bin/cuseal-cuda (built by ./build.sh build where nvcc is installed)",
	}},
	{BackendSpec: BackendSpec{
		Name: BackendSupraSeal, GPU: true,
		Missing: "supraseal backend (build with -tags supraseal, as ./build.sh supraseal does for bin/cuseal-supraseal)",
		Without: "the supraseal backend", Binary: "bin/cuseal-supraseal (./build.sh supraseal: needs cargo and nvcc)",
		UsageNote: "supraseal: bin/cuseal-supraseal only",
	}},
}

var backendsMu sync.RWMutex

// provideBackend fills in a known backend's implementation; the
// build-tagged files call it from init.
func provideBackend(name string, usable func() (bool, string), f BackendFactory) {
	backendsMu.Lock()
	defer backendsMu.Unlock()
	e := lookupBackend(name)
	if e == nil || e.factory != nil {
		panic(fmt.Sprintf("porep: provide backend %q: not in knownBackends, or provided twice", name))
	}
	e.usable, e.factory, e.Built = usable, f, true
}

// lookupBackend returns the registry entry for name, or nil (caller holds backendsMu).
func lookupBackend(name string) *backendEntry {
	for _, e := range knownBackends {
		if e.Name == name {
			return e
		}
	}
	return nil
}

// RegisterBackend makes a backend available to WithBackend under name (for
// backends outside cuseal, and tests; cuseal's own are entries of the
// registry, filled in by their build-tagged files). A name registered
// already, or the reserved name "auto", is an error; a name cuseal knows but
// this binary was built without takes the given factory.
func RegisterBackend(name string, f BackendFactory) error {
	if name == "" || name == BackendAuto || f == nil {
		return fmt.Errorf("porep: register backend %q: invalid name or nil factory", name)
	}
	backendsMu.Lock()
	defer backendsMu.Unlock()
	e := lookupBackend(name)
	if e != nil && e.factory != nil {
		return fmt.Errorf("porep: register backend %q: already registered", name)
	}
	if e == nil {
		e = &backendEntry{BackendSpec: BackendSpec{Name: name}}
		knownBackends = append(knownBackends, e)
	}
	e.factory, e.Built = f, true
	return nil
}

// Backends returns the registered backend names, sorted.
func Backends() []string {
	backendsMu.RLock()
	defer backendsMu.RUnlock()
	var out []string
	for _, e := range knownBackends {
		if e.factory != nil {
			out = append(out, e.Name)
		}
	}
	slices.Sort(out)
	return out
}

// KnownBackends describes every backend cuseal knows, in registry order,
// with whether this binary has it (BackendSpec.Built).
func KnownBackends() []BackendSpec {
	backendsMu.RLock()
	defer backendsMu.RUnlock()
	out := make([]BackendSpec, len(knownBackends))
	for i, e := range knownBackends {
		out[i] = e.BackendSpec
	}
	return out
}

// LookupBackend returns the spec of a backend cuseal knows (built or not).
func LookupBackend(name string) (BackendSpec, bool) {
	backendsMu.RLock()
	defer backendsMu.RUnlock()
	if e := lookupBackend(name); e != nil {
		return e.BackendSpec, true
	}
	return BackendSpec{}, false
}

// AutoPreference names the backend "auto" tries first in this build,
// without probing devices: the first built Auto entry, else BackendCPU.
func AutoPreference() string {
	backendsMu.RLock()
	defer backendsMu.RUnlock()
	for _, e := range knownBackends {
		if e.Auto && e.factory != nil {
			return e.Name
		}
	}
	return BackendCPU
}

// AutoBackend says what BackendAuto picks here (creating the backend, as
// SealCommitPhase2 would) and, when that is the CPU although a GPU backend
// was tried or known, why: e.g. "BELLMAN_NO_GPU is set", "no CUDA device
// found", "built without the cuda tag". For `cuseal info`.
func AutoBackend() (name, reason string) {
	_, name, reason, _ = chooseAuto()
	return name, reason
}

// chooseAuto tries the Auto entries in order and falls back to the CPU; reason is why the
// last one tried (or the first one not built) could not be used.
func chooseAuto() (groth16.Backend, string, string, error) {
	backendsMu.RLock()
	var cands []backendEntry // copies: RegisterBackend may fill an entry meanwhile
	for _, e := range knownBackends {
		if e.Auto {
			cands = append(cands, *e)
		}
	}
	cpu := lookupBackend(BackendCPU).factory
	backendsMu.RUnlock()
	reason := ""
	for _, e := range cands {
		if e.factory == nil {
			if reason == "" {
				reason = "built without the " + e.Name + " tag"
			}
			continue
		}
		if e.usable != nil {
			if ok, why := e.usable(); !ok {
				reason = why
				continue
			}
		}
		b, err := e.factory()
		if err == nil {
			return b, e.Name, "", nil
		}
		reason = err.Error()
	}
	b, err := cpu()
	return b, BackendCPU, reason, err
}

// NewBackend resolves a backend name (including "auto") to a backend and
// the name of the one chosen. When "auto" falls back to the CPU, the reason
// is logged at info level on slog's default logger.
func NewBackend(name string) (groth16.Backend, string, error) {
	return newBackend(name, slog.Default())
}

func newBackend(name string, log *slog.Logger) (groth16.Backend, string, error) {
	if name == BackendAuto {
		b, chosen, reason, err := chooseAuto()
		if reason != "" {
			log.Info("backend auto: using the CPU", "reason", reason)
		}
		return b, chosen, err
	}
	backendsMu.RLock()
	e := lookupBackend(name)
	var f BackendFactory
	if e != nil {
		f = e.factory
	}
	backendsMu.RUnlock()
	if f == nil {
		if e != nil && e.Missing != "" {
			return nil, "", fmt.Errorf("%w %q: this build has no %s", ErrUnknownBackend, name, e.Missing)
		}
		return nil, "", fmt.Errorf("%w %q (registered: %v)", ErrUnknownBackend, name, Backends())
	}
	b, err := f()
	if err != nil {
		return nil, "", fmt.Errorf("porep: backend %q: %w", name, err)
	}
	return b, name, nil
}

// GPUDisabledByEnv reports whether BELLMAN_NO_GPU disables the GPU: any
// value except "0" does, the empty string included (bellperson
// src/gpu/mod.rs after bellperson#306, which fixed "0" disabling it).
func GPUDisabledByEnv() bool {
	v, ok := os.LookupEnv("BELLMAN_NO_GPU")
	return ok && v != "0"
}

// CUDADevicesFromEnv parses $CUSEAL_CUDA_DEVICES, the devices the CUDA
// backend proves on: comma-separated device indices, "host" (or -1) for the
// host emulation of the kernels; unset or empty: nil (every visible device).
func CUDADevicesFromEnv() ([]int, error) {
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

// hostOnly: every device listed is the host emulation (none: false).
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

// visibleDevicesNote names CUDA_VISIBLE_DEVICES in a reason when it is
// set, since the CUDA runtime hides every device it does not list.
func visibleDevicesNote() string {
	v, ok := os.LookupEnv("CUDA_VISIBLE_DEVICES")
	if !ok {
		return ""
	}
	return fmt.Sprintf("; CUDA_VISIBLE_DEVICES=%q", v)
}

// cudaUsable says whether the CUDA backend can run here, and if not, why
// (the reason "auto" logs, and `cuseal info` prints). In a build without
// the cuda tag the bridge stub answers bridge.ErrNoCUDA.
func cudaUsable() (bool, string) {
	if devs, err := CUDADevicesFromEnv(); err != nil {
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
