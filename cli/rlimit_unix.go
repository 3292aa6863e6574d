// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build unix

package main

import "golang.org/x/sys/unix"

// addressSpaceLimit returns the soft RLIMIT_AS, or false when there is none.
func addressSpaceLimit() (uint64, bool) {
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_AS, &rl); err != nil || rl.Cur == unix.RLIM_INFINITY {
		return 0, false
	}
	return rl.Cur, true
}
