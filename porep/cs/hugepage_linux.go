// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// adviseHuge asks for transparent huge pages on the 2 MiB-aligned interior
// of [p, p+n) (madvise MADV_HUGEPAGE; with THP "madvise", the kernel's
// default, only advised ranges get them). Errors are ignored: the advice is
// an optimization, and a kernel without THP refuses it.
func adviseHuge(p unsafe.Pointer, n uintptr) {
	const huge = 2 << 20
	start := (uintptr(p) + huge - 1) &^ (huge - 1)
	end := (uintptr(p) + n) &^ (huge - 1)
	if end <= start {
		return
	}
	_ = unix.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, start-uintptr(p))), end-start), unix.MADV_HUGEPAGE)
}
