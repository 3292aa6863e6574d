// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs cuseal in-process and returns its exit code, stdout and stderr.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"cuseal"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// runCLIProcess is runCLI in a process of its own (the test binary as cuseal,
// CUSEAL_TEST_AS_CUSEAL=1): for what a process does once, such as the TEST
// parameters warning, which an earlier test in this process may have used up.
func runCLIProcess(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "CUSEAL_TEST_AS_CUSEAL=1")
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String(), errb.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), out.String(), errb.String()
	}
	t.Fatalf("run %s: %v", os.Args[0], err)
	return 0, "", ""
}

// wantOneLineError checks that stderr is exactly one line naming want.
func wantOneLineError(t *testing.T, stderr, want string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	var errLines []string
	for _, l := range lines {
		if strings.HasPrefix(l, "cuseal: ") {
			errLines = append(errLines, l)
		}
	}
	if len(errLines) != 1 {
		t.Fatalf("want exactly one error line, got %d in stderr:\n%s", len(errLines), stderr)
	}
	if !strings.Contains(errLines[0], want) {
		t.Fatalf("error line %q does not mention %q", errLines[0], want)
	}
	if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic:") {
		t.Fatalf("stderr has a stack trace:\n%s", stderr)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, "version")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	if !strings.HasPrefix(out, "cuseal "+version+" ") {
		t.Fatalf("version output %q", out)
	}
}

func TestInfoJSON(t *testing.T) {
	code, out, stderr := runCLI(t, "info", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("info --json is not JSON: %v\n%s", err, out)
	}
	for _, k := range []string{"version", "go_version", "build_tags", "cuda", "cuda_archs", "devices", "backend"} {
		if _, ok := m[k]; !ok {
			t.Errorf("info --json lacks key %q", k)
		}
	}
	if m["cuda"] != cudaBuild {
		t.Errorf("cuda = %v, want %v", m["cuda"], cudaBuild)
	}
	if b := m["backend"]; b != "cpu" && b != "cuda" {
		t.Errorf("backend = %v", b)
	}
	if !cudaBuild && (m["backend"] != "cpu" || m["backend_reason"] != "built without the cuda tag") {
		t.Errorf("pure-Go build picks backend %v (reason %v)", m["backend"], m["backend_reason"])
	}
}

func TestInfoNoGPU(t *testing.T) {
	for _, tc := range []struct {
		env  string // "" = unset
		args []string
		want bool
	}{
		{"1", nil, true},
		{"yes", nil, true}, // bellperson: any value but "0"
		{"0", nil, false},
		{"", []string{"--no-gpu"}, true},
		{"", nil, false},
	} {
		if tc.env != "" {
			t.Setenv("BELLMAN_NO_GPU", tc.env)
		} else {
			t.Setenv("BELLMAN_NO_GPU", "0")
		}
		code, out, stderr := runCLI(t, append([]string{"info", "--json"}, tc.args...)...)
		if code != exitOK {
			t.Fatalf("BELLMAN_NO_GPU=%q %v: exit %d: %s", tc.env, tc.args, code, stderr)
		}
		var info buildInfo
		if err := json.Unmarshal([]byte(out), &info); err != nil {
			t.Fatal(err)
		}
		if info.NoGPU != tc.want || (tc.want && info.Backend != "cpu") {
			t.Errorf("BELLMAN_NO_GPU=%q %v: no_gpu=%v backend=%s, want no_gpu=%v", tc.env, tc.args, info.NoGPU, info.Backend, tc.want)
		}
	}
}

func TestProgressDisabledOffTerminal(t *testing.T) {
	var buf bytes.Buffer
	if progressEnabled(&buf, false) || progressEnabled(os.Stderr, true) {
		t.Fatal("progress enabled for a buffer or with --json")
	}
	p := newProgress(&buf, false, 10, "x")
	if p != nil {
		t.Fatal("newProgress returned a bar for a buffer")
	}
	p.Add(1) // nil-safe
	p.Set(2)
	p.Describe("y")
	p.Done()
	if buf.Len() != 0 {
		t.Fatalf("disabled progress wrote %q", buf.String())
	}
}

func TestInfoText(t *testing.T) {
	code, out, _ := runCLI(t, "info")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"cuseal " + version, "go1.", "backend:"} {
		if !strings.Contains(out, want) {
			t.Errorf("info output lacks %q:\n%s", want, out)
		}
	}
	if !cudaBuild && !strings.Contains(out, "fallback:   auto uses the CPU: built without the cuda tag") {
		t.Errorf("pure-Go info does not say why auto uses the CPU:\n%s", out)
	}
	if !cudaBuild && !strings.Contains(out, "not built in") {
		t.Errorf("pure-Go info does not say CUDA is not built in:\n%s", out)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"unknown sub-command, then --help", []string{"post", "prove", "--help"}, `unknown command "prove" (see 'cuseal post --help')`},
		{"unknown flag", []string{"info", "--frob"}, "frob"},
		{"bad log level", []string{"--log-level", "loud", "version"}, "--log-level"},
		{"not a number", []string{"bench", "synth", "--synthetic", "--sector-size", "2KiB", "--workers", "abc"}, `--workers "abc": not a valid integer`},
		{"not a duration", []string{"serve", "--drain-timeout", "600"}, `--drain-timeout "600": want a duration such as 10m or 90s`},
		{"not a boolean", []string{"bench", "synth", "--synthetic", "--sector-size", "2KiB", "--no-pool=maybe"}, `--no-pool="maybe": want true or false`},
		{"number too large", []string{"bench", "synth", "--synthetic", "--sector-size", "2KiB", "--runs", "99999999999999999999"}, `--runs "99999999999999999999": out of range`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, tc.args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitUsage, stderr)
			}
			wantOneLineError(t, stderr, tc.want)
		})
	}
}

// TestNoArgsPrintsHelp: a command group without a sub-command prints its usage and is a
// usage error (exit 2), not a success.
func TestNoArgsPrintsHelp(t *testing.T) {
	for _, args := range [][]string{nil, {"params"}, {"bench"}} {
		code, out, stderr := runCLI(t, args...)
		if code != exitUsage || !strings.Contains(out, "COMMANDS:") {
			t.Fatalf("%q: exit %d, output:\n%s", args, code, out)
		}
		wantOneLineError(t, stderr, "missing command")
	}
}

// TestUnexpectedArguments: commands that take no positional arguments reject them (urfave/cli
// stops parsing flags at the first one, so flags after it would otherwise be ignored).
func TestUnexpectedArguments(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"version", "junk"},
		{"info", "junk"},
		{"bench", "synth", "--sector-size", "2KiB", "--synthetic", "junk", "--json"},
		{"verify", "--c1", dir + "/c1.json", "--proof", dir + "/p", "junk", "--params-dir", dir},
		{"commit2", "--c1", dir + "/c1.json", "junk"},
		{"seal", "--out", dir + "/o", "--ticket", "00", "--seed", "00", "junk"},
		{"params", "generate", "--sector-size", "2KiB", "--out", dir, "junk"},
		{"bench", "msm", "junk"},
		{"bench", "ntt", "junk"},
		{"bench", "prove", "--c1", dir + "/c1.json", "junk"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, out, stderr := runCLI(t, args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", code, exitUsage, out, stderr)
			}
			wantOneLineError(t, stderr, `unexpected argument "junk"`)
		})
	}
}

// TestFlagAfterArguments: for commands that take positional arguments, a flag written after
// them (which urfave/cli reads as one more argument) is named as misplaced, exit 2, before
// any file is read or written.
func TestFlagAfterArguments(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "proof")
	zero := strings.Repeat("00", 32)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"post", "winning", "--randomness", zero, "--proof-type", "0", "--vanilla", dir + "/a.bin", dir + "/b.bin", "--out", out},
			"--out after the arguments [VANILLA_FILE... | DIR]: flags must come before them"},
		{[]string{"update", "prove", "--sector-size", "2KiB", "--comm-r-old", zero, "--comm-r-new", zero, "--comm-d-new", zero, "--vanilla", dir + "/p0.bin", dir + "/p1.bin", "--params-dir", dir},
			"--params-dir after the arguments [VANILLA_FILE...]"},
		{[]string{"params", "info", dir + "/x.vk", "--json"}, "--json after the arguments FILE"},
		{[]string{"client", "cancel", "job-1", "--addr", "unix://" + dir + "/s.sock"}, "--addr after the arguments JOB_ID"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitUsage {
			t.Fatalf("%v: exit %d, want %d: %s", tc.args, code, exitUsage, stderr)
		}
		wantOneLineError(t, stderr, tc.want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("--out written: %v", err)
	}
}

func TestClassify(t *testing.T) {
	if got := exitCode(classify(errInvalidProof), &bytes.Buffer{}); got != exitInvalidProof {
		t.Errorf("invalid proof → %d", got)
	}
	if got := exitCode(classify(usageErrorf("x")), &bytes.Buffer{}); got != exitUsage {
		t.Errorf("usage → %d", got)
	}
	var buf bytes.Buffer
	if got := exitCode(classify(bytes.ErrTooLarge), &buf); got != exitInternal {
		t.Errorf("untyped action error → %d, want %d", got, exitInternal)
	}
	if got := exitCode(nil, &buf); got != exitOK {
		t.Errorf("nil → %d", got)
	}
}

func TestOneLine(t *testing.T) {
	if got := oneLine("a\nb\n  c  \n"); got != "a; b; c" {
		t.Fatalf("oneLine = %q", got)
	}
}
