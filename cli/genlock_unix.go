// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build unix

package cli

import (
	"os"

	"golang.org/x/sys/unix"
)

// lockFile takes an exclusive flock on path (created if missing) without
// waiting: held reports false when another process holds it. The lock ends
// with the process (SIGKILL included) or release, which also removes path.
func lockFile(path string) (release func(), held bool, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		return nil, true, nil
	}
	return func() { os.Remove(path); f.Close() }, false, nil
}
