// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

func TestBenchMSMAndNTT(t *testing.T) {
	for _, tc := range []struct {
		args []string
		op   string
		size int
	}{
		{[]string{"msm", "--log-size", "8"}, "msm_g1", 256},
		{[]string{"msm", "--log-size", "4", "--g2"}, "msm_g2", 16},
		{[]string{"ntt", "--log-size", "10"}, "ntt", 1024},
		{[]string{"ntt", "--log-size", "10", "--inverse"}, "intt", 1024},
	} {
		t.Run(tc.op, func(t *testing.T) {
			dir := t.TempDir()
			args := append(append([]string{"bench"}, tc.args...), "--runs", "2", "--json",
				"--cpuprofile", filepath.Join(dir, "cpu"), "--memprofile", filepath.Join(dir, "mem"))
			code, out, stderr := runCLI(t, args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var res kernelResult
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err)
			}
			if res.Op != tc.op || res.Size != tc.size || res.Runs != 2 || res.Backend != "cpu" || res.Seconds <= 0 || res.ElementsPerSec <= 0 {
				t.Fatalf("result %+v", res)
			}
			for _, p := range []string{"cpu", "mem"} {
				if st, err := os.Stat(filepath.Join(dir, p)); err != nil || st.Size() == 0 {
					t.Errorf("%s profile: %v", p, err)
				}
			}
		})
	}
}

func TestBenchKernelBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"log size too big", []string{"bench", "msm", "--log-size", "40"}, "--log-size"},
		{"log size zero", []string{"bench", "ntt", "--log-size", "0"}, "--log-size"},
		{"bad backend", []string{"bench", "ntt", "--backend", "fpga"}, "--backend"},
		{"check on cpu", []string{"bench", "msm", "--check"}, "--check"},
		{"zero runs", []string{"bench", "msm", "--runs", "0"}, "--runs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, tc.args...)
			if code != exitUsage {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			wantOneLineError(t, stderr, tc.want)
		})
	}
	if !cudaBuild {
		code, _, stderr := runCLI(t, "bench", "msm", "--backend", "cuda")
		if code != exitUsage {
			t.Fatalf("cuda on a pure-Go build: exit %d: %s", code, stderr)
		}
		wantOneLineError(t, stderr, "without CUDA")
	}
}

// TestRandomScalarsCanonical checks that the benchmark inputs are valid field elements
// (below the modulus in Montgomery form) and differ from each other.
func TestRandomScalarsCanonical(t *testing.T) {
	s := randomScalars(1000, 9)
	mod := fr.Modulus()
	seen := map[fr.Element]bool{}
	for i := range s {
		b := s[i].BigInt(new(big.Int))
		if b.Cmp(mod) >= 0 || seen[s[i]] {
			t.Fatalf("scalar %d: %v (repeated: %v)", i, b, seen[s[i]])
		}
		seen[s[i]] = true
	}
	// The MSM inputs are on the curve and in the subgroup.
	_, _, g1, _ := bls.Generators()
	pts := bls.BatchScalarMultiplicationG1(&g1, s[:8])
	for i := range pts {
		if !pts[i].IsInSubGroup() {
			t.Fatalf("point %d not in the subgroup", i)
		}
	}
}
