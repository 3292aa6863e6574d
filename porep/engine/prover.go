// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"context"
	"fmt"

	"github.com/cuseal/cuseal/bridge"
	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
)

// Work is one synthesized partition handed to a Prover.
type Work struct {
	JobID      string
	Kind       Kind
	Partition  int
	Params     *groth16.Params // the kind's keys; nil when its Plan has no Params
	Assignment *cs.Assignment  // nil when the kind's Plan synthesizes none; consumed (its A, B, C scratch)
	Randomness groth16.Randomness
}

// Prover is one proving worker: a device or the CPU backend. The engine
// gives it one partition at a time and verifies what it returns; an
// error (or a proof that does not verify) counts as a failure of this
// prover. Prove must honour ctx (the job's cancellation).
type Prover interface {
	Name() string    // unique, e.g. "cpu", "cuda:0"
	Backend() string // porep backend name: a GPU one's scratch is device memory
	Prove(ctx context.Context, w *Work) (groth16.Proof, error)
}

// DeviceReporter is implemented by provers on a device: Status shows the
// device's name and memory (cuzk GPUStatus).
type DeviceReporter interface {
	DeviceInfo() (name string, vramTotal, vramFree uint64, err error)
}

// BackendProver proves on a groth16.Backend (porep's registry: the CPU
// backend, or the CUDA backend on the devices it was made for).
type BackendProver struct {
	name, backend string
	b             groth16.Backend
	device        int // CUDA device index, or -1: none or several
}

// DeviceInfo reports the CUDA device the prover runs on (an error for the
// CPU backend, a backend on several devices, or the host emulation).
func (p *BackendProver) DeviceInfo() (string, uint64, uint64, error) {
	if p.device < 0 {
		return "", 0, 0, fmt.Errorf("engine: prover %s: not on one device", p.name)
	}
	devs, err := bridge.Devices()
	if err != nil {
		return "", 0, 0, err
	}
	for _, d := range devs {
		if d.Index == p.device {
			return fmt.Sprintf("%s %s", p.name, d.Name), d.TotalMemory, d.FreeMemory, nil
		}
	}
	return "", 0, 0, fmt.Errorf("engine: prover %s: device %d not found", p.name, p.device)
}

// NewProvers resolves a porep backend name ("auto" included) to the
// engine's provers: one per CUDA device when the registry picks the CUDA
// backend on several devices ($CUSEAL_CUDA_DEVICES, else every visible
// one), so each device proves its own partition; else one prover.
func NewProvers(backend string) ([]Prover, error) {
	p, err := NewBackendProver(backend)
	if err != nil {
		return nil, err
	}
	cb, ok := p.b.(*groth16.CUDABackend)
	if !ok || len(cb.Devices()) < 2 {
		if ok && len(cb.Devices()) == 1 && cb.Devices()[0] >= 0 {
			p.device = cb.Devices()[0]
		}
		return []Prover{p}, nil
	}
	var out []Prover
	for _, d := range cb.Devices() {
		b, err := groth16.NewCUDABackend(groth16.CUDAOptions{Devices: []int{d}})
		if err != nil {
			return nil, fmt.Errorf("engine: cuda device %d: %w", d, err)
		}
		out = append(out, &BackendProver{name: fmt.Sprintf("%s:%d", p.backend, d), backend: p.backend, b: b, device: d})
	}
	return out, nil
}

// NewBackendProver resolves a porep backend name ("auto" included) to a
// prover named after the backend chosen.
func NewBackendProver(backend string) (*BackendProver, error) {
	b, chosen, err := porep.NewBackend(backend)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	return &BackendProver{name: chosen, backend: chosen, b: b, device: -1}, nil
}

func (p *BackendProver) Name() string    { return p.name }
func (p *BackendProver) Backend() string { return p.backend }

// Prove is groth16.Prove of one assignment with the work's randomness. The
// assignment is consumed (groth16.WithAssignmentsConsumed: the CPU backend
// computes H in its a, b, c); the engine synthesizes a partition again
// before a retry.
func (p *BackendProver) Prove(ctx context.Context, w *Work) (groth16.Proof, error) {
	ps, err := groth16.Prove(groth16.WithAssignmentsConsumed(ctx), p.b, w.Params, []*cs.Assignment{w.Assignment}, []groth16.Randomness{w.Randomness})
	if err != nil {
		return groth16.Proof{}, err
	}
	return ps[0], nil
}
