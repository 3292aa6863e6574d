// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"

	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/testsupport/testparams"
	"github.com/cuseal/cuseal/testsupport/testprover"
)

var (
	sealedOnce sync.Once
	sealedDir  string
	sealedErr  string
)

// sealedSample seals demo/sample.txt once per test run (miner t01000, sector 7) and
// returns the sector directory holding c1.json.
func sealedSample(t *testing.T) string {
	t.Helper()
	sealedOnce.Do(func() {
		dir, err := os.MkdirTemp("", "cuseal-cli-test-")
		if err != nil {
			sealedErr = err.Error()
			return
		}
		out := filepath.Join(dir, "sector")
		code, _, stderr := runCLI(t, "--log-level", "warn", "seal", "--sector-size", "2KiB", "--data", sampleData,
			"--out", out, "--miner", "t01000", "--sector", "7", "--ticket", testTicket, "--seed", testSeed)
		if code != exitOK {
			sealedErr = stderr
			return
		}
		sealedDir = out
	})
	if sealedErr != "" {
		t.Fatalf("seal: %s", sealedErr)
	}
	return sealedDir
}

// TestEndToEnd2KiB is the CLI's main path on a 2 KiB sector: params generate (or reuse),
// seal, commit2 on the CPU backend (the unit tier's one real CPU proof of the CLI), verify;
// then --out/--force and bench prove on the reference sector, and the ways a proof is
// rejected.
func TestEndToEnd2KiB(t *testing.T) {
	params := testparams.Dir()
	code, out, stderr := runCLI(t, "--log-level", "warn", "params", "generate", "--sector-size", "2KiB", "--seed", testparams.SeedHex, "--out", params, "--reuse", "--json")
	if code != exitOK {
		t.Fatalf("params generate: exit %d: %s", code, stderr)
	}
	var gen paramsGenerateOutput
	if err := json.Unmarshal([]byte(out), &gen); err != nil {
		t.Fatal(err)
	}
	// The banner once, when parameters are written; not on every reuse.
	if banner := strings.Contains(stderr, "NOT FOR PRODUCTION"); banner == gen.Reused || !gen.NotForProd {
		t.Errorf("params generate (reused %v): NOT FOR PRODUCTION banner printed %v, JSON not_for_production %v:\n%s", gen.Reused, banner, gen.NotForProd, stderr)
	}
	t.Logf("params in %s (reused %v, %.1fs)", params, gen.Reused, gen.Seconds)

	sector := sealedSample(t)
	c1 := filepath.Join(sector, FileC1)
	proofPath := filepath.Join(sector, "proof")
	code, out, stderr = runCLI(t, "--log-level", "warn", "commit2", "--c1", c1, "--params-dir", params,
		"--miner", "t01000", "--sector", "7", "--backend", "cpu", "--out", proofPath, "--json")
	if code != exitOK {
		t.Fatalf("commit2: exit %d: %s", code, stderr)
	}
	var res commit2Output
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	pf, err := os.ReadFile(proofPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(pf) != groth16.ProofSize || res.Proof != hex.EncodeToString(pf) || res.Partitions != 1 || res.Backend != "cpu" {
		t.Fatalf("commit2: %d proof bytes, result %+v", len(pf), res)
	}
	phases := map[string]bool{}
	for _, p := range res.Timings {
		phases[p.Phase] = true
	}
	for _, want := range []string{"read+validate C1", "partition 0: synthesize", "partition 0: prove+verify", "total"} {
		if !phases[want] {
			t.Errorf("timings lack %q: %+v", want, res.Timings)
		}
	}

	// The rest proves the 2KiB-s10 reference sector with testprover.BackendAnyRS (the
	// reference double in the unit tier, the CPU in the long tier): one real proof above.
	ref := testprover.PoRep(t, "2KiB-s10")
	refC1 := filepath.Join(ref.Dir, "c1.json")
	refArgs := []string{"--c1", refC1, "--params-dir", params, "--miner", fmt.Sprintf("t0%d", ref.Miner),
		"--sector", fmt.Sprint(ref.Sector), "--backend", testprover.BackendAnyRS(t)}
	t.Run("out exists", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "proof")
		if err := os.WriteFile(out, pf, 0o644); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"--log-level", "warn", "commit2", "--out", out, "--hex"}, refArgs...)
		code, _, stderr := runCLI(t, args...)
		if code != exitUsage {
			t.Fatalf("existing --out without --force: exit %d: %s", code, stderr)
		}
		wantOneLineError(t, stderr, "pass --force")
		if b, err := os.ReadFile(out); err != nil || string(b) != string(pf) {
			t.Fatalf("existing --out changed (%v)", err)
		}
		if code, _, stderr = runCLI(t, append(args, "--force")...); code != exitOK {
			t.Fatalf("--force: exit %d: %s", code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		// The new proof, written as hex over the old one.
		if d, err := hex.DecodeString(strings.TrimSpace(string(b))); err != nil || len(d) != groth16.ProofSize || bytes.Equal(d, pf) {
			t.Fatalf("--force --hex wrote %q (%v)", b, err)
		}
	})

	t.Run("bench prove", func(t *testing.T) {
		code, out, stderr := runCLI(t, append([]string{"--log-level", "warn", "bench", "prove", "--runs", "1", "--json"}, refArgs...)...)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var pr proveResult
		if err := json.Unmarshal([]byte(out), &pr); err != nil {
			t.Fatal(err)
		}
		if pr.Partitions != 1 || pr.Runs != 1 || pr.Seconds <= 0 || pr.Backend != testprover.BackendAnyRS(t) || len(pr.Timings) != 2 {
			t.Fatalf("bench prove: %+v", pr)
		}
	})

	verify := func(t *testing.T, proof string, extra ...string) (int, string, string) {
		args := append([]string{"verify", "--c1", c1, "--proof", proof, "--params-dir", params, "--sector", "7"}, extra...)
		return runCLI(t, args...)
	}
	t.Run("valid", func(t *testing.T) {
		if code, out, stderr := verify(t, proofPath); code != exitOK || !strings.Contains(out, "valid") {
			t.Fatalf("exit %d: %s%s", code, out, stderr)
		}
	})
	t.Run("valid hex", func(t *testing.T) {
		hexPath := filepath.Join(t.TempDir(), "proof.hex")
		if err := os.WriteFile(hexPath, []byte(res.Proof+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, stderr := verify(t, hexPath); code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	})
	t.Run("invalid", func(t *testing.T) {
		// A and C swapped: both decode as G1 points, the pairing check fails.
		bad := append(append(append([]byte{}, pf[144:groth16.ProofSize]...), pf[48:144]...), pf[0:48]...)
		p := filepath.Join(t.TempDir(), "swapped")
		if err := os.WriteFile(p, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := verify(t, p)
		if code != exitInvalidProof {
			t.Fatalf("exit %d, want %d: %s", code, exitInvalidProof, stderr)
		}
		wantOneLineError(t, stderr, "invalid")
	})
	t.Run("other sector", func(t *testing.T) {
		code, _, stderr := verify(t, proofPath, "--sector", "8")
		if code != exitUsage {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		wantOneLineError(t, stderr, "wrong --miner or --sector")
	})
	for _, tc := range []struct {
		name    string
		content []byte
		want    string
	}{
		{"truncated proof", pf[:100], "100 bytes"},
		{"corrupt proof", append([]byte{0xff}, pf[1:]...), "corrupt"},
		{"garbage proof", []byte("not a proof\n"), fmt.Sprintf("want %d", groth16.ProofSize)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "proof")
			if err := os.WriteFile(p, tc.content, 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, stderr := verify(t, p)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d: %s", code, exitUsage, stderr)
			}
			wantOneLineError(t, stderr, tc.want)
		})
	}
}

// TestCommit2VerifyBadInput covers the mistakes that are caught before any proving, so it
// runs in the unit tier (no parameters needed).
func TestCommit2VerifyBadInput(t *testing.T) {
	sector := sealedSample(t)
	c1 := filepath.Join(sector, FileC1)
	dir := t.TempDir()
	// A parameter directory that holds only another sector size's files.
	other := filepath.Join(dir, "other-params")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg8, err := stacked.ConfigByName("StackedDrg8MiBV1_1")
	if err != nil {
		t.Fatal(err)
	}
	_, vk8, _ := cfg8.ParameterPaths(other)
	if err := os.WriteFile(vk8, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A parameter directory whose 2 KiB .vk is garbage.
	badVK := filepath.Join(dir, "bad-vk")
	if err := os.MkdirAll(badVK, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg2, err := stacked.ConfigByName("StackedDrg2KiBV1_1")
	if err != nil {
		t.Fatal(err)
	}
	_, vk2, _ := cfg2.ParameterPaths(badVK)
	if err := os.WriteFile(vk2, []byte("not a verifying key"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A parameter directory whose 2 KiB files say (.meta) they are for 8 MiB.
	metaDir := filepath.Join(dir, "meta-8MiB")
	if err := os.MkdirAll(metaDir, 0o755); err != nil {
		t.Fatal(err)
	}
	pp2, vkm, meta2 := cfg2.ParameterPaths(metaDir)
	for p, b := range map[string]string{pp2: "x", vkm: "x", meta2: `{"sector_size":8388608}`} {
		if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	corrupt := filepath.Join(dir, "corrupt.json")
	data, err := os.ReadFile(c1)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(corrupt, []byte(strings.Replace(string(data), `"comm_r"`, `"comm_x"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	// A C1 with one seed byte flipped: its challenges no longer derive from it.
	parsed, _, err := stacked.ParseC1(data)
	if err != nil {
		t.Fatal(err)
	}
	flipped := *parsed
	flipped.Seed[0] ^= 1
	badSeed := filepath.Join(dir, "bad-seed.json")
	if err := os.WriteFile(badSeed, flipped.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	// A C1 with one Merkle leaf bit flipped: Validate accepts it, the circuit would not.
	leafC1, _, err := stacked.ParseC1(data)
	if err != nil {
		t.Fatal(err)
	}
	leafC1.VanillaProofs[0][1].CommRLastProof.Leaf[0] ^= 1
	badLeaf := filepath.Join(dir, "bad-leaf.json")
	if err := os.WriteFile(badLeaf, leafC1.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	// A Commit2In wrapper that names the wrong sector size.
	badSize := filepath.Join(dir, "bad-size.json")
	if err := os.WriteFile(badSize, stacked.MarshalCommit2In(7, 4096, data), 0o644); err != nil {
		t.Fatal(err)
	}
	proof := filepath.Join(dir, "proof")
	// A well-formed proof (generator points) that belongs to nothing.
	_, _, g1, g2 := bls.Generators()
	pb := (&groth16.Proof{A: g1, B: g2, C: g1}).Bytes()
	if err := os.WriteFile(proof, pb[:], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing c1", []string{"commit2", "--c1", filepath.Join(dir, "nope.json"), "--params-dir", dir}, "no such file"},
		{"corrupt c1", []string{"commit2", "--c1", corrupt, "--params-dir", dir}, "corrupt.json"},
		{"wrong sector", []string{"commit2", "--c1", c1, "--params-dir", dir, "--sector", "8"}, "wrong --miner or --sector"},
		{"wrong miner", []string{"commit2", "--c1", c1, "--params-dir", dir, "--sector", "7", "--miner", "t01001"}, "wrong --miner or --sector"},
		{"no params", []string{"commit2", "--c1", c1, "--params-dir", dir, "--sector", "7"}, "cuseal params generate"},
		{"params for another size", []string{"commit2", "--c1", c1, "--params-dir", other, "--sector", "7"}, "other circuits"},
		{"bad backend", []string{"commit2", "--c1", c1, "--params-dir", dir, "--sector", "7", "--backend", "tpu"}, "--backend"},
		{"cuda and no-gpu", []string{"commit2", "--c1", c1, "--params-dir", dir, "--sector", "7", "--backend", "cuda", "--no-gpu"}, "--no-gpu"},
		{"verify without params", []string{"verify", "--c1", c1, "--proof", proof, "--params-dir", dir, "--sector", "7"}, "cuseal params generate"},
		{"verify missing proof", []string{"verify", "--c1", c1, "--proof", filepath.Join(dir, "nope"), "--params-dir", badVK, "--sector", "7"}, "no such file"},
		{"verify corrupt vk", []string{"verify", "--c1", c1, "--proof", proof, "--params-dir", badVK, "--sector", "7"}, ".vk"},
		{"missing --c1", []string{"commit2"}, "Required flag"},
		{"unwritable --out", []string{"commit2", "--c1", c1, "--params-dir", dir, "--sector", "7", "--out", filepath.Join(dir, "no", "such", "proof")}, "--out"},
		{"--out in a missing directory", []string{"commit2", "--c1", c1, "--params-dir", dir, "--sector", "7", "--out", filepath.Join(dir, "no", "such", "proof")},
			"directory " + filepath.Join(dir, "no", "such") + " does not exist"},
		{"--out exists", []string{"commit2", "--c1", c1, "--params-dir", dir, "--sector", "7", "--out", proof}, "exists; refusing to overwrite it (pass --force"},
		{"--out is a directory", []string{"commit2", "--c1", c1, "--params-dir", dir, "--sector", "7", "--out", dir}, "is a directory"},
		{"bench prove without params", []string{"bench", "prove", "--c1", c1, "--params-dir", dir, "--sector", "7"}, "cuseal params generate"},
		{"zero partitions in flight", []string{"commit2", "--c1", c1, "--params-dir", other, "--sector", "7", "--partitions-in-flight", "0"}, "--partitions-in-flight"},
		{"negative synth workers", []string{"commit2", "--c1", c1, "--params-dir", other, "--sector", "7", "--synth-workers", "-1"}, "--synth-workers"},
		{"bench prove negative synth workers", []string{"bench", "prove", "--c1", c1, "--params-dir", other, "--sector", "7", "--synth-workers", "-1"}, "--synth-workers"},
		{"bench prove zero runs", []string{"bench", "prove", "--c1", c1, "--params-dir", dir, "--runs", "0"}, "--runs"},
		{"bench prove wrong sector", []string{"bench", "prove", "--c1", c1, "--params-dir", dir, "--sector", "9"}, "wrong --miner or --sector"},
		{"flipped seed", []string{"commit2", "--c1", badSeed, "--params-dir", dir, "--sector", "7"}, "bad-seed.json: c1: vanilla_proofs.StackedDrg2KiBV1[0][0].labeling_proofs[0].node"},
		{"verify flipped seed", []string{"verify", "--c1", badSeed, "--proof", proof, "--params-dir", dir, "--sector", "7"}, "replica_id and seed"},
		{"corrupted Merkle leaf", []string{"commit2", "--c1", badLeaf, "--params-dir", dir, "--sector", "7"}, "bad-leaf.json: c1: vanilla_proofs.StackedDrg2KiBV1[0][1].comm_r_last_proof.data.Single.leaf"},
		{"bench prove corrupted Merkle leaf", []string{"bench", "prove", "--c1", badLeaf, "--params-dir", dir, "--sector", "7"}, "comm_r_last_proof.data.Single.leaf"},
		{"commit2 params for 8MiB", []string{"commit2", "--c1", c1, "--params-dir", metaDir, "--sector", "7"}, ".meta: sector_size 8388608"},
		{"verify params for 8MiB", []string{"verify", "--c1", c1, "--proof", proof, "--params-dir", metaDir, "--sector", "7"}, ".meta: sector_size 8388608"},
		{"Commit2In size mismatch", []string{"commit2", "--c1", badSize, "--params-dir", dir}, "Commit2In.SectorSize = 4096"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, tc.args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d: %s", code, exitUsage, stderr)
			}
			wantOneLineError(t, stderr, tc.want)
		})
	}
	if !cudaBuild {
		code, _, stderr := runCLI(t, "commit2", "--c1", c1, "--params-dir", dir, "--sector", "7", "--backend", "cuda")
		if code != exitUsage {
			t.Fatalf("--backend cuda on a pure-Go build: exit %d: %s", code, stderr)
		}
		wantOneLineError(t, stderr, "built without CUDA (pure Go); use bin/cuseal-cuda")
	}
}

func TestCommit2UnwritableOut(t *testing.T) {
	if err := checkOutFile(filepath.Join(t.TempDir(), "no", "such", "proof")); err == nil {
		t.Fatal("--out in a missing directory accepted")
	}
	if err := checkOutFile(t.TempDir()); err == nil {
		t.Fatal("--out naming a directory accepted")
	}
	if err := checkOutFile(filepath.Join(t.TempDir(), "proof")); err != nil {
		t.Fatal(err)
	}
}

// TestProofOutWriteFails: a proof made and then not writable (the --out
// directory gone, as on a disk that filled up between the check and the
// write) fails with the file named, leaves no file, and prints the proof's
// hex on stderr so that it is not lost.
func TestProofOutWriteFails(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "proof")
	if err := checkOutFile(out); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	proof := []byte{0xc0, 0xff, 0xee, 0x01}
	var stderr strings.Builder
	err := writeProofOut(&stderr, out, proof, false)
	if err == nil || !strings.Contains(err.Error(), "--out") || !strings.Contains(err.Error(), "printed in hex") {
		t.Fatalf("error %v, want --out named and the hex mentioned", err)
	}
	if !strings.Contains(stderr.String(), "c0ffee01") || !strings.Contains(stderr.String(), out) {
		t.Fatalf("stderr %q: want the proof's hex and the path", stderr.String())
	}
	if _, err := os.Lstat(out); !os.IsNotExist(err) {
		t.Fatalf("%s: %v, want no file", out, err)
	}
}

func TestParseParamsSeed(t *testing.T) {
	s, err := parseParamsSeed(defaultParamsSeed)
	if err != nil || string(s[:len(defaultParamsSeed)]) != defaultParamsSeed || s[31] != 0 {
		t.Fatalf("default seed %x, %v", s, err)
	}
	// The demo's test parameters are the shared test parameters (one cache for both).
	if demoParamsSeed != testparams.SeedHex {
		t.Fatalf("demo seed %s, the shared test parameters' %s", demoParamsSeed, testparams.SeedHex)
	}
	s, err = parseParamsSeed("258")
	if err != nil || s[0] != 2 || s[1] != 1 || s[2] != 0 {
		t.Fatalf("258 → %x, %v", s, err)
	}
	h := strings.Repeat("ab", 32)
	s, err = parseParamsSeed(h)
	if err != nil || hex.EncodeToString(s[:]) != h {
		t.Fatalf("hex → %x, %v", s, err)
	}
	if _, err := parseParamsSeed(strings.Repeat("x", 33)); err == nil {
		t.Fatal("33-byte seed accepted")
	}
	if s, err = parseParamsSeed("0x" + h); err != nil || hex.EncodeToString(s[:]) != h {
		t.Fatalf("0x hex → %x, %v", s, err)
	}
	if _, err := parseParamsSeed("000102030405"); err == nil || !strings.Contains(err.Error(), "leading zero is ambiguous") {
		t.Fatalf("000102030405: %v, want refused as ambiguous", err)
	}
	if s, err = parseParamsSeed("0"); err != nil || s != [32]byte{} {
		t.Fatalf("0 → %x, %v", s, err)
	}
	if s, err = parseParamsSeed("0X" + strings.ToUpper(h)); err != nil || hex.EncodeToString(s[:]) != h {
		t.Fatalf("0X HEX → %x, %v", s, err)
	}
	for in, want := range map[string]string{
		"0x0102":                           "0x takes all 64 hex digits",
		"000102030405060708090a0b0c0d0e0f": "hex digits, but not 64 of them",
		"18446744073709551616":             "a number over 2^64−1",
	} {
		if _, err := parseParamsSeed(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want refused: %s", in, err, want)
		}
	}
	if s, err = parseParamsSeed("cafe"); err != nil || string(s[:4]) != "cafe" {
		t.Fatalf("cafe (a short string) → %x, %v", s, err)
	}
}

func TestParamsGenerateRefusesOverwrite(t *testing.T) {
	dir := t.TempDir()
	cfg, err := stacked.ConfigByName("StackedDrg2KiBV1_1")
	if err != nil {
		t.Fatal(err)
	}
	pp, _, _ := cfg.ParameterPaths(dir)
	if err := os.WriteFile(pp, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, "params", "generate", "--sector-size", "2KiB", "--out", dir)
	if code != exitUsage {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "refusing to overwrite")
	if b, _ := os.ReadFile(pp); string(b) != "precious" {
		t.Fatal("existing params file changed")
	}
	code, _, stderr = runCLI(t, "params", "generate", "--sector-size", "5KiB", "--out", dir)
	if code != exitUsage {
		t.Fatalf("bad size: exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "not a Filecoin sector size")
}
