// SPDX-License-Identifier: Apache-2.0 OR MIT

package testparams

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/stacked"
)

// EnvDir names the environment variable that points the tests of every
// package at one directory of already generated test parameters.
const EnvDir = "CUSEAL_TEST_PARAMS_DIR"

// Seed is the toxic-waste seed of the shared test parameters: the
// toxic_seed of every rust-fil-proofs reference vector (bytes 0x00…0x1f,
// testdata/golden/*/meta.json), so that one set of 2 KiB parameters serves
// the end-to-end tests and the byte-identity tests against bellperson's
// proofs. `./build.sh test` generates it with `cuseal params generate
// --seed SeedHex`; the CLI's and libcuseal's own default seed is another
// ("cuseal-porep-test").
var Seed = func() (s [32]byte) {
	for i := range s {
		s[i] = byte(i)
	}
	return s
}()

// SeedHex is Seed in hex, as `cuseal params generate --seed` takes it.
var SeedHex = hex.EncodeToString(Seed[:])

// Dir is where the shared test parameters are cached across packages and
// runs: $CUSEAL_TEST_PARAMS_DIR, else $TMPDIR/cuseal-test-params.
func Dir() string {
	if d := os.Getenv(EnvDir); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "cuseal-test-params")
}

// Preset returns $CUSEAL_TEST_PARAMS_DIR and true when it is set: a
// directory the caller (./build.sh test, gpu-check.sh) filled beforehand.
func Preset() (string, bool) {
	d := os.Getenv(EnvDir)
	return d, d != ""
}

// Config2K is the 2 KiB interactive PoRep configuration the shared
// parameters are for (StackedDrg2KiBV1_1).
func Config2K(t testing.TB) stacked.SectorConfig {
	t.Helper()
	cfg, err := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// Have2K reports whether Dir holds the 2 KiB .params and .vk files (made
// by anyone: only their presence is checked).
func Have2K(t testing.TB) bool {
	cfg := Config2K(t)
	pp, vp, _ := cfg.ParameterPaths(Dir())
	_, e1 := os.Stat(pp)
	_, e2 := os.Stat(vp)
	return e1 == nil && e2 == nil
}

var (
	once2K sync.Once
	err2K  error
)

// Get2K returns Dir after generating the 2 KiB parameters there from Seed,
// or reusing them when their stamp records Seed and this circuit's R1CS
// digest (synthesizing the circuit for it, seconds, once per process);
// generating them takes minutes and writes 1.1 GB. A $CUSEAL_TEST_PARAMS_DIR whose stamp records
// Seed is trusted as it is: ./build.sh test checked it (params generate
// --reuse) before the tests started.
func Get2K(t testing.TB) string {
	t.Helper()
	dir := Dir()
	once2K.Do(func() {
		cfg := Config2K(t)
		if d, ok := Preset(); ok && Have2K(t) {
			stamp := paramfile.TestStampPath(d, &cfg)
			if st, err := paramfile.ReadTestStamp(stamp); err == nil && st.Seed == SeedHex {
				return
			}
		}
		start := time.Now()
		tp, err := paramfile.GenerateTestParams(dir, &cfg, Seed, nil)
		if err != nil {
			err2K = err
			return
		}
		t.Logf("2 KiB test params in %s (reused %v, %d constraints) in %v", dir, tp.Reused, tp.Constraints, time.Since(start))
	})
	if err2K != nil {
		t.Fatal(err2K)
	}
	return dir
}

// ForSeed returns a directory with cfg's test parameters made from seed
// (the toxic_seed of a Rust reference vector): Dir when seed is Seed (the
// reference vectors' own) or Dir's stamp records it, otherwise
// $TMPDIR/cuseal-golden-params; generated there on first use (2 KiB: about
// a minute, 1.1 GB, 2.7 GB of memory) and reused while the stamp records
// the same seed and R1CS digest.
func ForSeed(t testing.TB, cfg *stacked.SectorConfig, seed [32]byte) string {
	t.Helper()
	d := Dir()
	stamp := paramfile.TestStampPath(d, cfg)
	dir := filepath.Join(os.TempDir(), "cuseal-golden-params")
	if st, err := paramfile.ReadTestStamp(stamp); (err == nil && st.Seed == hex.EncodeToString(seed[:])) || seed == Seed {
		dir = d
	}
	start := time.Now()
	tp, err := paramfile.GenerateTestParams(dir, cfg, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s parameters from a reference toxic seed in %s (reused %v) in %v", cfg.Name, dir, tp.Reused, time.Since(start))
	return dir
}

// CachedParams returns test parameters of r1cs made from seed and the path
// of their file: official (a parameter file's base name, such as
// v28-proof-of-spacetime-….params) in Dir when its stamp
// (.cuseal-test.json) records seed and r1cs's digest — what
// `./build.sh test` generates there with `cuseal params generate --circuit
// … --seed` before the tests — else groth16.CachedSetup's file under
// Dir()/cache, generated on first use. The caller closes the parameters.
func CachedParams(t testing.TB, r1cs *cs.R1CS, seed [32]byte, cache, official string) (*groth16.Params, string) {
	t.Helper()
	d := r1cs.Digest()
	path := filepath.Join(Dir(), official)
	st, err := paramfile.ReadTestStamp(strings.TrimSuffix(path, ".params") + ".cuseal-test.json")
	if err == nil && st.Seed == hex.EncodeToString(seed[:]) && st.R1CSDigest == hex.EncodeToString(d[:]) {
		p, err := groth16.OpenParams(path, false)
		if err != nil {
			t.Fatal(err)
		}
		return p, path
	}
	dir := filepath.Join(Dir(), cache)
	p, err := groth16.CachedSetup(dir, r1cs, seed)
	if err != nil {
		t.Fatal(err)
	}
	return p, filepath.Join(dir, "cuseal-test-v1-"+hex.EncodeToString(d[:])+"-"+hex.EncodeToString(seed[:])+".params")
}
