// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build !unix

package service

import "net"

// listenPrivate listens on a unix socket; the caller chmods it 0600.
func listenPrivate(path string) (net.Listener, error) { return net.Listen("unix", path) }
