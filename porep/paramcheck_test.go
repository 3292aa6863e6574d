// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/porep/groth16"
)

// TestRequireProductionParams (issue 19): a 2 KiB official-name file with a wrong digest is
// refused under WithRequireProductionParams and under FIL_PROOFS_VERIFY_PRODUCTION_PARAMS=1,
// by SealCommitPhase2 and VerifySeal, wrapping ErrBadInput and naming the file, its digest
// and the official one; test-stamped parameters are named as TEST parameters.
func TestRequireProductionParams(t *testing.T) {
	s := seal2K(t)
	cfg := config2K(t)
	dir := t.TempDir()
	writeFakeParams(t, dir, &cfg, cfg.NumPublicInputs(), 3, 1)
	pp, vp, _ := cfg.ParameterPaths(dir)
	dpp, _ := groth16.FileDigest(pp)
	dvp, _ := groth16.FileDigest(vp)
	_, err := SealCommitPhase2(s.c1, testSector, testMiner, WithParamsDir(dir), WithRequireProductionParams())
	for _, w := range []string{pp, dpp, "434fb1338ecfaf0f59256f30dde4968f", "FIL_PROOFS_VERIFY_PRODUCTION_PARAMS"} {
		if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), w) {
			t.Fatalf("SealCommitPhase2: %v; want ErrBadInput naming %q", err, w)
		}
	}
	t.Setenv("FIL_PROOFS_VERIFY_PRODUCTION_PARAMS", "1")
	pf := make([]byte, groth16.ProofSize)
	ok, err := VerifySeal(verifyInfo(t, s, pf), WithParamsDir(dir))
	if ok || !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), dvp) || !strings.Contains(err.Error(), "dc1ade9929ade1708238f155343044ac") {
		t.Fatalf("VerifySeal under FIL_PROOFS_VERIFY_PRODUCTION_PARAMS=1: %v, %v", ok, err)
	}
	stamp := filepath.Join(dir, cfg.ParameterFileStem()+".cuseal-test.json")
	if err := os.WriteFile(stamp, []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = SealCommitPhase2(s.c1, testSector, testMiner, WithParamsDir(dir))
	if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "TEST parameters") {
		t.Fatalf("stamped, under the variable: %v", err)
	}
}

// TestTestParamsWarningOnce (issue 19): a test-stamped parameter set gives one warning naming
// the file, once per process: not again for a second proof, nor for a verification.
func TestTestParamsWarningOnce(t *testing.T) {
	s := seal2K(t)
	cfg := config2K(t)
	dir := t.TempDir()
	writeFakeParams(t, dir, &cfg, cfg.NumPublicInputs(), 3, 1)
	if err := os.WriteFile(filepath.Join(dir, cfg.ParameterFileStem()+".cuseal-test.json"), []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	pp, _, _ := cfg.ParameterPaths(dir)
	var warnings []string
	rec := WithProgress(func(ev PhaseEvent) {
		if ev.Phase == PhaseWarning {
			warnings = append(warnings, ev.Message)
		}
	})
	for i := 0; i < 2; i++ {
		// The fake parameters fail the shape check after the warning.
		if _, err := SealCommitPhase2(s.c1, testSector, testMiner, WithParamsDir(dir), rec); !errors.Is(err, ErrBadInput) {
			t.Fatalf("SealCommitPhase2: %v", err)
		}
	}
	VerifySeal(verifyInfo(t, s, make([]byte, groth16.ProofSize)), WithParamsDir(dir), rec)
	if len(warnings) != 1 || !strings.Contains(warnings[0], "TEST parameters: proofs will not verify on chain") || !strings.Contains(warnings[0], pp) {
		t.Fatalf("warnings %q, want one naming %s", warnings, pp)
	}
}
