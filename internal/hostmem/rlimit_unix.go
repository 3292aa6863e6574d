// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build unix

package hostmem

import "golang.org/x/sys/unix"

// AddressSpaceLimit returns the soft RLIMIT_AS (ulimit -v, prlimit --as)
// in bytes, or false when there is none.
func AddressSpaceLimit() (uint64, bool) {
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_AS, &rl); err != nil || rl.Cur == unix.RLIM_INFINITY {
		return 0, false
	}
	return rl.Cur, true
}
