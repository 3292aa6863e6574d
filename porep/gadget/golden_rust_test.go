// SPDX-License-Identifier: Apache-2.0 OR MIT

package gadget

// Bit-compatibility with the real Rust stack: testdata/rust_golden.json was
// written by porep/stacked/testdata/refcircuit (storage-proofs-core 19.1.0,
// bellperson 0.27.0, neptune 11.0.0, blstrs 0.7.1 from crates.io), which
// synthesizes each case below into a recording constraint system and prints
// the digests of docs/digests.md §1–§4. Here the same circuits are
// synthesized with cuseal's gadgets and every digest and count must match.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/testsupport/goldentest"
)

func loadRustGolden(t *testing.T) map[string]goldentest.Case {
	t.Helper()
	return goldentest.ByName(goldentest.Load(t, filepath.Join("testdata", "rust_golden.json")))
}

func hexFr(t *testing.T, s string) fr.Element {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		t.Fatalf("bad field element hex %q", s)
	}
	var a [32]byte
	copy(a[:], b)
	e, err := fr.LittleEndian.Element(&a)
	if err != nil {
		t.Fatalf("non-canonical field element %q", s)
	}
	return e
}

func frHex(e *fr.Element) string {
	b := porLE(e)
	return hex.EncodeToString(b[:])
}

// checkRustDigests synthesizes the circuit twice (Recorder for the R1CS
// digest, ProvingAssignment for witness, a/b/c and densities) and compares
// everything with the Rust golden case. With CUSEAL_GOLDEN_DUMP=dir set, a
// mismatching case's constraints are written to dir/<name>.go.txt in the
// format of `cuseal-refcircuit <root> --dump <name> FILE` (compare the
// columns 1 and 3: `cut -f1,3`).
func checkRustDigests(t *testing.T, want goldentest.Case, synth func(sys cs.ConstraintSystem) error) {
	t.Helper()
	r1cs, rd, asg := goldentest.Synthesize(t, want.Name, synth)
	checks := goldentest.ShapeChecks(r1cs, rd, &want)
	checks = append(checks, goldentest.Check{What: "prover num_constraints", Got: len(asg.A), Want: want.NumConstraints})
	checks = append(checks, goldentest.DensityChecks(asg, &want)...)
	checks = append(checks, goldentest.WitnessChecks(asg, &want)...)
	if goldentest.Compare(t, want.Name, checks) {
		goldentest.Dump(t, want.Name, r1cs)
	}
}

func TestRustGoldenSHA256(t *testing.T) {
	golden := loadRustGolden(t)
	for _, n := range []int{0, 512, 1000} {
		name := fmt.Sprintf("sha256_%d", n)
		want, ok := golden[name]
		if !ok {
			t.Fatalf("golden case %s missing", name)
		}
		vals := goldentest.DetBits(fmt.Sprintf("sha256/%d", n), n)
		var digest []Boolean
		checkRustDigests(t, want, func(sys cs.ConstraintSystem) error {
			msg := make([]Boolean, n)
			for i, v := range vals {
				msg[i] = Is(AllocBit(sys, v))
			}
			var err error
			digest, err = SHA256(sys, msg)
			return err
		})
		// The gadget's output is the real SHA-256 of the message bytes
		// (bits in SHA-256 order, MSB first per byte) and equals Rust's.
		msgBytes := make([]byte, n/8)
		for i, v := range vals {
			if v {
				msgBytes[i/8] |= 0x80 >> (i % 8)
			}
		}
		sum := sha256.Sum256(msgBytes)
		var got [32]byte
		for i, b := range digest {
			if b.Value() {
				got[i/8] |= 0x80 >> (i % 8)
			}
		}
		var out struct {
			Digest string `json:"digest"`
		}
		if err := json.Unmarshal(want.Outputs, &out); err != nil {
			t.Fatal(err)
		}
		if got != sum || hex.EncodeToString(got[:]) != out.Digest {
			t.Errorf("%s: digest %x, sha256 %x, Rust %s", name, got, sum, out.Digest)
		}
	}
}

func TestRustGoldenPoR(t *testing.T) {
	golden := loadRustGolden(t)
	for _, tc := range []struct {
		name string
		hash TreeHash
	}{
		{"por_poseidon_8_0_0", TreePoseidon},
		{"por_poseidon_8_0_0_private", TreePoseidon},
		{"por_poseidon_8_8_0", TreePoseidon},
		{"por_poseidon_8_8_2", TreePoseidon},
		{"por_sha256_2", TreeSHA256},
	} {
		want, ok := golden[tc.name]
		if !ok {
			t.Fatalf("golden case %s missing", tc.name)
		}
		var p struct {
			Leaves    int    `json:"leaves"`
			Challenge int    `json:"challenge"`
			Private   bool   `json:"private"`
			Leaf      string `json:"leaf"`
			Root      string `json:"root"`
			Path      []struct {
				Index  int      `json:"index"`
				Hashes []string `json:"hashes"`
			} `json:"path"`
		}
		if err := json.Unmarshal(want.Params, &p); err != nil {
			t.Fatalf("%s params: %v", tc.name, err)
		}
		leaf, root := hexFr(t, p.Leaf), hexFr(t, p.Root)
		path := make([]PathLevel, len(p.Path))
		for i, l := range p.Path {
			path[i] = PathLevel{Arity: len(l.Hashes) + 1, Index: l.Index}
			for _, h := range l.Hashes {
				path[i].Siblings = append(path[i].Siblings, hexFr(t, h))
			}
		}
		if got := PathIndex(path); got != uint64(p.Challenge) {
			t.Fatalf("%s: path index %d, challenge %d", tc.name, got, p.Challenge)
		}
		var computed fr.Element
		checkRustDigests(t, want, func(sys cs.ConstraintSystem) error {
			var err error
			computed, err = PoRCircuit(sys, tc.hash, leaf, path, root, p.Private)
			return err
		})
		if !computed.Equal(&root) {
			t.Errorf("%s: computed root %s, Rust tree root %s", tc.name, frHex(&computed), p.Root)
		}
	}
}

func TestRustGoldenCreateLabel(t *testing.T) {
	golden := loadRustGolden(t)
	want, ok := golden["create_label_layer2"]
	if !ok {
		t.Fatal("golden case create_label_layer2 missing")
	}
	var p struct {
		Layer   uint32 `json:"layer"`
		Node    uint64 `json:"node"`
		Parents int    `json:"parents"`
	}
	if err := json.Unmarshal(want.Params, &p); err != nil {
		t.Fatal(err)
	}
	var label AllocatedNum
	checkRustDigests(t, want, func(sys cs.ConstraintSystem) error {
		id := goldentest.DetFr("create_label/replica_id")
		idNum := AllocNum(sys, &id)
		idBits := ReverseBitNumbering(idNum.ToBitsLE(sys))
		parents := make([][]Boolean, p.Parents)
		for j := range parents {
			v := goldentest.DetFr(fmt.Sprintf("create_label/parent/%d", j))
			num := AllocNum(sys, &v)
			parents[j] = ReverseBitNumbering(num.ToBitsLE(sys))
		}
		expanded := append(append(append([][]Boolean{}, parents...), parents...), parents[:9]...)
		node := AllocUInt64(sys, p.Node)
		var err error
		label, err = CreateLabel(sys, idBits, expanded, UInt32Constant(p.Layer), &node)
		return err
	})
	var out struct {
		Label string `json:"label"`
	}
	if err := json.Unmarshal(want.Outputs, &out); err != nil {
		t.Fatal(err)
	}
	if frHex(&label.Val) != out.Label {
		t.Errorf("label %s, Rust %s", frHex(&label.Val), out.Label)
	}
}
