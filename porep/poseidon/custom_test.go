// SPDX-License-Identifier: Apache-2.0 OR MIT

package poseidon

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/testsupport/testcs"
)

// TestCustomConstants checks that a HashType::Custom constant set differs
// from the MerkleTree one only in the domain tag, that its circuit costs the
// same and computes HashWith, and that its witness satisfies the R1CS.
func TestCustomConstants(t *testing.T) {
	c, err := CustomConstants(2, 1)
	if err != nil {
		t.Fatal(err)
	}
	std := mustConstants(2)
	var tag fr.Element
	tag.SetUint64(1 << 40)
	if !c.DomainTag.Equal(&tag) || &c.Compressed[0] != &std.Compressed[0] || c.PartialRounds != std.PartialRounds {
		t.Fatalf("custom constants: tag %s, shares constants %v", c.DomainTag.String(), &c.Compressed[0] == &std.Compressed[0])
	}
	if again, _ := CustomConstants(2, 1); again != c {
		t.Error("CustomConstants is not cached")
	}
	in := []fr.Element{fr.NewElement(7), fr.NewElement(11)}
	got, err := HashWith(c, in)
	if err != nil {
		t.Fatal(err)
	}
	if plain := Hash(in); got.Equal(&plain) {
		t.Fatal("the custom tag does not change the hash")
	}
	if want := hashCorrect(c, in); !got.Equal(&want) {
		t.Fatalf("HashWith %s, reference permutation %s", got.String(), want.String())
	}
	sys := testcs.New()
	vars := []cs.Variable{sys.Alloc(&in[0]), sys.Alloc(&in[1])}
	before := sys.NumConstraints()
	v, val, err := HashCircuitWith(sys, c, vars, in)
	if err != nil {
		t.Fatal(err)
	}
	cost, _ := CircuitCost(2)
	if !val.Equal(&got) || sys.NumConstraints()-before != cost {
		t.Fatalf("circuit value %s (want %s), %d constraints (want %d)", val.String(), got.String(), sys.NumConstraints()-before, cost)
	}
	if w := sys.Value(v); !w.Equal(&got) {
		t.Fatalf("allocated hash %s, want %s", w.String(), got.String())
	}
	if err := sys.Validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := HashWith(c, in[:1]); err == nil {
		t.Error("HashWith accepted 1 input for arity 2")
	}
}
