// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testparams"
	"github.com/cuseal/cuseal/testsupport/testpost"
	"github.com/cuseal/cuseal/testsupport/testupdate"
)

// estimateTolerance is issue 40's bound on porep.EstimateMemory against the
// measured peak RSS of the whole process.
const estimateTolerance = 0.15

// checkEstimate runs `cuseal bench prove ARGS --backend cpu --json` in a
// process of its own and checks that its estimate (the preflight's
// porep.EstimateMemory) is within estimateTolerance of its peak RSS.
func checkEstimate(t *testing.T, name string, args ...string) {
	t.Helper()
	args = append([]string{"--log-level", "warn", "bench", "prove", "--backend", "cpu", "--runs", "1", "--json"}, args...)
	code, out, stderr := runCLIProcess(t, args...)
	if code != exitOK {
		t.Fatalf("%s: bench prove: exit %d: %s", name, code, stderr)
	}
	var res proveResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%s: bench prove --json: %v\n%s", name, err, out)
	}
	if res.PeakRSSBytes == 0 || res.EstimateBytes == 0 {
		t.Fatalf("%s: peak %d bytes, estimate %d bytes: want both", name, res.PeakRSSBytes, res.EstimateBytes)
	}
	ratio := float64(res.EstimateBytes)/float64(res.PeakRSSBytes) - 1
	t.Logf("%s: peak RSS %s, estimate %s (%+.1f %%)", name, humanBytes(res.PeakRSSBytes), humanBytes(res.EstimateBytes), 100*ratio)
	if ratio < -estimateTolerance || ratio > estimateTolerance {
		t.Errorf("%s: estimate %d bytes is %+.1f %% of the measured peak %d bytes; want within ±%.0f %%",
			name, res.EstimateBytes, 100*ratio, res.PeakRSSBytes, 100*estimateTolerance)
	}
}

// TestEstimateMemoryPoSt2KiB (issue 40 item 5): the estimate of a 2 KiB
// WinningPoSt and WindowPoSt proof on the CPU (synthetic vanilla proofs)
// is within ±15 % of the process's measured peak RSS.
func TestEstimateMemoryPoSt2KiB(t *testing.T) {
	testenv.Long(t, "a 2 KiB WinningPoSt and WindowPoSt CPU proof, each in a process of its own (~15 s)")
	win, w := testpost.Load(t, "post-winning-2KiB-s22"), testpost.Load(t, "post-window-2KiB-s21")
	checkEstimate(t, "WinningPoSt 2KiB", "--circuit", "winning-post", "--synthetic", "--sector-size", "2KiB", "--params-dir", win.ParamsDir(t))
	checkEstimate(t, "WindowPoSt 2KiB", "--circuit", "window-post", "--synthetic", "--sector-size", "2KiB", "--params-dir", w.ParamsDir(t))
}

// TestEstimateMemoryProofs2KiB is TestEstimateMemoryPoSt2KiB for the two
// large 2 KiB circuits: C2 of the reference C1 and a SnapDeals update.
func TestEstimateMemoryProofs2KiB(t *testing.T) {
	testenv.Long(t, "a 2 KiB C2 and a 2 KiB SnapDeals CPU proof, each in a process of its own (~1-2 min)")
	checkEstimate(t, "C2 2KiB", "--c1", filepath.Join(cliGolden, "2KiB-s10", "c1.json"), "--miner", "t01000", "--sector", "10",
		"--params-dir", testparams.Get2K(t))
	checkEstimate(t, "SnapDeals 2KiB", "--circuit", "update", "--synthetic", "--sector-size", "2KiB", "--params-dir", testupdate.Load(t).ParamsDir(t))
}

// TestEstimateMemory8MiB checks the estimate at a size it was not
// calibrated on: 8 MiB WindowPoSt and WinningPoSt, test parameters
// generated here.
func TestEstimateMemory8MiB(t *testing.T) {
	testenv.Long(t, "8 MiB WindowPoSt and WinningPoSt test parameters generated and proven on the CPU (~1 min)")
	dir := t.TempDir()
	for _, circuit := range []string{"window-post", "winning-post"} {
		if code, _, stderr := runCLI(t, "--log-level", "warn", "params", "generate", "--circuit", circuit, "--sector-size", "8MiB", "--out", dir); code != exitOK {
			t.Fatalf("params generate %s 8MiB: exit %d: %s", circuit, code, stderr)
		}
	}
	checkEstimate(t, "WindowPoSt 8MiB", "--circuit", "window-post", "--synthetic", "--sector-size", "8MiB", "--params-dir", dir)
	checkEstimate(t, "WinningPoSt 8MiB", "--circuit", "winning-post", "--synthetic", "--sector-size", "8MiB", "--params-dir", dir)
}
