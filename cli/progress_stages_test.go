// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/testsupport/testparams"
	"github.com/cuseal/cuseal/testsupport/testpost"
	"github.com/cuseal/cuseal/testsupport/testprover"
	"github.com/cuseal/cuseal/testsupport/testupdate"
)

// cpuStages are the stages the CPU backend reports for each partition (groth16's cpu.go);
// the reference double makes whole proofs and reports none of them.
var cpuStages = []string{"H polynomial", "H MSM", "L MSM", "A MSM", "B_G1 MSM", "B_G2 MSM"}

// wantStageLines checks that stderr, off a terminal, names every stage of partition 1/1 of
// a proof as "DESC: partition 1/1: STAGE (": synthesis, the H polynomial and each MSM when
// backend is the CPU, the verification, and the partition's end.
func wantStageLines(t *testing.T, stderr, desc, backend string) {
	t.Helper()
	stages := []string{"synthesizing the circuit"}
	if backend == porep.BackendCPU {
		stages = append(stages, cpuStages...)
	}
	stages = append(stages, "verify", "proven and verified in")
	for _, st := range stages {
		if want := desc + ": partition 1/1: " + st; !strings.Contains(stderr, want) {
			t.Errorf("%s: stderr lacks %q:\n%s", desc, want, stderr)
		}
	}
}

// TestProvingCommandsStageLines (issue 44, item 1): every proving command shows commit2's
// stage lines on stderr, with --json as the demo runs them: commit2, post winning (on the
// CPU in every tier, so that the H and MSM stages are seen), post window, update prove
// (testprover.BackendAnyRS: the reference double in the unit tier, the CPU in the long
// tier) and aggregate (its SRS, aggregation and verification stages).
func TestProvingCommandsStageLines(t *testing.T) {
	any := testprover.BackendAnyRS(t)
	ref := testprover.PoRep(t, "2KiB-s10")
	win := testpost.Load(t, "post-winning-2KiB-s22")
	w := testpost.Load(t, "post-window-2KiB-s21")
	upd := testupdate.Load(t)
	postArgs := func(v *testpost.Vector, backend string) []string {
		return append([]string{"--backend", backend, "--params-dir", v.ParamsDir(t), "--proof-type", fmt.Sprint(int64(v.Proof)),
			"--randomness", hex.EncodeToString(v.Randomness), "--miner", fmt.Sprintf("t0%d", v.Miner)}, postVanillaArgs(v)...)
	}
	for _, tc := range []struct {
		desc, backend string
		args          []string
	}{
		{"commit2 2KiB", any, []string{"commit2", "--c1", filepath.Join(ref.Dir, "c1.json"), "--params-dir", testparams.Dir(),
			"--miner", fmt.Sprintf("t0%d", ref.Miner), "--sector", fmt.Sprint(ref.Sector), "--backend", any}},
		{"post winning", porep.BackendCPU, append([]string{"post", "winning"}, postArgs(win, porep.BackendCPU)...)},
		{"post window", any, append([]string{"post", "window"}, postArgs(w, any)...)},
		{"update prove", any, []string{"update", "prove", "--proof-type", "StackedDrg2KiBV1", "--params-dir", upd.ParamsDir(t), "--backend", any,
			"--comm-r-old", upd.OldSealed.String(), "--comm-r-new", upd.NewSealed.String(), "--comm-d-new", upd.NewUnseal.String(),
			"--vanilla", upd.VanillaFiles[0]}},
	} {
		code, _, stderr := runCLI(t, append(tc.args, "--out", filepath.Join(t.TempDir(), "proof"), "--json")...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", tc.desc, code, stderr)
		}
		wantStageLines(t, stderr, tc.desc, tc.backend)
	}

	c1 := func(d string) string { return filepath.Join(cliGolden, d, "c1.json") }
	pf := func(d string) string { return filepath.Join(cliGolden, d, "proof.bin") }
	code, _, stderr := runCLI(t, "aggregate", "--params-dir", aggCLIDir(t), "--miner", "t01000",
		"--c1", c1("2KiB-s10"), "--proof", pf("2KiB-s10"), "--sector", "10",
		"--c1", c1("2KiB-s14"), "--proof", pf("2KiB-s14"), "--sector", "14", "--out", filepath.Join(t.TempDir(), "agg"), "--json")
	if code != exitOK {
		t.Fatalf("aggregate: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"aggregate: loading the SRS (", "aggregate: specializing the SRS for 2 proofs (", "aggregate: aggregating 2 proofs (", "aggregate: verify ("} {
		if !strings.Contains(stderr, want) {
			t.Errorf("aggregate: stderr lacks %q:\n%s", want, stderr)
		}
	}

	// --log-level leaves the stages to its records (run sets the process's logging: reset it).
	defer setupLogging("", io.Discard)
	code, _, stderr = runCLI(t, append([]string{"--log-level", "error", "post", "window"}, append(postArgs(w, any), "--json")...)...)
	if code != exitOK || strings.Contains(stderr, "partition 1/1") {
		t.Errorf("post window --log-level error: exit %d, stderr %q", code, stderr)
	}
}
