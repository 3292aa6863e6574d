// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build unix

package service

import (
	"net"
	"sync"
	"syscall"
)

var umaskMu sync.Mutex

// listenPrivate listens on a unix socket created 0600 (umask 0177 while it
// is made), so no other user can connect before the chmod.
func listenPrivate(path string) (net.Listener, error) {
	umaskMu.Lock()
	defer umaskMu.Unlock()
	old := syscall.Umask(0o177)
	defer syscall.Umask(old)
	return net.Listen("unix", path)
}
