// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/bridge/supraseal"
	"github.com/cuseal/cuseal/porep/cs"
)

// ErrWholeProofsOnly: the supraseal backend computes whole proofs, not query sums.
var ErrWholeProofsOnly = errors.New("groth16: the supraseal backend computes whole proofs, not query sums (use Prove)")

// SupraSealBackend proves with supraseal-c2 (Supranational's CUDA Groth16 prover, linked from
// native/supraseal through bridge/supraseal; build tag supraseal). It is a ProofBackend: the
// assembly with (r, s) happens inside supraseal, with the same formula as Assemble, so for the
// same (r, s) its proofs equal every other backend's byte for byte. supraseal reads the
// proving key itself from the .params file the Params was opened from (Params.Path); one SRS
// handle is kept per path for the life of the backend (reloaded when the path's Params
// changes, i.e. the file was replaced). It runs on every device supraseal sees; calls are
// serialised process-wide inside supraseal.
type SupraSealBackend struct {
	mu  sync.Mutex
	srs map[string]supraSRS
}

type supraSRS struct {
	params *Params
	srs    *supraseal.SRS
}

var _ ProofBackend = (*SupraSealBackend)(nil)

// NewSupraSealBackend returns a backend, or supraseal.ErrNotBuilt without the supraseal
// build tag, supraseal.ErrNoDevice without a device. (BELLMAN_NO_GPU is porep's registry's
// business: this constructor builds what it is asked for.)
func NewSupraSealBackend() (*SupraSealBackend, error) {
	if !supraseal.Built {
		return nil, supraseal.ErrNotBuilt
	}
	if supraseal.DeviceCount() == 0 {
		return nil, fmt.Errorf("%w%s", supraseal.ErrNoDevice, visibleDevicesNote())
	}
	return &SupraSealBackend{srs: map[string]supraSRS{}}, nil
}

// QuerySums is not available from supraseal: it returns ErrWholeProofsOnly.
func (b *SupraSealBackend) QuerySums(context.Context, *Params, []*cs.Assignment) ([]Sums, error) {
	return nil, ErrWholeProofsOnly
}

// handle returns the SRS for params, loading it on first use.
func (b *SupraSealBackend) handle(params *Params) (*supraseal.SRS, error) {
	path := params.Path()
	if path == "" {
		return nil, fmt.Errorf("groth16: supraseal backend: params %q were not opened from a file (supraseal loads the .params file itself)", params.Name())
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if e, ok := b.srs[path]; ok {
		if e.params == params {
			return e.srs, nil
		}
		e.srs.Close()
		delete(b.srs, path)
	}
	s, err := supraseal.LoadSRS(path)
	if err != nil {
		return nil, fmt.Errorf("groth16: supraseal backend: %s: %w", path, err)
	}
	b.srs[path] = supraSRS{params, s}
	return s, nil
}

// Release frees the SRS handle loaded for params' file, if any.
func (b *SupraSealBackend) Release(params *Params) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if e, ok := b.srs[params.Path()]; ok {
		e.srs.Close()
		delete(b.srs, params.Path())
	}
	return nil
}

// Close frees every SRS handle the backend holds.
func (b *SupraSealBackend) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for p, e := range b.srs {
		e.srs.Close()
		delete(b.srs, p)
	}
	return nil
}

// ProveWith proves the assignments in one supraseal call (they must share one circuit shape,
// as the partitions of a sector do). Every assignment is checked against params first
// (ValidateAssignment), since supraseal itself only asserts in debug builds. ctx is honoured
// before the call; the native call itself cannot be interrupted.
func (b *SupraSealBackend) ProveWith(ctx context.Context, params *Params, assignments []*cs.Assignment, rs []Randomness) ([]Proof, error) {
	if len(rs) != len(assignments) {
		return nil, fmt.Errorf("groth16: supraseal backend: %d assignments but %d randomness pairs", len(assignments), len(rs))
	}
	if len(assignments) == 0 {
		return nil, nil
	}
	if params.VK.Delta1.IsInfinity() || params.VK.Delta2.IsInfinity() {
		return nil, errors.New("groth16: assemble: δ is the identity (subverted CRS)")
	}
	circuits := make([]supraseal.Circuit, len(assignments))
	r := make([]fr.Element, len(rs))
	s := make([]fr.Element, len(rs))
	for i, a := range assignments {
		if err := ValidateAssignment(params, a); err != nil {
			return nil, fmt.Errorf("assignment %d: %w", i, err)
		}
		circuits[i] = nativeCircuit(a)
		r[i], s[i] = rs[i].R, rs[i].S
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	h, err := b.handle(params)
	if err != nil {
		return nil, err
	}
	sp, err := h.Prove(circuits, r, s)
	if err != nil {
		return nil, fmt.Errorf("groth16: supraseal backend: %w", err)
	}
	proofs := make([]Proof, len(sp))
	for i := range sp {
		proofs[i] = Proof{A: sp[i].A, B: sp[i].B, C: sp[i].C}
	}
	return proofs, nil
}
