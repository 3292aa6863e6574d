// SPDX-License-Identifier: Apache-2.0 OR MIT

package poseidon

import (
	"math/rand"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/testsupport/testenv"
)

// fromLimbs builds an element from 4 little-endian u64 limbs of the canonical
// integer, like neptune's scalar_from_u64s.
func fromLimbs(l [4]uint64) fr.Element {
	var b [32]byte
	for i, x := range l {
		for k := 0; k < 8; k++ {
			b[31-(8*i+k)] = byte(x >> (8 * k))
		}
	}
	var e fr.Element
	if err := e.SetBytesCanonical(b[:]); err != nil {
		panic(err)
	}
	return e
}

// Digests of Hash([0, 1, …, A−1]) with Standard strength and MerkleTree
// constants: neptune v11.0.0 src/poseidon.rs hash_values (also quoted in
// docs/porep-circuit.md §4.5 for arities 2…16).
var hashValuesVectors = []struct {
	arity int
	limbs [4]uint64
}{
	{2, [4]uint64{0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b}},
	{4, [4]uint64{0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a}},
	{8, [4]uint64{0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55}},
	{11, [4]uint64{0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28}},
	{16, [4]uint64{0x1291c74060266d37, 0x5b8dbc6d30680a6f, 0xc1c2fb5a6f871e63, 0x2d3ae2663381ae8a}},
	{24, [4]uint64{0xd7ef3569f585b321, 0xc3e779f6468815b1, 0x066f39bf783f3d9f, 0x63beb8831f11ae15}},
	{36, [4]uint64{0x4473606dfa4e8140, 0x75cd368df8a8ac3c, 0x540a30e03c10bbaa, 0x699303082a6e5d5f}},
}

// filecoin-hashers src/poseidon.rs test_poseidon_hasher: binary tree over
// leaves [1, 0, 0, 1] (docs/porep-circuit.md §4.5).
var (
	fcH2OneZero    = [4]uint64{0xb339ff6079800b5e, 0xec5907b3dc3094af, 0x93c003cc74a24f26, 0x042f94ffbe786bc3}
	fcFourLeafRoot = [4]uint64{0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb}
)

func countingPreimage(n int) []fr.Element {
	in := make([]fr.Element, n)
	for i := range in {
		in[i].SetUint64(uint64(i))
	}
	return in
}

func TestHashValues(t *testing.T) {
	for _, v := range hashValuesVectors {
		want := fromLimbs(v.limbs)
		in := countingPreimage(v.arity)
		c := mustConstants(v.arity)
		if got := Hash(in); !got.Equal(&want) {
			t.Errorf("arity %d: Hash = %s, want %s", v.arity, got.String(), want.String())
		}
		if got := hashCorrect(c, in); !got.Equal(&want) {
			t.Errorf("arity %d: reference permutation = %s, want %s", v.arity, got.String(), want.String())
		}
	}
}

func TestFilecoinHashersVectors(t *testing.T) {
	var one, zero fr.Element
	one.SetOne()
	left := Hash2(&one, &zero)
	if want := fromLimbs(fcH2OneZero); !left.Equal(&want) {
		t.Fatalf("H2(1,0) = %s, want %s", left.String(), want.String())
	}
	right := Hash([]fr.Element{zero, one})
	root := Hash2(&left, &right)
	if want := fromLimbs(fcFourLeafRoot); !root.Equal(&want) {
		t.Fatalf("root = %s, want %s", root.String(), want.String())
	}
}

func randomElements(n int, seed int64) []fr.Element {
	rng := rand.New(rand.NewSource(seed))
	out := make([]fr.Element, n)
	for i := range out {
		var b [32]byte
		rng.Read(b[:])
		out[i].SetBytes(b[:]) // reduced mod p
	}
	return out
}

// TestOptimizedMatchesReference: the compressed/sparse algorithm equals the
// straightforward permutation on random preimages for every arity.
func TestOptimizedMatchesReference(t *testing.T) {
	const seed = 20240607
	for arity := 1; arity <= MaxArity; arity++ {
		if !testenv.Enabled(testenv.TierLong) && arity > 12 && arity != 16 {
			continue
		}
		c := mustConstants(arity)
		for k := 0; k < 3; k++ {
			in := randomElements(arity, seed+int64(100*arity+k))
			want := hashCorrect(c, in)
			got := Hash(in)
			if !got.Equal(&want) {
				t.Fatalf("arity %d case %d (seed %d): optimised %s, reference %s", arity, k, seed+int64(100*arity+k), got.String(), want.String())
			}
		}
	}
}

func TestHasher(t *testing.T) {
	if _, err := NewHasher(0); err == nil {
		t.Error("NewHasher(0) accepted")
	}
	if _, err := NewHasher(MaxArity + 1); err == nil {
		t.Error("NewHasher(37) accepted")
	}
	h, err := NewHasher(8)
	if err != nil {
		t.Fatal(err)
	}
	in := randomElements(8, 7)
	var got fr.Element
	if err := h.HashInto(&got, in); err != nil {
		t.Fatal(err)
	}
	if want := Hash(in); !got.Equal(&want) {
		t.Error("Hasher.HashInto differs from Hash")
	}
	if err := h.HashInto(&got, in[:7]); err == nil {
		t.Error("Hasher accepted 7 inputs for arity 8")
	}
	// dst aliasing an input.
	cp := append([]fr.Element(nil), in...)
	HashInto(&cp[0], cp)
	if want := Hash(in); !cp[0].Equal(&want) {
		t.Error("HashInto with dst aliasing inputs[0] differs")
	}
	if n := testing.AllocsPerRun(10, func() { HashInto(&got, in) }); n != 0 {
		t.Errorf("HashInto allocates %.0f times", n)
	}
}

func benchmarkHash(b *testing.B, arity int) {
	in := randomElements(arity, 1)
	mustConstants(arity)
	var out fr.Element
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		HashInto(&out, in)
	}
}

func BenchmarkHash2(b *testing.B)  { benchmarkHash(b, 2) }
func BenchmarkHash4(b *testing.B)  { benchmarkHash(b, 4) }
func BenchmarkHash8(b *testing.B)  { benchmarkHash(b, 8) }
func BenchmarkHash11(b *testing.B) { benchmarkHash(b, 11) }
