//go:build !linux

package cs

import "unsafe"

// adviseHuge is a no-op outside Linux.
func adviseHuge(unsafe.Pointer, uintptr) {}
