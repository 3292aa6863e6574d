// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build unix

package cli

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// peakRSS returns the process's peak resident set size in bytes, or 0 when it cannot be
// read: on Linux VmHWM (/proc/self/status), the high-water mark of this process's own
// memory; elsewhere getrusage's ru_maxrss. Linux's ru_maxrss keeps, across execve, the peak
// of the memory the process had before it — for a process a large one started with
// vfork (Go's os/exec), the parent's peak — so a 45 MB proof started from a 140 MB test
// process would report 140 MB.
func peakRSS() uint64 {
	if runtime.GOOS == "linux" {
		if hwm := vmHWM(); hwm > 0 {
			return hwm
		}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil || ru.Maxrss < 0 {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return uint64(ru.Maxrss) // bytes there
	}
	return uint64(ru.Maxrss) * 1024 // KiB on Linux and the BSDs
}

// vmHWM is VmHWM of /proc/self/status in bytes, 0 if unreadable.
func vmHWM() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kb * 1024
		}
	}
	return 0
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
