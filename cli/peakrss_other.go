// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build !unix

package cli

// peakRSS is not available on this platform.
func peakRSS() uint64 { return 0 }

// usage is the process's CPU time and minor page faults (not available here).
type usage struct {
	cpu         float64
	minorFaults uint64
}

func selfUsage() usage { return usage{} }
