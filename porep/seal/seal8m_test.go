// SPDX-License-Identifier: Apache-2.0 OR MIT

package seal

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// peakRSS returns VmHWM from /proc/self/status ("" where unavailable).
func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:"))
		}
	}
	return ""
}

// TestSeal8MiB seals a real 8 MiB sector (V1_1) end to end and verifies its
// C1. Long tier; its timings are recorded in docs/BENCHMARKS.md.
func TestSeal8MiB(t *testing.T) {
	testenv.Long(t, "8 MiB seal")
	cfg, err := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg8MiBV1_1)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data := randomData(t, dir, UnpaddedSize(cfg.SectorSize), 8)
	out := filepath.Join(dir, "sector")
	ctx := context.Background()
	res, err := Seal(ctx, cfg, data, out, 1000, 7, fixed32(3))
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	c1, err := CommitPhase1(ctx, cfg, res.CommR, res.CommD, out, 7, 1000, fixed32(3), fixed32(9))
	if err != nil {
		t.Fatal(err)
	}
	c1Time := time.Since(t0)
	t1 := time.Now()
	parsed, _, err := stacked.ParseC1(c1)
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifyC1(parsed, &cfg); err != nil {
		t.Fatal(err)
	}
	t.Logf("8 MiB: PC1 %v, PC2 %v, seal total %v, C1 %v (%d bytes), parse+verify %v, peak RSS %s",
		res.PC1.Round(time.Millisecond), res.PC2.Round(time.Millisecond), res.Total.Round(time.Millisecond),
		c1Time.Round(time.Millisecond), len(c1), time.Since(t1).Round(time.Millisecond), peakRSS())
}
