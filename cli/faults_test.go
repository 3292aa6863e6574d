// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"

	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/testsupport/testparams"
)

// TestParamsDirFaults (issue 15, faults 1–3): parameter directories a user can end up with,
// each exit 2 with one line naming the file and what is wrong with it.
func TestParamsDirFaults(t *testing.T) {
	sector := sealedSample(t)
	c1 := filepath.Join(sector, FileC1)
	cfg, err := stacked.ConfigByName("StackedDrg2KiBV1_1")
	if err != nil {
		t.Fatal(err)
	}
	_, _, g1, g2 := bls.Generators()
	pb := (&groth16.Proof{A: g1, B: g2, C: g1}).Bytes()
	proof := filepath.Join(t.TempDir(), "proof")
	if err := os.WriteFile(proof, pb[:], 0o644); err != nil {
		t.Fatal(err)
	}
	type tcase struct {
		name    string
		setup   func(t *testing.T, dir string)
		verify  bool // run verify instead of commit2
		want    string
		notWant string
	}
	cases := []tcase{
		// Fault 2: only the circuit's own .vk: no "other circuits" hint naming it.
		{name: "only the own vk", setup: func(t *testing.T, dir string) {
			_, vp, _ := cfg.ParameterPaths(dir)
			write(t, vp, "x")
		}, want: ".params missing; generate test parameters", notWant: "other circuits"},
		{name: "dangling links", setup: func(t *testing.T, dir string) {
			pp, vp, _ := cfg.ParameterPaths(dir)
			for _, p := range []string{pp, vp} {
				if err := os.Symlink(filepath.Join(dir, "gone", filepath.Base(p)), p); err != nil {
					t.Fatal(err)
				}
			}
		}, want: ".vk is a dangling symbolic link (to ", notWant: "other circuits"},
		// Fault 3: a directory where the .params should be.
		{name: "params is a directory", setup: func(t *testing.T, dir string) {
			pp, vp, _ := cfg.ParameterPaths(dir)
			write(t, vp, "x")
			if err := os.Mkdir(pp, 0o755); err != nil {
				t.Fatal(err)
			}
		}, want: ".params is a directory"},
		{name: "verify: vk is a directory", verify: true, setup: func(t *testing.T, dir string) {
			_, vp, _ := cfg.ParameterPaths(dir)
			if err := os.Mkdir(vp, 0o755); err != nil {
				t.Fatal(err)
			}
		}, want: ".vk is a directory"},
	}
	if src := testparams.Dir(); testparams.Have2K(t) {
		spp, svp, smp := cfg.ParameterPaths(src)
		good, err := os.ReadFile(svp)
		if err != nil {
			t.Fatal(err)
		}
		linked := func(t *testing.T, dir string, vk []byte) {
			pp, vp, mp := cfg.ParameterPaths(dir)
			for _, l := range [][2]string{{spp, pp}, {smp, mp}} {
				if err := os.Symlink(l[0], l[1]); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(vp, vk, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		vk, err := groth16.ParseVerifyingKey(good, svp)
		if err != nil {
			t.Fatal(err)
		}
		vk.Alpha1.Add(&vk.Alpha1, &vk.Alpha1) // the key of another setup, as far as the check can tell
		other := vk.Bytes()
		altered := append([]byte(nil), good...)
		binary.BigEndian.PutUint32(altered[864:868], 39)
		// Fault 1: the right .params with a .vk of another setup, or with its IC count altered.
		cases = append(cases,
			tcase{name: "vk of another setup", setup: func(t *testing.T, dir string) { linked(t, dir, other) },
				want: "hold different verifying keys (first difference: alpha_g1)"},
			tcase{name: "vk IC count 39", setup: func(t *testing.T, dir string) { linked(t, dir, altered) },
				want: "96 bytes after the verifying key"},
			tcase{name: "verify: vk IC count 39", verify: true, setup: func(t *testing.T, dir string) { linked(t, dir, altered) },
				want: "96 bytes after the verifying key"})
	} else {
		t.Log("no cached 2 KiB test parameters: the .vk mismatch cases are not run")
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.setup(t, dir)
			args := []string{"commit2", "--c1", c1, "--params-dir", dir, "--sector", "7", "--out", filepath.Join(dir, "proof.out")}
			if tc.verify {
				args = []string{"verify", "--c1", c1, "--proof", proof, "--params-dir", dir, "--sector", "7"}
			}
			code, _, stderr := runCLI(t, args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d: %s", code, exitUsage, stderr)
			}
			wantOneLineError(t, stderr, tc.want)
			if !strings.Contains(stderr, dir) {
				t.Errorf("error does not name the directory's file: %s", stderr)
			}
			if tc.notWant != "" && strings.Contains(stderr, tc.notWant) {
				t.Errorf("error says %q: %s", tc.notWant, stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, "proof.out")); err == nil {
				t.Errorf("a proof was written")
			}
		})
	}
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSmallUsageThings (issue 15, item 7): a mistyped flag names the nearest flag and --help;
// an empty or directory --c1 says so with the --c1 prefix; every one exit 2, one line.
func TestSmallUsageThings(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.json")
	write(t, empty, " \n")
	dangling := filepath.Join(dir, "dangling.json")
	if err := os.Symlink(filepath.Join(dir, "gone"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"mistyped flag", []string{"commit2", "--c1", empty, "--parms-dir", dir}, "unknown flag --parms-dir (did you mean --params-dir? see 'cuseal commit2 --help')"},
		{"mistyped global flag", []string{"--lg-level", "warn", "version"}, "did you mean --log-level?"},
		{"flag of no command here", []string{"bench", "vanilla", "--randomness", "00"}, "unknown flag --randomness (see 'cuseal bench vanilla --help')"},
		{"mistyped subcommand flag", []string{"params", "generate", "--sector-sise", "2KiB"}, "did you mean --sector-size? see 'cuseal params generate --help'"},
		{"empty c1", []string{"commit2", "--c1", empty}, "--c1 " + empty + ": empty file (2 bytes)"},
		{"verify empty c1", []string{"verify", "--c1", empty, "--proof", empty}, "--c1 " + empty + ": empty file"},
		{"c1 is a directory", []string{"commit2", "--c1", dir}, "--c1 " + dir + ": is a directory"},
		{"c1 is a dangling link", []string{"verify-vanilla", "--c1", dangling}, dangling + ": dangling symbolic link (to " + filepath.Join(dir, "gone") + ", which does not exist)"},
		{"params info of a dangling link", []string{"params", "info", dangling}, "dangling symbolic link"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, tc.args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d: %s", code, exitUsage, stderr)
			}
			wantOneLineError(t, stderr, tc.want)
		})
	}
}

// TestUnreadableParamsAsOtherUser (issue 15, fault 3): a .params file of mode 000 read by a
// non-root user is exit 2 naming the file, not an internal error. Run as root, the test
// binary re-runs itself as nobody (setpriv); skipped where that is not possible.
func TestUnreadableParamsAsOtherUser(t *testing.T) {
	if args := os.Getenv("CUSEAL_NOBODY_HELPER"); args != "" {
		os.Exit(run(append([]string{"cuseal"}, strings.Split(args, "\x1f")...), os.Stdout, os.Stderr))
	}
	setpriv, err := exec.LookPath("setpriv")
	if os.Geteuid() != 0 || err != nil {
		t.Skip("needs root and setpriv to run as nobody")
	}
	c1src := filepath.Join(sealedSample(t), FileC1)
	dir := t.TempDir()
	for d := dir; d != os.TempDir() && d != "/" && strings.HasPrefix(d, os.TempDir()); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "cli.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	c1data, err := os.ReadFile(c1src)
	if err != nil {
		t.Fatal(err)
	}
	c1 := filepath.Join(dir, "c1.json")
	if err := os.WriteFile(c1, c1data, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := stacked.ConfigByName("StackedDrg2KiBV1_1")
	if err != nil {
		t.Fatal(err)
	}
	pp, vp, _ := cfg.ParameterPaths(dir)
	write(t, vp, "x")
	write(t, pp, "x")
	if err := os.Chmod(pp, 0); err != nil {
		t.Fatal(err)
	}
	args := []string{"commit2", "--c1", c1, "--params-dir", dir, "--sector", "7", "--force"}
	cmd := exec.Command(setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups", bin, "-test.run=^TestUnreadableParamsAsOtherUser$")
	cmd.Env = append(os.Environ(), "CUSEAL_NOBODY_HELPER="+strings.Join(args, "\x1f"))
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitUsage {
		if strings.Contains(string(out), "setpriv:") {
			t.Skipf("setpriv failed: %s", out)
		}
		t.Fatalf("exit %v, want %d:\n%s", err, exitUsage, out)
	}
	wantOneLineError(t, string(out), pp+": permission denied")
}
