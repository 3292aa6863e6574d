// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import "context"

// stageKey is the context key of a stage callback (WithStageFunc).
type stageKey struct{}

// WithStageFunc returns a context under which backends report the start of
// each proving stage to f ("H polynomial", "H MSM", "L MSM", "A MSM",
// "B_G1 MSM", "B_G2 MSM"; the CUDA backend "GPU batch"), for progress
// display. f must return quickly.
func WithStageFunc(ctx context.Context, f func(stage string)) context.Context {
	return context.WithValue(ctx, stageKey{}, f)
}

// ReportStage calls the stage callback of ctx, if any.
func ReportStage(ctx context.Context, stage string) {
	if f, ok := ctx.Value(stageKey{}).(func(string)); ok && f != nil {
		f(stage)
	}
}
