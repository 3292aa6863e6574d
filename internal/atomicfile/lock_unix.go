// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build unix

package atomicfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// holdTemp marks f as being written: an exclusive flock held until f is
// closed, or its process ends (SIGKILL included: the kernel drops it). It
// waits while another process's abandoned() probe holds the lock for the
// moment its check takes.
func holdTemp(f *os.File) {
	for {
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != unix.EINTR {
			return
		}
	}
}

// abandoned reports whether the temporary file name is held by no writer:
// its process ended before it renamed or removed it.
func abandoned(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close() // drops the probe's lock
	return unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil
}

// held reports whether a writer holds the temporary file name now.
func held(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	return unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == unix.EWOULDBLOCK
}
