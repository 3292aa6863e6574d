// SPDX-License-Identifier: Apache-2.0 OR MIT

package hostmem

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
)

// MemInfoPath and CgroupPaths are where the facts are read from; they are
// variables so that a test can point them at files of its own.
var (
	MemInfoPath = "/proc/meminfo"
	// CgroupPaths are tried in order: cgroup v2, then v1.
	CgroupPaths = []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}
)

// MemInfo returns MemTotal and MemAvailable in bytes; ok is false unless
// both could be read.
func MemInfo() (total, avail uint64, ok bool) {
	var okT, okA bool
	total, avail, okT, okA = memInfo()
	return total, avail, okT && okA
}

// Total returns MemTotal in bytes, or false where it cannot be read.
func Total() (uint64, bool) {
	total, _, ok, _ := memInfo()
	return total, ok
}

// Available returns MemAvailable in bytes, or false where it cannot be read.
func Available() (uint64, bool) {
	_, avail, _, ok := memInfo()
	return avail, ok
}

// memInfo reads MemTotal and MemAvailable (kB in the file) from MemInfoPath.
func memInfo() (total, avail uint64, okT, okA bool) {
	f, err := os.Open(MemInfoPath)
	if err != nil {
		return 0, 0, false, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() && !(okT && okA) {
		fields := bytes.Fields(sc.Bytes())
		if len(fields) < 2 {
			continue
		}
		var dst *uint64
		var ok *bool
		switch string(fields[0]) {
		case "MemTotal:":
			dst, ok = &total, &okT
		case "MemAvailable:":
			dst, ok = &avail, &okA
		default:
			continue
		}
		kb, err := strconv.ParseUint(string(fields[1]), 10, 64)
		if err != nil {
			return 0, 0, false, false
		}
		*dst, *ok = kb<<10, true
	}
	return total, avail, okT, okA
}

// CgroupLimit returns this process's cgroup memory limit in bytes and the
// file it was read from; false where there is none ("max", v1's huge "no
// limit" number, no such file) or it cannot be read.
func CgroupLimit() (uint64, string, bool) {
	for _, p := range CgroupPaths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
		if err != nil || n >= 1<<60 { // "max" (v2) or the v1 "no limit" number
			return 0, "", false
		}
		return n, p, true
	}
	return 0, "", false
}

// Limit returns the memory a new allocation can count on: the least of
// MemAvailable, the address-space limit (mapped files count against it)
// and the cgroup memory limit, in bytes, with words naming the one that
// binds (for messages: "MemAvailable in /proc/meminfo"); false when none
// can be read.
func Limit() (limit uint64, what string, ok bool) {
	take := func(v uint64, name string) {
		if !ok || v < limit {
			limit, what, ok = v, name, true
		}
	}
	if avail, found := Available(); found {
		take(avail, "MemAvailable in "+MemInfoPath)
	}
	if as, found := AddressSpaceLimit(); found {
		take(as, "the address-space limit (RLIMIT_AS: ulimit -v / prlimit --as)")
	}
	if cg, path, found := CgroupLimit(); found {
		take(cg, "the cgroup memory limit ("+path+")")
	}
	return limit, what, ok
}
