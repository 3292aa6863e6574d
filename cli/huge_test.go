// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/testsupport/testenv"
)

// runHugeScript runs scripts/huge-32g.sh at a sector size with this test binary as cuseal
// (CUSEAL_TEST_AS_CUSEAL, TestMain) and checks its results.tsv: every step of each kind
// in order (PoRep: parameters, synthetic C1, partition 0 proven and verified with the
// .vk; for a one-partition sector also commit2 and cuseal verify; WindowPoSt: parameters,
// vanilla proofs, the partition proven, post verify), each with exit 0, a wall time and
// a peak RSS; and no parameter directory left behind.
func runHugeScript(t *testing.T, size string, onePartition bool) {
	for _, tool := range []string{"bash", "awk", "du", "/usr/bin/time"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: scripts/huge-32g.sh needs it", tool)
		}
	}
	bin := testBinaryAsCuseal(t)
	work := t.TempDir()
	cmd := exec.Command("bash", filepath.Join("..", "scripts", "huge-32g.sh"), "--sector-size", size, "--work", work, "--cuseal", bin)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Run(); err != nil {
		t.Fatalf("scripts/huge-32g.sh --sector-size %s: %v\n%s", size, err, log.String())
	}
	tsv, err := os.ReadFile(filepath.Join(work, "results.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("results.tsv:\n%s", tsv)
	want := []string{"porep generate", "porep input", "porep prove-partition0"}
	if onePartition {
		want = append(want, "porep commit2", "porep verify")
	}
	want = append(want, "window-post generate", "window-post input", "window-post prove", "window-post verify")
	lines := strings.Split(strings.TrimSpace(string(tsv)), "\n")
	if len(lines) != len(want)+1 {
		t.Fatalf("results.tsv: %d steps, want %d (%s)", len(lines)-1, len(want), strings.Join(want, ", "))
	}
	for i, w := range want {
		f := strings.Split(lines[i+1], "\t")
		if len(f) != 6 || f[0]+" "+f[1] != w || f[5] != "0" || f[2] == "" || f[3] == "" {
			t.Errorf("results.tsv step %d: %q, want %s with a wall time, a peak RSS and exit 0", i+1, lines[i+1], w)
		}
	}
	if _, err := os.Stat(filepath.Join(work, "params")); !os.IsNotExist(err) {
		t.Errorf("the parameter directory is still there (%v)", err)
	}
}

// testBinaryAsCuseal writes a two-line wrapper that runs this test binary as cuseal
// (CUSEAL_TEST_AS_CUSEAL, TestMain), for the scripts' tests, and returns its path.
func testBinaryAsCuseal(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "cuseal")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\nCUSEAL_TEST_AS_CUSEAL=1 exec '"+exe+"' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestHugeScript2KiB checks scripts/huge-32g.sh's logic at 2 KiB.
func TestHugeScript2KiB(t *testing.T) {
	testenv.Long(t, "scripts/huge-32g.sh at 2 KiB: PoRep and WindowPoSt test parameters generated, three CPU proofs verified, parameters deleted (~6 min, 2.9 GB)")
	runHugeScript(t, "2KiB", true)
}

// TestHuge32GiB is issue 40 item 3's run: one PoRep C2 partition and one full WindowPoSt
// partition of a 32 GiB sector, each from its own 32 GiB test parameters, made and deleted
// in turn under TMPDIR (it needs ~60 GB of disk there).
func TestHuge32GiB(t *testing.T) {
	testenv.Huge(t, "scripts/huge-32g.sh at 32 GiB: test parameters of ~44 and ~57 GiB generated and deleted in turn, a PoRep and a WindowPoSt partition proven on the CPU (hours)")
	runHugeScript(t, "32GiB", false)
}
