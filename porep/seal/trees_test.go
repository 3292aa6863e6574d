// SPDX-License-Identifier: Apache-2.0 OR MIT

package seal

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
)

func TestTreeFromInner(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		n     int
		shape stacked.TreeShape
	}{{64, stacked.Shape800}, {128, stacked.Shape820}, {512, stacked.Shape880}, {1024, stacked.Shape882}, {64, stacked.TreeShape{Base: 2}}, {128, stacked.TreeShape{Base: 2, Sub: 8, Top: 4}}} {
		leaves := make([]fr.Element, tc.n)
		for i := range leaves {
			leaves[i].SetUint64(r.Uint64())
		}
		want, err := poseidon.BuildTree(leaves, tc.shape.Base, tc.shape.Sub, tc.shape.Top)
		if err != nil {
			t.Fatal(err)
		}
		got, err := treeFromInner(leaves, treeInner(want), tc.shape)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: rebuilt tree differs", tc.shape)
		}
		if _, err := treeFromInner(leaves, treeInner(want)[1:], tc.shape); err == nil {
			t.Fatalf("%s: short node file accepted", tc.shape)
		}
	}
}
