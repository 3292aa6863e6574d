// SPDX-License-Identifier: Apache-2.0 OR MIT

package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls fn(lo, hi) on contiguous ranges that cover [0, n), on up to
// GOMAXPROCS goroutines, and returns when all have finished. Fewer workers
// are used when a range would hold fewer than minChunk indices; with one
// worker fn(0, n) runs on the calling goroutine. n ≤ 0 calls nothing.
func For(n, minChunk int, fn func(lo, hi int)) {
	if n <= 0 {
		return
	}
	workers := runtime.GOMAXPROCS(0)
	if w := n / max(minChunk, 1); w < workers {
		workers = max(w, 1)
	}
	if workers == 1 {
		fn(0, n)
		return
	}
	chunk := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			fn(lo, hi)
		}(lo, hi)
	}
	wg.Wait()
}

// Each calls f(i) for every i in [0, n) on up to GOMAXPROCS goroutines over
// contiguous ranges; a range stops at its first error. It returns the error
// of the lowest failing index, so the reported error does not depend on
// scheduling.
func Each(n int, f func(i int) error) error {
	if n <= 0 {
		return nil
	}
	workers := min(runtime.GOMAXPROCS(0), n)
	chunk := (n + workers - 1) / workers
	errs := make([]error, workers)
	// For's ranges are at least chunk long, so lo/chunk numbers them in
	// order, each below workers.
	For(n, chunk, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if err := f(i); err != nil {
				errs[lo/chunk] = err
				return
			}
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Dynamic calls f(worker, i) for every i in [0, n) on up to workers
// goroutines (≤ 0: GOMAXPROCS; never more than n), handing out indices in
// increasing order as goroutines come free, for work items of uneven cost.
// worker is the goroutine's number in [0, workers), for per-goroutine
// scratch. After an error no further index is started; Dynamic returns the
// error of the lowest failing index. With one worker everything runs on the
// calling goroutine.
func Dynamic(n, workers int, f func(worker, i int) error) error {
	if n <= 0 {
		return nil
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	if workers == 1 {
		for i := 0; i < n; i++ {
			if err := f(0, i); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, n)
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := f(w, i); err != nil {
					errs[i] = err
					stop.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
