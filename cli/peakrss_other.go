//go:build !unix

package main

// peakRSS is not available on this platform.
func peakRSS() uint64 { return 0 }
