// SPDX-License-Identifier: Apache-2.0 OR MIT

package paramfile

import (
	"os"
	"testing"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/stacked"
)

// testParamsSeed is the toxic-waste seed of the cached test parameters.
var testParamsSeed = [32]byte{'c', 'u', 's', 'e', 'a', 'l', '-', 'p', 'o', 'r', 'e', 'p', '-', 't', 'e', 's', 't'}

func config2K(t testing.TB) stacked.SectorConfig {
	t.Helper()
	cfg, err := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// writeFakeParams writes a .params file in bellperson's layout under cfg's
// name in dir: vk (with ic IC points), then h, l, a, b_g1, b_g2 with the given
// counts, every point a generator. It is shaped like real parameters for
// another circuit; nothing can be proven with it.
func writeFakeParams(t *testing.T, dir string, cfg *stacked.SectorConfig, ic, h, l int) {
	t.Helper()
	_, _, g1, g2 := bls.Generators()
	vk := groth16.VerifyingKey{Alpha1: g1, Beta1: g1, Beta2: g2, Gamma2: g2, Delta1: g1, Delta2: g2, IC: make([]bls.G1Affine, ic)}
	for i := range vk.IC {
		vk.IC[i] = g1
	}
	out := vk.Bytes()
	g1b, g2b := g1.RawBytes(), g2.RawBytes()
	for q, n := range []int{h, l, 1, 1, 1} {
		out = append(out, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
		for i := 0; i < n; i++ {
			if q == 4 {
				out = append(out, g2b[:]...)
			} else {
				out = append(out, g1b[:]...)
			}
		}
	}
	pp, vkPath, _ := cfg.ParameterPaths(dir)
	if err := os.WriteFile(pp, out, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(vkPath, vk.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
