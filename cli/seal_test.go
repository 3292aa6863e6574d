// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cuseal/cuseal/porep/seal"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

var (
	testTicket = strings.Repeat("01", 32)
	testSeed   = strings.Repeat("02", 32)
)

// sampleData is the demo's bundled sample, 2032 bytes: the unpadded size of a 2 KiB sector.
const sampleData = "demo/sample.txt"

func TestSeal2KiB(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sector")
	code, stdout, stderr := runCLI(t, "--log-level", "warn", "seal", "--sector-size", "2KiB", "--data", sampleData,
		"--out", out, "--miner", "t01000", "--sector", "7", "--ticket", testTicket, "--seed", testSeed, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res sealOutput
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if res.RegisteredProof != "StackedDrg2KiBV1_1" || res.SectorSize != "2KiB" || res.C1 != filepath.Join(out, FileC1) {
		t.Fatalf("result %+v", res)
	}
	data, err := os.ReadFile(res.C1)
	if err != nil {
		t.Fatal(err)
	}
	c1, cfg, err := stacked.ParseC1(data)
	if err != nil {
		t.Fatalf("c1.json does not parse: %v", err)
	}
	if cfg.SectorSize != 2048 || len(c1.VanillaProofs) != cfg.Partitions {
		t.Fatalf("c1: sector size %d, %d partitions of vanilla proofs (config %d)", cfg.SectorSize, len(c1.VanillaProofs), cfg.Partitions)
	}
	if err := seal.VerifyC1(c1, &cfg); err != nil {
		t.Fatalf("vanilla proofs do not verify: %v", err)
	}
	if err := seal.ValidateReplicaID(c1, &cfg, stacked.ProverID(1000), 7); err != nil {
		t.Fatalf("replica id: %v", err)
	}
	var seed [32]byte
	for i := range seed {
		seed[i] = 2
	}
	if [32]byte(c1.Seed) != seed {
		t.Fatalf("seed in c1 = %x", c1.Seed)
	}
	// A second seal into the same directory is refused, and c1.json is left as it was.
	code, _, stderr = runCLI(t, "seal", "--data", sampleData, "--out", out, "--ticket", testTicket, "--seed", testSeed)
	if code != exitUsage {
		t.Fatalf("reseal: exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "not empty")
	if again, _ := os.ReadFile(res.C1); string(again) != string(data) {
		t.Fatal("c1.json changed by a refused seal")
	}
}

func TestSealRandom(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sector")
	code, _, stderr := runCLI(t, "--log-level", "warn", "seal", "--random", "--out", out, "--ticket", testTicket, "--seed", testSeed)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, FileC1)); err != nil {
		t.Fatal(err)
	}
}

func TestSealBadInput(t *testing.T) {
	dir := t.TempDir()
	short := filepath.Join(dir, "short.dat")
	if err := os.WriteFile(short, make([]byte, 100), 0o644); err != nil {
		t.Fatal(err)
	}
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	base := func(out string, extra ...string) []string {
		return append([]string{"seal", "--out", out, "--ticket", testTicket, "--seed", testSeed}, extra...)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing data", base(filepath.Join(dir, "a"), "--data", filepath.Join(dir, "nope")), "no such file"},
		{"wrong data size", base(filepath.Join(dir, "b"), "--data", short), "100 bytes"},
		{"wrong sector size", base(filepath.Join(dir, "c"), "--data", sampleData, "--sector-size", "4KiB"), "not a Filecoin sector size"},
		{"data and random", base(filepath.Join(dir, "d"), "--data", sampleData, "--random"), "exactly one"},
		{"neither data nor random", base(filepath.Join(dir, "e")), "exactly one"},
		{"unusable out dir", base(filepath.Join(notDir, "sub"), "--data", sampleData), "--out"},
		{"bad ticket", []string{"seal", "--out", filepath.Join(dir, "f"), "--data", sampleData, "--ticket", "xyz", "--seed", testSeed}, "--ticket"},
		{"short seed", []string{"seal", "--out", filepath.Join(dir, "g"), "--data", sampleData, "--ticket", testTicket, "--seed", "00"}, "--seed"},
		{"bad miner", base(filepath.Join(dir, "h"), "--data", sampleData, "--miner", "bob"), "--miner"},
		{"missing required", []string{"seal", "--data", sampleData}, "Required flag"},
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

func TestParseMiner(t *testing.T) {
	for in, want := range map[string]uint64{"t01000": 1000, "f01000": 1000, "1000": 1000, "t00": 0} {
		got, err := parseMiner(in)
		if err != nil || uint64(got) != want {
			t.Errorf("parseMiner(%q) = %d, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "t0", "t3abc", "bob", "t1abc"} {
		if _, err := parseMiner(bad); err == nil {
			t.Errorf("parseMiner(%q): no error", bad)
		}
	}
}

// TestSealSizeLimitFirst: a trial `seal --sector-size 32GiB --random` wrote 32 GiB of random
// data to $TMPDIR before the test sealer's 1 GiB limit stopped it (exit 3). The limit is a
// usage error found before any I/O.
func TestSealSizeLimitFirst(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	out := filepath.Join(t.TempDir(), "sector")
	code, _, stderr := runCLI(t, "seal", "--sector-size", "32GiB", "--random", "--out", out, "--ticket", testTicket, "--seed", testSeed)
	if code != exitUsage {
		t.Fatalf("exit %d, want %d: %s", code, exitUsage, stderr)
	}
	wantOneLineError(t, stderr, "--sector-size 32GiB")
	if !strings.Contains(stderr, "1GiB") {
		t.Errorf("error does not state the limit: %s", stderr)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Fatalf("$TMPDIR has %d entries, e.g. %s", len(entries), entries[0].Name())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("--out created: %v", err)
	}
}

// TestSealStaleStaging: a killed seal leaves --out/.staging-NNN; a rerun must not fail with
// "directory is not empty" (it did in a trial). Only the sealer's own staging names are
// removed; any other entry still makes --out non-empty.
func TestSealStaleStaging(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sector")
	stale := filepath.Join(out, ".staging-1234567")
	if err := os.MkdirAll(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(stale, "layer-1.dat"), []byte("partial"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, "--log-level", "warn", "seal", "--data", sampleData, "--out", out, "--ticket", testTicket, "--seed", testSeed)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("stale staging dir still there: %v", err)
	}

	other := filepath.Join(t.TempDir(), "sector")
	if err := os.MkdirAll(filepath.Join(other, ".staging-notours"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "seal", "--data", sampleData, "--out", other, "--ticket", testTicket, "--seed", testSeed)
	if code != exitUsage {
		t.Fatalf("foreign entry: exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "not empty")
}

// TestSealSignalCleansUp: SIGINT during `seal --random` left $TMPDIR/cuseal-random-*.dat and
// --out/.staging-* behind in a trial. Now the signal cancels the run, which removes both and
// the --out it created, and exits non-zero with one line.
func TestSealSignalCleansUp(t *testing.T) {
	testenv.Long(t, "seals part of an 8 MiB sector")
	// Keep a late signal from killing the test binary.
	guard := make(chan os.Signal, 1)
	signal.Notify(guard, os.Interrupt)
	defer signal.Stop(guard)

	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	parent := t.TempDir()
	out := filepath.Join(parent, "sector")
	type result struct {
		code   int
		stderr string
	}
	done := make(chan result, 1)
	go func() {
		var o, e bytes.Buffer
		code := run([]string{"cuseal", "--log-level", "warn", "seal", "--sector-size", "8MiB", "--random", "--out", out,
			"--ticket", testTicket, "--seed", testSeed}, &o, &e)
		done <- result{code, e.String()}
	}()
	// Wait until sealing has started (the staging directory exists), then interrupt.
	deadline := time.Now().Add(time.Minute)
	for {
		entries, _ := os.ReadDir(out)
		if len(entries) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no staging directory within a minute")
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	var r result
	select {
	case r = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("seal did not stop within 2 minutes of SIGINT")
	}
	if r.code == exitOK {
		t.Fatalf("exit 0 after SIGINT: %s", r.stderr)
	}
	wantOneLineError(t, r.stderr, "interrupted")
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("$TMPDIR left with %s", entries[0].Name())
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 0 {
		t.Errorf("--out parent left with %s", entries[0].Name())
	}
}
