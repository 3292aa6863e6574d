// SPDX-License-Identifier: Apache-2.0 OR MIT

package paramfile

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/stacked"
)

// writeStampedFakeParams puts placeholder parameter files for cfg into dir
// with a stamp recording seed and digest (no stamp when seed is "").
func writeStampedFakeParams(t *testing.T, dir, seed, digest string) (pp string) {
	t.Helper()
	cfg := config2K(t)
	pp, vp, mp := cfg.ParameterPaths(dir)
	for _, p := range []string{pp, vp, mp} {
		if err := os.WriteFile(p, []byte("precious "+filepath.Base(p)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if seed != "" {
		b, _ := json.Marshal(TestStamp{Circuit: cfg.ParameterIdentifier(), Seed: seed, R1CSDigest: digest})
		if err := os.WriteFile(filepath.Join(dir, cfg.ParameterFileStem()+".cuseal-test.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return pp
}

// TestGenerateTestParamsRefusesOtherSeed: parameters stamped with another
// seed, or with no stamp, are never overwritten (a trial run with --reuse
// --seed 7 over the default-seed parameters replaced them).
func TestGenerateTestParamsRefusesOtherSeed(t *testing.T) {
	cfg := config2K(t)
	var seed7 [32]byte
	seed7[0] = 7
	for _, tc := range []struct{ name, stampSeed string }{
		{"other seed", hex.EncodeToString(testParamsSeed[:])},
		{"no stamp", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			pp := writeStampedFakeParams(t, dir, tc.stampSeed, "ab")
			_, err := GenerateTestParams(dir, &cfg, seed7, nil)
			var ce *ParamsConflictError
			if !errors.Is(err, ErrParamsConflict) || !errors.As(err, &ce) {
				t.Fatalf("err = %v, want a ParamsConflictError", err)
			}
			if ce.StampSeed != tc.stampSeed {
				t.Errorf("StampSeed %q, want %q", ce.StampSeed, tc.stampSeed)
			}
			if b, _ := os.ReadFile(pp); string(b) != "precious "+filepath.Base(pp) {
				t.Fatalf("params file changed: %q", b)
			}
			entries, _ := os.ReadDir(dir)
			if n := len(entries); n != 3 && n != 4 {
				t.Fatalf("%d entries in dir, want only the original files", n)
			}
		})
	}
}

// TestGenerateTestParamsRefusesOtherDigest: same seed, but the stamp
// records another circuit digest (parameters of an older circuit).
func TestGenerateTestParamsRefusesOtherDigest(t *testing.T) {
	cfg := config2K(t)
	dir := t.TempDir()
	pp := writeStampedFakeParams(t, dir, hex.EncodeToString(testParamsSeed[:]), "00")
	_, err := GenerateTestParams(dir, &cfg, testParamsSeed, nil)
	var ce *ParamsConflictError
	if !errors.As(err, &ce) || ce.StampDigest != "00" {
		t.Fatalf("err = %v, want a ParamsConflictError for digest 00", err)
	}
	if b, _ := os.ReadFile(pp); string(b) != "precious "+filepath.Base(pp) {
		t.Fatalf("params file changed: %q", b)
	}
}

// TestEstimateTestParamsMemory pins the estimate to the published 32 GiB
// circuit (docs/porep-circuit.md §4.6: 130,278,541 constraints before the 328
// input rows), to the measured peak RSS of a 2 KiB PoRep generation
// (docs/BENCHMARKS.md, "Test-parameter generation": 449 MB; its circuit has
// 2,687,961 rows and 2,685,713 variables) within ±15 %, and to the bound
// issue 40 sets: a 32 GiB PoRep or WindowPoSt partition (shapes measured by
// SizeHint: 130,170,221 and 126,928,216 variables) within 20 GiB.
func TestEstimateTestParamsMemory(t *testing.T) {
	cfg := config2K(t)
	n, b := EstimateTestParamsMemory(&cfg)
	if n < 2_687_961 || n > 2_687_961*110/100 {
		t.Errorf("2 KiB: %d constraints, recorded 2,687,961", n)
	}
	const measured2K = 438_816 << 10 // /usr/bin/time -v: 438,816 KiB
	if b < measured2K*85/100 || b > measured2K*115/100 {
		t.Errorf("2 KiB: %d bytes, measured peak %d", b, measured2K)
	}
	if e := EstimateSetupMemory(cs.SizeHint{Constraints: 2_687_921, Inputs: 40, Aux: 2_685_673}); e < measured2K*85/100 || e > measured2K*115/100 {
		t.Errorf("2 KiB shape: %d bytes, measured peak %d", e, measured2K)
	}
	big, err := stacked.ConfigByName("StackedDrg32GiBV1_1")
	if err != nil {
		t.Fatal(err)
	}
	n, b = EstimateTestParamsMemory(&big)
	if n != 130_278_541 {
		t.Errorf("32 GiB: %d constraints, want 130,278,541", n)
	}
	for name, e := range map[string]uint64{
		"32 GiB PoRep (formula)": b,
		"32 GiB PoRep":           EstimateSetupMemory(cs.SizeHint{Constraints: 130_278_541, Inputs: 328, Aux: 130_169_893}),
		"32 GiB WindowPoSt":      EstimateSetupMemory(cs.SizeHint{Constraints: 125_279_217, Inputs: 25_840, Aux: 126_902_376}),
	} {
		if e < 12_000_000_000 || e > 20<<30 {
			t.Errorf("%s: %d bytes; want the 96 bytes per variable of u, v, ext (12 GB) and at most 20 GiB", name, e)
		}
	}
}

// TestCleanPartialTestParams: after an interrupted generation, the
// temporary files (atomicfile's and the older ".tmp-NAME-*") go, and parameter files go only when no
// stamp vouches for them; unrelated files stay.
func TestCleanPartialTestParams(t *testing.T) {
	cfg := config2K(t)
	dir := t.TempDir()
	pp, vp, mp := cfg.ParameterPaths(dir)
	tmpParams := filepath.Join(dir, "."+filepath.Base(pp)+".tmp123")
	tmpMeta := filepath.Join(dir, ".tmp-"+filepath.Base(mp)+"-456")
	other := filepath.Join(dir, "notes.txt")
	for _, p := range []string{pp, vp, tmpParams, tmpMeta, other} {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	CleanPartialTestParams(dir, &cfg)
	for _, p := range []string{pp, vp, tmpParams, tmpMeta} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s left behind", filepath.Base(p))
		}
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("unrelated file removed: %v", err)
	}

	// With a stamp, the (complete) parameter files stay.
	writeStampedFakeParams(t, dir, hex.EncodeToString(testParamsSeed[:]), "ab")
	CleanPartialTestParams(dir, &cfg)
	if _, err := os.Stat(pp); err != nil {
		t.Errorf("stamped params removed: %v", err)
	}
}
