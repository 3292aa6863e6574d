// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/seal"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testparams"
)

// The embedded sample is the bundled file and fills a 2 KiB sector exactly (unpadded).
func TestDemoSample(t *testing.T) {
	file, err := os.ReadFile(sampleData)
	if err != nil {
		t.Fatal(err)
	}
	if string(demoSample) != string(file) {
		t.Fatalf("embedded sample (%d bytes) differs from %s (%d bytes)", len(demoSample), sampleData, len(file))
	}
	if n := uint64(len(demoSample)); n != seal.UnpaddedSize(2048) {
		t.Fatalf("sample: %d bytes, a 2KiB sector takes %d unpadded", n, seal.UnpaddedSize(2048))
	}
}

// Bad usage is exit 2, one line, before any work: nothing written to --out or --params-dir.
func TestDemoUsageErrors(t *testing.T) {
	nonEmpty := t.TempDir()
	if err := os.WriteFile(filepath.Join(nonEmpty, "keep"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"out not empty", []string{"--out", nonEmpty}, "directory is not empty"},
		{"unknown backend", []string{"--backend", "gpu"}, `--backend "gpu": want`},
		{"gpu backend with --no-gpu", []string{"--backend", "cuda", "--no-gpu"}, "contradicts --no-gpu"},
		{"positional argument", []string{"now"}, `unexpected argument "now"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			params := filepath.Join(t.TempDir(), "params")
			args := append([]string{"demo", "--params-dir", params}, tc.args...)
			code, stdout, stderr := runCLI(t, args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitUsage, stderr)
			}
			wantOneLineError(t, stderr, tc.want)
			if stdout != "" {
				t.Errorf("stdout: %q", stdout)
			}
			if _, err := os.Stat(params); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("--params-dir %s: %v, want it never created", params, err)
			}
			entries, _ := os.ReadDir(nonEmpty)
			if len(entries) != 1 {
				t.Errorf("--out %s holds %d entries, want only the file that was there", nonEmpty, len(entries))
			}
		})
	}
}

// A step that fails keeps its exit code and message, names the step, and the demo removes
// what it wrote: here the sector is sealed, then params generate cannot use --params-dir (a
// file).
func TestDemoStepFailureCleansUp(t *testing.T) {
	tmp := t.TempDir()
	notDir := filepath.Join(tmp, "params-file")
	if err := os.WriteFile(notDir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "a", "demo")
	code, stdout, stderr := runCLI(t, "--log-level", "warn", "demo", "--params-dir", notDir, "--out", out)
	if code != exitUsage {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitUsage, stderr)
	}
	wantOneLineError(t, stderr, "demo: params generate: ")
	if stdout != "" {
		t.Errorf("stdout: %q", stdout)
	}
	if _, err := os.Stat(filepath.Join(tmp, "a")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s: %v, want the directories the demo created removed", filepath.Join(tmp, "a"), err)
	}
}

// TestDemo2KiB runs the demo as ./build.sh demo does, on the CPU backend, with --snapdeals: the
// sector is sealed, proven (C2, WinningPoSt, one WindowPoSt partition) and verified, a CC sector
// is updated with the sample and its SnapDeals proof verified, the proof files hold the proofs
// the JSON reports, and the table lists every step's phases.
func TestDemo2KiB(t *testing.T) {
	testenv.Long(t, "Groth16 setup (first run) and CPU proving of a 2.7M-constraint circuit")
	out := filepath.Join(t.TempDir(), "demo")
	// A process of its own: the TEST parameters warning is given once per process.
	code, stdout, stderr := runCLIProcess(t, "--log-level", "warn", "demo", "--params-dir", testparams.Dir(), "--out", out, "--backend", "cpu", "--snapdeals", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res demoOutput
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if !res.Valid || !res.Verify.Valid || res.Backend != "cpu" || res.Dir != out || res.ParamsDir != testparams.Dir() {
		t.Fatalf("result: valid %v/%v, backend %q, dir %q, params %q", res.Valid, res.Verify.Valid, res.Backend, res.Dir, res.ParamsDir)
	}
	if res.Seal.RegisteredProof != "StackedDrg2KiBV1_1" || res.Seal.C1 != filepath.Join(out, "sector", FileC1) || !res.Params.NotForProd {
		t.Fatalf("steps: seal %+v, params not_for_production %v", res.Seal, res.Params.NotForProd)
	}
	file, err := os.ReadFile(filepath.Join(out, "proof"))
	if err != nil {
		t.Fatal(err)
	}
	if len(file) != groth16.ProofSize || hex.EncodeToString(file) != res.Proof || res.Commit2.Proof != res.Proof {
		t.Fatalf("proof file: %d bytes %x; JSON proof %s", len(file), file, res.Proof)
	}
	for name, run := range map[string]demoPoStRun{"winning": res.PoSt.Winning, "window": res.PoSt.Window} {
		pf, err := os.ReadFile(filepath.Join(out, "post-"+name, "proof"))
		if err != nil {
			t.Fatal(err)
		}
		if !run.Verify.Valid || len(run.Vanilla.Sectors) != 1 || run.Vanilla.Sectors[0].SectorNumber != 1 || run.Prove.Partitions != 1 ||
			len(pf) != groth16.ProofSize || hex.EncodeToString(pf) != run.Prove.Proof || !run.Params.NotForProd {
			t.Errorf("%s: valid %v, vanilla %+v, %d partition(s), proof file %d bytes", name, run.Verify.Valid, run.Vanilla.Sectors, run.Prove.Partitions, len(pf))
		}
	}
	u := res.SnapDeals
	if u == nil {
		t.Fatal("--snapdeals: no snapdeals result")
	}
	uf, err := os.ReadFile(filepath.Join(out, "snapdeals", "proof"))
	if err != nil {
		t.Fatal(err)
	}
	if !u.Verify.Valid || u.Prove.UpdateProof != "StackedDrg2KiBV1" || u.Prove.Partitions != 1 || len(u.Vanilla.Files) != 1 ||
		u.Encode.CommROld != u.Seal.CommR || u.Encode.CommRNew == u.Encode.CommROld || !u.Params.NotForProd ||
		len(uf) != groth16.ProofSize || hex.EncodeToString(uf) != u.Prove.Proof {
		t.Errorf("snapdeals: valid %v, prove %+v, vanilla %v, encode %+v, sealed %s, proof file %d bytes", u.Verify.Valid, u.Prove, u.Vanilla.Files, u.Encode, u.Seal.CommR, len(uf))
	}
	var phases []string
	for _, r := range res.Timings {
		phases = append(phases, r.Phase)
	}
	got := strings.Join(phases, "|")
	for _, want := range []string{"seal: PC1|seal: PC2|seal: C1|params: ", "|commit2: read+validate C1|commit2: partition 0: synthesize|",
		"|commit2: partition 0: prove+verify|commit2: total|verify|params: winning-post ", "|post vanilla: winning|post winning: prove+verify|post verify: winning|params: window-post ",
		"|post vanilla: window|post window: prove+verify|post verify: window|snapdeals: seal CC sector|update encode|update vanilla|params: update ",
		"|update prove: prove+verify|update verify|demo: total"} {
		if !strings.Contains(got, want) {
			t.Errorf("timings %q lack %q", got, want)
		}
	}
	if !strings.Contains(stderr, "TEST parameters") {
		t.Errorf("stderr lacks commit2's TEST parameters warning:\n%s", stderr)
	}
}

// TestDemoStepError: a step's error is prefixed with the step's name once,
// and keeps its exit code.
func TestDemoStepError(t *testing.T) {
	for _, tc := range []struct {
		step string
		err  error
		want string
		code int
	}{
		{"params generate", internalError(errors.New("params generate: interrupted (terminated); removed its partial files")),
			"demo: params generate: interrupted (terminated); removed its partial files", exitInternal},
		{"commit2", usageErrorf("--c1 x: no such file"), "demo: commit2: --c1 x: no such file", exitUsage},
	} {
		err := demoStepError(tc.step, tc.err)
		var ee *exitError
		if !errors.As(err, &ee) {
			t.Fatalf("demoStepError(%q, %v) = %v: no exit code", tc.step, tc.err, err)
		}
		if err.Error() != tc.want || ee.code != tc.code {
			t.Errorf("demoStepError(%q, %v) = %v (exit %d), want %q (exit %d)", tc.step, tc.err, err, ee.code, tc.want, tc.code)
		}
	}
}
