// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/update"
)

// TestParamsGenerateRefusesProductionDir (issue 19): params generate will not write test
// parameters into the production default directory nor into the one FIL_PROOFS_PARAMETER_CACHE
// names (exit 2, the reason and --force), and creates nothing there. 32GiB makes a regression
// stop at the memory check instead of writing anything.
func TestParamsGenerateRefusesProductionDir(t *testing.T) {
	_, statErr := os.Stat(stacked.DefaultParameterDir)
	code, _, stderr := runCLI(t, "params", "generate", "--sector-size", "32GiB", "--out", stacked.DefaultParameterDir)
	if code != exitUsage {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "refusing to write TEST parameters there: it is the production parameter directory /var/tmp/filecoin-proof-parameters")
	if !strings.Contains(stderr, "--force") {
		t.Errorf("no --force hint: %s", stderr)
	}
	if _, err := os.Stat(stacked.DefaultParameterDir); os.IsNotExist(statErr) && err == nil {
		t.Fatalf("%s was created", stacked.DefaultParameterDir)
	}

	cache := filepath.Join(t.TempDir(), "cache")
	t.Setenv("FIL_PROOFS_PARAMETER_CACHE", cache)
	// The same directory under another spelling.
	code, _, stderr = runCLI(t, "params", "generate", "--sector-size", "32GiB", "--out", cache+"/./")
	if code != exitUsage {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "FIL_PROOFS_PARAMETER_CACHE="+cache+" points to it")
	if _, err := os.Stat(cache); err == nil {
		t.Fatalf("%s was created", cache)
	}

	// The SnarkPack test SRS is refused there too.
	code, _, stderr = runCLI(t, "params", "generate", "--srs", "--srs-size", "2", "--out", cache)
	if code != exitUsage {
		t.Fatalf("--srs: exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "refusing to write a TEST SRS there: FIL_PROOFS_PARAMETER_CACHE="+cache+" points to it")
	if _, err := os.Stat(cache); err == nil {
		t.Fatalf("--srs: %s was created", cache)
	}
}

// TestParamsInfoStatus (issue 19): params info reports official / test / mismatch / unknown
// with the digest.
func TestParamsInfoStatus(t *testing.T) {
	cfg, err := stacked.ConfigByName("StackedDrg2KiBV1_1")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	_, vp, _ := cfg.ParameterPaths(dir)
	// The rust-fil-proofs reference .vk: the official name, not the official digest.
	golden, err := os.ReadFile(filepath.Join("..", "testdata", "golden", "2KiB-s10", filepath.Base(vp)))
	if err != nil {
		t.Fatal(err)
	}
	write(t, vp, string(golden))
	_, tinyVK := tinyParamsFiles(t, dir)
	status := func(path string) paramsFileInfo {
		t.Helper()
		code, out, stderr := runCLI(t, "params", "info", "--json", path)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var info paramsFileInfo
		if err := json.Unmarshal([]byte(out), &info); err != nil {
			t.Fatal(err)
		}
		return info
	}
	if info := status(vp); info.Status != "mismatch" || info.OfficialDigest != "dc1ade9929ade1708238f155343044ac" || info.Digest != "e5619b6c3e4ffb6440a4aa8ecd4a64f0" {
		t.Errorf("golden vk: %+v", info)
	}
	if info := status(tinyVK); info.Status != "unknown" || info.OfficialDigest != "" {
		t.Errorf("tiny vk: %+v", info)
	}
	write(t, filepath.Join(dir, cfg.ParameterFileStem()+".cuseal-test.json"), "{}")
	if info := status(vp); info.Status != "test" || !strings.Contains(info.StatusLine, "TEST parameters") {
		t.Errorf("stamped vk: %+v", info)
	}
	code, out, _ := runCLI(t, "params", "info", vp)
	if code != exitOK || !strings.Contains(out, "status:  TEST parameters") {
		t.Errorf("text: %d %s", code, out)
	}
}

// TestCommit2ProductionParams (issue 19): commit2, bench prove and verify with
// --require-production-params (or FIL_PROOFS_VERIFY_PRODUCTION_PARAMS=1) refuse a 2 KiB
// official-name file whose digest is not the official one, exit 2 naming the file, its
// digest and the expected one; without it, test-stamped parameters give exactly one
// "cuseal: warning:" line.
func TestCommit2ProductionParams(t *testing.T) {
	c1 := filepath.Join(sealedSample(t), FileC1)
	cfg, err := stacked.ConfigByName("StackedDrg2KiBV1_1")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pp, vp, _ := cfg.ParameterPaths(dir)
	write(t, pp, "not the official params")
	write(t, vp, "not the official vk")
	digest, err := groth16.FileDigest(pp)
	if err != nil {
		t.Fatal(err)
	}
	proof := filepath.Join(dir, "proof")
	_, _, g1, g2 := bls.Generators()
	pb := (&groth16.Proof{A: g1, B: g2, C: g1}).Bytes()
	write(t, proof, string(pb[:]))
	for _, args := range [][]string{
		{"commit2", "--c1", c1, "--params-dir", dir, "--sector", "7", "--force", "--require-production-params"},
		{"bench", "prove", "--c1", c1, "--params-dir", dir, "--sector", "7", "--force", "--require-production-params"},
	} {
		code, _, stderr := runCLI(t, args...)
		if code != exitUsage {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		wantOneLineError(t, stderr, pp)
		for _, w := range []string{digest, "434fb1338ecfaf0f59256f30dde4968f"} {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: stderr lacks %s: %s", args, w, stderr)
			}
		}
	}
	t.Setenv("FIL_PROOFS_VERIFY_PRODUCTION_PARAMS", "1")
	code, _, stderr := runCLI(t, "verify", "--c1", c1, "--proof", proof, "--params-dir", dir, "--sector", "7")
	if code != exitUsage || !strings.Contains(stderr, "dc1ade9929ade1708238f155343044ac") {
		t.Fatalf("verify under FIL_PROOFS_VERIFY_PRODUCTION_PARAMS=1: exit %d: %s", code, stderr)
	}
	t.Setenv("FIL_PROOFS_VERIFY_PRODUCTION_PARAMS", "")

	// A stamped set: one warning line, then the placeholder files are the error.
	write(t, filepath.Join(dir, cfg.ParameterFileStem()+".cuseal-test.json"), "{}")
	code, _, stderr = runCLI(t, "commit2", "--c1", c1, "--params-dir", dir, "--sector", "7", "--force")
	if code != exitUsage {
		t.Fatalf("stamped: exit %d: %s", code, stderr)
	}
	if n := strings.Count(stderr, "cuseal: warning: TEST parameters: proofs will not verify on chain ("+pp); n != 1 {
		t.Fatalf("%d warning lines naming %s, want 1:\n%s", n, pp, stderr)
	}
}

// TestPoStUpdateTestParamsWarning: post verify and update verify, like commit2, give one
// "cuseal: warning:" line for test-stamped parameters (here placeholders, which are then
// the error).
func TestPoStUpdateTestParamsWarning(t *testing.T) {
	_, _, g1, g2 := bls.Generators()
	pb := (&groth16.Proof{A: g1, B: g2, C: g1}).Bytes()
	commR := strings.Repeat("11", 32)
	winning, err := post.ConfigFor(abi.RegisteredPoStProof_StackedDrgWinning2KiBV1)
	if err != nil {
		t.Fatal(err)
	}
	upd, err := update.ConfigFor(abi.RegisteredUpdateProof_StackedDrg2KiBV1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		cfg  interface {
			ParameterPaths(dir string) (params, vk, meta string)
		}
		args []string
	}{
		{"post verify", &winning, []string{"post", "verify", "--proof-type", "0", "--randomness", strings.Repeat("22", 32), "--sector", "1=" + commR}},
		{"update verify", &upd, []string{"update", "verify", "--sector-size", "2KiB", "--comm-r-old", commR, "--comm-r-new", commR, "--comm-d-new", commR}},
	} {
		dir := t.TempDir()
		pp, vp, _ := tc.cfg.ParameterPaths(dir)
		write(t, vp, "not a vk")
		write(t, pp, "not params")
		write(t, strings.TrimSuffix(vp, ".vk")+".cuseal-test.json", "{}")
		proof := filepath.Join(dir, "proof")
		write(t, proof, string(pb[:]))
		code, _, stderr := runCLI(t, append(tc.args, "--params-dir", dir, "--proof", proof)...)
		if code != exitUsage {
			t.Fatalf("%s: exit %d: %s", tc.name, code, stderr)
		}
		if n := strings.Count(stderr, "cuseal: warning: TEST parameters: proofs will not verify on chain ("+vp); n != 1 {
			t.Errorf("%s: %d warning lines naming %s, want 1:\n%s", tc.name, n, vp, stderr)
		}
	}
}
