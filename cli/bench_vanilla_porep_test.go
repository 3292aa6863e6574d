// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/porep/seal"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testparams"
)

// benchVanillaPoRep2KiB runs bench vanilla --circuit porep for miner t01234,
// sector 7 into a fresh directory and returns it.
func benchVanillaPoRep2KiB(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "c1")
	code, out, stderr := runCLI(t, "bench", "vanilla", "--circuit", circuitPoRep, "--sector-size", "2KiB", "--miner", "t01234", "--sector", "7", "--out", dir, "--json")
	if code != exitOK {
		t.Fatalf("bench vanilla: exit %d: %s", code, stderr)
	}
	var vo benchVanillaOutput
	if err := json.Unmarshal([]byte(out), &vo); err != nil || vo.Partitions != 1 || vo.RegisteredProof != "StackedDrg2KiBV1_1" || vo.PeakRSSBytes == 0 {
		t.Fatalf("bench vanilla: %s (%v)", out, err)
	}
	return dir
}

// TestBenchVanillaPoRep: bench vanilla --circuit porep writes a C1 that
// parses as the 2 KiB V1_1 proof, passes the vanilla verifier for the miner
// and sector of c1-sector.json; flags that do not apply are usage errors,
// as is a second run into the same directory without --force and a bench
// prove --partition out of range.
func TestBenchVanillaPoRep(t *testing.T) {
	dir := benchVanillaPoRep2KiB(t)
	b, err := os.ReadFile(filepath.Join(dir, porepInfoFile))
	if err != nil {
		t.Fatal(err)
	}
	var info porepInfoJSON
	if err := json.Unmarshal(b, &info); err != nil || info.Miner != "t01234" || info.Sector != 7 || !info.Synthetic || info.C1 != porepC1File {
		t.Fatalf("%s: %s (%v)", porepInfoFile, b, err)
	}
	js, err := os.ReadFile(filepath.Join(dir, porepC1File))
	if err != nil {
		t.Fatal(err)
	}
	c1, cfg, err := stacked.ParseC1(js)
	if err != nil {
		t.Fatal(err)
	}
	if err := seal.VerifyC1(c1, &cfg); err != nil {
		t.Fatal(err)
	}
	if err := seal.ValidateReplicaID(c1, &cfg, stacked.ProverID(1234), 7); err != nil {
		t.Fatal(err)
	}
	c1Path := filepath.Join(dir, porepC1File)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "vanilla", "--circuit", circuitPoRep, "--sector-size", "2KiB", "--out", dir}, "--force"},
		{[]string{"bench", "vanilla", "--circuit", circuitPoRep, "--sector-size", "2KiB", "--partition", "0", "--out", t.TempDir()}, "--partition"},
		{[]string{"bench", "vanilla", "--circuit", circuitPoRep, "--sector-size", "2KiB", "--sector", "0", "--out", t.TempDir()}, "--sector 0"},
		{[]string{"bench", "vanilla", "--circuit", circuitWindowPoSt, "--sector-size", "2KiB", "--sector", "3", "--out", t.TempDir()}, "--sector: only with --circuit porep"},
		{[]string{"bench", "prove", "--c1", c1Path, "--miner", "t01234", "--sector", "7", "--partition", "1"}, "--partition 1"},
		{[]string{"bench", "prove", "--circuit", circuitWindowPoSt, "--synthetic", "--sector-size", "2KiB", "--partition", "0"}, "--partition"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, want %d naming %s: %s", strings.Join(tc.args, " "), code, exitUsage, tc.want, stderr)
		}
	}
}

// TestBenchVanillaPoRepProve: the synthetic C1 is proven by commit2 on the
// CPU and the proof passes cuseal verify (the .vk); bench prove --partition
// 0 proves that partition alone.
func TestBenchVanillaPoRepProve(t *testing.T) {
	testenv.Long(t, "two CPU proofs of a 2 KiB synthetic C1 (porep TestSyntheticC1Verifies proves one through the Go API)")
	dir := benchVanillaPoRep2KiB(t)
	params := testparams.Get2K(t)
	c1 := filepath.Join(dir, porepC1File)
	proof := filepath.Join(dir, "proof.bin")
	id := []string{"--c1", c1, "--miner", "t01234", "--sector", "7", "--params-dir", params}
	if code, _, stderr := runCLI(t, append([]string{"commit2", "--backend", "cpu", "--out", proof}, id...)...); code != exitOK {
		t.Fatalf("commit2: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, append([]string{"verify", "--proof", proof}, id...)...); code != exitOK {
		t.Fatalf("verify: exit %d: %s", code, stderr)
	}
	code, out, stderr := runCLI(t, append([]string{"--log-level", "warn", "bench", "prove", "--backend", "cpu", "--partition", "0", "--json"}, id...)...)
	if code != exitOK {
		t.Fatalf("bench prove --partition 0: exit %d: %s", code, stderr)
	}
	var res proveResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Partitions != 1 {
		t.Fatalf("%s (%v)", out, err)
	}
}
