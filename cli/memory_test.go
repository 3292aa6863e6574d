// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/internal/hostmem"
	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/stacked"
)

// TestEstimateMemory: the 2 KiB estimate is in the range of the measured peak RSS
// (docs/BENCHMARKS.md, "EstimateMemory against the measured peak": 1.07 GB on the CPU backend;
// the .params is read with pread, not resident), grows by one assignment per partition in
// flight, and the CUDA backend counts the decoded SRS (about the file) but no host H stage.
func TestEstimateMemory(t *testing.T) {
	cfg, err := stacked.ConfigByName("StackedDrg2KiBV1_1")
	if err != nil {
		t.Fatal(err)
	}
	one, err := porep.EstimateMemory(&cfg, porep.BackendCPU, 1, false, 1114707768)
	if err != nil {
		t.Fatal(err)
	}
	if one.Total < 900<<20 || one.Total > 1300<<20 || one.Params > 1<<20 {
		t.Fatalf("2 KiB estimate %+v, want 0.9-1.3 GiB with the .params not resident", one)
	}
	shape, _ := porep.EstimateMemory(&cfg, porep.BackendCUDA, 1, false, 0)
	if d := int64(shape.Params) - 1114707768; d < 0 || d > 1114707768/10 {
		t.Errorf(".params size from the shape %d, file 1114707768", shape.Params)
	}
	two, _ := porep.EstimateMemory(&cfg, porep.BackendCPU, 2, false, 1114707768)
	if two.Total != one.Total+one.PerPartition {
		t.Errorf("2 in flight: %d, want %d", two.Total, one.Total+one.PerPartition)
	}
	cuda, _ := porep.EstimateMemory(&cfg, porep.BackendCUDA, 1, false, 1114707768)
	if cuda.Backend != 0 || cuda.Params != 1114707768 {
		t.Errorf("cuda estimate %+v", cuda)
	}
	pre, _ := porep.EstimateMemory(&cfg, porep.BackendCPU, 1, true, 1114707768)
	if pre.Params < 1114707768 || pre.Total < one.Total+1114707768-(256<<20) {
		t.Errorf("preloaded estimate %+v against %+v", pre, one)
	}
}

// fakeParamsDir writes placeholder 2 KiB parameter files (the preflight runs before they
// are read).
func fakeParamsDir(t *testing.T) string {
	dir := t.TempDir()
	cfg, err := stacked.ConfigByName("StackedDrg2KiBV1_1")
	if err != nil {
		t.Fatal(err)
	}
	pp, vp, _ := cfg.ParameterPaths(dir)
	write(t, pp, "x")
	write(t, vp, "x")
	return dir
}

// TestProveMemoryPreflight (issue 15, fault 4): with little memory available commit2 and
// bench prove refuse before reading the parameters, exit 2, naming the estimate, the limit
// and --force; a refusal writes no proof.
func TestProveMemoryPreflight(t *testing.T) {
	c1 := filepath.Join(sealedSample(t), FileC1)
	fake := filepath.Join(t.TempDir(), "meminfo")
	write(t, fake, "MemTotal:       4000000 kB\nMemAvailable:   1000000 kB\n")
	oldM, oldC := hostmem.MemInfoPath, hostmem.CgroupPaths
	hostmem.MemInfoPath, hostmem.CgroupPaths = fake, nil
	defer func() { hostmem.MemInfoPath, hostmem.CgroupPaths = oldM, oldC }()
	dir := fakeParamsDir(t)
	out := filepath.Join(t.TempDir(), "proof")
	for _, args := range [][]string{
		{"commit2", "--c1", c1, "--params-dir", dir, "--sector", "7", "--backend", "cpu", "--out", out},
		{"commit2", "--c1", c1, "--params-dir", dir, "--sector", "7", "--backend", "cpu", "--out", out, "--partitions-in-flight", "2"},
		{"bench", "prove", "--c1", c1, "--params-dir", dir, "--sector", "7", "--backend", "cpu"},
	} {
		code, _, stderr := runCLI(t, args...)
		if code != exitUsage {
			t.Fatalf("%v: exit %d, want %d: %s", args, code, exitUsage, stderr)
		}
		wantOneLineError(t, stderr, "needs about")
		for _, want := range []string{"976.6MiB is available (MemAvailable", "--force"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%v: stderr lacks %q: %s", args, want, stderr)
			}
		}
		if strings.Contains(strings.Join(args, " "), "--partitions-in-flight 2") && !strings.Contains(stderr, " 1 partition(s) in flight") {
			// A new user's trial: the sector has one partition, so one is in flight.
			t.Errorf("--partitions-in-flight 2 of a one-partition sector counted as 2: %s", stderr)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a proof was written")
	}
	// --force skips the preflight: the placeholder parameters are then the error.
	code, _, stderr := runCLI(t, "commit2", "--c1", c1, "--params-dir", dir, "--sector", "7", "--backend", "cpu", "--out", out, "--force")
	if code != exitUsage || strings.Contains(stderr, "needs about") {
		t.Fatalf("--force: exit %d: %s", code, stderr)
	}
}

// TestProveMemoryPreflightRlimit is the reported reproduction: commit2 of a 2 KiB sector under
// `prlimit --as` 2.5 GB exits 2 with one line, not "runtime: out of memory" and a goroutine
// dump (a 2 KiB C2 needs ~1.1 GB resident but more address space: addressSpaceNeed). The test
// binary re-runs itself under prlimit (skipped where prlimit is missing).
func TestProveMemoryPreflightRlimit(t *testing.T) {
	if os.Getenv("CUSEAL_PRLIMIT_HELPER") != "" {
		args := strings.Split(os.Getenv("CUSEAL_PRLIMIT_HELPER"), "\x1f")
		os.Exit(run(append([]string{"cuseal"}, args...), os.Stdout, os.Stderr))
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("prlimit not installed")
	}
	c1 := filepath.Join(sealedSample(t), FileC1)
	dir := fakeParamsDir(t)
	args := []string{"commit2", "--c1", c1, "--params-dir", dir, "--sector", "7", "--backend", "cpu", "--out", filepath.Join(t.TempDir(), "proof")}
	cmd := exec.Command(prlimit, "--as=2500000000", os.Args[0], "-test.run=^TestProveMemoryPreflightRlimit$")
	cmd.Env = append(os.Environ(), "CUSEAL_PRLIMIT_HELPER="+strings.Join(args, "\x1f"))
	outb, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitUsage {
		t.Fatalf("exit %v, want %d:\n%s", err, exitUsage, outb)
	}
	wantOneLineError(t, string(outb), "the address-space limit (RLIMIT_AS")
}
