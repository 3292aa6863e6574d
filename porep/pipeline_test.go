// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
)

// TestPipelineBound checks that partitions are proven in order with their
// own assignment, that at most inFlight assignments are alive at once, and
// that with inFlight ≥ 2 synthesis overlaps proving.
func TestPipelineBound(t *testing.T) {
	const n = 6
	for _, inFlight := range []int{1, 2, 3} {
		var alive, maxAlive atomic.Int32
		var overlapped atomic.Bool
		var proving atomic.Bool
		synth := func(k int) (*cs.Assignment, error) {
			if proving.Load() {
				overlapped.Store(true)
			}
			v := alive.Add(1)
			for m := maxAlive.Load(); v > m && !maxAlive.CompareAndSwap(m, v); m = maxAlive.Load() {
			}
			// The assignment carries its partition index in its length.
			return &cs.Assignment{Aux: make([]fr.Element, k+1)}, nil
		}
		next := 0
		prove := func(k int, a *cs.Assignment) error {
			proving.Store(true)
			defer proving.Store(false)
			if k != next || len(a.Aux) != k+1 {
				t.Errorf("inFlight %d: proving partition %d (assignment of %d), want %d", inFlight, k, len(a.Aux)-1, next)
			}
			next++
			time.Sleep(20 * time.Millisecond)
			alive.Add(-1)
			return nil
		}
		if err := pipeline(context.Background(), n, inFlight, synth, prove); err != nil {
			t.Fatal(err)
		}
		if next != n {
			t.Fatalf("inFlight %d: %d partitions proven", inFlight, next)
		}
		if m := maxAlive.Load(); int(m) > inFlight {
			t.Fatalf("inFlight %d: %d assignments alive at once", inFlight, m)
		}
		if inFlight >= 2 && !overlapped.Load() {
			t.Fatalf("inFlight %d: synthesis never overlapped proving", inFlight)
		}
		if inFlight == 1 && overlapped.Load() {
			t.Fatal("inFlight 1: synthesis overlapped proving")
		}
	}
}

// TestPipelineErrors checks that a synthesis error, a proving error and a
// cancelled context each stop the pipeline with that error.
func TestPipelineErrors(t *testing.T) {
	boom := errors.New("boom")
	okSynth := func(k int) (*cs.Assignment, error) { return &cs.Assignment{}, nil }
	okProve := func(k int, a *cs.Assignment) error { return nil }

	proven := 0
	err := pipeline(context.Background(), 5, 2, func(k int) (*cs.Assignment, error) {
		if k == 2 {
			return nil, boom
		}
		return &cs.Assignment{}, nil
	}, func(k int, a *cs.Assignment) error { proven++; return nil })
	if !errors.Is(err, boom) || proven != 2 {
		t.Fatalf("synthesis error: %v after %d proofs", err, proven)
	}
	if err := pipeline(context.Background(), 5, 2, okSynth, func(k int, a *cs.Assignment) error {
		if k == 1 {
			return boom
		}
		return nil
	}); !errors.Is(err, boom) {
		t.Fatalf("prove error: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := pipeline(ctx, 5, 1, okSynth, okProve); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}
