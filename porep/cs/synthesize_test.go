// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// segTestCircuit is nSeg segCircuits as a Circuit; fail makes part failAt
// an error.
type segTestCircuit struct {
	nSeg, failAt int
	fail         error
}

func (c *segTestCircuit) part(sys ConstraintSystem, i int) error {
	segCircuit(sys, 3, uint64(i), 300, []Variable{One})
	if c.fail != nil && i == c.failAt {
		return c.fail
	}
	return nil
}

func (c *segTestCircuit) Synthesize(ctx context.Context, sys ConstraintSystem) error {
	for i := 0; i < c.nSeg; i++ {
		if err := c.part(sys, i); err != nil {
			return err
		}
	}
	return nil
}

func (c *segTestCircuit) SynthesizeParallel(ctx context.Context, p *ProvingAssignment, per SizeHint, workers int) error {
	return p.SynthesizeSegments(ctx, "part", c.nSeg, per, workers, func(s *Segment, i int) error { return c.part(s, i) })
}

// TestPoolSynthesize: the one orchestration gives the same assignment in
// order and in parallel, from a pool or fresh storage (nil pool); a
// failing synthesis, or a circuit of another shape than its hint, returns
// no assignment and its storage to the pool.
func TestPoolSynthesize(t *testing.T) {
	const nSeg = 4
	cnt := NewCounter()
	segCircuit(cnt, 3, 0, 300, []Variable{One})
	per := SizeHint{Constraints: cnt.Constraints, Aux: cnt.Aux, Inputs: cnt.Inputs - 1}
	size := SizeHint{Constraints: nSeg * per.Constraints, Aux: nSeg * per.Aux, Inputs: 1 + nSeg*per.Inputs}
	digests := func(a *Assignment) [3][32]byte {
		return [3][32]byte{a.WitnessDigest(), a.ABCDigest(), a.DensityDigest()}
	}
	var nilPool *BufferPool
	seq, err := nilPool.Synthesize(context.Background(), &segTestCircuit{nSeg: nSeg}, size, per, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := digests(seq)
	nilPool.Release(seq) // a no-op
	var pool BufferPool
	for _, workers := range []int{1, 2, 4} {
		a, err := pool.Synthesize(context.Background(), &segTestCircuit{nSeg: nSeg}, size, per, workers)
		if err != nil {
			t.Fatal(err)
		}
		if digests(a) != want {
			t.Errorf("%d workers: digests differ from the nil pool's sequential synthesis", workers)
		}
		pool.Release(a)
	}
	if underPressure() {
		t.Skip("memory is short: the pool keeps nothing")
	}
	boom := errors.New("boom")
	for _, workers := range []int{1, 2} {
		a, err := pool.Synthesize(context.Background(), &segTestCircuit{nSeg: nSeg, failAt: 2, fail: boom}, size, per, workers)
		if a != nil || !errors.Is(err, boom) {
			t.Fatalf("%d workers, failing part: %v, %v", workers, a, err)
		}
		if sets, _ := pool.Kept(); sets != 1 {
			t.Errorf("%d workers: after a failed synthesis the pool keeps %d sets, want 1 (its storage back)", workers, sets)
		}
	}
	short := size
	short.Aux += per.Aux // a hint the circuit does not fill
	a, err := pool.Synthesize(context.Background(), &segTestCircuit{nSeg: nSeg}, short, per, 1)
	if a != nil || err == nil || !strings.Contains(err.Error(), "the shape is") {
		t.Fatalf("circuit smaller than its hint: %v, %v", a, err)
	}
	if sets, _ := pool.Kept(); sets != 1 {
		t.Errorf("after a shape mismatch the pool keeps %d sets, want 1", sets)
	}
}
