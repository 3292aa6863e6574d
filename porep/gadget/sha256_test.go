// SPDX-License-Identifier: Apache-2.0 OR MIT

package gadget

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/testsupport/testcs"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// allocBytes allocates the message bits of data in SHA-256 order (MSB
// first per byte), each with its booleanity constraint.
func allocBytes(sys cs.ConstraintSystem, data []byte) []Boolean {
	out := make([]Boolean, 0, 8*len(data))
	for _, b := range data {
		for j := 7; j >= 0; j-- {
			out = append(out, Is(AllocBit(sys, b>>uint(j)&1 == 1)))
		}
	}
	return out
}

func bitsToBytes(bits []Boolean) []byte {
	out := make([]byte, len(bits)/8)
	for i, b := range bits {
		if b.Value() {
			out[i/8] |= 0x80 >> uint(i%8)
		}
	}
	return out
}

func mustCheck(t *testing.T, tc *testcs.CS) {
	t.Helper()
	if err := tc.Validate(); err != nil {
		t.Fatal(err)
	}
}

// bellperson sha256.rs test_blank_hash: a constant message costs nothing.
func TestSHA256BlankHash(t *testing.T) {
	tc := testcs.New()
	out, err := SHA256(tc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tc.NumConstraints() != 0 || tc.NumAux() != 0 {
		t.Fatalf("blank hash: %d constraints, %d aux; want 0", tc.NumConstraints(), tc.NumAux())
	}
	for _, b := range out {
		if !b.IsConstant() {
			t.Fatal("blank hash output not constant")
		}
	}
	if got := hex.EncodeToString(bitsToBytes(out)); got != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Fatalf("blank digest %s", got)
	}
}

// bellperson sha256.rs test_full_block: 25,840 constraints beyond the 512
// input bits for one compression with the constant IV.
func TestSHA256FullBlock(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tc := testcs.New()
	data := make([]byte, 64)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	bits := allocBytes(tc, data)
	state := SHA256IV()
	if err := SHA256Compression(tc, bits, &state); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, tc)
	if got := tc.NumConstraints() - 512; got != 25840 {
		t.Fatalf("full block: %d constraints, want 25840", got)
	}
}

// bellperson sha256.rs test_full_hash: 44,874 constraints for sha256() of
// 512 allocated bits.
func TestSHA256FullHash(t *testing.T) {
	tc := testcs.New()
	data := make([]byte, 64)
	for i := range data {
		data[i] = byte(i * 37)
	}
	bits := allocBytes(tc, data)
	out, err := SHA256(tc, bits)
	if err != nil {
		t.Fatal(err)
	}
	mustCheck(t, tc)
	if got := tc.NumConstraints() - 512; got != 44874 {
		t.Fatalf("full hash: %d constraints, want 44874", got)
	}
	want := sha256.Sum256(data)
	if got := bitsToBytes(out); string(got) != string(want[:]) {
		t.Fatalf("digest %x, want %x", got, want)
	}
}

// The gadget computes crypto/sha256 on random messages of many lengths
// (zero, one, two and three blocks, and the padding boundaries), the
// TestCS is satisfied, and flipping one witness bit breaks it.
func TestSHA256MatchesStdlib(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 7))
	lengths := []int{0, 1, 3, 31, 32, 55, 56, 63, 64, 65, 100, 119, 120, 128, 150}
	if !testenv.Enabled(testenv.TierLong) {
		lengths = []int{0, 3, 55, 56, 64}
	}
	for _, n := range lengths {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		tc := testcs.New()
		bits := allocBytes(tc, data)
		out, err := SHA256(tc, bits)
		if err != nil {
			t.Fatal(err)
		}
		want := sha256.Sum256(data)
		if got := bitsToBytes(out); string(got) != string(want[:]) {
			t.Fatalf("len %d: digest %x, want %x", n, got, want)
		}
		mustCheck(t, tc)
		// Every output bit's value must equal the TestCS witness.
		for i, b := range out {
			if b.IsConstant() {
				continue
			}
			v := tc.Value(b.Variable())
			if v.IsUint64() && v.Uint64() != boolU64(b.Bit().Val) {
				t.Fatalf("len %d: output bit %d value disagrees with witness", n, i)
			}
		}
		if n > 0 && tc.NumAux() > 8*n {
			// Flip an internal (non-input) witness bit.
			v := cs.Aux(8*n + rng.IntN(tc.NumAux()-8*n))
			x := tc.Value(v)
			var one fr.Element
			one.SetOne()
			x.Sub(&one, &x)
			tc.Set(v, x)
			var ue *testcs.UnsatisfiedError
			if err := tc.Validate(); !errors.As(err, &ue) {
				t.Fatalf("len %d: flipped witness %v still satisfies (%v)", n, v, err)
			}
		}
	}
}

func boolU64(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func TestSHA256RejectsPartialBytes(t *testing.T) {
	if _, err := SHA256(cs.NewCounter(), make([]Boolean, 7)); err == nil {
		t.Fatal("7-bit message accepted")
	}
}

// util.rs hash_leaf_bits_circuit: 512 allocated bits + 44,874 + 1 = 45,387.
func TestHashLeafBits(t *testing.T) {
	tc := testcs.New()
	data := make([]byte, 64)
	for i := range data {
		data[i] = byte(255 - i)
	}
	left := allocBytes(tc, data[:32])
	right := allocBytes(tc, data[32:])
	// hash_leaf_bits takes field-LE bit vectors and reverses them per byte;
	// feed it bits that reverse back to data.
	n, err := SHA256HashLeafBits(tc, ReverseBitNumbering(left), ReverseBitNumbering(right))
	if err != nil {
		t.Fatal(err)
	}
	mustCheck(t, tc)
	if tc.NumConstraints() != 45387 {
		t.Fatalf("hash_leaf_bits: %d constraints, want 45387", tc.NumConstraints())
	}
	want := sha256.Sum256(data)
	want[31] &= 0x3f
	if got := leBytes(n.Val); got != want {
		// fall through to a clearer message
		t.Fatalf("hash_leaf_bits value %x, want %x", got, want)
	}
}

// The comm_d tree node: 2× to_bits_le + sha256 + pack = 45,379 constraints,
// 45,331 aux (docs/porep-circuit.md §3.7, Appendix A); value = trimmed sha256 of
// the two little-endian 32-byte leaves.
func TestSHA256Node(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	tc := testcs.New()
	var l, r fr.Element
	l.SetUint64(rng.Uint64())
	l.Square(&l)
	l.Square(&l)
	r.SetUint64(rng.Uint64())
	r.Square(&r)
	ln := AllocNum(tc, &l)
	rn := AllocNum(tc, &r)
	c0, a0 := tc.NumConstraints(), tc.NumAux()
	out, err := SHA256HashMultiLeaf(tc, []AllocatedNum{ln, rn})
	if err != nil {
		t.Fatal(err)
	}
	mustCheck(t, tc)
	if got := tc.NumConstraints() - c0; got != 45379 {
		t.Fatalf("sha256 node: %d constraints, want 45379", got)
	}
	if got := tc.NumAux() - a0; got != 45331 {
		t.Fatalf("sha256 node: %d aux, want 45331", got)
	}
	lb, rb := leBytes(l), leBytes(r)
	want := sha256.Sum256(append(lb[:], rb[:]...))
	want[31] &= 0x3f
	if got := leBytes(out.Val); got != want {
		t.Fatalf("node value %x, want %x", got, want)
	}
	if v := tc.Value(out.Var); !v.Equal(&out.Val) {
		t.Fatal("node witness differs from returned value")
	}
}

func leBytes(e fr.Element) [32]byte {
	var b [32]byte
	fr.LittleEndian.PutElement(&b, e)
	return b
}

// A broken SHA-256 witness is reported inside the "sha256" namespace.
func TestSHA256NamespaceInError(t *testing.T) {
	tc := testcs.New()
	tc.Push("caller")
	bits := allocBytes(tc, []byte("abc"))
	if _, err := SHA256(tc, bits); err != nil {
		t.Fatal(err)
	}
	tc.Pop()
	v := cs.Aux(tc.NumAux() - 1)
	x := tc.Value(v)
	x.Sub(&frOne, &x)
	tc.Set(v, x)
	var ue *testcs.UnsatisfiedError
	if err := tc.Validate(); !errors.As(err, &ue) || ue.Path != "caller/sha256" {
		t.Fatalf("got %v, want an error in caller/sha256", err)
	}
}
