// SPDX-License-Identifier: Apache-2.0 OR MIT

package goldentest

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
)

// Partition is what every reference vector's meta.json records of one
// partition circuit (rust-fil-proofs' golden tool, docs/digests.md): its
// counts (ONE and the per-input rows included), the four digests and the
// density popcounts. Test types embed it and add their circuit's fields.
type Partition struct {
	K              int    `json:"k"`
	NumInputs      int    `json:"num_inputs"`
	NumAux         int    `json:"num_aux"`
	NumConstraints int    `json:"num_constraints"`
	R1CS           string `json:"r1cs_digest"`
	Witness        string `json:"witness_digest"`
	ABC            string `json:"abc_digest"`
	Density        string `json:"density_digest"`
	Popcounts      struct {
		AAux   int `json:"a_aux"`
		BInput int `json:"b_input"`
		BAux   int `json:"b_aux"`
	} `json:"density_popcounts"`
}

// Case is one circuit's counts and digests as refcircuit computed them.
// Params and Outputs are case-specific and left for the test to decode.
type Case struct {
	Name           string          `json:"name"`
	NumInputs      int             `json:"num_inputs"`
	NumAux         int             `json:"num_aux"`
	NumConstraints int             `json:"num_constraints"`
	AAuxPop        int             `json:"a_aux_popcount"`
	BInputPop      int             `json:"b_input_popcount"`
	BAuxPop        int             `json:"b_aux_popcount"`
	R1CS           string          `json:"r1cs_digest"`
	Witness        string          `json:"witness_digest"` // absent for blank (shape-only) cases
	ABC            string          `json:"abc_digest"`     // absent for blank cases
	Density        string          `json:"density_digest"`
	Params         json.RawMessage `json:"params"`
	Outputs        json.RawMessage `json:"outputs"`
}

// Load reads the cases of a refcircuit output file (in file order); a
// missing or malformed file fails the test, naming the path.
func Load(t testing.TB, path string) []Case {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Source string `json:"source"`
		Cases  []Case `json:"cases"`
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return g.Cases
}

// ByName indexes cases by name.
func ByName(cases []Case) map[string]Case {
	m := make(map[string]Case, len(cases))
	for _, c := range cases {
		m[c.Name] = c
	}
	return m
}

// DetBytes mirrors refcircuit's det_bytes: the first n bytes of
// sha256("cuseal-refcircuit-v1" ‖ label ‖ u32le(j)) for j = 0, 1, ….
func DetBytes(label string, n int) []byte {
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

// DetFr mirrors det_fr: det_bytes(label, 32) with byte 31 &= 0x3f, read
// little-endian (always canonical: < 2^254 < r).
func DetFr(label string) fr.Element {
	var b [32]byte
	copy(b[:], DetBytes(label, 32))
	b[31] &= 0x3f
	e, err := fr.LittleEndian.Element(&b)
	if err != nil {
		panic(err)
	}
	return e
}

// DetBits mirrors det_bits: bit i is bit i%8 (LSB first) of byte i/8 of
// det_bytes(label, ⌈n/8⌉).
func DetBits(label string, n int) []bool {
	bytes := DetBytes(label, (n+7)/8)
	bits := make([]bool, n)
	for i := range bits {
		bits[i] = bytes[i/8]>>(i%8)&1 == 1
	}
	return bits
}

// Check is one compared quantity: Go's value and the Rust case's.
type Check struct {
	What      string
	Got, Want any
}

// Compare reports every check whose values differ with t.Errorf
// ("<prefix>: <what> = <got>, Rust <want>"; no prefix when empty) and
// returns whether any did.
func Compare(t testing.TB, prefix string, checks []Check) (mismatch bool) {
	t.Helper()
	if prefix != "" {
		prefix += ": "
	}
	for _, c := range checks {
		if c.Got != c.Want {
			t.Errorf("%s%s = %v, Rust %v", prefix, c.What, c.Got, c.Want)
			mismatch = true
		}
	}
	return mismatch
}

// ShapeChecks compares the recorded R1CS's counts and digest (§1) with want.
func ShapeChecks(r *cs.R1CS, digest [32]byte, want *Case) []Check {
	return []Check{
		{"num_inputs", r.NumInputs, want.NumInputs},
		{"num_aux", r.NumAux, want.NumAux},
		{"num_constraints", r.NumConstraints(), want.NumConstraints},
		{"r1cs_digest", hex.EncodeToString(digest[:]), want.R1CS},
	}
}

// DensityChecks compares the prover's density popcounts and density digest
// (§4) with want.
func DensityChecks(a *cs.Assignment, want *Case) []Check {
	dd := a.DensityDigest()
	return []Check{
		{"a_aux popcount", a.ADensityAux.PopCount(), want.AAuxPop},
		{"b_input popcount", a.BDensityInput.PopCount(), want.BInputPop},
		{"b_aux popcount", a.BDensityAux.PopCount(), want.BAuxPop},
		{"density_digest", hex.EncodeToString(dd[:]), want.Density},
	}
}

// WitnessChecks compares the witness (§2) and a/b/c (§3) digests with want.
func WitnessChecks(a *cs.Assignment, want *Case) []Check {
	wd, ad := a.WitnessDigest(), a.ABCDigest()
	return []Check{
		{"witness_digest", hex.EncodeToString(wd[:]), want.Witness},
		{"abc_digest", hex.EncodeToString(ad[:]), want.ABC},
	}
}

// AssignmentChecks compares a ProvingAssignment's counts, witness and
// a/b/c digests and density (§2-§4) with want.
func AssignmentChecks(a *cs.Assignment, want *Case) []Check {
	checks := []Check{
		{"num_inputs", len(a.Input), want.NumInputs},
		{"num_aux", len(a.Aux), want.NumAux},
		{"num_constraints", len(a.A), want.NumConstraints},
	}
	return append(append(checks, WitnessChecks(a, want)...), DensityChecks(a, want)...)
}

// InputsHex is public inputs as the references list them: canonical
// 32-byte little-endian hex each, and the SHA-256 of those bytes
// concatenated.
func InputsHex(in []fr.Element) ([]string, string) {
	h := sha256.New()
	out := make([]string, len(in))
	for i := range in {
		b := in[i].Bytes()
		slices.Reverse(b[:])
		h.Write(b[:])
		out[i] = hex.EncodeToString(b[:])
	}
	return out, hex.EncodeToString(h.Sum(nil))
}

// DumpEnv names the variable that, set to a directory, makes Dump write a
// mismatching case's constraints there.
const DumpEnv = "CUSEAL_GOLDEN_DUMP"

// Dump writes r to $CUSEAL_GOLDEN_DUMP/<name>.go.txt when that variable is
// set, in the format of `cuseal-refcircuit <root> --dump <name> FILE` (compare
// columns 1 and 3: `cut -f1,3`), and logs where or why not.
func Dump(t testing.TB, name string, r *cs.R1CS) {
	t.Helper()
	dir := os.Getenv(DumpEnv)
	if dir == "" {
		return
	}
	p := filepath.Join(dir, name+".go.txt")
	if err := DumpR1CS(p, r); err != nil {
		t.Log(err)
		return
	}
	t.Logf("%s: constraints written to %s (compare `cut -f1,3` with refcircuit --dump)", name, p)
}

// DumpR1CS writes one line per constraint in refcircuit's --dump format
// without the namespace column: "n\t\tA: i0*hex a3*hex B: … C: …", each
// coefficient as its 32-byte little-endian hex.
func DumpR1CS(path string, r *cs.R1CS) error {
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
				var b [32]byte
				fr.LittleEndian.PutElement(&b, coeffs[k])
				fmt.Fprintf(w, " %s%d*%s", kind, v.Index(), hex.EncodeToString(b[:]))
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

// Synthesize runs synth into a cs.Recorder and into a
// cs.ProvingAssignment (a synthesis error fails the test, naming the case)
// and returns the recorded R1CS, its digest and the prover's assignment.
func Synthesize(t testing.TB, name string, synth func(sys cs.ConstraintSystem) error) (*cs.R1CS, [32]byte, *cs.Assignment) {
	t.Helper()
	rec := cs.NewRecorder()
	if err := synth(rec); err != nil {
		t.Fatalf("%s: synthesis (recorder): %v", name, err)
	}
	pa := cs.NewProvingAssignment(cs.SizeHint{})
	if err := synth(pa); err != nil {
		t.Fatalf("%s: synthesis (prover): %v", name, err)
	}
	return rec.R1CS(), rec.Digest(), pa.Assignment()
}

// ReadMeta decodes dir/meta.json, a reference vector's description, into m
// (a pointer); a missing or malformed file fails the test naming it.
func ReadMeta(t testing.TB, dir string, m any) {
	t.Helper()
	path := filepath.Join(dir, "meta.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// Hex32 decodes s, the field what of the vector named vector, as 32 hex
// bytes; anything else fails the test.
func Hex32(t testing.TB, vector, what, s string) [32]byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		t.Fatalf("%s: %s %q: not 32 hex bytes", vector, what, s)
	}
	return [32]byte(b)
}
