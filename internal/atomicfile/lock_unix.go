// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build unix

package atomicfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// holdTemp marks f as being written: an exclusive flock held until f is
// closed, or its process ends (SIGKILL included: the kernel drops it). It
// waits while another process's probe holds the lock for the moment its
// check takes.
func holdTemp(f *os.File) {
	for {
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != unix.EINTR {
			return
		}
	}
}

// probe tries the temporary file name's lock without waiting and lets it
// go at once.
func probe(name string) lockState {
	f, err := os.Open(name)
	if err != nil {
		return lockUnknown
	}
	defer f.Close() // drops the probe's lock
	switch unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) {
	case nil:
		return lockFree
	case unix.EWOULDBLOCK:
		return lockHeld
	}
	return lockUnknown
}
