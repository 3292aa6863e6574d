package gadget

// Bit-compatibility with the real Rust stack: testdata/rust_golden.json was
// written by porep/stacked/testdata/refcircuit (storage-proofs-core 19.1.0,
// bellperson 0.27.0, neptune 11.0.0, blstrs 0.7.1 from crates.io), which
// synthesizes each case below into a recording constraint system and prints
// the digests of shared docs/digests.md §1–§4. Here the same circuits are
// synthesized with cuseal's gadgets and every digest and count must match.

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
)

// rustGolden is the refcircuit output file.
type rustGolden struct {
	Source string     `json:"source"`
	Cases  []rustCase `json:"cases"`
}

// rustCase is one circuit's digests as the Rust tool computed them.
type rustCase struct {
	Name           string          `json:"name"`
	NumInputs      int             `json:"num_inputs"`
	NumAux         int             `json:"num_aux"`
	NumConstraints int             `json:"num_constraints"`
	AAuxPop        int             `json:"a_aux_popcount"`
	BInputPop      int             `json:"b_input_popcount"`
	BAuxPop        int             `json:"b_aux_popcount"`
	R1CS           string          `json:"r1cs_digest"`
	Witness        string          `json:"witness_digest"`
	ABC            string          `json:"abc_digest"`
	Density        string          `json:"density_digest"`
	Params         json.RawMessage `json:"params"`
	Outputs        json.RawMessage `json:"outputs"`
}

func loadRustGolden(t *testing.T) map[string]rustCase {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "rust_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g rustGolden
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatalf("testdata/rust_golden.json: %v", err)
	}
	m := make(map[string]rustCase, len(g.Cases))
	for _, c := range g.Cases {
		m[c.Name] = c
	}
	return m
}

// detBytes mirrors refcircuit's det_bytes: the first n bytes of
// sha256("cuseal-refcircuit-v1" ‖ label ‖ u32le(j)) for j = 0, 1, ….
func detBytes(label string, n int) []byte {
	out := make([]byte, 0, n+32)
	for j := uint32(0); len(out) < n; j++ {
		h := sha256.New()
		h.Write([]byte("cuseal-refcircuit-v1"))
		h.Write([]byte(label))
		var jb [4]byte
		binary.LittleEndian.PutUint32(jb[:], j)
		h.Write(jb[:])
		out = h.Sum(out)
	}
	return out[:n]
}

// detFr mirrors det_fr: det_bytes(label, 32) with byte 31 &= 0x3f, LE.
func detFr(label string) fr.Element {
	var b [32]byte
	copy(b[:], detBytes(label, 32))
	b[31] &= 0x3f
	return porFromLE(b)
}

// detBits mirrors det_bits: bit i is bit i%8 (LSB first) of byte i/8.
func detBits(label string, n int) []bool {
	bytes := detBytes(label, (n+7)/8)
	bits := make([]bool, n)
	for i := range bits {
		bits[i] = bytes[i/8]>>(i%8)&1 == 1
	}
	return bits
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
func checkRustDigests(t *testing.T, want rustCase, synth func(sys cs.ConstraintSystem) error) {
	t.Helper()
	rec := cs.NewRecorder()
	if err := synth(rec); err != nil {
		t.Fatalf("%s: synthesis (recorder): %v", want.Name, err)
	}
	r1cs := rec.R1CS()
	pa := cs.NewProvingAssignment(cs.SizeHint{})
	if err := synth(pa); err != nil {
		t.Fatalf("%s: synthesis (prover): %v", want.Name, err)
	}
	asg := pa.Assignment()
	rd, wd, ad, dd := rec.Digest(), asg.WitnessDigest(), asg.ABCDigest(), asg.DensityDigest()
	got := []struct {
		what      string
		got, want any
	}{
		{"num_inputs", r1cs.NumInputs, want.NumInputs},
		{"num_aux", r1cs.NumAux, want.NumAux},
		{"num_constraints", r1cs.NumConstraints(), want.NumConstraints},
		{"prover num_constraints", len(asg.A), want.NumConstraints},
		{"a_aux popcount", asg.ADensityAux.PopCount(), want.AAuxPop},
		{"b_input popcount", asg.BDensityInput.PopCount(), want.BInputPop},
		{"b_aux popcount", asg.BDensityAux.PopCount(), want.BAuxPop},
		{"r1cs_digest", hex.EncodeToString(rd[:]), want.R1CS},
		{"witness_digest", hex.EncodeToString(wd[:]), want.Witness},
		{"abc_digest", hex.EncodeToString(ad[:]), want.ABC},
		{"density_digest", hex.EncodeToString(dd[:]), want.Density},
	}
	bad := false
	for _, g := range got {
		if g.got != g.want {
			t.Errorf("%s: %s = %v, Rust %v", want.Name, g.what, g.got, g.want)
			bad = true
		}
	}
	if bad {
		if dir := os.Getenv("CUSEAL_GOLDEN_DUMP"); dir != "" {
			p := filepath.Join(dir, want.Name+".go.txt")
			if err := dumpR1CS(p, r1cs); err != nil {
				t.Log(err)
			} else {
				t.Logf("%s: constraints written to %s", want.Name, p)
			}
		}
	}
}

// dumpR1CS writes one line per constraint: "n\t\tA: i0*hex a3*hex B: … C: …".
func dumpR1CS(path string, r *cs.R1CS) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for row := 0; row < r.NumConstraints(); row++ {
		fmt.Fprintf(w, "%d\t\t", row)
		for mi, m := range []*cs.Matrix{&r.A, &r.B, &r.C} {
			if mi > 0 {
				w.WriteByte(' ')
			}
			w.WriteString([]string{"A:", "B:", "C:"}[mi])
			vars, coeffs := m.Row(row)
			for k, v := range vars {
				kind := "i"
				if v.IsAux() {
					kind = "a"
				}
				fmt.Fprintf(w, " %s%d*%s", kind, v.Index(), frHex(&coeffs[k]))
			}
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func TestRustGoldenSHA256(t *testing.T) {
	golden := loadRustGolden(t)
	for _, n := range []int{0, 512, 1000} {
		name := fmt.Sprintf("sha256_%d", n)
		want, ok := golden[name]
		if !ok {
			t.Fatalf("golden case %s missing", name)
		}
		vals := detBits(fmt.Sprintf("sha256/%d", n), n)
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
	if testing.Short() {
		t.Skip("532k-constraint circuit synthesized twice; skipped with -short")
	}
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
		id := detFr("create_label/replica_id")
		idNum := AllocNum(sys, &id)
		idBits := ReverseBitNumbering(idNum.ToBitsLE(sys))
		parents := make([][]Boolean, p.Parents)
		for j := range parents {
			v := detFr(fmt.Sprintf("create_label/parent/%d", j))
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
