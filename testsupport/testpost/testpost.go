// SPDX-License-Identifier: Apache-2.0 OR MIT

package testpost

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/testsupport/testparams"
)

// ParamsDir returns a new temporary directory holding p's test parameters
// under their official names: the .params generated from toxicSeed
// (groth16.CachedSetup under <test params dir>/post, linked here) and a
// copy of vkFile (the reference vector's .vk).
func ParamsDir(t testing.TB, p abi.RegisteredPoStProof, toxicSeed [32]byte, vkFile string) string {
	t.Helper()
	cfg, err := post.ConfigFor(p)
	if err != nil {
		t.Fatal(err)
	}
	rec := cs.NewRecorder()
	if err := post.BlankCircuit(&cfg).Synthesize(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pp, vp, _ := cfg.ParameterPaths(dir)
	LinkParams(t, rec.R1CS(), toxicSeed, "post", pp, vp, vkFile)
	return dir
}

// LinkParams puts the test parameters of r1cs from toxicSeed at
// paramsPath and a copy of vkFile at vkPath: any circuit's parameter
// directory under the official names. The .params is a link to
// testparams.CachedParams' file (the one `./build.sh test` generated, else
// one cached under <test params dir>/<cache>).
func LinkParams(t testing.TB, r1cs *cs.R1CS, toxicSeed [32]byte, cache, paramsPath, vkPath, vkFile string) {
	t.Helper()
	params, cached := testparams.CachedParams(t, r1cs, toxicSeed, cache, filepath.Base(paramsPath))
	params.Close()
	if err := os.Symlink(cached, paramsPath); err != nil {
		t.Fatal(err)
	}
	vk, err := os.ReadFile(vkFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(vkPath, vk, 0o644); err != nil {
		t.Fatal(err)
	}
}

// JoinParamsDirs returns a new temporary directory linking every file of
// the parameter directories dirs (as ParamsDir returns them), for a server
// that proves several circuits.
func JoinParamsDirs(t testing.TB, dirs ...string) string {
	t.Helper()
	out := t.TempDir()
	for _, d := range dirs {
		entries, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			target, err := filepath.EvalSymlinks(filepath.Join(d, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, filepath.Join(out, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}
