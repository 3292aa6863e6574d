// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import (
	"context"
	"fmt"
)

// Circuit is a partition circuit as the provers synthesize it: into any
// ConstraintSystem in order, or into a fresh ProvingAssignment with its
// equal parts (challenges, sectors) on several goroutines, each into its own
// range (SynthesizeSegments), with the same result bit for bit.
// stacked.Circuit, post.Circuit and update.Circuit implement it.
type Circuit interface {
	// Synthesize writes the circuit into sys in its R1CS order; ctx is
	// checked between parts.
	Synthesize(ctx context.Context, sys ConstraintSystem) error
	// SynthesizeParallel writes the circuit into p, a fresh
	// ProvingAssignment, on up to workers goroutines; per is the size of
	// one part (the circuit package's hint: a wrong one is an error).
	SynthesizeParallel(ctx context.Context, p *ProvingAssignment, per SizeHint, workers int) error
}

// Synthesize is the one orchestration of a partition's synthesis for
// proving (rust-fil-proofs: bellperson's synthesize_circuits_batch): c is
// written into a ProvingAssignment pre-sized to size (the circuit's exact
// shape, so no vector reallocates) with storage from bp — reused, not
// cleared: synthesis overwrites every element — or fresh storage that is
// never kept when bp is nil. workers > 1 synthesizes c's parts of size per
// on up to that many goroutines (Circuit.SynthesizeParallel), workers ≤ 1
// in order on the caller's goroutine; the assignment is the same either
// way.
//
// Shape: len(A) = len(B) = len(C) = size.Constraints + size.Inputs (the
// per-input rows included), len(Aux) = size.Aux, len(Input) = size.Inputs
// with ONE first.
//
// The caller owns the returned assignment: give it back with bp.Release
// once nothing reads it. On error no assignment is returned and its
// storage has been handed back to bp already (every goroutine has
// stopped). Errors are c's (a structural defect, a part whose size is not
// per, ctx's error), and an assignment whose shape is not size.
func (bp *BufferPool) Synthesize(ctx context.Context, c Circuit, size, per SizeHint, workers int) (*Assignment, error) {
	pa := bp.NewProvingAssignment(size)
	var err error
	if workers > 1 {
		err = c.SynthesizeParallel(ctx, pa, per, workers)
	} else {
		err = c.Synthesize(ctx, pa)
	}
	a := pa.Assignment()
	if err == nil && (len(a.A) != size.Constraints+size.Inputs || len(a.Aux) != size.Aux || len(a.Input) != size.Inputs) {
		err = fmt.Errorf("synthesized %d constraints (input rows included), %d aux, %d inputs; the shape is %d, %d, %d",
			len(a.A), len(a.Aux), len(a.Input), size.Constraints+size.Inputs, size.Aux, size.Inputs)
	}
	if err != nil {
		bp.Release(a)
		return nil, err
	}
	return a, nil
}
