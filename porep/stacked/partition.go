// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"context"
	"fmt"

	"github.com/cuseal/cuseal/porep/cs"
)

// SynthesizePartition builds partition k's circuit from c1 (NewCircuit) and
// synthesizes it through the one orchestration, cs.BufferPool.Synthesize:
// into a ProvingAssignment pre-sized to the partition's exact size
// (SizeHintFor), storage from pool (nil: fresh, not kept), its challenges
// on up to workers goroutines (ChallengeSizeHint each; workers ≤ 1: in
// order). porep proves every family through the same orchestration;
// `cuseal bench synth` calls this for C1 files and synthetic C1s. Rust
// twin: StackedCompound::circuit for partition k, synthesized by
// bellperson's synthesize_circuits_batch.
//
// Shape: with h = SizeHintFor(cfg), len(A) = len(B) = len(C) =
// h.Constraints + h.Inputs (the per-input rows included), len(Aux) = h.Aux,
// len(Input) = h.Inputs with ONE first; Input[1:] are the partition's
// public inputs (C1Output.PublicInputs).
//
// Memory: the caller owns the returned assignment; give it back with
// pool.Release once nothing reads it. On error no assignment is returned
// and its storage is back in pool.
//
// Errors: NewCircuit's (k out of range, a value of c1 that does not fit cfg,
// naming its JSON path), SizeHintFor's, and, wrapped as "partition k:
// synthesize: …", a synthesis error: a structural defect (Circuit.Validate),
// a challenge whose size is not the shape's (parallel split), or ctx's
// error.
func SynthesizePartition(ctx context.Context, c1 *C1Output, cfg *SectorConfig, k int, pool *cs.BufferPool, workers int) (*cs.Assignment, error) {
	circ, err := NewCircuit(c1, cfg, k)
	if err != nil {
		return nil, err
	}
	size, err := SizeHintFor(cfg) // measured once per shape, then cached
	if err != nil {
		return nil, err
	}
	per, err := ChallengeSizeHint(cfg)
	if err != nil {
		return nil, err
	}
	a, err := pool.Synthesize(ctx, circ, size, per, workers)
	if err != nil {
		return nil, fmt.Errorf("partition %d: synthesize: %w", k, err)
	}
	return a, nil
}
