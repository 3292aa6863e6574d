// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"context"
	"fmt"

	"github.com/cuseal/cuseal/porep/cs"
)

// SynthesizePartition builds partition k's circuit from c1 (NewCircuit) and
// synthesizes it into a ProvingAssignment pre-sized to the partition's exact
// size (SizeHintFor), so that no vector reallocates. It is the one
// orchestration of partition synthesis: porep.SealCommitPhase2 and
// `cuseal bench synth` both call it. Rust twin: StackedCompound::circuit
// for partition k, synthesized by bellperson's synthesize_circuits_batch.
//
// workers > 1 synthesizes the challenges on up to that many goroutines
// (SynthesizeParallel: capped at the number of challenges and by memory);
// workers ≤ 1 synthesizes them in order on the caller's goroutine
// (SynthesizeContext). The assignment is the same bit for bit either way.
// ctx is checked before each challenge.
//
// Shape: with h = SizeHintFor(cfg), len(A) = len(B) = len(C) =
// h.Constraints + h.Inputs (the per-input rows included), len(Aux) = h.Aux,
// len(Input) = h.Inputs with ONE first; Input[1:] are the partition's
// public inputs (C1Output.PublicInputs).
//
// Memory: the storage comes from pool (reused, not cleared: synthesis
// overwrites every element), or is freshly allocated when pool is nil. The
// caller owns the returned assignment; give it back with pool.Release once
// nothing reads it any more (its slices are the pool's storage from then
// on), or drop it for the garbage collector. On error no assignment is
// returned and the partly written storage is left to the garbage collector,
// not to the pool.
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
	hint, err := SizeHintFor(cfg) // measured once per shape, then cached
	if err != nil {
		return nil, err
	}
	var pa *cs.ProvingAssignment
	if pool != nil {
		pa = pool.NewProvingAssignment(hint)
	} else {
		pa = cs.NewProvingAssignment(hint)
	}
	if workers > 1 {
		per, err := ChallengeSizeHint(cfg)
		if err == nil {
			err = circ.SynthesizeParallel(ctx, pa, per, workers)
		}
		if err != nil {
			return nil, fmt.Errorf("partition %d: synthesize: %w", k, err)
		}
		return pa.Assignment(), nil
	}
	if err := circ.SynthesizeContext(ctx, pa); err != nil {
		return nil, fmt.Errorf("partition %d: synthesize: %w", k, err)
	}
	return pa.Assignment(), nil
}
