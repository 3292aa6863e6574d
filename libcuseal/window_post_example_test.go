// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cgo

package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"
)

// runWindowPoStExample runs examples/window_post.py with args and returns its
// exit status, stdout and stderr.
func runWindowPoStExample(t *testing.T, py string, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd, explain := command(t, py, append([]string{filepath.Join("..", "examples", "window_post.py")}, args...)...)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	switch err = explain(err); {
	case err == nil:
		return 0, string(out), stderr.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), string(out), stderr.String()
	}
	t.Fatalf("window_post.py: %v", err)
	return 0, "", ""
}

// TestPythonWindowPoStExampleBadInput (issue 44, items 2-5): examples/window_post.py
// checks every input before it loads the library — the proof type (a WindowPoSt one, in
// int64's range), the miner and sector numbers (uint64's range, negative ones included),
// hex (an optional 0x), lengths, the randomness being canonical, the params directory,
// readable files, each file being a vanilla proof at all (not vanilla.json, not a SNARK
// proof) and that of its --sector — and reports a mistake, argparse's own included, as one
// "window_post.py: ..." line with exit status 2, never a traceback and never after proving
// (its --lib does not exist here: only the cases that pass every check get that far).
func TestPythonWindowPoStExampleBadInput(t *testing.T) {
	py := python(t, "for the example")
	w := loadVectors(t).window
	sector := func(number abi.SectorNumber, commR []byte, file string) string {
		return fmt.Sprintf("%d:%x:%s", number, commR, file)
	}
	s0 := sector(w.Sectors[0].SectorNumber, commR(t, w, 0), w.VanillaFiles[0])
	s1 := sector(w.Sectors[1].SectorNumber, commR(t, w, 1), w.VanillaFiles[1])
	tmp := t.TempDir()
	missing := filepath.Join(tmp, "missing.bin")
	vanillaJSON := filepath.Join(tmp, "vanilla.json")
	if err := os.WriteFile(vanillaJSON, []byte(`{"proof_type": 10, "miner": 1000, "randomness": "6803aa9b", "sectors": [{"number": 21001}]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	proofFile := filepath.Join(tmp, "proof.bin")
	if err := os.WriteFile(proofFile, w.Want, 0o644); err != nil {
		t.Fatal(err)
	}
	rnd := hex.EncodeToString(w.Randomness)
	params := t.TempDir()
	base := func(proofType, miner, randomness string, sectors ...string) []string {
		args := []string{"--lib", "/nonexistent/libcuseal.so", "--params", params, "--proof-type", proofType, "--miner", miner, "--randomness", randomness}
		for _, s := range sectors {
			args = append(args, "--sector", s)
		}
		return args
	}
	window := strconv.FormatInt(int64(w.Proof), 10)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"randomness not hex", base(window, "1000", "zz", s0, s1), "--randomness 'zz' is not hex"},
		{"randomness 31 bytes", base(window, "1000", hex.EncodeToString(w.Randomness[:31]), s0, s1), "--randomness is 31 bytes, want 32"},
		{"randomness not canonical", base(window, "1000", strings.Repeat("ff", 32), s0, s1), "--randomness " + strings.Repeat("ff", 32) + " is not a canonical field element"},
		{"comm_r not hex", base(window, "1000", rnd, s0, "21001:xyz:"+w.VanillaFiles[1]), "comm_r 'xyz' is not hex"},
		{"missing vanilla file", base(window, "1000", rnd, s0, sector(21001, commR(t, w, 1), missing)), "cannot read the vanilla proof: [Errno 2] No such file or directory"},
		{"vanilla proof of another sector", base(window, "1000", rnd, s0, sector(21000, commR(t, w, 1), w.VanillaFiles[1])),
			fmt.Sprintf("is the vanilla proof of sector 21001 with comm_r %x", commR(t, w, 1))},
		{"comm_r of another sector", base(window, "1000", rnd, s0, sector(21001, commR(t, w, 0), w.VanillaFiles[1])),
			fmt.Sprintf("is the vanilla proof of sector 21001 with comm_r %x", commR(t, w, 1))},
		{"vanilla.json for a vanilla proof", base(window, "1000", rnd, s0, sector(21001, commR(t, w, 1), vanillaJSON)),
			"--sector " + sector(21001, commR(t, w, 1), vanillaJSON) + ": " + vanillaJSON + " is a text file (such as vanilla.json), not a vanilla proof"},
		{"proof file for a vanilla proof", base(window, "1000", rnd, s0, sector(21001, commR(t, w, 1), proofFile)),
			proofFile + " is 192 bytes, a SNARK proof's size (192 per partition), not a vanilla proof"},
		{"sector twice", base(window, "1000", rnd, s0, s0), "sector 21000 is given twice"},
		{"proof type 2^64+10", base("18446744073709551626", "1000", rnd, s0, s1), "--proof-type 18446744073709551626 is out of range: want -9223372036854775808..9223372036854775807 (int64_t"},
		{"proof type 2^63", base("9223372036854775808", "1000", rnd, s0, s1), "--proof-type 9223372036854775808 is out of range"},
		{"winning proof type", base("3", "1000", rnd, s0, s1), "--proof-type 3 is StackedDrgWinning32GiBV1, a WinningPoSt proof; want a WindowPoSt proof: 10 = StackedDrgWindow2KiBV1_1"},
		{"legacy window proof type", base("5", "1000", rnd, s0, s1), "--proof-type 5 is the legacy StackedDrgWindow2KiBV1 (not supported): use 10 (StackedDrgWindow2KiBV1_1)"},
		{"unknown proof type", base("99", "1000", rnd, s0, s1), "--proof-type 99 is not a registered PoSt proof"},
		{"miner 2^64", base(window, "18446744073709551616", rnd, s0, s1), "--miner 18446744073709551616 is out of range: want 0..18446744073709551615 (uint64_t"},
		{"miner -1", base(window, "-1", rnd, s0, s1), "--miner -1 is out of range"},
		{"sector -1", base(window, "1000", rnd, s0, fmt.Sprintf("-1:%x:%s", commR(t, w, 1), w.VanillaFiles[1])), "the sector number -1 is out of range: want 0..18446744073709551615"},
		{"sector 2^64", base(window, "1000", rnd, s0, fmt.Sprintf("18446744073709551616:%x:%s", commR(t, w, 1), w.VanillaFiles[1])), "the sector number 18446744073709551616 is out of range"},
		{"params directory missing", append(base(window, "1000", rnd, s0, s1), "--params", missing), "--params " + missing + ": no such directory"},
		{"argparse: missing flags", []string{"--lib", "/nonexistent/libcuseal.so"}, "the following arguments are required: --params, --proof-type, --miner, --randomness, --sector"},
		{"argparse: unknown flag", append(base(window, "1000", rnd, s0, s1), "--sectors", "1"), "unrecognized arguments: --sectors 1"},
		{"inputs fine, no library", base(window, "1000", rnd, s1, s0), "--lib /nonexistent/libcuseal.so: "},
		{"0x randomness, t0 miner, proof type name: fine", base("StackedDrgWindow2KiBV1_1", "t01000", "0x"+rnd, s1, s0), "--lib /nonexistent/libcuseal.so: "},
	} {
		code, out, stderr := runWindowPoStExample(t, py, nil, c.args...)
		msg := strings.TrimSpace(stderr)
		if code != 2 || len(out) != 0 || strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "window_post.py: ") || !strings.Contains(msg, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit status 2 and one line with %q", c.name, code, out, msg, c.want)
		}
	}
}

// TestPythonWindowPoStExampleNamesSector (issue 44, item 3): a vanilla proof the library
// refuses after the example sorted the sectors is named by its --sector (number, comm_r
// and file), not by its index among the sorted sectors.
func TestPythonWindowPoStExampleNamesSector(t *testing.T) {
	py := python(t, "for the example")
	v := loadVectors(t)
	w := v.window
	lib := buildLib(t, "c-shared")
	var env []string
	if cudaBuild {
		env = []string{"LD_PRELOAD=" + lib} // see TestPythonCtypes
	}
	b, err := os.ReadFile(w.VanillaFiles[0])
	if err != nil {
		t.Fatal(err)
	}
	trunc := filepath.Join(t.TempDir(), "s0trunc.bin")
	if err := os.WriteFile(trunc, b[:3000], 0o644); err != nil {
		t.Fatal(err)
	}
	bad := fmt.Sprintf("%d:%x:%s", w.Sectors[0].SectorNumber, commR(t, w, 0), trunc)
	code, out, stderr := runWindowPoStExample(t, py, env, "--lib", lib, "--params", vkDir(t, v), "--proof-type", strconv.FormatInt(int64(w.Proof), 10),
		"--miner", "1000", "--randomness", hex.EncodeToString(w.Randomness),
		"--sector", fmt.Sprintf("%d:%x:%s", w.Sectors[1].SectorNumber, commR(t, w, 1), w.VanillaFiles[1]), "--sector", bad)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	if code != 2 || out != "" || !strings.HasPrefix(last, "window_post.py: status 2: ") || !strings.Contains(last, "the vanilla proof of --sector "+bad+" (3000 bytes") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and a last line naming --sector %s", code, out, stderr, bad)
	}
}
