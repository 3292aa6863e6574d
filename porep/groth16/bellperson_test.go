// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"bytes"
	"context"
	"crypto/sha256"
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
	// 5000 + 3 = 5003 rows: domain 8192, large enough for the parallel
	// paths (several fixed-base chunks, parallel ranges); only digests of
	// bellperson's files are stored (refDigests)
	"m8192": {shapeSeed: 43, valueSeed: 7, nPub: 2, nAux0: 50, nCons: 5000},
}

// refDigests holds SHA-256 of bellperson's .params and .vk, and the proof
// bytes (hex), for reference circuits whose files are too big for
// testdata/ (same refgen commands, then sha256sum / xxd -p).
var refDigests = map[string][3]string{
	"m8192": {refM8192ParamsSHA, refM8192VKSHA, refM8192Proof},
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
			if d, ok := refDigests[name]; ok {
				checkRefDigests(t, c, d)
				return
			}
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

// checkRefDigests compares Setup and Prove with bellperson's digests.
func checkRefDigests(t *testing.T, c randomCircuit, d [3]string) {
	p, err := Setup(c.r1cs(t), ToxicWasteFromSeed(refToxicSeed))
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	if _, err := p.WriteTo(h); err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != d[0] {
		t.Fatalf(".params SHA-256 %s, bellperson's %s", got, d[0])
	}
	if got := sha256.Sum256(p.VK.Bytes()); hex.EncodeToString(got[:]) != d[1] {
		t.Fatalf(".vk SHA-256 %x, bellperson's %s", got, d[1])
	}
	a, pub := c.assignment(t)
	proofs, err := Prove(context.Background(), &CPUBackend{}, p, []*cs.Assignment{a}, []Randomness{RandomnessFromSeed(refRSSeed, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if b := proofs[0].Bytes(); hex.EncodeToString(b[:]) != d[2] {
		t.Fatalf("proof %x, bellperson's %s", b, d[2])
	}
	pvk, _ := PrepareVerifyingKey(&p.VK)
	if err := pvk.Verify(&proofs[0], pub); err != nil {
		t.Fatal(err)
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

// bellperson 0.27.0 outputs for refCircuits["m8192"] (refgen, see above).
const (
	refM8192ParamsSHA = "9d021fcb7b849faafa12b42e9449f040ce22d458be84781d3a3d743d77cdb827"
	refM8192VKSHA     = "be81ce3782e6f1b37055de5f5297afce4e7e7a3a9454e2e413cd7d21e2b8c4f9"
	refM8192Proof     = "89101e33ba6fd286f34748bbbaf062a1e37bfdd727b6fddb385b1dc14f16dc300959fc69b9f5dfb259ee27141cf8fa96b2b606ce860b4fc1b697d076eb2e1e6ca0c54465aeba38495960f8f3016d4ceef9b76b08eedd3fd67e0b91ab66e2a00513a595ecd28f71884ca7df89b897619a4917f0e5f42dab4033e8b739022d5634364571642ee7ff81860285f883ad245eb2991af5434784e9d2d76f9e51753d2f6a3683e651dbfc163eadd31229acb6b6c8c8dfc1e5f1d578ed097c47f4018779"
)
