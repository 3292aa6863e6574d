// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/testsupport/testenv"
)

// memcmpScript runs scripts/bench-memory-compare.sh with args: its stdout, stderr and exit code.
func memcmpScript(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{filepath.Join("..", "scripts", "bench-memory-compare.sh")}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), errb.String(), 0
	case errors.As(err, &ee):
		return out.String(), errb.String(), ee.ExitCode()
	}
	t.Fatalf("bench-memory-compare.sh %v: %v", args, err)
	return "", "", -1
}

// TestBenchMemoryCompareScript keeps scripts/bench-memory-compare.sh (issue 40 item 4) honest
// without proving anything: its usage errors, its reading of `/usr/bin/time -v` files (two
// recorded from its first real run: cuseal's and bellperson's 2 KiB C2, and a process killed
// by a signal) and the table and summary.tsv it makes of a work folder, a failed side included.
func TestBenchMemoryCompareScript(t *testing.T) {
	testenv.Long(t, "runs scripts/bench-memory-compare.sh's report on recorded /usr/bin/time -v files (bash, awk)")
	for _, tool := range []string{"bash", "awk", "jq", "flock"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: scripts/bench-memory-compare.sh needs it", tool)
		}
	}
	rec := filepath.Join("..", "scripts", "testdata", "bench-memory-compare")

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--rows", "c2-2k,c2-32g"}, "--rows: unknown row c2-32g"},
		{[]string{"--rows"}, "--rows: missing value"},
		{[]string{"--frobnicate"}, "unknown argument --frobnicate"},
		{[]string{"--reader", "slurp"}, "--reader slurp: want mapped or read"},
		{[]string{"--refproofs", filepath.Join(t.TempDir(), "none")}, "not an executable"},
		{[]string{"--report", filepath.Join(t.TempDir(), "none")}, "not a directory"},
		{[]string{"--parse-time", filepath.Join(rec, "README.md")}, "not a /usr/bin/time -v output"},
	} {
		out, stderr, code := memcmpScript(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) || out != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit 2 naming %q", c.args, code, stderr, out, c.want)
		}
	}

	// The recorded files' lines, as /usr/bin/time -v wrote them: "Maximum resident set size
	// (kbytes)", "Elapsed (wall clock) time" (m:ss.cc), "User time", "System time", "Exit status"
	// (128 + 9 for the killed process, whose "Exit status" line says 0).
	for _, c := range []struct{ file, want string }{
		{"work/c2-2k/cuseal.time", "2954112 34.00 37.68 3.36 0"},
		{"work/c2-2k/bellperson.time", "2732680 84.11 83.73 2.08 0"},
		{"killed.time", "1424 0.00 0.00 0.00 137"},
	} {
		out, stderr, code := memcmpScript(t, "--parse-time", filepath.Join(rec, c.file))
		if code != 0 || strings.TrimSpace(out) != c.want {
			t.Errorf("--parse-time %s: exit %d %q (%s); want %q", c.file, code, out, stderr, c.want)
		}
	}
	// bellperson's peak from /usr/bin/time is the VmHWM cuseal-refproofs read for itself.
	bj, err := os.ReadFile(filepath.Join(rec, "work", "c2-2k", "bellperson.json"))
	if err != nil || !strings.Contains(string(bj), `"peak_rss_kib": 2732680,`) {
		t.Errorf("bellperson.json (%v): want peak_rss_kib 2732680, the peak /usr/bin/time saw:\n%s", err, bj)
	}

	// The report of the recorded row, and of a copy whose bellperson side failed.
	work := t.TempDir()
	copyTree(t, filepath.Join(rec, "work"), work)
	const row = "| PoRep C2 2 KiB (1 partition) | 2.817 GiB (2954112 KiB) | 2.606 GiB (2732680 KiB) | 1.081 | no | 34.00 s (41.04) | 84.11 s (85.81) | yes, yes |"
	out, stderr, code := memcmpScript(t, "--report", work)
	if code != 0 || !strings.Contains(out, "\n"+row+"\n") || strings.Count(out, "\n| ") != 1 {
		t.Errorf("--report: exit %d (%s)\n%s\nwant the header and one row:\n%s", code, stderr, out, row)
	}
	const tsvRow = "c2-2k\t2954112\t2732680\t1.081\t34.00\t41.04\t84.11\t85.81\tyes\tyes\n"
	tsv, err := os.ReadFile(filepath.Join(work, "summary.tsv"))
	if err != nil || !strings.HasSuffix(string(tsv), tsvRow) || !strings.HasPrefix(string(tsv), "kind\tcuseal_peak_kib\t") {
		t.Errorf("summary.tsv (%v):\n%s\nwant the header and the row %q", err, tsv, tsvRow)
	}
	if err := os.WriteFile(filepath.Join(work, "c2-2k", "bellperson.json"), []byte(`{"verified": false}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code = memcmpScript(t, "--report", work)
	if code != 1 || !strings.Contains(out, "| yes, no |") {
		t.Errorf("--report with bellperson unverified: exit %d\n%s\nwant exit 1 and verified \"yes, no\"", code, out)
	}
}

// copyTree copies the regular files under src to dst, keeping the folders.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
