// SPDX-License-Identifier: Apache-2.0 OR MIT

package poseidon

// Bit-compatibility with neptune 11.0.0 itself: testdata/rust_golden.json
// was written by porep/stacked/testdata/refcircuit, which runs neptune's
// legacy circuit::poseidon_hash (with filecoin-hashers' POSEIDON_CONSTANTS_A,
// Standard strength, MerkleTree) over A allocated numbers in a recording
// constraint system and prints the digests of docs/digests.md §1–§4.
// HashCircuit must give the same R1CS, witness, a/b/c and densities.

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/testsupport/goldentest"
)

func TestRustGoldenPoseidonCircuit(t *testing.T) {
	cases := goldentest.Load(t, filepath.Join("testdata", "rust_golden.json"))
	seen := map[int]bool{}
	for _, want := range cases {
		var p struct {
			Arity int    `json:"arity"`
			Label string `json:"label"`
		}
		if err := json.Unmarshal(want.Params, &p); err != nil {
			t.Fatalf("%s params: %v", want.Name, err)
		}
		seen[p.Arity] = true
		vals := make([]fr.Element, p.Arity)
		for i := range vals {
			vals[i] = goldentest.DetFr(fmt.Sprintf("%s/%d", p.Label, i))
		}
		var h fr.Element
		r1cs, rd, asg := goldentest.Synthesize(t, want.Name, func(sys cs.ConstraintSystem) error {
			vars := make([]cs.Variable, len(vals))
			for i := range vals {
				vars[i] = sys.Alloc(&vals[i])
			}
			var err error
			_, h, err = HashCircuit(sys, vars, vals)
			return err
		})
		checks := goldentest.ShapeChecks(r1cs, rd, &want)
		checks = append(checks, goldentest.DensityChecks(asg, &want)...)
		checks = append(checks, goldentest.WitnessChecks(asg, &want)...)
		goldentest.Compare(t, want.Name, checks)
		var out struct {
			Hash string `json:"hash"`
		}
		if err := json.Unmarshal(want.Outputs, &out); err != nil {
			t.Fatal(err)
		}
		hb := h.Bytes() // big-endian
		for i, j := 0, 31; i < j; i, j = i+1, j-1 {
			hb[i], hb[j] = hb[j], hb[i]
		}
		if native := Hash(vals); !native.Equal(&h) || hex.EncodeToString(hb[:]) != out.Hash {
			t.Errorf("%s: circuit hash %x (LE), native %s, Rust %s", want.Name, hb, native.String(), out.Hash)
		}
	}
	for _, a := range []int{2, 4, 8, 11} {
		if !seen[a] {
			t.Errorf("golden file has no case for arity %d", a)
		}
	}
}
