// SPDX-License-Identifier: Apache-2.0 OR MIT

package hostmem

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fake points MemInfoPath and CgroupPaths at files holding meminfo and
// cgroup ("" for no cgroup file) for the rest of the test.
func fake(t *testing.T, meminfo, cgroup string) {
	t.Helper()
	dir := t.TempDir()
	oldM, oldC := MemInfoPath, CgroupPaths
	t.Cleanup(func() { MemInfoPath, CgroupPaths = oldM, oldC })
	MemInfoPath = filepath.Join(dir, "meminfo")
	CgroupPaths = []string{filepath.Join(dir, "memory.max"), filepath.Join(dir, "memory.limit_in_bytes")}
	if err := os.WriteFile(MemInfoPath, []byte(meminfo), 0o644); err != nil {
		t.Fatal(err)
	}
	if cgroup != "" {
		if err := os.WriteFile(CgroupPaths[0], []byte(cgroup), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMemInfo(t *testing.T) {
	fake(t, "MemTotal:       24684084 kB\nMemFree:  1 kB\nMemAvailable:   17204396 kB\n", "")
	total, avail, ok := MemInfo()
	if !ok || total != 24684084<<10 || avail != 17204396<<10 {
		t.Fatalf("MemInfo = %d, %d, %v", total, avail, ok)
	}
	if v, ok := Total(); !ok || v != total {
		t.Errorf("Total = %d, %v", v, ok)
	}
	if v, ok := Available(); !ok || v != avail {
		t.Errorf("Available = %d, %v", v, ok)
	}

	// A kernel without MemAvailable (before 3.14): Total still reads, MemInfo does not.
	fake(t, "MemTotal:       4000 kB\n", "")
	if _, _, ok := MemInfo(); ok {
		t.Error("MemInfo without MemAvailable: ok")
	}
	if _, ok := Available(); ok {
		t.Error("Available without MemAvailable: ok")
	}
	if v, ok := Total(); !ok || v != 4000<<10 {
		t.Errorf("Total = %d, %v", v, ok)
	}

	fake(t, "MemTotal: lots kB\nMemAvailable: 1 kB\n", "")
	if _, ok := Total(); ok {
		t.Error("a malformed MemTotal reads as ok")
	}

	MemInfoPath = filepath.Join(t.TempDir(), "missing")
	if _, _, ok := MemInfo(); ok {
		t.Error("a missing meminfo reads as ok")
	}
}

func TestCgroupLimit(t *testing.T) {
	for _, tc := range []struct {
		file string
		want uint64
		ok   bool
	}{
		{"", 0, false},
		{"max\n", 0, false},
		{"9223372036854771712\n", 0, false}, // cgroup v1: no limit
		{"2147483648\n", 2 << 30, true},
	} {
		fake(t, "MemTotal: 1 kB\nMemAvailable: 1 kB\n", tc.file)
		v, path, ok := CgroupLimit()
		if v != tc.want || ok != tc.ok || (ok && path != CgroupPaths[0]) {
			t.Errorf("%q: CgroupLimit = %d, %q, %v; want %d, %v", tc.file, v, path, ok, tc.want, tc.ok)
		}
	}
	// cgroup v1 only.
	fake(t, "", "")
	if err := os.WriteFile(CgroupPaths[1], []byte("1048576\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v, path, ok := CgroupLimit(); !ok || v != 1<<20 || path != CgroupPaths[1] {
		t.Errorf("v1: CgroupLimit = %d, %q, %v", v, path, ok)
	}
}

// TestLimit: the least fact binds, and the words name it.
func TestLimit(t *testing.T) {
	fake(t, "MemTotal: 8000000 kB\nMemAvailable: 4000000 kB\n", "1048576\n")
	v, what, ok := Limit()
	if !ok || v != 1<<20 || !strings.Contains(what, "cgroup memory limit ("+CgroupPaths[0]+")") {
		t.Errorf("Limit = %d, %q, %v; want the cgroup's 1 MiB", v, what, ok)
	}
	fake(t, "MemTotal: 8000000 kB\nMemAvailable: 1000 kB\n", "max")
	v, what, ok = Limit()
	if !ok || v != 1000<<10 || what != "MemAvailable in "+MemInfoPath {
		t.Errorf("Limit = %d, %q, %v; want MemAvailable's", v, what, ok)
	}
}
