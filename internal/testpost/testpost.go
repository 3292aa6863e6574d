// SPDX-License-Identifier: Apache-2.0 OR MIT

package testpost

import (
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/internal/testparams"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/post"
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
	r1cs := rec.R1CS()
	cache := filepath.Join(testparams.Dir(), "post")
	params, err := groth16.CachedSetup(cache, r1cs, toxicSeed)
	if err != nil {
		t.Fatal(err)
	}
	params.Close()
	d := r1cs.Digest()
	cached := filepath.Join(cache, "cuseal-test-v1-"+hex.EncodeToString(d[:])+"-"+hex.EncodeToString(toxicSeed[:])+".params")
	dir := t.TempDir()
	pp, vp, _ := cfg.ParameterPaths(dir)
	if err := os.Symlink(cached, pp); err != nil {
		t.Fatal(err)
	}
	vk, err := os.ReadFile(vkFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(vp, vk, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
