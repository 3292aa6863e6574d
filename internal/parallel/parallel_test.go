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

// TestDynamic: every index runs exactly once, worker numbers stay in range
// and one worker's calls never overlap (its scratch is its own), for
// several worker counts including more workers than indices.
func TestDynamic(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 100} {
		for _, workers := range []int{-1, 0, 1, 2, 3, 16} {
			seen := make([]atomic.Int32, max(n, 1))
			busy := make([]atomic.Int32, 64)
			err := Dynamic(n, workers, func(w, i int) error {
				if w < 0 || w >= 64 || (workers > 0 && w >= workers) {
					return fmt.Errorf("worker %d out of range", w)
				}
				if busy[w].Add(1) != 1 {
					return fmt.Errorf("worker %d runs two items at once", w)
				}
				defer busy[w].Add(-1)
				seen[i].Add(1)
				return nil
			})
			if err != nil {
				t.Fatalf("n=%d workers=%d: %v", n, workers, err)
			}
			for i := 0; i < n; i++ {
				if c := seen[i].Load(); c != 1 {
					t.Fatalf("n=%d workers=%d: index %d ran %d times", n, workers, i, c)
				}
			}
		}
	}
}

// TestDynamicError: the lowest failing index's error is returned whatever
// the scheduling, and with one worker nothing runs after the first error.
func TestDynamicError(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		err := Dynamic(50, workers, func(_, i int) error {
			if i%10 == 3 {
				return fmt.Errorf("item %d", i)
			}
			return nil
		})
		if err == nil || err.Error() != "item 3" {
			t.Errorf("workers=%d: %v, want item 3", workers, err)
		}
	}
	ran := 0
	sentinel := errors.New("stop")
	if err := Dynamic(10, 1, func(_, i int) error {
		ran++
		if i == 2 {
			return sentinel
		}
		return nil
	}); !errors.Is(err, sentinel) || ran != 3 {
		t.Errorf("one worker: err %v after %d items, want stop after 3", err, ran)
	}
}
