// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/testsupport/testpost"
	"github.com/cuseal/cuseal/testsupport/testprover"
	"github.com/cuseal/cuseal/testsupport/testupdate"
)

// stopServe stops p with SIGTERM and wants exit 0.
func stopServe(t *testing.T, p *serveProc) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	if code := p.wait(t, 30*time.Second); code != 0 {
		t.Fatalf("serve: exit %d:\n%s", code, p.log())
	}
}

// TestClientProvePoSt: `cuseal client prove --kind winning-post` (vanilla
// files and flags) and `--kind window-post` (a post vanilla directory and
// --partition) over a unix socket to `cuseal serve` (testprover.BackendAnyRS:
// the reference double in the unit tier, the CPU in the long tier); each
// proof passes `post verify`.
func TestClientProvePoSt(t *testing.T) {
	win := testpost.Load(t, "post-winning-2KiB-s22")
	w := testpost.Load(t, "post-window-2KiB-s21")
	params := testpost.JoinParamsDirs(t, win.ParamsDir(t), w.ParamsDir(t))
	sock := filepath.Join(t.TempDir(), "s.sock")
	p := startServe(t, "--listen", "unix://"+sock, "--params-dir", params, "--backend", testprover.BackendAnyRS(t))
	for _, tc := range []struct {
		kind string
		v    *testpost.Vector
		args []string
	}{
		{circuitWinningPoSt, win, append([]string{"--proof-type", "StackedDrgWinning2KiBV1", "--miner", fmt.Sprintf("t0%d", win.Miner),
			"--randomness", hex.EncodeToString(win.Randomness)}, postVanillaArgs(win)...)},
		{circuitWindowPoSt, w, []string{"--vanilla", vectorVanillaDir(t, w), "--partition", "0"}},
	} {
		out := filepath.Join(t.TempDir(), "proof.bin")
		code, _, stderr := runCLI(t, append([]string{"client", "prove", "--addr", p.addr, "--kind", tc.kind, "--out", out}, tc.args...)...)
		if code != exitOK {
			t.Fatalf("client prove --kind %s: exit %d: %s\n%s", tc.kind, code, stderr, p.log())
		}
		// Off a terminal, one line per state while it waits (issue 44, item 1).
		for _, want := range []string{" sent to " + p.addr + ", waiting for the proof (", "client prove: proof received ("} {
			if !strings.Contains(stderr, want) {
				t.Errorf("client prove --kind %s: stderr lacks %q:\n%s", tc.kind, want, stderr)
			}
		}
		if b, err := os.ReadFile(out); err != nil || len(b) != groth16.ProofSize {
			t.Fatalf("--kind %s: proof file of %d bytes (%v)", tc.kind, len(b), err)
		}
		verify := append([]string{"post", "verify", "--params-dir", params, "--proof-type", fmt.Sprint(int64(tc.v.Proof)),
			"--randomness", hex.EncodeToString(tc.v.Randomness), "--proof", out}, postVanillaArgs(tc.v)...)
		if code, stdout, stderr := runCLI(t, verify...); code != exitOK || !strings.HasPrefix(stdout, "valid: ") {
			t.Fatalf("post verify of the --kind %s proof: exit %d: %s %s", tc.kind, code, stdout, stderr)
		}
	}
	// The server refuses window vanilla proofs out of sector order, naming the field.
	swapped := []string{"--vanilla", w.VanillaFiles[1], "--vanilla", w.VanillaFiles[0]}
	args := append([]string{"client", "prove", "--addr", p.addr, "--kind", circuitWindowPoSt, "--proof-type", "10", "--miner", fmt.Sprintf("t0%d", w.Miner),
		"--randomness", hex.EncodeToString(w.Randomness)}, swapped...)
	if code, _, stderr := runCLI(t, args...); code != exitUsage {
		t.Fatalf("swapped sectors: exit %d: %s", code, stderr)
	} else {
		wantOneLineError(t, stderr, "vanilla proof 1 (sector 21000) after vanilla proof 0 (sector 21001)")
	}
	stopServe(t, p)
}

// TestClientProveSnap: `cuseal client prove --kind snap` (the alias of update) sends the 2 KiB
// update vector's partition proofs and commitments (CIDs, sent as raw 32
// bytes) to `cuseal serve` over a unix socket (testprover.BackendAnyRS); the
// proof passes `update verify`.
func TestClientProveSnap(t *testing.T) {
	v := testupdate.Load(t)
	params := v.ParamsDir(t)
	sock := filepath.Join(t.TempDir(), "s.sock")
	p := startServe(t, "--listen", "unix://"+sock, "--params-dir", params, "--backend", testprover.BackendAnyRS(t))
	comms := []string{"--comm-r-old", v.OldSealed.String(), "--comm-r-new", v.NewSealed.String(), "--comm-d-new", hex.EncodeToString(v.CommDNew[:])}
	out := filepath.Join(t.TempDir(), "proof.bin")
	args := append([]string{"client", "prove", "--addr", p.addr, "--kind", "snap", "--sector-size", "2KiB", "--out", out}, comms...)
	for _, f := range v.VanillaFiles {
		args = append(args, "--vanilla", f)
	}
	if code, _, stderr := runCLI(t, args...); code != exitOK {
		t.Fatalf("client prove --kind snap: exit %d: %s\n%s", code, stderr, p.log())
	}
	stopServe(t, p)
	verify := append([]string{"update", "verify", "--sector-size", "2KiB", "--proof", out, "--params-dir", params}, comms...)
	if code, stdout, stderr := runCLI(t, verify...); code != exitOK || !strings.HasPrefix(stdout, "valid: ") {
		t.Fatalf("update verify: exit %d: %s %s", code, stdout, stderr)
	}
}

// TestClientProveUsage: client prove's flag mistakes are one line, exit 2,
// before any connection.
func TestClientProveUsage(t *testing.T) {
	w := testpost.Load(t, "post-window-2KiB-s21")
	dir := vectorVanillaDir(t, w)
	addr := "unix://" + filepath.Join(t.TempDir(), "none.sock")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown kind", []string{"--kind", "seal"}, `--kind "seal": want porep, winning-post, window-post or update`},
		{"porep without c1", nil, "--c1: required for --kind porep"},
		{"flag of another kind", []string{"--kind", circuitWinningPoSt, "--partition", "1"}, "--partition: not read by --kind winning-post"},
		{"c1 for post", []string{"--kind", circuitWindowPoSt, "--c1", "x.json"}, "--c1: not read by --kind window-post"},
		{"post without vanilla", []string{"--kind", circuitWinningPoSt, "--proof-type", "0", "--randomness", strings.Repeat("00", 32)}, "--vanilla: no vanilla proof files"},
		{"dir of the other kind", []string{"--kind", circuitWinningPoSt, "--vanilla", dir}, "--kind winning-post wants WinningPoSt"},
		{"partition beyond the dir", []string{"--kind", circuitWindowPoSt, "--vanilla", dir, "--partition", "1"}, "--partition 1: --vanilla " + dir + " holds 2 sector(s), 1 partition(s)"},
		{"randomness not the dir's", []string{"--kind", circuitWindowPoSt, "--vanilla", dir, "--randomness", strings.Repeat("00", 32)}, "vanilla.json has randomness"},
		{"update without commitments", []string{"--kind", circuitUpdate, "--sector-size", "2KiB", "--vanilla", dir}, "--comm-r-old: required for --kind update"},
		{"snap (update's alias) reads update's flags", []string{"--kind", "snap", "--c1", "x.json"}, "--c1: not read by --kind snap"},
		{"--circuit is --kind", []string{"--circuit", "seal"}, `--kind "seal": want porep`},
		{"request id not UTF-8", []string{"--kind", circuitWindowPoSt, "--vanilla", dir, "--request-id", "a\xff\xfe"}, "--request-id: byte 1 (0xff) is not UTF-8"},
		{"request id with a control character", []string{"--kind", circuitWindowPoSt, "--vanilla", dir, "--request-id", "a\x1b[2J"}, "--request-id: byte 1 is U+001B, not a printable character"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, append([]string{"client", "prove", "--addr", addr}, tc.args...)...)
			if code != exitUsage {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			wantOneLineError(t, stderr, tc.want)
		})
	}
}
