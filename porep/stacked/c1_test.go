// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"
)

// Fixtures: testdata/c1-*.json are porep/seal's output for fixed inputs
// (see porep/seal fixtures_test.go, which re-seals and compares bytes) and
// pass seal.VerifyC1.

func loadFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func testConfig882(t testing.TB) SectorConfig {
	c, err := NewTestConfig(32<<10, Shape882, [32]byte{44}, APIVersion1_1_0)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestParseC1Fixtures(t *testing.T) {
	raw := loadFixture(t, "c1-2KiB-V1_1.json")
	out, cfg, err := ParseC1(raw)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Proof != abi.RegisteredSealProof_StackedDrg2KiBV1_1 || out.VanillaTag != "StackedDrg2KiBV1" {
		t.Fatalf("config %s tag %s", cfg.Name, out.VanillaTag)
	}
	if !bytes.Equal(out.Marshal(), raw) {
		t.Fatal("Marshal does not reproduce the input bytes")
	}
	if err := out.ValidateChallenges(&cfg); err != nil {
		t.Fatal(err)
	}
	pi, err := out.PublicInputs(&cfg, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(pi) != 39 {
		t.Fatalf("%d public inputs, want 39", len(pi))
	}
	_, _, commR, _, _, err := out.CircuitValues()
	if err != nil || !pi[2].Equal(&commR) {
		t.Fatal("public input 2 is not comm_r")
	}
	// Pretty-printed JSON (whitespace) parses to the same value.
	var ind bytes.Buffer
	if err := json.Indent(&ind, raw, "", "  "); err != nil {
		t.Fatal(err)
	}
	out2, _, err := ParseC1(ind.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out2.Marshal(), raw) {
		t.Fatal("indented input decodes differently")
	}
	// lotus-bench Commit2In wrapper.
	wrapped := MarshalCommit2In(7, 2048, raw)
	if !bytes.Contains(wrapped, []byte(`"Phase1Out":"eyJyZWdpc3RlcmVkX3Byb29mIjoi`)) {
		t.Fatalf("wrapper shape: %.80s", wrapped)
	}
	out3, _, err := ParseC1(wrapped)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out3.Marshal(), raw) {
		t.Fatal("wrapped input decodes differently")
	}
	inner, w, err := UnwrapC1Input(wrapped)
	if err != nil || w == nil || w.SectorNum != 7 || w.SectorSize != 2048 || !bytes.Equal(inner, raw) {
		t.Fatalf("unwrap: %v %+v", err, w)
	}
	if _, _, err := ParseC1([]byte(`{"SectorNum":1,"Phase1Out":"!!!","SectorSize":2048}`)); err == nil || !strings.Contains(err.Error(), "base64") {
		t.Fatalf("bad base64: %v", err)
	}

	// Test-shape fixture: Top proofs; needs its config.
	raw = loadFixture(t, "c1-32KiB-test-8-8-2.json")
	if _, _, err := ParseC1(raw); err == nil || !strings.Contains(err.Error(), "registered_proof") {
		t.Fatalf("test config accepted as registered: %v", err)
	}
	c882 := testConfig882(t)
	out, err = ParseC1ForConfig(raw, &c882)
	if err != nil {
		t.Fatal(err)
	}
	v := &out.VanillaProofs[0][1]
	if v.CommRLastProof.Kind != ProofTop || len(v.CommRLastProof.Base) != 2 || len(v.CommRLastProof.Path()) != 4 {
		t.Fatalf("comm_r_last proof %s with %d base levels", v.CommRLastProof.Kind, len(v.CommRLastProof.Base))
	}
	if got := v.CommRLastProof.PathIndex(8, 8, 2); got != v.Challenge() {
		t.Fatalf("path index %d, challenge %d", got, v.Challenge())
	}
	if err := out.ValidateChallenges(&c882); err != nil {
		t.Fatal(err)
	}
	root, err := v.CommRLastProof.RootPoseidon()
	if err != nil || root != v.CommRLastProof.Root {
		t.Fatalf("Top proof root recompute: %v", err)
	}
	droot, err := v.CommDProofs.RootSha256()
	if err != nil || droot != out.CommD {
		t.Fatalf("comm_d root recompute: %v", err)
	}
}

func TestParseC1Errors(t *testing.T) {
	raw := loadFixture(t, "c1-2KiB-V1_1.json")
	const vp = "vanilla_proofs.StackedDrg2KiBV1"
	mutate := func(f func(o *C1Output)) []byte {
		o, err := DecodeC1(raw)
		if err != nil {
			t.Fatal(err)
		}
		f(o)
		return o.Marshal()
	}
	cases := []struct {
		name  string
		input []byte
		want  []string // substrings of the error
	}{
		{"not json", []byte("hello"), []string{"expected an object"}},
		{"trailing", append(append([]byte{}, raw...), []byte(" x")...), []string{"trailing data"}},
		{"truncated", raw[:len(raw)/2], []string{"c1: " + vp + "[0][", "byte"}},
		{"unknown proof", bytes.Replace(raw, []byte(`"StackedDrg2KiBV1_1"`), []byte(`"StackedDrg2KiBV9"`), 1), []string{"registered_proof", "StackedDrg2KiBV9"}},
		{"wrong tag", bytes.Replace(raw, []byte(`{"StackedDrg2KiBV1":`), []byte(`{"StackedDrg8MiBV1":`), 1), []string{"vanilla_proofs", "StackedDrg8MiBV1"}},
		{"byte > 255", bytes.Replace(raw, []byte(`"comm_r":[`), []byte(`"comm_r":[256,`), 1), []string{"comm_r[0]", "out of range"}},
		{"31 bytes", mutateJSONDomain(t, raw, "ticket", 31), []string{"ticket", "expected 32 bytes, found 31"}},
		{"33 bytes", mutateJSONDomain(t, raw, "seed", 33), []string{"seed", "more than 32 bytes"}},
		{"negative", bytes.Replace(raw, []byte(`"comm_d":[`), []byte(`"comm_d":[-1,`), 1), []string{"comm_d[0]", "unsigned integer"}},
		{"missing field", bytes.Replace(raw, []byte(`,"ticket":`), []byte(`,"tickets":`), 1), []string{"missing field \"ticket\""}},
		{"duplicate", bytes.Replace(raw, []byte(`,"ticket":`), []byte(`,"seed":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"ticket":`), 1), []string{"duplicate field \"seed\""}},
		{"_h not null", bytes.Replace(raw, []byte(`"_h":null`), []byte(`"_h":1`), 1), []string{".column._h", "expected null"}},
		{"non-canonical comm_r", mutate(func(o *C1Output) { o.CommR = Domain(bytes.Repeat([]byte{255}, 32)) }), []string{"comm_r", "canonical"}},
		{"partitions", mutate(func(o *C1Output) { o.VanillaProofs = append(o.VanillaProofs, o.VanillaProofs[0]) }), []string{vp, "2 partitions, want 1"}},
		{"challenges", mutate(func(o *C1Output) { o.VanillaProofs[0] = o.VanillaProofs[0][:1] }), []string{vp + "[0]", "1 challenges, want 2"}},
		{"index ≥ arity", mutate(func(o *C1Output) { o.VanillaProofs[0][1].CommRLastProof.Base[1].Index = 8 }),
			[]string{vp + "[0][1].comm_r_last_proof.data.Single.path.path[1].index", "not below arity 8"}},
		{"comm_d path index", mutate(func(o *C1Output) { o.VanillaProofs[0][1].CommDProofs.Base[2].Index ^= 1 }),
			[]string{vp + "[0][1].comm_d_proofs.data.Single.path.path", "proves node"}},
		{"comm_d path length", mutate(func(o *C1Output) {
			p := &o.VanillaProofs[0][0].CommDProofs
			p.Base = p.Base[:5]
		}), []string{vp + "[0][0].comm_d_proofs.data.Single.path.path", "5 path elements, want 6"}},
		{"siblings", mutate(func(o *C1Output) {
			e := &o.VanillaProofs[0][0].ReplicaColumnProofs.DRGParents[2].InclusionProof.Base[0]
			e.Hashes = e.Hashes[:6]
		}), []string{vp + "[0][0].replica_column_proofs.drg_parents[2].inclusion_proof.data.Single.path.path[0].hashes", "6 hashes, want 7"}},
		{"variant", mutate(func(o *C1Output) { o.VanillaProofs[0][0].CommRLastProof.Kind = ProofSub }), []string{"comm_r_last_proof.data", "variant Sub, want Single"}},
		{"rows", mutate(func(o *C1Output) {
			c := &o.VanillaProofs[0][1].ReplicaColumnProofs.ExpParents[7].Column
			c.Rows = c.Rows[:1]
		}), []string{vp + "[0][1].replica_column_proofs.exp_parents[7].column.rows", "1 rows, want 2 layers"}},
		{"comm_c differs", mutate(func(o *C1Output) { o.VanillaProofs[0][1].ReplicaColumnProofs.CX.InclusionProof.Root[0] ^= 1 }),
			[]string{vp + "[0][1].replica_column_proofs.c_x.inclusion_proof.data.Single.root", "differs from comm_c"}},
		{"comm_r_last differs", mutate(func(o *C1Output) { o.VanillaProofs[0][1].CommRLastProof.Root[3] ^= 1 }),
			[]string{vp + "[0][1].comm_r_last_proof.data.Single.root", "differs from comm_r_last"}},
		{"comm_d root", mutate(func(o *C1Output) { o.VanillaProofs[0][0].CommDProofs.Root[3] ^= 1 }), []string{"comm_d_proofs.data.Single.root", "differs from comm_d"}},
		{"comm_r", mutate(func(o *C1Output) { o.CommR[0] ^= 1 }), []string{"comm_r", "Poseidon2(comm_c, comm_r_last)"}},
		{"labeling count", mutate(func(o *C1Output) { o.VanillaProofs[0][0].LabelingProofs = o.VanillaProofs[0][0].LabelingProofs[:1] }),
			[]string{vp + "[0][0].labeling_proofs", "1 labeling proofs, want 2"}},
		{"layer index", mutate(func(o *C1Output) { o.VanillaProofs[0][0].LabelingProofs[1].LayerIndex = 7 }), []string{"labeling_proofs[1].layer_index", "7, want 2"}},
		{"encoding parents", mutate(func(o *C1Output) {
			e := &o.VanillaProofs[0][1].EncodingProof
			e.Parents = e.Parents[:36]
		}), []string{vp + "[0][1].encoding_proof.parents", "36 parents, want 37"}},
		{"challenge range", mutate(func(o *C1Output) {
			for i := range o.VanillaProofs[0][0].LabelingProofs {
				o.VanillaProofs[0][0].LabelingProofs[i].Node = 64
			}
		}), []string{"labeling_proofs[0].node", "not below 64 nodes"}},
		{"column index", mutate(func(o *C1Output) { o.VanillaProofs[0][0].ReplicaColumnProofs.CX.Column.Index++ }), []string{"c_x.column.index"}},
		{"drg count", mutate(func(o *C1Output) {
			rc := &o.VanillaProofs[0][0].ReplicaColumnProofs
			rc.DRGParents = rc.DRGParents[:5]
		}), []string{"replica_column_proofs.drg_parents", "5 column proofs, want 6"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ParseC1(tc.input)
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("error %q lacks %q", err, w)
				}
			}
		})
	}
	// _h may be absent; unknown fields are skipped (serde defaults).
	ok := bytes.ReplaceAll(raw, []byte(`,"_h":null`), nil)
	ok = bytes.Replace(ok, []byte(`{"registered_proof"`), []byte(`{"extra":{"a":[1.5e3,true,null,"x\"y"]},"registered_proof"`), 1)
	o, _, err := ParseC1(ok)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(o.Marshal(), raw) {
		t.Fatal("lenient forms decode differently")
	}
	// Semantic check of challenges: a changed seed changes the challenges.
	o.Seed[0] ^= 1
	cfg, _ := ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	if err := o.ValidateChallenges(&cfg); err == nil || !strings.Contains(err.Error(), "labeling_proofs[0].node") {
		t.Fatalf("ValidateChallenges: %v", err)
	}
}

// mutateJSONDomain re-encodes the top-level domain field name with n bytes.
func mutateJSONDomain(t *testing.T, raw []byte, name string, n int) []byte {
	key := []byte(`"` + name + `":[`)
	i := bytes.Index(raw, key)
	if i < 0 {
		t.Fatalf("no field %s", name)
	}
	j := bytes.IndexByte(raw[i:], ']') + i
	vals := strings.TrimSuffix(strings.Repeat("7,", n), ",")
	out := append([]byte{}, raw[:i+len(key)]...)
	out = append(out, vals...)
	return append(out, raw[j:]...)
}

// FuzzDecodeC1: the parser never panics, and whatever it accepts re-encodes
// to bytes it decodes to the same value.
func FuzzDecodeC1(f *testing.F) {
	raw, err := os.ReadFile("testdata/c1-2KiB-V1_1.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	f.Add(raw[:2000])
	f.Add([]byte(`{"registered_proof":"StackedDrg2KiBV1","vanilla_proofs":{"StackedDrg2KiBV1":[]},"comm_r":[],"comm_d":[],"replica_id":[],"seed":[],"ticket":[]}`))
	f.Add([]byte(`{"SectorNum":1,"Phase1Out":"e30=","SectorSize":2048}`))
	f.Add([]byte(`[{"a":"\u00e9"},-0.5e-3,null]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, _ = ParseC1(data)
		o, err := DecodeC1(data)
		if err != nil {
			return
		}
		enc := o.Marshal()
		o2, err := DecodeC1(enc)
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		if !bytes.Equal(o2.Marshal(), enc) {
			t.Fatal("marshal is not stable")
		}
	})
}

func BenchmarkParseC1(b *testing.B) {
	raw := loadFixture(b, "c1-2KiB-V1_1.json")
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ParseC1(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// TestUnwrapC1InputEdgeCases: a UTF-8 byte order mark before the JSON (raw or inside a
// Commit2In's Phase1Out) is skipped; a negative Commit2In SectorNum is rejected at parse.
func TestUnwrapC1InputEdgeCases(t *testing.T) {
	raw := loadFixture(t, "c1-2KiB-V1_1.json")
	bom := append([]byte{0xef, 0xbb, 0xbf}, raw...)
	for _, tc := range []struct {
		name string
		in   []byte
		want string // "" = accepted
	}{
		{"BOM raw", bom, ""},
		{"BOM Commit2In", append([]byte{0xef, 0xbb, 0xbf}, MarshalCommit2In(7, 2048, raw)...), ""},
		{"BOM inside Phase1Out", MarshalCommit2In(7, 2048, bom), ""},
		{"SectorNum -1", MarshalCommit2In(-1, 2048, raw), "SectorNum -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ParseC1(tc.in)
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v; want one naming %q", err, tc.want)
			}
		})
	}
}

// TestParseC1BareFormat: filecoin-proofs' own C1 (no registered_proof, bare
// vanilla_proofs array) parses for a test configuration as it is; ParseC1
// and a registered configuration refuse it with a one-line reason.
func TestParseC1BareFormat(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "golden", "4KiB-s11", "c1.json"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := NewTestConfig(4<<10, Shape820, [32]byte{128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128}, APIVersion1_1_0)
	if err != nil {
		t.Fatal(err)
	}
	c1, err := ParseC1ForConfig(raw, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !c1.Bare || c1.RegisteredProof != cfg.Name || c1.VanillaTag != cfg.VanillaTag() || len(c1.VanillaProofs) != 1 || len(c1.VanillaProofs[0]) != 2 {
		t.Fatalf("parsed bare=%v %q %q %d partitions", c1.Bare, c1.RegisteredProof, c1.VanillaTag, len(c1.VanillaProofs))
	}
	if _, _, err := ParseC1(raw); err == nil || !strings.Contains(err.Error(), "ParseC1ForConfig") {
		t.Errorf("ParseC1 of the bare format: %v, want a pointer to ParseC1ForConfig", err)
	}
	reg, err := ConfigByName("StackedDrg2KiBV1_1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseC1ForConfig(raw, &reg); err == nil || !strings.Contains(err.Error(), "registered_proof") {
		t.Errorf("bare format for a registered proof: %v, want a registered_proof error", err)
	}
	// The bare array without its other required fields names the missing one.
	if _, err := DecodeC1([]byte(`{"vanilla_proofs":[],"comm_r":[` + strings.Repeat("0,", 31) + `0]}`)); err == nil || !strings.Contains(err.Error(), "comm_d") {
		t.Errorf("missing comm_d: %v", err)
	}
}
