// SPDX-License-Identifier: Apache-2.0 OR MIT

package testprover

import (
	"context"
	"encoding/hex"
	"errors"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
)

// TestReferenceTable: every vector partition is in the table, with the
// randomness meta.json records for it (2KiB-s10's r, s).
func TestReferenceTable(t *testing.T) {
	r := Register(t)
	if n := len(r.byWitness); n != 1+1+13+1+1+1 {
		t.Fatalf("%d reference partitions, want 18 (2KiB-s10, 2KiB-s14, 13 NI, winning, window, update)", n)
	}
	v := PoRep(t, "2KiB-s10")
	e, ok := r.byWitness[[32]byte(mustHex(t, v.Partitions[0].Witness))]
	if !ok {
		t.Fatal("2KiB-s10 partition 0 missing")
	}
	// meta.json's r, s are canonical little-endian hex.
	for _, c := range []struct {
		what string
		got  fr.Element
		want string
	}{{"r", e.rs.R, "56b51fd2c306a9db12a69b0c697b9d348d792d134c0ee8b7d219d5cd04509e0b"}, {"s", e.rs.S, "6df0adb272871a50a5ff5c107c076b745ca65070ad87b9ddb2a599d592385e1a"}} {
		b := c.got.Bytes()
		for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
			b[i], b[j] = b[j], b[i]
		}
		if hex.EncodeToString(b[:]) != c.want {
			t.Errorf("2KiB-s10 %s = %x, meta.json %s", c.what, b, c.want)
		}
	}
	if !contains(porep.Backends(), Name) {
		t.Fatalf("%q not in porep.Backends() %v", Name, porep.Backends())
	}
}

// TestReferenceRefuses: a circuit no vector has, and a vector's circuit
// with other randomness, are errors wrapping ErrNotReference.
func TestReferenceRefuses(t *testing.T) {
	r := Register(t)
	// x·y = z with x, y, z aux and z also an input: a circuit of our own.
	var x, y, z fr.Element
	x.SetUint64(3)
	y.SetUint64(5)
	z.Mul(&x, &y)
	rec := cs.NewRecorder()
	build := func(sys cs.ConstraintSystem) {
		in := sys.AllocInput(&z)
		a, b := sys.Alloc(&x), sys.Alloc(&y)
		one := fr.One()
		sys.Enforce(cs.LC{{Var: a, Coeff: one}}, cs.LC{{Var: b, Coeff: one}}, cs.LC{{Var: in, Coeff: one}})
	}
	build(rec)
	params, err := groth16.Setup(rec.R1CS(), groth16.ToxicWasteFromSeed([32]byte{1}))
	if err != nil {
		t.Fatal(err)
	}
	pa := cs.NewProvingAssignment(cs.SizeHint{})
	build(pa)
	a := pa.Assignment()
	rs := []groth16.Randomness{groth16.RandomnessFromSeed([32]byte{}, 0)}
	if _, err := r.ProveWith(context.Background(), params, []*cs.Assignment{a}, rs); !errors.Is(err, ErrNotReference) {
		t.Fatalf("own circuit: %v, want ErrNotReference", err)
	}
	if _, err := r.QuerySums(context.Background(), params, []*cs.Assignment{a}); err == nil {
		t.Fatal("QuerySums: no error")
	}
	if _, err := r.ProveWith(context.Background(), params, []*cs.Assignment{a}, nil); err == nil {
		t.Fatal("no randomness: no error")
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
