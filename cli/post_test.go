// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	commcid "github.com/filecoin-project/go-fil-commcid"

	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testpost"
	"github.com/cuseal/cuseal/testsupport/testprover"
)

// postVanillaArgs are --vanilla flags for v's vanilla proofs.
func postVanillaArgs(v *testpost.Vector) []string {
	var out []string
	for _, f := range v.VanillaFiles {
		out = append(out, "--vanilla", f)
	}
	return out
}

// postSectorArgs are --sector NUMBER=COMM_R flags for v's sectors.
func postSectorArgs(t *testing.T, v *testpost.Vector) []string {
	var out []string
	for _, s := range v.Sectors {
		c, err := commcid.CIDToReplicaCommitmentV1(s.SealedCID)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, "--sector", fmt.Sprintf("%d=%x", s.SectorNumber, c))
	}
	return out
}

// TestPostCLI proves both reference vectors with `cuseal post winning` and
// `post window` (testprover.BackendAnyRS: the reference double in the unit
// tier, the CPU in the long tier) and verifies the proofs with `post
// verify`, the sectors from --sector and from the vanilla proofs; another
// randomness makes the proof invalid (exit 1). A single partition's proof
// verifies as the proof of its sectors.
func TestPostCLI(t *testing.T) {
	for _, tc := range []struct {
		sub, folder, proofType string
		more                   []string
	}{
		{"winning", "post-winning-2KiB-s22", "0", nil},
		{"window", "post-window-2KiB-s21", "StackedDrgWindow2KiBV1_1", nil},
		{"window", "post-window-2KiB-s21", "10", []string{"--partition", "0"}},
	} {
		v := testpost.Load(t, tc.folder)
		params := v.ParamsDir(t)
		rnd := hex.EncodeToString(v.Randomness)
		out := filepath.Join(t.TempDir(), "proof.bin")
		args := append([]string{"post", tc.sub, "--backend", testprover.BackendAnyRS(t), "--params-dir", params, "--proof-type", tc.proofType,
			"--randomness", rnd, "--miner", fmt.Sprintf("t0%d", v.Miner), "--out", out, "--json"}, postVanillaArgs(v)...)
		code, stdout, stderr := runCLI(t, append(args, tc.more...)...)
		if code != 0 {
			t.Fatalf("post %s: exit %d: %s", tc.sub, code, stderr)
		}
		var res postOutput
		if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.Sectors != len(v.Vanilla) || res.Partitions != 1 {
			t.Fatalf("post %s: %s (%v)", tc.sub, stdout, err)
		}
		pf, err := os.ReadFile(out)
		if err != nil || len(pf) != groth16.ProofSize || hex.EncodeToString(pf) != res.Proof {
			t.Fatalf("post %s: proof file %d bytes (%v)", tc.sub, len(pf), err)
		}
		verify := []string{"post", "verify", "--params-dir", params, "--proof-type", tc.proofType, "--randomness", rnd, "--proof", out}
		bySector := postSectorArgs(t, v)
		for what, extra := range map[string][]string{"--sector": bySector, "--vanilla": postVanillaArgs(v)} {
			if code, stdout, stderr := runCLI(t, append(verify, extra...)...); code != 0 || !strings.HasPrefix(stdout, "valid: ") {
				t.Fatalf("post verify %s (%s): exit %d: %s %s", tc.sub, what, code, stdout, stderr)
			}
		}
		other := []byte(rnd)
		other[0] ^= 1 // another hex digit: other randomness, still canonical
		verify[7] = string(other)
		if code, _, stderr := runCLI(t, append(verify, bySector...)...); code != exitInvalidProof {
			t.Fatalf("post verify %s with other randomness: exit %d: %s", tc.sub, code, stderr)
		}
	}
}

// TestPostCLIBadInput: each defect is a one-line error, exit 2, and
// nothing is written (no parameters needed: checked before).
func TestPostCLIBadInput(t *testing.T) {
	v := testpost.Load(t, "post-winning-2KiB-s22")
	rnd := hex.EncodeToString(v.Randomness)
	tmp := t.TempDir()
	out := filepath.Join(tmp, "proof.bin")
	short := filepath.Join(tmp, "short.bin")
	if err := os.WriteFile(short, v.Vanilla[0][:100], 0o644); err != nil {
		t.Fatal(err)
	}
	base := func(sub, proofType, rnd string, vanilla ...string) []string {
		a := []string{"post", sub, "--backend", "cpu", "--params-dir", tmp, "--proof-type", proofType, "--randomness", rnd, "--out", out}
		for _, f := range vanilla {
			a = append(a, "--vanilla", f)
		}
		return a
	}
	good := v.VanillaFiles[0]
	// Two vanilla proofs out of ascending sector order (only their sector_id read).
	var unsorted []string
	for _, id := range []byte{9, 8} {
		b := append([]byte{id, 0, 0, 0, 0, 0, 0, 0}, v.Vanilla[0][8:]...)
		f := filepath.Join(tmp, fmt.Sprintf("sector-%d.bin", id))
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		unsorted = append(unsorted, f)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"window type for winning", base("winning", "10", rnd, good), "is a WindowPoSt proof"},
		{"unknown type", base("window", "StackedDrgWindow3KiBV1_1", rnd, good), `--proof-type "StackedDrgWindow3KiBV1_1"`},
		{"short randomness", base("winning", "0", "abcd", good), "--randomness"},
		{"no vanilla", base("winning", "0", rnd), "--vanilla: no vanilla proof files"},
		{"missing vanilla", base("winning", "0", rnd, filepath.Join(tmp, "nope.bin")), "nope.bin"},
		{"missing params", base("winning", "0", rnd, good), "cuseal params generate --circuit winning-post"},
		{"negative partition", append(base("window", "10", rnd, good), "--partition", "-2"), "--partition -2"},
		{"window sectors not ascending", base("window", "10", rnd, unsorted...), "sector-8.bin (after " + filepath.Join(tmp, "sector-9.bin") + "): porep: vanilla proof 1 (sector 8) after vanilla proof 0 (sector 9)"},
		{"verify without sectors", []string{"post", "verify", "--proof-type", "0", "--randomness", rnd, "--proof", good}, "no challenged sectors"},
		{"verify bad sector", []string{"post", "verify", "--proof-type", "0", "--randomness", rnd, "--proof", good, "--sector", "5=zz"}, `--sector "5=zz"`},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want %d: %s", tc.name, code, exitUsage, stderr)
			continue
		}
		wantOneLineError(t, stderr, tc.want)
	}
	// A truncated vanilla proof is refused naming it, once parameters exist.
	params := v.ParamsDir(t)
	a := base("winning", "0", rnd, short)
	a[5] = params
	code, _, stderr := runCLI(t, a...)
	if code != exitUsage {
		t.Fatalf("truncated vanilla: exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "vanilla proof 0 (100 bytes")
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("--out written after refusals: %v", err)
	}
}

// TestPostProveHelp: post winning and window --help describe their input.
func TestPostProveHelp(t *testing.T) {
	for sub, want := range map[string]string{"winning": "GenerateWinningPoStWithVanilla", "window": "in ascending sector"} {
		code, stdout, stderr := runCLI(t, "post", sub, "--help")
		if code != exitOK || !strings.Contains(stdout, "DESCRIPTION:") || !strings.Contains(stdout, want) {
			t.Errorf("post %s --help: exit %d: %s%s", sub, code, stdout, stderr)
		}
	}
}

// TestPostCLIVanillaDir: post winning|window|verify take the directory
// `cuseal post vanilla` writes (--vanilla DIR or a DIR argument): its
// vanilla.json gives the proof type, miner and randomness, a flag that
// disagrees with it is refused naming both, and window --partition K takes
// partition K's sectors out of it.
func TestPostCLIVanillaDir(t *testing.T) {
	for _, tc := range []struct {
		sub, folder string
		more        []string
	}{
		{"winning", "post-winning-2KiB-s22", nil},
		{"window", "post-window-2KiB-s21", nil},
		{"window", "post-window-2KiB-s21", []string{"--partition", "0"}},
	} {
		v := testpost.Load(t, tc.folder)
		dir := vectorVanillaDir(t, v)
		params := v.ParamsDir(t)
		out := filepath.Join(t.TempDir(), "proof.bin")
		args := append([]string{"post", tc.sub, "--backend", testprover.BackendAnyRS(t), "--params-dir", params, "--out", out, "--json"}, tc.more...)
		code, stdout, stderr := runCLI(t, append(args, dir)...) // DIR as the argument
		if code != exitOK {
			t.Fatalf("post %s %v DIR: exit %d: %s", tc.sub, tc.more, code, stderr)
		}
		var res postOutput
		if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.Sectors != len(v.Vanilla) || res.RegisteredProof != postConfig(t, v).Name {
			t.Fatalf("post %s DIR: %s (%v)", tc.sub, stdout, err)
		}
		verify := append([]string{"post", "verify", "--params-dir", params, "--proof", out}, tc.more...)
		if code, stdout, stderr := runCLI(t, append(verify, "--vanilla", dir)...); code != exitOK || !strings.HasPrefix(stdout, "valid: ") {
			t.Fatalf("post verify %v --vanilla DIR (%s): exit %d: %s %s", tc.more, tc.sub, code, stdout, stderr)
		}
	}

	win, window := testpost.Load(t, "post-winning-2KiB-s22"), testpost.Load(t, "post-window-2KiB-s21")
	winDir, windowDir := vectorVanillaDir(t, win), vectorVanillaDir(t, window)
	tmp := t.TempDir()
	out := filepath.Join(tmp, "proof.bin")
	other := []byte(hex.EncodeToString(win.Randomness))
	other[0] ^= 1
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"window dir for winning", []string{"post", "winning", "--vanilla", windowDir}, "holds StackedDrgWindow2KiBV1_1 (WindowPoSt) vanilla proofs, cuseal post winning wants WinningPoSt"},
		{"other proof type", []string{"post", "winning", "--proof-type", "1", "--vanilla", winDir}, "--proof-type 1: --vanilla " + winDir + " holds StackedDrgWinning2KiBV1 vanilla proofs"},
		{"other randomness", []string{"post", "winning", "--randomness", string(other), "--vanilla", winDir}, "has randomness " + hex.EncodeToString(win.Randomness)},
		{"other miner", []string{"post", "winning", "--miner", "t01", "--vanilla", winDir}, fmt.Sprintf("--miner t01: %s is for miner %d", filepath.Join(winDir, vanillaDirMeta), win.Miner)},
		{"partition past the dir", []string{"post", "window", "--partition", "1", "--vanilla", windowDir}, fmt.Sprintf("--partition 1: --vanilla %s holds %d sector(s), 1 partition(s)", windowDir, len(window.Vanilla))},
		{"verify dir of no vanilla.json", []string{"post", "verify", "--proof", out, "--vanilla", tmp}, "no vanilla.json"},
		{"files without proof type", []string{"post", "winning", "--randomness", hex.EncodeToString(win.Randomness), "--vanilla", win.VanillaFiles[0]}, "--proof-type: required (or --vanilla DIR"},
		{"files without randomness", []string{"post", "verify", "--proof-type", "0", "--proof", out, "--vanilla", win.VanillaFiles[0]}, "--randomness: required (or --vanilla DIR"},
		{"mistyped dir", []string{"post", "window", "--vanilla", filepath.Join(tmp, "nope")}, filepath.Join(tmp, "nope") + ": no such file or directory"},
		{"dir and a file", []string{"post", "window", "--vanilla", windowDir, "--vanilla", window.VanillaFiles[0]}, "--vanilla " + windowDir + ": a directory (as cuseal post vanilla writes it) must be the only --vanilla argument"},
		{"vanilla.json for its dir", []string{"post", "winning", "--vanilla", filepath.Join(winDir, vanillaDirMeta)}, "give the directory, " + winDir + ", not its vanilla.json"},
		{"verify partition of winning", []string{"post", "verify", "--partition", "0", "--proof", out, "--vanilla", winDir}, "StackedDrgWinning2KiBV1 is a WinningPoSt proof, which has no partitions"},
		{"verify partition past the dir", []string{"post", "verify", "--partition", "1", "--proof", out, "--vanilla", windowDir}, "--partition 1: --vanilla " + windowDir + " holds"},
	} {
		args := append(tc.args, "--params-dir", tmp)
		if tc.args[1] != "verify" {
			args = append(args, "--out", out)
		}
		code, _, stderr := runCLI(t, args...)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want %d: %s", tc.name, code, exitUsage, stderr)
			continue
		}
		wantOneLineError(t, stderr, tc.want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("--out written after refusals: %v", err)
	}
}

func postConfig(t *testing.T, v *testpost.Vector) post.Config {
	t.Helper()
	cfg, err := post.ConfigFor(v.Proof)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestPostCLIVanillaDirDefects: a vanilla.json edited by hand is refused
// naming the file and field (two names for two proofs, a field missing,
// null or misspelt, non-canonical randomness, a sector twice, a sealed CID
// of another comm_r, a JSON type by field and sector index, a file name
// that is no sector's), while a comm_r in capitals or as its CID is the
// same comm_r; verify --partition refuses sectors it cannot cut as post
// window does; a raw proof of the wrong length is named as such, not as
// bad hex, and one partition's proof as one partition's.
func TestPostCLIVanillaDirDefects(t *testing.T) {
	v := testpost.Load(t, "post-window-2KiB-s21")
	params := v.ParamsDir(t)
	edited := func(edit func(j map[string]any)) string {
		t.Helper()
		dir := vectorVanillaDir(t, v)
		meta := filepath.Join(dir, vanillaDirMeta)
		raw, err := os.ReadFile(meta)
		if err != nil {
			t.Fatal(err)
		}
		var j map[string]any
		if err := json.Unmarshal(raw, &j); err != nil {
			t.Fatal(err)
		}
		edit(j)
		if raw, err = json.Marshal(j); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(meta, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	sector := func(j map[string]any, i int) map[string]any { return j["sectors"].([]any)[i].(map[string]any) }
	proofFile := filepath.Join(t.TempDir(), "proof.bin")
	if err := os.WriteFile(proofFile, v.Want, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		edit func(j map[string]any)
		want string
	}{
		{"names disagree", func(j map[string]any) { j["registered_proof"] = "StackedDrgWindow32GiBV1_1" }, `registered_proof "StackedDrgWindow32GiBV1_1" and proof_type 10 (StackedDrgWindow2KiBV1_1) disagree`},
		{"proof_type missing", func(j map[string]any) { delete(j, "proof_type") }, "proof_type: missing"},
		{"miner null", func(j map[string]any) { j["miner"] = nil }, "miner: missing"},
		{"key in capitals", func(j map[string]any) { j["Randomness"] = j["randomness"] }, `"Randomness": unknown field`},
		{"sector null", func(j map[string]any) { j["sectors"].([]any)[1] = nil }, "sectors[1]: want a JSON object"},
		{"sector_number negative", func(j map[string]any) { sector(j, 1)["sector_number"] = -1 }, "sectors[1].sector_number: a JSON number -1, want an integer from 0 to 2^64-1"},
		{"file is vanilla.json", func(j map[string]any) { sector(j, 0)["file"] = vanillaDirMeta }, `sectors[0].file "vanilla.json": want the name of a sector's file`},
		{"file is ..", func(j map[string]any) { sector(j, 0)["file"] = ".." }, `sectors[0].file "..": want the name of a sector's file`},
		{"huge randomness", func(j map[string]any) { j["randomness"] = strings.Repeat("ab", 5000) }, "… (10000 bytes)\": want 64 hex digits"},
		{"randomness not canonical", func(j map[string]any) { j["randomness"] = strings.Repeat("ff", 32) }, "randomness " + strings.Repeat("ff", 32) + " is not a canonical field element"},
		{"sector twice", func(j map[string]any) { j["sectors"] = append(j["sectors"].([]any), sector(j, 0)) }, fmt.Sprintf("sectors[2].sector_number %d: listed twice (also sectors[0])", v.Sectors[0].SectorNumber)},
		{"comm_r short", func(j map[string]any) { sector(j, 0)["comm_r"] = "abc" }, `sectors[0].comm_r "abc": want 64 hex digits`},
		{"sealed CID of another comm_r", func(j map[string]any) { sector(j, 0)["sealed_cid"] = sector(j, 1)["sealed_cid"] }, "sectors[0].sealed_cid"},
		{"proof_type a string", func(j map[string]any) { j["proof_type"] = "10" }, "proof_type: a JSON string, want a 64-bit integer"},
	} {
		dir := edited(tc.edit)
		code, _, stderr := runCLI(t, "post", "verify", "--params-dir", params, "--proof", proofFile, "--vanilla", dir)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want %d: %s", tc.name, code, exitUsage, stderr)
			continue
		}
		wantOneLineError(t, stderr, filepath.Join(dir, vanillaDirMeta)+": ")
		wantOneLineError(t, stderr, tc.want)
	}
	// The same comm_r in other spellings: capitals with 0X, the sealed CID.
	for what, spell := range map[string]func(j map[string]any, i int) string{
		"0X and capitals": func(j map[string]any, i int) string { return "0X" + strings.ToUpper(sector(j, i)["comm_r"].(string)) },
		"sealed CID":      func(j map[string]any, i int) string { return sector(j, i)["sealed_cid"].(string) },
	} {
		dir := edited(func(j map[string]any) {
			for i := range j["sectors"].([]any) {
				sector(j, i)["comm_r"] = spell(j, i)
			}
		})
		if code, stdout, stderr := runCLI(t, "post", "verify", "--params-dir", params, "--proof", proofFile, "--vanilla", dir); code != exitOK || !strings.HasPrefix(stdout, "valid: ") {
			t.Errorf("comm_r as %s: exit %d: %s %s", what, code, stdout, stderr)
		}
	}
	// --partition K cuts the DIR's sectors in ascending order, as post window does.
	swapped := edited(func(j map[string]any) { s := j["sectors"].([]any); s[0], s[1] = s[1], s[0] })
	code, _, stderr := runCLI(t, "post", "verify", "--params-dir", params, "--partition", "0", "--proof", proofFile, "--vanilla", swapped)
	if code != exitUsage {
		t.Fatalf("--partition over sectors out of order: exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, fmt.Sprintf("porep: vanilla proof 1 (sector %d) after vanilla proof 0 (sector %d)", v.Sectors[0].SectorNumber, v.Sectors[1].SectorNumber))
	// Three sectors are two partitions of StackedDrgWindow2KiBV1_1: not one partition's, and a
	// one-partition proof for them is named as such.
	var three []string
	for n := 1; n <= 3; n++ {
		three = append(three, "--sector", fmt.Sprintf("%d=%s", n, strings.Repeat("11", 32)))
	}
	base := []string{"post", "verify", "--params-dir", params, "--proof-type", "10", "--randomness", hex.EncodeToString(v.Randomness), "--proof", proofFile}
	code, _, stderr = runCLI(t, append(append(base, "--partition", "0"), three...)...)
	if code != exitUsage {
		t.Fatalf("--partition 0 with three sectors: exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "--partition 0: 3 sectors given; a partition of StackedDrgWindow2KiBV1_1 has at most 2")
	code, _, stderr = runCLI(t, append(base, three...)...)
	if code != exitUsage {
		t.Fatalf("one partition's proof for two: exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "one partition's proof, but the 3 sectors make 2 partitions: give --partition K")
	twice := filepath.Join(t.TempDir(), "two.bin")
	if err := os.WriteFile(twice, append(append([]byte{}, v.Want...), v.Want...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "post", "verify", "--params-dir", params, "--proof", twice, "--vanilla", vectorVanillaDir(t, v))
	if code != exitUsage {
		t.Fatalf("a proof of two partitions for one: exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, fmt.Sprintf("--proof %s: %d bytes, want %d (1 partition(s) × %d)", twice, 2*groth16.ProofSize, groth16.ProofSize, groth16.ProofSize))
}

// failingWriter is a stdout whose every write fails, as a redirect onto a
// full disk or /dev/full does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestPostProofStdoutFails: a proof bound for stdout (no --out, with and
// without --json) that stdout cannot take exits 2 and is printed in hex on
// stderr — a valid proof, not lost.
func TestPostProofStdoutFails(t *testing.T) {
	testenv.Long(t, "two CPU proofs of a 2 KiB WinningPoSt")
	v := testpost.Load(t, "post-winning-2KiB-s22")
	dir := vectorVanillaDir(t, v)
	params := v.ParamsDir(t)
	for _, mode := range [][]string{nil, {"--json"}} {
		var errb bytes.Buffer
		args := append([]string{"cuseal", "post", "winning", "--backend", testprover.BackendAnyRS(t), "--params-dir", params}, mode...)
		code := run(append(args, dir), failingWriter{}, &errb)
		stderr := errb.String()
		if code != exitUsage || !strings.Contains(stderr, "stdout: no space left on device (the proof is printed in hex above)") {
			t.Fatalf("%v: exit %d, stderr %s", mode, code, stderr)
		}
		var proofHex string
		for _, l := range strings.Split(stderr, "\n") {
			if len(l) == 2*192 {
				proofHex = l
			}
		}
		proof, err := hex.DecodeString(proofHex)
		if err != nil || len(proof) != 192 {
			t.Fatalf("%v: no 192-byte proof in hex on stderr: %s", mode, stderr)
		}
		pf := filepath.Join(t.TempDir(), "proof.bin")
		if err := os.WriteFile(pf, proof, 0o644); err != nil {
			t.Fatal(err)
		}
		if code, stdout, stderr := runCLI(t, "post", "verify", "--params-dir", params, "--proof", pf, "--vanilla", dir); code != exitOK || !strings.HasPrefix(stdout, "valid: ") {
			t.Fatalf("%v: the hex proof from stderr: post verify exit %d: %s %s", mode, code, stdout, stderr)
		}
	}
}
