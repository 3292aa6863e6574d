// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build unix

package groth16

import "golang.org/x/sys/unix"

// scratchBytes returns n bytes of zeroed memory outside the Go heap (an
// anonymous private mapping) and the function that unmaps it: the CPU
// backend's chunk buffers, whose memory then goes back to the system when
// QuerySums ends instead of when the collector and the scavenger get to
// it, and does not count in the heap goal (GOGC lets the heap reach twice
// what is live). Where the mapping fails it falls back to the heap.
// The memory must hold no Go pointers.
func scratchBytes(n int) ([]byte, func()) {
	if n <= 0 {
		return nil, func() {}
	}
	b, err := unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return make([]byte, n), func() {}
	}
	return b, func() { _ = unix.Munmap(b) }
}
