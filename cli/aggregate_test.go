// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/porep/aggregate"
)

const cliGolden = "../testdata/golden"

const golden2KVK = "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.vk"

func readGolden(t *testing.T, parts ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(append([]string{cliGolden}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestParamsGenerateSRS: `params generate --srs` from the golden seed and
// size reproduces the reference SRS file; a second run refuses to
// overwrite it.
func TestParamsGenerateSRS(t *testing.T) {
	dir := t.TempDir()
	seed := strings.Repeat("53", 32)
	code, stdout, stderr := runCLI(t, "params", "generate", "--srs", "--srs-size", "64", "--seed", seed, "--out", dir, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, `"not_for_production": true`) && !strings.Contains(stdout, `"not_for_production":true`) {
		t.Errorf("json output lacks not_for_production: %s", stdout)
	}
	got, err := os.ReadFile(filepath.Join(dir, aggregate.SRSFileName))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, readGolden(t, "agg-srs", aggregate.SRSFileName)) {
		t.Fatal("generated SRS differs from testdata/golden/agg-srs")
	}
	code, _, stderr = runCLI(t, "params", "generate", "--srs", "--srs-size", "64", "--seed", seed, "--out", dir)
	if code != 2 {
		t.Fatalf("second run: exit %d, want 2: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "refusing to overwrite")
	code, _, stderr = runCLI(t, "params", "generate", "--srs", "--srs-size", "3", "--out", t.TempDir())
	if code != 2 {
		t.Fatalf("--srs-size 3: exit %d", code)
	}
	wantOneLineError(t, stderr, "power of two")
	code, _, stderr = runCLI(t, "params", "generate", "--srs", "--sector-size", "2KiB", "--out", t.TempDir())
	if code != 2 {
		t.Fatalf("--srs --sector-size: exit %d", code)
	}
	wantOneLineError(t, stderr, "--sector-size does not apply to --srs")
	code, _, stderr = runCLI(t, "params", "generate", "--out", t.TempDir())
	if code != 2 {
		t.Fatalf("no --sector-size: exit %d", code)
	}
	wantOneLineError(t, stderr, "--sector-size is required")
}

// aggCLIDir is a --params-dir with the golden 2 KiB .vk and test SRS.
func aggCLIDir(t *testing.T) string {
	dir := t.TempDir()
	for _, f := range [][2]string{{"2KiB-s10", golden2KVK}, {"agg-srs", aggregate.SRSFileName}} {
		if err := os.WriteFile(filepath.Join(dir, f[1]), readGolden(t, f[0], f[1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestAggregateCLIGolden: `cuseal aggregate` over the golden 2KiB-s10 and
// 2KiB-s14 C1 outputs and proofs writes filecoin-proofs' aggregate byte
// for byte; `verify-aggregate` accepts it (exit 0), rejects it for the
// sectors in the other order (exit 1) and names the offset of a corrupt
// byte (exit 2); `verify` accepts the golden NI-PoRep C2 output.
func TestAggregateCLIGolden(t *testing.T) {
	dir := aggCLIDir(t)
	out := filepath.Join(t.TempDir(), "agg.bin")
	c1 := func(d string) string { return filepath.Join(cliGolden, d, "c1.json") }
	pf := func(d string) string { return filepath.Join(cliGolden, d, "proof.bin") }
	code, stdout, stderr := runCLI(t, "aggregate", "--params-dir", dir, "--miner", "t01000",
		"--c1", c1("2KiB-s10"), "--proof", pf("2KiB-s10"), "--sector", "10",
		"--c1", c1("2KiB-s14"), "--proof", pf("2KiB-s14"), "--sector", "14", "--out", out)
	if code != 0 {
		t.Fatalf("aggregate: exit %d: %s", code, stderr)
	}
	t.Log(strings.TrimSpace(stdout))
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, readGolden(t, "agg-2KiB-s10-s14", "aggregate.bin")) {
		t.Fatal("cuseal aggregate differs from agg-2KiB-s10-s14/aggregate.bin")
	}
	code, _, stderr = runCLI(t, "verify-aggregate", "--params-dir", dir, "--proof", out,
		"--c1", c1("2KiB-s10"), "--sector", "10", "--c1", c1("2KiB-s14"), "--sector", "14")
	if code != 0 {
		t.Fatalf("verify-aggregate: exit %d: %s", code, stderr)
	}
	code, _, stderr = runCLI(t, "verify-aggregate", "--params-dir", dir, "--proof", out,
		"--c1", c1("2KiB-s14"), "--sector", "14", "--c1", c1("2KiB-s10"), "--sector", "10")
	if code != 1 {
		t.Fatalf("verify-aggregate, other order: exit %d, want 1: %s", code, stderr)
	}
	bad := bytes.Clone(got)
	bad[1500] ^= 0xff // inside comms_ab[0]
	badPath := filepath.Join(t.TempDir(), "bad.bin")
	if err := os.WriteFile(badPath, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "verify-aggregate", "--params-dir", dir, "--proof", badPath,
		"--c1", c1("2KiB-s10"), "--sector", "10", "--c1", c1("2KiB-s14"), "--sector", "14")
	if code != 2 {
		t.Fatalf("verify-aggregate, corrupt file: exit %d, want 2: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "comms_ab[0].0.0 at byte offset 1492")
	// Without the SRS: a usage error naming the command that makes one.
	noSRS := t.TempDir()
	if err := os.WriteFile(filepath.Join(noSRS, golden2KVK), readGolden(t, "2KiB-s10", golden2KVK), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "verify-aggregate", "--params-dir", noSRS, "--proof", out,
		"--c1", c1("2KiB-s10"), "--sector", "10", "--c1", c1("2KiB-s14"), "--sector", "14")
	if code != 2 {
		t.Fatalf("no SRS: exit %d", code)
	}
	wantOneLineError(t, stderr, "params generate --srs")

	// commit2 of an NI-PoRep C1 needs the SRS: refused before any proving.
	paramsOnly := t.TempDir()
	for _, ext := range []string{".vk", ".params"} {
		name := strings.TrimSuffix(golden2KVK, ".vk") + ext
		if err := os.WriteFile(filepath.Join(paramsOnly, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr = runCLI(t, "commit2", "--params-dir", paramsOnly, "--c1", c1("2KiB-ni-s12"), "--sector", "12", "--out", filepath.Join(t.TempDir(), "p"))
	if code != 2 {
		t.Fatalf("commit2 NI without SRS: exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "params generate --srs")

	// NI-PoRep: the C2 output is the aggregate; `verify` checks it.
	ni := filepath.Join(cliGolden, "agg-2KiB-ni-s12", "aggregate.bin")
	code, _, stderr = runCLI(t, "verify", "--params-dir", dir, "--c1", c1("2KiB-ni-s12"), "--sector", "12", "--proof", ni)
	if code != 0 {
		t.Fatalf("verify NI: exit %d: %s", code, stderr)
	}
	code, _, stderr = runCLI(t, "verify", "--params-dir", dir, "--c1", c1("2KiB-ni-s12"), "--sector", "12", "--proof", out)
	if code == 0 {
		t.Fatalf("verify NI with another aggregate: exit 0: %s", stderr)
	}
}

// TestBenchAggregate: `bench aggregate` pads 3 proofs to 4, and both
// phases run (verify fails the command if the aggregate were invalid).
func TestBenchAggregate(t *testing.T) {
	code, stdout, stderr := runCLI(t, "bench", "aggregate", "--proofs", "3", "--runs", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out benchAggregateOutput
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if out.Proofs != 3 || out.Aggregated != 4 || out.Bytes != aggregate.ProofSize(4) || out.AggMedian <= 0 || out.VerMedian <= 0 {
		t.Errorf("unexpected result: %+v", out)
	}
	code, _, stderr = runCLI(t, "bench", "aggregate", "--proofs", "0")
	if code != 2 {
		t.Fatalf("--proofs 0: exit %d", code)
	}
	wantOneLineError(t, stderr, "--proofs 0")
}

// TestBenchAggregateBellperson: with --bellperson, the Rust tool runs on
// the same workload and its aggregate has the same size. Skipped when the
// tool is not built.
func TestBenchAggregateBellperson(t *testing.T) {
	tool := "../porep/aggregate/testdata/refbench/target/release/cuseal-aggregate-refbench"
	if _, err := os.Stat(tool); err != nil {
		t.Skipf("refbench not built: %v", err)
	}
	code, stdout, stderr := runCLI(t, "bench", "aggregate", "--proofs", "4", "--runs", "1", "--bellperson", tool, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out benchAggregateOutput
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if out.Bellperson == nil || out.Bellperson.Bytes != out.Bytes || out.Bellperson.AggMedian <= 0 {
		t.Fatalf("bellperson result missing or different: %+v", out.Bellperson)
	}
	code, _, stderr = runCLI(t, "bench", "aggregate", "--proofs", "2", "--runs", "1", "--bellperson", "/nonexistent")
	if code != 2 {
		t.Fatalf("missing tool: exit %d", code)
	}
	wantOneLineError(t, stderr, "--bellperson")
}
