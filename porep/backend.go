package porep

import (
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/cuseal/cuseal/porep/groth16"
)

// Backend names understood by WithBackend.
const (
	BackendCPU  = "cpu"
	BackendCUDA = "cuda"
	// BackendSupraSeal is supraseal-c2 (Supranational's CUDA prover, through
	// native/supraseal), registered in binaries built with the supraseal
	// tag (bin/cuseal-supraseal). For comparison and as a proven fallback;
	// BackendAuto never picks it.
	BackendSupraSeal = groth16.BackendNameSupraSeal
	// BackendAuto picks BackendCUDA when it is registered and its factory
	// succeeds, else BackendCPU.
	BackendAuto = "auto"
)

// BackendFactory returns a ready backend, or an error saying why it cannot
// run here (e.g. no CUDA device). It is called once per SealCommitPhase2.
type BackendFactory func() (groth16.Backend, error)

var (
	backendsMu sync.RWMutex
	backends   = map[string]BackendFactory{
		BackendCPU: func() (groth16.Backend, error) { return &groth16.CPUBackend{}, nil },
	}
)

// ErrUnknownBackend is returned for a backend name nobody registered.
var ErrUnknownBackend = errors.New("porep: unknown backend")

// RegisterBackend makes a backend available to WithBackend under name.
// The CPU backend is registered as "cpu"; the bridge package registers
// "cuda" from an init function when built with the cuda tag. Registering a
// name twice, or the reserved name "auto", is an error.
func RegisterBackend(name string, f BackendFactory) error {
	if name == "" || name == BackendAuto || f == nil {
		return fmt.Errorf("porep: register backend %q: invalid name or nil factory", name)
	}
	backendsMu.Lock()
	defer backendsMu.Unlock()
	if _, ok := backends[name]; ok {
		return fmt.Errorf("porep: register backend %q: already registered", name)
	}
	backends[name] = f
	return nil
}

// Backends returns the registered backend names, sorted.
func Backends() []string {
	backendsMu.RLock()
	defer backendsMu.RUnlock()
	out := make([]string, 0, len(backends))
	for n := range backends {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// NewBackend resolves a backend name (including "auto") to a backend and
// the name of the one chosen.
func NewBackend(name string) (groth16.Backend, string, error) {
	backendsMu.RLock()
	f, ok := backends[name]
	cuda, hasCUDA := backends[BackendCUDA]
	cpu := backends[BackendCPU]
	backendsMu.RUnlock()
	if name == BackendAuto {
		if hasCUDA {
			if b, err := cuda(); err == nil {
				return b, BackendCUDA, nil
			}
		}
		b, err := cpu()
		return b, BackendCPU, err
	}
	if !ok && name == BackendCUDA {
		return nil, "", fmt.Errorf("%w %q: this build has no CUDA backend (build with -tags cuda, as build.sh does for bin/cuseal-cuda)", ErrUnknownBackend, name)
	}
	if !ok && name == BackendSupraSeal {
		return nil, "", fmt.Errorf("%w %q: this build has no supraseal backend (build with -tags supraseal, as ./build.sh supraseal does for bin/cuseal-supraseal)", ErrUnknownBackend, name)
	}
	if !ok {
		return nil, "", fmt.Errorf("%w %q (registered: %v)", ErrUnknownBackend, name, Backends())
	}
	b, err := f()
	if err != nil {
		return nil, "", fmt.Errorf("porep: backend %q: %w", name, err)
	}
	return b, name, nil
}
