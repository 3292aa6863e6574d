// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/update"
	"github.com/cuseal/cuseal/testsupport/testparams"
	"github.com/cuseal/cuseal/testsupport/testpost"
	"github.com/cuseal/cuseal/testsupport/testupdate"
)

// linkParams makes dir a parameter directory whose .params, .meta and stamp
// are symbolic links to src's (read-only there), so a test can put its own
// .vk next to them.
func linkParams(t *testing.T, src, dir string, cfg *stacked.SectorConfig) {
	t.Helper()
	spp, _, smp := cfg.ParameterPaths(src)
	pp, _, mp := cfg.ParameterPaths(dir)
	for _, l := range [][2]string{{spp, pp}, {smp, mp}} {
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCommit2VKMismatch (issue 15, fault 1): a .vk that is not the .params
// file's key — one of another setup of the same circuit (otherSetupVK), or
// the right .vk with
// its IC count at bytes 864–867 changed from 40 to 39 — must stop
// SealCommitPhase2 before proving with an error wrapping ErrBadInput that
// names the file(s), instead of writing a proof the verifiers reject.
// VerifySeal with the altered .vk is an input error too.
func TestCommit2VKMismatch(t *testing.T) {
	src := testparams.Get2K(t)
	s := seal2K(t)
	cfg := config2K(t)
	_, svp, _ := cfg.ParameterPaths(src)
	good, err := os.ReadFile(svp)
	if err != nil {
		t.Fatal(err)
	}
	other := otherSetupVK(t, good)
	altered := append([]byte(nil), good...)
	if n := binary.BigEndian.Uint32(altered[864:868]); n != 40 {
		t.Fatalf("IC count field = %d, want 40", n)
	}
	binary.BigEndian.PutUint32(altered[864:868], 39)

	for _, c := range []struct {
		name string
		vk   []byte
		want []string
	}{
		{"vk of another setup", other, []string{"hold different verifying keys (first difference: alpha_g1)", ".params", ".vk"}},
		{"IC count 39", altered, []string{".vk", "96 bytes after the verifying key"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			linkParams(t, src, dir, &cfg)
			_, vp, _ := cfg.ParameterPaths(dir)
			if err := os.WriteFile(vp, c.vk, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := SealCommitPhase2(s.c1, testSector, testMiner, WithParamsDir(dir))
			if !errors.Is(err, ErrBadInput) {
				t.Fatalf("SealCommitPhase2: %v; want an error wrapping ErrBadInput", err)
			}
			for _, w := range append(c.want, dir) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("SealCommitPhase2 error %q does not say %q", err, w)
				}
			}
		})
	}
	t.Run("verify with the altered vk", func(t *testing.T) {
		dir := t.TempDir()
		_, vp, _ := cfg.ParameterPaths(dir)
		if err := os.WriteFile(vp, altered, 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, g1, g2 := bls.Generators()
		pf := (&groth16.Proof{A: g1, B: g2, C: g1}).Bytes()
		ok, err := VerifySeal(verifyInfo(t, s, pf[:]), WithParamsDir(dir))
		if ok || !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), vp) {
			t.Fatalf("VerifySeal = %v, %v; want ErrBadInput naming %s", ok, err, vp)
		}
	})
}

// TestParamFileKinds (issue 15, fault 3): every problem with a parameter
// file — a directory where the .params should be, a dangling symbolic link,
// a truncated file, a .meta that is a directory, an unreadable file — is the
// user's (ErrBadInput or ErrParamsNotFound, exit 2 in the CLI), named in one
// line, never an internal error.
func TestParamFileKinds(t *testing.T) {
	s := seal2K(t)
	cfg := config2K(t)
	for _, c := range []struct {
		name     string
		setup    func(t *testing.T, dir string)
		sentinel error
		want     string
	}{
		{"params is a directory", func(t *testing.T, dir string) {
			writeFakeParams(t, dir, &cfg, cfg.NumPublicInputs(), 3, 1)
			pp, _, _ := cfg.ParameterPaths(dir)
			os.Remove(pp)
			if err := os.Mkdir(pp, 0o755); err != nil {
				t.Fatal(err)
			}
		}, ErrBadInput, ".params: is a directory"},
		{"params is a dangling link", func(t *testing.T, dir string) {
			writeFakeParams(t, dir, &cfg, cfg.NumPublicInputs(), 3, 1)
			pp, _, _ := cfg.ParameterPaths(dir)
			os.Remove(pp)
			if err := os.Symlink(filepath.Join(dir, "gone.params"), pp); err != nil {
				t.Fatal(err)
			}
		}, ErrParamsNotFound, "is a dangling symbolic link (to "},
		{"params truncated", func(t *testing.T, dir string) {
			writeFakeParams(t, dir, &cfg, cfg.NumPublicInputs(), 3, 1)
			pp, _, _ := cfg.ParameterPaths(dir)
			if err := os.Truncate(pp, 5000); err != nil {
				t.Fatal(err)
			}
		}, ErrBadInput, "truncated"},
		{"meta is a directory", func(t *testing.T, dir string) {
			writeFakeParams(t, dir, &cfg, cfg.NumPublicInputs(), 3, 1)
			_, _, mp := cfg.ParameterPaths(dir)
			if err := os.Mkdir(mp, 0o755); err != nil {
				t.Fatal(err)
			}
		}, ErrBadInput, ".meta: read is a directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			c.setup(t, dir)
			_, err := SealCommitPhase2(s.c1, testSector, testMiner, WithParamsDir(dir))
			if !errors.Is(err, c.sentinel) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("SealCommitPhase2: %v; want %v saying %q", err, c.sentinel, c.want)
			}
		})
	}
	t.Run("unreadable", func(t *testing.T) {
		// As root (the CI machine) mode 000 is still readable: the
		// classification of the os error is checked directly in paramfile
		// (TestParamFileErrorPermission), the file here when it bites.
		dir := t.TempDir()
		writeFakeParams(t, dir, &cfg, cfg.NumPublicInputs(), 3, 1)
		pp, _, _ := cfg.ParameterPaths(dir)
		if err := os.Chmod(pp, 0); err != nil {
			t.Fatal(err)
		}
		if f, err := os.Open(pp); err == nil {
			f.Close()
			t.Log("mode 000 is readable by this user (root): file case not checked")
			return
		}
		_, err := SealCommitPhase2(s.c1, testSector, testMiner, WithParamsDir(dir))
		if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "permission denied") {
			t.Fatalf("SealCommitPhase2: %v; want ErrBadInput, permission denied", err)
		}
	})
}

// otherSetupVK is good (a .vk) with alpha_g1 doubled: the key of another
// setup of the same circuit as far as the .vk-vs-.params check can tell.
// (The reference .vk in testdata/golden served before the shared test
// parameters took its toxic seed.)
func otherSetupVK(t *testing.T, good []byte) []byte {
	t.Helper()
	vk, err := groth16.ParseVerifyingKey(good, "good.vk")
	if err != nil {
		t.Fatal(err)
	}
	vk.Alpha1.Add(&vk.Alpha1, &vk.Alpha1)
	return vk.Bytes()
}

// TestVKMismatchEveryFamily (issue 32): the .vk-vs-.params check is
// paramfile's, so it guards PoSt and SnapDeals as it guards C2: a .vk of
// another setup of the same circuit (otherSetupVK: alpha_g1 doubled) next
// to the reference vector's .params stops the Generate call before any
// synthesis, and Keys.Load (the engine's path), with an error wrapping
// ErrBadInput that names both files and the first differing field.
func TestVKMismatchEveryFamily(t *testing.T) {
	w := testpost.Load(t, "post-window-2KiB-s21")
	u := testupdate.Load(t)
	wcfg, err := post.ConfigFor(w.Proof)
	if err != nil {
		t.Fatal(err)
	}
	ucfg, err := update.ConfigFor(u.Proof)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		circuit paramfile.Circuit
		dir     func(t testing.TB) string
		prove   func(dir string) error
	}{
		{"WindowPoSt", &wcfg, w.ParamsDir, func(dir string) error {
			_, err := GenerateWindowPoStWithVanilla(w.Proof, w.Miner, w.Randomness, w.Vanilla, WithParamsDir(dir))
			return err
		}},
		{"SnapDeals", &ucfg, u.ParamsDir, func(dir string) error {
			_, err := GenerateUpdateProofWithVanilla(u.Proof, u.OldSealed, u.NewSealed, u.NewUnseal, u.Vanilla, WithParamsDir(dir))
			return err
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := c.dir(t)
			pp, vp, _ := c.circuit.ParameterPaths(dir)
			good, err := os.ReadFile(vp)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(vp, otherSetupVK(t, good), 0o644); err != nil {
				t.Fatal(err)
			}
			want := []string{"hold different verifying keys (first difference: alpha_g1)", pp, vp}
			check := func(what string, err error) {
				t.Helper()
				if !errors.Is(err, ErrBadInput) {
					t.Fatalf("%s: %v; want an error wrapping ErrBadInput", what, err)
				}
				for _, s := range want {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("%s: %q does not say %q", what, err, s)
					}
				}
			}
			check("prove", c.prove(dir))
			_, _, err = KeysFor(c.circuit, WithParamsDir(dir)).Load()
			check("Keys.Load", err)
		})
	}
}

// TestEstimateParamsBytes: paramfile.EstimateParamsBytes, counted from each
// circuit's structure, is the exact size of the 2 KiB test parameters of
// every family (PoRep C2, WinningPoSt, WindowPoSt, SnapDeals); at 32 GiB it
// is within 3 % of the published sizes of the official files
// (../shared/docs/formats.md §1.5: PoRep 44 GiB on disk, WindowPoSt 57 GiB,
// WinningPoSt 183 MiB).
func TestEstimateParamsBytes(t *testing.T) {
	porep2K := config2K(t)
	window := testpost.Load(t, "post-window-2KiB-s21")
	winning := testpost.Load(t, "post-winning-2KiB-s22")
	up := testupdate.Load(t)
	upCfg, err := update.ConfigFor(up.Proof)
	if err != nil {
		t.Fatal(err)
	}
	postCfg := func(v *testpost.Vector) *post.Config {
		cfg, err := post.ConfigFor(v.Proof)
		if err != nil {
			t.Fatal(err)
		}
		return &cfg
	}
	for _, tc := range []struct {
		c   paramfile.Circuit
		dir string
	}{
		{&porep2K, testparams.Get2K(t)},
		{postCfg(window), window.ParamsDir(t)},
		{postCfg(winning), winning.ParamsDir(t)},
		{&upCfg, up.ParamsDir(t)},
	} {
		pp, _, _ := tc.c.ParameterPaths(tc.dir)
		st, err := os.Stat(pp)
		if err != nil {
			t.Fatal(err)
		}
		got, err := paramfile.EstimateParamsBytes(tc.c)
		if err != nil {
			t.Fatal(err)
		}
		if got != uint64(st.Size()) {
			t.Errorf("%s: estimate %d bytes, the file has %d", tc.c.ProofName(), got, st.Size())
		}
	}

	porep32, err := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg32GiBV1_1)
	if err != nil {
		t.Fatal(err)
	}
	window32, err := post.ConfigFor(abi.RegisteredPoStProof_StackedDrgWindow32GiBV1_1)
	if err != nil {
		t.Fatal(err)
	}
	winning32, err := post.ConfigFor(abi.RegisteredPoStProof_StackedDrgWinning32GiBV1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		c    paramfile.Circuit
		want float64 // bytes, published
	}{
		{&winning32, 183 << 20},
		{&window32, 57 << 30},
		{&porep32, 44 << 30},
	} {
		got, err := paramfile.EstimateParamsBytes(tc.c)
		if err != nil {
			t.Fatal(err)
		}
		if r := float64(got) / tc.want; r < 0.97 || r > 1.03 {
			t.Errorf("%s: estimate %d bytes, %.3f × the published size", tc.c.ProofName(), got, r)
		}
		t.Logf("%s: %d bytes (%.2f GiB)", tc.c.ProofName(), got, float64(got)/(1<<30))
	}
}
