// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

import (
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/stacked"
)

// randomNodes returns n field elements of the PCG stream (27, stream)
// below 2^254, as Fr32-padded data and replica nodes are.
func randomNodes(n uint64, stream uint64) []fr.Element {
	r := rand.New(rand.NewPCG(27, stream))
	out := make([]fr.Element, n)
	for i := range out {
		var b [32]byte
		for j := 0; j < 32; j += 8 {
			v := r.Uint64()
			for k := 0; k < 8; k++ {
				b[j+k] = byte(v >> (8 * k))
			}
		}
		b[31] &= 0x3f
		out[i], _ = stacked.FrFromBytes(&b) // < 2^254 < r: canonical
	}
	return out
}

// TestEncodeReference: with the reference's phi, a node holding a
// challenge's leaf_r_old and leaf_d_new encodes to its leaf_r_new (for c
// on both sides of the h split), and Decode inverts Encode on every node.
func TestEncodeReference(t *testing.T) {
	m, cfg, _ := loadRef(t)
	phi := hexFr(t, "phi", m.Phi)
	old, data := randomNodes(cfg.Nodes, 1), randomNodes(cfg.Nodes, 2)
	want := map[uint64]string{}
	for _, c := range m.Partition[0].Challenges {
		old[c.C], data[c.C] = hexFr(t, "leaf_r_old", c.LeafROld), hexFr(t, "leaf_d_new", c.LeafDNew)
		want[c.C] = c.LeafRNew
	}
	out := make([]fr.Element, cfg.Nodes)
	if err := Encode(cfg, &phi, old, data, out); err != nil {
		t.Fatal(err)
	}
	highs := map[uint64]bool{}
	for c, w := range want {
		if got := frHex(&out[c]); got != w {
			t.Errorf("node %d: %s, reference leaf_r_new %s", c, got, w)
		}
		highs[cfg.ChallengeHigh(c)] = true
	}
	if len(highs) != 1<<cfg.H {
		t.Fatalf("the reference challenges cover %d of %d rho values", len(highs), 1<<cfg.H)
	}
	back := make([]fr.Element, cfg.Nodes)
	if err := Decode(cfg, &phi, old, out, back); err != nil {
		t.Fatal(err)
	}
	for i := range back {
		if back[i] != data[i] {
			t.Fatalf("Decode(Encode) node %d differs", i)
		}
	}
	if err := Encode(cfg, &phi, old[1:], data, out); err == nil {
		t.Error("Encode accepted a short sector key")
	}
	if err := Decode(cfg, &phi, old, out, back[1:]); err == nil {
		t.Error("Decode accepted a short output")
	}
}
