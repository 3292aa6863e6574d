package groth16

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
)

// Byte-for-byte comparison with bellperson 0.27.0 itself.
//
// testdata/bellperson_<name>.{params,vk,proof} were produced by
// testdata/refgen (a small Rust program calling bellperson's
// generate_parameters and create_proof) from the JSON that
// TestExportRefgenInput writes for the circuits below:
//
//	CUSEAL_REFGEN_OUT=/tmp/refgen go test -run TestExportRefgenInput ./porep/groth16
//	cd porep/groth16/testdata/refgen && cargo build --release
//	target/release/cuseal-groth16-refgen /tmp/refgen/<name>.json ../bellperson_<name>
//
// The toxic waste is ToxicWasteFromSeed(refToxicSeed) and (r, s) is
// RandomnessFromSeed(refRSSeed, 0), passed to bellperson as scalars with
// the standard generators.

var refCircuits = map[string]randomCircuit{
	// 60 circuit rows + 4 input rows = 64: domain exactly 2^6
	"m64exact": {shapeSeed: 41, valueSeed: 5, nPub: 3, nAux0: 6, nCons: 60},
	// 37 + 2 = 39 rows: domain 64 with padding
	"m64pad": {shapeSeed: 42, valueSeed: 6, nPub: 1, nAux0: 4, nCons: 37},
}

var (
	refToxicSeed = seed32(0x40)
	refRSSeed    = seed32(0x41)
)

func frLEHex(e *fr.Element) string {
	var b [32]byte
	fr.LittleEndian.PutElement(&b, *e)
	return hex.EncodeToString(b[:])
}

type refTerm [3]any

type refRow struct {
	A []refTerm `json:"a"`
	B []refTerm `json:"b"`
	C []refTerm `json:"c"`
}

func refTerms(m *cs.Matrix, j int) []refTerm {
	vars, coeffs := m.Row(j)
	out := []refTerm{}
	for k, v := range vars {
		kind := 0
		if v.IsAux() {
			kind = 1
		}
		out = append(out, refTerm{kind, v.Index(), frLEHex(&coeffs[k])})
	}
	return out
}

// TestExportRefgenInput writes the refgen input JSON for refCircuits when
// CUSEAL_REFGEN_OUT names a directory; otherwise it is skipped.
func TestExportRefgenInput(t *testing.T) {
	dir := os.Getenv("CUSEAL_REFGEN_OUT")
	if dir == "" {
		t.Skip("set CUSEAL_REFGEN_OUT to export refgen inputs")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	tw := ToxicWasteFromSeed(refToxicSeed)
	rs := RandomnessFromSeed(refRSSeed, 0)
	for name, c := range refCircuits {
		r := c.r1cs(t)
		a, _ := c.assignment(t)
		circuitRows := r.NumConstraints() - r.NumInputs
		rows := make([]refRow, circuitRows)
		for j := range rows {
			rows[j] = refRow{refTerms(&r.A, j), refTerms(&r.B, j), refTerms(&r.C, j)}
		}
		hexes := func(v []fr.Element) []string {
			out := make([]string, len(v))
			for i := range v {
				out[i] = frLEHex(&v[i])
			}
			return out
		}
		doc := map[string]any{
			"num_inputs": r.NumInputs, "num_aux": r.NumAux, "rows": rows,
			"inputs": hexes(a.Input[1:]), "aux": hexes(a.Aux),
			"tau": frLEHex(&tw.Tau), "alpha": frLEHex(&tw.Alpha), "beta": frLEHex(&tw.Beta),
			"gamma": frLEHex(&tw.Gamma), "delta": frLEHex(&tw.Delta),
			"r": frLEHex(&rs.R), "s": frLEHex(&rs.S),
		}
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBellpersonGolden: Setup, the .params/.vk writers and Prove reproduce
// bellperson's bytes exactly, and our verifier accepts bellperson's proof.
func TestBellpersonGolden(t *testing.T) {
	tw := ToxicWasteFromSeed(refToxicSeed)
	rs := RandomnessFromSeed(refRSSeed, 0)
	for name, c := range refCircuits {
		t.Run(name, func(t *testing.T) {
			base := filepath.Join("testdata", "bellperson_"+name)
			wantParams, err := os.ReadFile(base + ".params")
			if err != nil {
				t.Fatal(err)
			}
			wantVK, err := os.ReadFile(base + ".vk")
			if err != nil {
				t.Fatal(err)
			}
			wantProof, err := os.ReadFile(base + ".proof")
			if err != nil {
				t.Fatal(err)
			}
			r := c.r1cs(t)
			p, err := Setup(r, tw)
			if err != nil {
				t.Fatal(err)
			}
			if nv := r.NumInputs + r.NumAux; p.NumA() >= nv || p.NumBG1() >= nv || p.NumBG1() == 0 {
				t.Fatalf("circuit does not exercise density filtering: |a| %d, |b| %d of %d variables", p.NumA(), p.NumBG1(), nv)
			}
			var got bytes.Buffer
			if _, err := p.WriteTo(&got); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), wantParams) {
				t.Fatalf(".params differ from bellperson's (%d vs %d bytes; first difference at %d)", got.Len(), len(wantParams), firstDiff(got.Bytes(), wantParams))
			}
			if !bytes.Equal(p.VK.Bytes(), wantVK) {
				t.Fatal(".vk differs from bellperson's")
			}
			// bellperson's file reads back (checked) and proves identically
			fp, err := ParseParams(wantParams, base+".params", true)
			if err != nil {
				t.Fatal(err)
			}
			a, pub := c.assignment(t)
			proofs, err := Prove(context.Background(), &CPUBackend{}, fp, []*cs.Assignment{a}, []Randomness{rs})
			if err != nil {
				t.Fatal(err)
			}
			if b := proofs[0].Bytes(); !bytes.Equal(b[:], wantProof) {
				t.Fatalf("proof differs from bellperson's:\n got %x\nwant %x", b, wantProof)
			}
			vk, err := ParseVerifyingKey(wantVK, base+".vk")
			if err != nil {
				t.Fatal(err)
			}
			pvk, _ := PrepareVerifyingKey(vk)
			bp, err := DecodeProofs(wantProof)
			if err != nil {
				t.Fatal(err)
			}
			if err := pvk.Verify(&bp[0], pub); err != nil {
				t.Fatalf("bellperson's proof: %v", err)
			}
		})
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
