package poseidon

// Bit-compatibility with neptune 11.0.0 itself: testdata/rust_golden.json
// was written by porep/stacked/testdata/refcircuit, which runs neptune's
// legacy circuit::poseidon_hash (with filecoin-hashers' POSEIDON_CONSTANTS_A,
// Standard strength, MerkleTree) over A allocated numbers in a recording
// constraint system and prints the digests of shared docs/digests.md §1–§4.
// HashCircuit must give the same R1CS, witness, a/b/c and densities.

import (
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

// detFr mirrors refcircuit's det_fr: sha256("cuseal-refcircuit-v1" ‖ label ‖
// u32le(0)) with byte 31 &= 0x3f, little-endian.
func detFr(label string) fr.Element {
	h := sha256.New()
	h.Write([]byte("cuseal-refcircuit-v1"))
	h.Write([]byte(label))
	var j [4]byte
	binary.LittleEndian.PutUint32(j[:], 0)
	h.Write(j[:])
	var b [32]byte
	copy(b[:], h.Sum(nil))
	b[31] &= 0x3f
	e, err := fr.LittleEndian.Element(&b)
	if err != nil {
		panic(err)
	}
	return e
}

func TestRustGoldenPoseidonCircuit(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "rust_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Cases []rustCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatalf("testdata/rust_golden.json: %v", err)
	}
	seen := map[int]bool{}
	for _, want := range g.Cases {
		var p struct {
			Arity int    `json:"arity"`
			Label string `json:"label"`
		}
		if err := json.Unmarshal(want.Params, &p); err != nil {
			t.Fatalf("%s params: %v", want.Name, err)
		}
		seen[p.Arity] = true
		vals := make([]fr.Element, p.Arity)
		for i := range vals {
			vals[i] = detFr(fmt.Sprintf("%s/%d", p.Label, i))
		}
		synth := func(sys cs.ConstraintSystem) (fr.Element, error) {
			vars := make([]cs.Variable, len(vals))
			for i := range vals {
				vars[i] = sys.Alloc(&vals[i])
			}
			_, h, err := HashCircuit(sys, vars, vals)
			return h, err
		}
		rec := cs.NewRecorder()
		if _, err := synth(rec); err != nil {
			t.Fatalf("%s: %v", want.Name, err)
		}
		r1cs := rec.R1CS()
		pa := cs.NewProvingAssignment(cs.SizeHint{})
		h, err := synth(pa)
		if err != nil {
			t.Fatalf("%s: %v", want.Name, err)
		}
		asg := pa.Assignment()
		rd, wd, ad, dd := rec.Digest(), asg.WitnessDigest(), asg.ABCDigest(), asg.DensityDigest()
		for _, c := range []struct {
			what      string
			got, want any
		}{
			{"num_inputs", r1cs.NumInputs, want.NumInputs},
			{"num_aux", r1cs.NumAux, want.NumAux},
			{"num_constraints", r1cs.NumConstraints(), want.NumConstraints},
			{"a_aux popcount", asg.ADensityAux.PopCount(), want.AAuxPop},
			{"b_input popcount", asg.BDensityInput.PopCount(), want.BInputPop},
			{"b_aux popcount", asg.BDensityAux.PopCount(), want.BAuxPop},
			{"r1cs_digest", hex.EncodeToString(rd[:]), want.R1CS},
			{"witness_digest", hex.EncodeToString(wd[:]), want.Witness},
			{"abc_digest", hex.EncodeToString(ad[:]), want.ABC},
			{"density_digest", hex.EncodeToString(dd[:]), want.Density},
		} {
			if c.got != c.want {
				t.Errorf("%s: %s = %v, Rust %v", want.Name, c.what, c.got, c.want)
			}
		}
		var out struct {
			Hash string `json:"hash"`
		}
		if err := json.Unmarshal(want.Outputs, &out); err != nil {
			t.Fatal(err)
		}
		hb := h.Bytes() // big-endian
		for i, j := 0, 31; i < j; i, j = i+1, j-1 {
			hb[i], hb[j] = hb[j], hb[i]
		}
		if native := Hash(vals); !native.Equal(&h) || hex.EncodeToString(hb[:]) != out.Hash {
			t.Errorf("%s: circuit hash %x (LE), native %s, Rust %s", want.Name, hb, native.String(), out.Hash)
		}
	}
	for _, a := range []int{2, 4, 8, 11} {
		if !seen[a] {
			t.Errorf("golden file has no case for arity %d", a)
		}
	}
}
