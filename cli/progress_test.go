// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cuseal/cuseal/porep"
)

// TestPhaseLinesOffTerminal (issue 15, item 5): off a terminal, commit2's progress is one
// concise line per phase — synthesis per partition, H polynomial, each MSM, verification —
// and a warning is one "cuseal: warning:" line; with --log-level set the lines are left to
// the slog records.
func TestPhaseLinesOffTerminal(t *testing.T) {
	var buf bytes.Buffer
	rec := newPhaseRecorder(newPhaseProgress(&buf, 2, "commit2 2KiB"), &buf, 2)
	rec.quietWarnings = false
	events := []porep.PhaseEvent{
		{Phase: porep.PhaseWarning, Partition: -1, Message: "TEST parameters: proofs will not verify on chain (x.params …)"},
		{Phase: porep.PhaseStart, Partition: -1, Backend: "cpu"},
		{Phase: porep.PhaseSynthesizing, Partition: 0},
		{Phase: porep.PhaseSynthesized, Partition: 0, Took: time.Second},
	}
	for _, st := range []string{"H polynomial", "H MSM", "L MSM", "A MSM", "B_G1 MSM", "B_G2 MSM", "verify"} {
		events = append(events, porep.PhaseEvent{Phase: porep.PhaseStage, Partition: 0, Stage: st})
	}
	events = append(events, porep.PhaseEvent{Phase: porep.PhaseProven, Partition: 0, Took: 2 * time.Second})
	for _, ev := range events {
		rec.record(ev)
	}
	got := buf.String()
	for _, want := range []string{
		"cuseal: warning: TEST parameters: proofs will not verify on chain (x.params …)\n",
		"commit2 2KiB: cpu backend (",
		"commit2 2KiB: partition 1/2: synthesizing the circuit (",
		"commit2 2KiB: partition 1/2: H polynomial (",
		"commit2 2KiB: partition 1/2: B_G2 MSM (",
		"commit2 2KiB: partition 1/2: verify (",
		"commit2 2KiB: partition 1/2: proven and verified in 2.0s (",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "\n"); n != 11 {
		t.Errorf("%d lines, want 11 (one per phase and the warning):\n%s", n, got)
	}
	if len(rec.timings()) != 2 || len(rec.warnings) != 1 {
		t.Errorf("timings %v, warnings %v", rec.timings(), rec.warnings)
	}

	slogOn = true
	defer func() { slogOn = false }()
	if p := newPhaseProgress(&buf, 1, "x"); p != nil {
		t.Fatal("progress lines with --log-level set")
	}
}

// TestDefaultLogQuiet (issue 15, item 6): without --log-level no slog records reach stderr.
func TestDefaultLogQuiet(t *testing.T) {
	// seal logs slog.Info records (PC1+PC2, C1); by default they stay out of stderr.
	code, _, stderr := runCLI(t, "seal", "--sector-size", "2KiB", "--data", sampleData, "--out", filepath.Join(t.TempDir(), "s"),
		"--ticket", testTicket, "--seed", testSeed, "--json")
	if code != exitOK || strings.Contains(stderr, "level=") {
		t.Fatalf("seal: exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stderr, "seal 2KiB: PC1, PC2 (") || !strings.Contains(stderr, "seal 2KiB: commit phase 1 (") {
		t.Errorf("seal progress lines missing: %q", stderr)
	}
	if err := setupLogging("", &bytes.Buffer{}); err != nil || slogShowsWarnings() || slogOn {
		t.Fatalf("default logging: %v, warnings shown %v", err, slogShowsWarnings())
	}
	var b bytes.Buffer
	if err := setupLogging("info", &b); err != nil || !slogShowsWarnings() || !slogOn {
		t.Fatal("--log-level info does not show warnings")
	}
	setupLogging("", &b)
}
