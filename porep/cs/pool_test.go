// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import (
	"testing"
)

// TestBufferPoolReuse: assignments synthesized into reused (not cleared)
// storage — sequentially and through Split — equal those synthesized into
// fresh storage; the storage really is reused; another shape is not served
// from a set too small for it.
func TestBufferPoolReuse(t *testing.T) {
	const nSeg, nOps = 5, 300
	cnt := NewCounter()
	segCircuit(cnt, 3, 0, nOps, []Variable{One})
	seg := SizeHint{Constraints: cnt.Constraints, Aux: cnt.Aux, Inputs: cnt.Inputs - 1}
	hint := SizeHint{Constraints: nSeg * seg.Constraints, Aux: nSeg * seg.Aux, Inputs: 1 + nSeg*seg.Inputs}
	run := func(p *ProvingAssignment, valSeed uint64, parallel bool) *Assignment {
		if !parallel {
			for i := 0; i < nSeg; i++ {
				segCircuit(p, 3, valSeed+uint64(i), nOps, []Variable{One})
			}
			return p.Assignment()
		}
		return splitRun(t, p, nSeg, seg, func(i int, s *Segment) {
			segCircuit(s, 3, valSeed+uint64(i), nOps, []Variable{One})
		})
	}
	digests := func(a *Assignment) [3][32]byte {
		return [3][32]byte{a.WitnessDigest(), a.ABCDigest(), a.DensityDigest()}
	}
	var pool BufferPool
	var first *Assignment
	for round, valSeed := range []uint64{10, 20, 30, 40} {
		parallel := round%2 == 1
		want := digests(run(NewProvingAssignment(hint), valSeed, parallel))
		a := run(pool.NewProvingAssignment(hint), valSeed, parallel)
		if got := digests(a); got != want {
			t.Fatalf("round %d (parallel %v): pooled digests differ from fresh ones", round, parallel)
		}
		if round == 0 {
			first = a
		} else if &a.A[0] != &first.A[0] || &a.Aux[0] != &first.Aux[0] {
			t.Errorf("round %d: storage not reused", round)
		}
		pool.Release(a)
		pool.Release(a) // no-op
		if sets, _ := pool.Kept(); sets != 1 {
			if !underPressure() {
				t.Fatalf("round %d: pool keeps %d sets, want 1", round, sets)
			}
		}
	}
	// A larger shape gets new storage and drops the kept set.
	big := hint
	big.Aux++
	p := pool.NewProvingAssignment(big)
	if &p.aux[:1][0] == &first.Aux[0] {
		t.Errorf("a set too small was reused")
	}
	if sets, _ := pool.Kept(); sets != 0 {
		t.Errorf("pool keeps %d sets of another shape", sets)
	}
	// An assignment from elsewhere is ignored.
	pool.Release(NewProvingAssignment(hint).Assignment())
	if sets, _ := pool.Kept(); sets != 0 {
		t.Errorf("pool took a foreign assignment")
	}
}
