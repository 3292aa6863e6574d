// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build unix

package cli

import (
	"runtime"
	"syscall"
)

// peakRSS returns the process's peak resident set size in bytes (getrusage ru_maxrss), or 0
// when it cannot be read.
func peakRSS() uint64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil || ru.Maxrss < 0 {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return uint64(ru.Maxrss) // bytes there
	}
	return uint64(ru.Maxrss) * 1024 // KiB on Linux and the BSDs
}

// usage is the process's CPU time and minor page faults so far (getrusage).
type usage struct {
	cpu         float64 // user + system seconds
	minorFaults uint64
}

func selfUsage() usage {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return usage{}
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return usage{cpu: tv(ru.Utime) + tv(ru.Stime), minorFaults: uint64(ru.Minflt)}
}
