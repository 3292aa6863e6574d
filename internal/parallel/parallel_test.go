// SPDX-License-Identifier: Apache-2.0 OR MIT

package parallel

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
)

// TestForCoversOnce: every index of [0, n) is visited exactly once, for
// sizes around the chunk boundaries and several worker counts.
func TestForCoversOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 3, 8} {
		runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 2, 7, 8, 9, 63, 64, 65, 1000} {
			for _, minChunk := range []int{0, 1, 4, 100} {
				seen := make([]int32, n)
				For(n, minChunk, func(lo, hi int) {
					if lo >= hi {
						t.Errorf("procs %d n %d: empty range [%d, %d)", procs, n, lo, hi)
					}
					for i := lo; i < hi; i++ {
						atomic.AddInt32(&seen[i], 1)
					}
				})
				for i, c := range seen {
					if c != 1 {
						t.Fatalf("procs %d n %d minChunk %d: index %d visited %d times", procs, n, minChunk, i, c)
					}
				}
			}
		}
	}
}

// TestEachLowestError: the error of the lowest failing index is returned
// whatever the schedule; without errors every index runs.
func TestEachLowestError(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		err := Each(100, func(i int) error {
			if i == 30 || i == 31 || i == 90 {
				return fmt.Errorf("index %d", i)
			}
			return nil
		})
		if err == nil || err.Error() != "index 30" {
			t.Fatalf("procs %d: got %v, want index 30", procs, err)
		}
		var count int32
		if err := Each(100, func(int) error { atomic.AddInt32(&count, 1); return nil }); err != nil || count != 100 {
			t.Fatalf("procs %d: err %v, %d calls", procs, err, count)
		}
	}
	if err := Each(0, func(int) error { return errors.New("called") }); err != nil {
		t.Fatal(err)
	}
}
