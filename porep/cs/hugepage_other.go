// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build !linux

package cs

import "unsafe"

// adviseHuge is a no-op outside Linux.
func adviseHuge(unsafe.Pointer, uintptr) {}
