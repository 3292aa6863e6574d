// SPDX-License-Identifier: Apache-2.0 OR MIT

package gadget

import (
	"crypto/sha256"
	"encoding/binary"
	"math/rand"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/testsupport/testcs"
)

// bytesIntoBooleanVecBE mirrors storage-proofs-core util.rs
// bytes_into_boolean_vec_be: one AllocatedBit per bit, each byte most
// significant bit first.
func bytesIntoBooleanVecBE(sys cs.ConstraintSystem, b []byte) []Boolean {
	out := make([]Boolean, 0, 8*len(b))
	for _, x := range b {
		for i := 7; i >= 0; i-- {
			out = append(out, Is(AllocBit(sys, (x>>uint(i))&1 == 1)))
		}
	}
	return out
}

// nativeLabel is the vanilla label: trim(sha256(replica_id ‖ layer u32 BE
// ‖ node u64 BE ‖ 0^20 ‖ parents)) as a little-endian Fr.
func nativeLabel(id [32]byte, layer uint32, node uint64, parents [][32]byte) fr.Element {
	h := sha256.New()
	h.Write(id[:])
	var buf [32]byte
	binary.BigEndian.PutUint32(buf[:4], layer)
	binary.BigEndian.PutUint64(buf[4:12], node)
	h.Write(buf[:])
	for _, p := range parents {
		h.Write(p[:])
	}
	var d [32]byte
	copy(d[:], h.Sum(nil))
	d[31] &= 0x3f
	return porFromLE(d)
}

// expandParents repeats 14 (or 6) parents to 37 as the stacked circuit and
// the vanilla labeling do.
func expandParents[T any](p []T) []T {
	out := make([]T, 0, LabelParents)
	for len(out) < LabelParents {
		n := min(len(p), LabelParents-len(out))
		out = append(out, p[:n]...)
	}
	return out
}

// TestCreateLabelGolden reproduces create_label.rs test_create_label
// (docs/porep-circuit.md §4.2): replica id and 37 parents allocated bit by bit
// from bytes, constant layer 3 and node 22 → 532,025 constraints in total,
// and the label equals the vanilla one.
func TestCreateLabelGolden(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	idFr := porRandFr(rng)
	id := porLE(&idFr)
	raw := make([][32]byte, 14)
	for i := range raw {
		e := porRandFr(rng)
		raw[i] = porLE(&e)
	}
	parents := expandParents(raw)

	tc := testcs.New()
	parentBits := make([][]Boolean, len(parents))
	for i := range parents {
		parentBits[i] = bytesIntoBooleanVecBE(tc, parents[i][:])
	}
	idBits := bytesIntoBooleanVecBE(tc, id[:])
	node := UInt64Constant(22)
	out, err := CreateLabel(tc, idBits, parentBits, UInt32Constant(3), &node)
	if err != nil {
		t.Fatal(err)
	}
	if tc.NumConstraints() != 532_025 {
		t.Fatalf("constraints = %d, want 532,025", tc.NumConstraints())
	}
	if err := tc.Validate(); err != nil {
		t.Fatal(err)
	}
	want := nativeLabel(id, 3, 22, parents)
	if !out.Val.Equal(&want) {
		t.Fatalf("label = %s, want %s", out.Val.String(), want.String())
	}
}

// TestCreateLabelStackedCost checks the cost inside the stacked circuit
// (Appendix A: 522,269 constraints, 521,749 aux per call): the replica id
// and parents come from to_bits_le + reverse_bit_numbering (their top bit
// a constant), the node is an allocated UInt64, the layer a constant.
func TestCreateLabelStackedCost(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	tc := testcs.New()
	idFr := porRandFr(rng)
	idNum := AllocNum(tc, &idFr)
	idBits := ReverseBitNumbering(idNum.ToBitsLE(tc))
	vals := make([]fr.Element, 14)
	raw := make([][]Boolean, 14)
	rawBytes := make([][32]byte, 14)
	for i := range raw {
		vals[i] = porRandFr(rng)
		n := AllocNum(tc, &vals[i])
		raw[i] = ReverseBitNumbering(n.ToBitsLE(tc))
		rawBytes[i] = porLE(&vals[i])
	}
	node := AllocUInt64(tc, 123456789)
	c0, a0 := tc.NumConstraints(), tc.NumAux()
	out, err := CreateLabel(tc, idBits, expandParents(raw), UInt32Constant(2), &node)
	if err != nil {
		t.Fatal(err)
	}
	if dc, da := tc.NumConstraints()-c0, tc.NumAux()-a0; dc != 522_269 || da != 521_749 {
		t.Fatalf("create_label cost = %d constraints, %d aux; want 522,269 and 521,749", dc, da)
	}
	if err := tc.Validate(); err != nil {
		t.Fatal(err)
	}
	want := nativeLabel(porLE(&idFr), 2, 123456789, expandParents(rawBytes))
	if !out.Val.Equal(&want) {
		t.Fatal("label differs from the vanilla label")
	}
}

// TestCreateLabelBadInput checks the argument checks.
func TestCreateLabelBadInput(t *testing.T) {
	tc := testcs.New()
	node := UInt64Constant(1)
	if _, err := CreateLabel(tc, make([]Boolean, 256), make([][]Boolean, 36), UInt32Constant(1), &node); err == nil {
		t.Fatal("36 parents accepted")
	}
	if _, err := CreateLabel(tc, make([]Boolean, 16), make([][]Boolean, 37), UInt32Constant(1), &node); err == nil {
		t.Fatal("16-bit replica id accepted")
	}
}
