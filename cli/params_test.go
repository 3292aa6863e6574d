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
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/internal/atomicfile"
	"github.com/cuseal/cuseal/internal/hostmem"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testpost"
)

// tinyParamsFiles writes test parameters for x·y = z (z public) to dir and returns the
// .params and .vk paths: 2 inputs (ONE, z), 2 aux (x, y), 1 + 2 constraints → domain 4.
func tinyParamsFiles(t *testing.T, dir string) (string, string) {
	t.Helper()
	r := cs.NewRecorder()
	var v fr.Element
	z := r.AllocInput(&v)
	x := r.Alloc(&v)
	y := r.Alloc(&v)
	var one fr.Element
	one.SetOne()
	r.Enforce(cs.LC{{Coeff: one, Var: x}}, cs.LC{{Coeff: one, Var: y}}, cs.LC{{Coeff: one, Var: z}})
	var seed [32]byte
	seed[0] = 7
	p, err := groth16.Setup(r.R1CS(), groth16.ToxicWasteFromSeed(seed))
	if err != nil {
		t.Fatal(err)
	}
	pp, vp := filepath.Join(dir, "tiny.params"), filepath.Join(dir, "tiny.vk")
	if err := groth16.WriteParamsFile(pp, p); err != nil {
		t.Fatal(err)
	}
	if err := groth16.WriteVerifyingKeyFile(vp, &p.VK); err != nil {
		t.Fatal(err)
	}
	return pp, vp
}

func TestParamsInfo(t *testing.T) {
	pp, vp := tinyParamsFiles(t, t.TempDir())
	code, out, stderr := runCLI(t, "params", "info", "--json", pp)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var info paramsFileInfo
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	st, _ := os.Stat(pp)
	digest, err := groth16.FileDigest(pp)
	if err != nil {
		t.Fatal(err)
	}
	if info.Kind != "params" || info.SizeBytes != st.Size() || info.Digest != digest || len(info.Digest) != 32 {
		t.Fatalf("info = %+v; file size %d, digest %s", info, st.Size(), digest)
	}
	if info.Inputs != 2 || info.DomainSize != 4 || len(info.Queries) != 5 {
		t.Fatalf("inputs=%d domain=%d queries=%d, want 2, 4, 5", info.Inputs, info.DomainSize, len(info.Queries))
	}
	want := map[string]int{"h": 3, "l": 2}
	for _, q := range info.Queries {
		if n, ok := want[q.Name]; ok && q.Count != n {
			t.Errorf("query %s: %d points, want %d", q.Name, q.Count, n)
		}
	}

	code, out, stderr = runCLI(t, "params", "info", "--json", vp)
	if code != exitOK {
		t.Fatalf("vk: exit %d: %s", code, stderr)
	}
	info = paramsFileInfo{}
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatal(err)
	}
	if info.Kind != "vk" || info.Inputs != 2 {
		t.Fatalf("vk info = %+v", info)
	}

	code, out, _ = runCLI(t, "params", "info", pp)
	if code != exitOK || len(out) == 0 || strings.Contains(out, "circuit:") {
		t.Fatalf("text: exit %d, %q (no circuit line for a name outside the official table)", code, out)
	}

	// Under an official name the circuit and sector size come from the table (the digest
	// then mismatches, which params info reports, not refuses).
	named := filepath.Join(t.TempDir(), "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.vk")
	data, err := os.ReadFile(vp)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(named, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = runCLI(t, "params", "info", "--json", named)
	if code != exitOK {
		t.Fatalf("named vk: exit %d: %s", code, stderr)
	}
	info = paramsFileInfo{}
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatal(err)
	}
	if info.Circuit != "PoRep (Stacked DRG), 2KiB sectors" || info.SectorSize != 2048 || info.Status != "mismatch" {
		t.Fatalf("named vk: circuit %q, sector size %d, status %q", info.Circuit, info.SectorSize, info.Status)
	}
	code, out, _ = runCLI(t, "params", "info", named)
	if code != exitOK || !strings.Contains(out, "circuit: PoRep (Stacked DRG), 2KiB sectors (by file name)") {
		t.Fatalf("named vk text: exit %d, %q", code, out)
	}
}

func TestParamsInfoBadInput(t *testing.T) {
	dir := t.TempDir()
	pp, _ := tinyParamsFiles(t, dir)
	data, err := os.ReadFile(pp)
	if err != nil {
		t.Fatal(err)
	}
	trunc := filepath.Join(dir, "trunc.params")
	if err := os.WriteFile(trunc, data[:len(data)-10], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing file", []string{"params", "info", filepath.Join(dir, "nope.params")}, "no such file"},
		{"no argument", []string{"params", "info"}, "FILE"},
		{"directory", []string{"params", "info", dir}, "directory"},
		{"truncated", []string{"params", "info", trunc}, "trunc.params"},
		{"unknown subcommand", []string{"params", "frob"}, `unknown command "frob"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, tc.args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d: %s", code, exitUsage, stderr)
			}
			wantOneLineError(t, stderr, tc.want)
		})
	}
}

// TestParamsGenerateReuseRefusesOtherSeed: --reuse must reuse only parameters made from the
// same seed and circuit; a trial run of `--reuse --seed 7` over the default-seed parameters
// overwrote them. Placeholder files stand in for the parameters (the refusal comes before
// any setup).
func TestParamsGenerateReuseRefusesOtherSeed(t *testing.T) {
	dir := t.TempDir()
	cfg, err := stacked.ConfigByName("StackedDrg2KiBV1_1")
	if err != nil {
		t.Fatal(err)
	}
	pp, vp, mp := cfg.ParameterPaths(dir)
	for _, p := range []string{pp, vp, mp} {
		if err := os.WriteFile(p, []byte("precious"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	seed, _ := parseParamsSeed(defaultParamsSeed)
	stamp := filepath.Join(dir, cfg.ParameterFileStem()+".cuseal-test.json")
	b, _ := json.Marshal(map[string]string{"circuit": cfg.ParameterIdentifier(), "seed": hex.EncodeToString(seed[:]), "r1cs_digest": "ab"})
	if err := os.WriteFile(stamp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, "params", "generate", "--sector-size", "2KiB", "--out", dir, "--reuse", "--seed", "7")
	if code != exitUsage {
		t.Fatalf("exit %d, want %d: %s", code, exitUsage, stderr)
	}
	wantOneLineError(t, stderr, stamp)
	for _, want := range []string{`seed "cuseal-porep-test"`, "--seed 7", "another --out"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q: %s", want, stderr)
		}
	}
	for _, p := range []string{pp, vp, mp} {
		if b, _ := os.ReadFile(p); string(b) != "precious" {
			t.Fatalf("%s changed", p)
		}
	}
	if err := os.Remove(stamp); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "params", "generate", "--sector-size", "2KiB", "--out", dir, "--reuse")
	if code != exitUsage {
		t.Fatalf("no stamp: exit %d, want %d: %s", code, exitUsage, stderr)
	}
	wantOneLineError(t, stderr, "no stamp")
	if b, _ := os.ReadFile(pp); string(b) != "precious" {
		t.Fatal("params file changed")
	}
}

// TestParamsGenerateChecksMemory: a setup that cannot fit (a trial run of 32GiB on a 24 GB
// machine ran into the OOM killer and left an empty --out) is refused up front, naming the
// estimate, and creates nothing: 32GiB PoRep needs ~12.7 GB (96 bytes per variable), more
// than the 7.6 GiB this fake host has.
func TestParamsGenerateChecksMemory(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "meminfo")
	if err := os.WriteFile(fake, []byte("MemTotal:       24684084 kB\nMemAvailable:    8000000 kB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	oldM, oldC := hostmem.MemInfoPath, hostmem.CgroupPaths
	hostmem.MemInfoPath, hostmem.CgroupPaths = fake, nil
	defer func() { hostmem.MemInfoPath, hostmem.CgroupPaths = oldM, oldC }()

	out := filepath.Join(t.TempDir(), "new", "params")
	code, _, stderr := runCLI(t, "params", "generate", "--sector-size", "32GiB", "--out", out)
	if code != exitUsage {
		t.Fatalf("exit %d, want %d: %s", code, exitUsage, stderr)
	}
	wantOneLineError(t, stderr, "needs about")
	for _, want := range []string{"130.2M variables", "7.6GiB is available", "--force"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q: %s", want, stderr)
		}
	}
	if _, err := os.Stat(filepath.Dir(out)); !os.IsNotExist(err) {
		t.Fatalf("--out parent exists after the refusal: %v", err)
	}
	if avail, ok := hostmem.Available(); !ok || avail != 8000000<<10 {
		t.Fatalf("hostmem.Available = %d, %v", avail, ok)
	}
}

// TestMkdirAllTracked: the cleanup removes exactly the (empty) directories that were created.
func TestMkdirAllTracked(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "a", "b", "c")
	cleanup, err := mkdirAllTracked(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Fatalf("%s not created: %v", dir, err)
	}
	cleanup()
	if _, err := os.Stat(filepath.Join(base, "a")); !os.IsNotExist(err) {
		t.Fatalf("created directories left behind: %v", err)
	}
	if _, err := os.Stat(base); err != nil {
		t.Fatalf("pre-existing directory removed: %v", err)
	}
	// A directory with content stays.
	cleanup, err = mkdirAllTracked(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "keep"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cleanup()
	if _, err := os.Stat(filepath.Join(dir, "keep")); err != nil {
		t.Fatalf("non-empty directory removed: %v", err)
	}
}

// TestParamsGeneratePoSt: --circuit winning-post / window-post from the PoSt
// reference vectors' toxic seed write, under the official file names, a .vk
// byte-identical to the one rust-fil-proofs made (porep/post/testdata),
// stamped as test parameters; a second run with --reuse reuses them, one
// without refuses to overwrite. An unknown --circuit is a usage error.
func TestParamsGeneratePoSt(t *testing.T) {
	testenv.Long(t, "two PoSt setups")
	for _, tc := range []struct{ circuit, folder string }{
		{"window-post", "post-window-2KiB-s21"},
		{"winning-post", "post-winning-2KiB-s22"},
	} {
		v := testpost.Load(t, tc.folder)
		toxic := hex.EncodeToString(v.ToxicSeed[:])
		dir := t.TempDir()
		cfg, err := post.ConfigFor(v.Proof)
		if err != nil {
			t.Fatal(err)
		}
		pp, vp, mp := cfg.ParameterPaths(dir)
		// What a run killed mid-write leaves: a temporary .params no process holds.
		stale := filepath.Join(dir, "."+filepath.Base(pp)+".tmp4242")
		if err := os.WriteFile(stale, make([]byte, 1000), 0o600); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-2 * atomicfile.AbandonedAge)
		if err := os.Chtimes(stale, old, old); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runCLI(t, "params", "generate", "--circuit", tc.circuit, "--sector-size", "2KiB", "--seed", toxic, "--out", dir, "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.circuit, code, stderr)
		}
		if _, err := os.Stat(stale); !os.IsNotExist(err) || !strings.Contains(stderr, "removed 1 abandoned temporary file of "+filepath.Base(pp)+" (1000B)") {
			t.Errorf("%s: abandoned %s: %v; stderr %s", tc.circuit, stale, err, stderr)
		}
		if _, err := os.Stat(genLockPath(dir, &cfg)); !os.IsNotExist(err) {
			t.Errorf("%s: the run's lock file is left in --out (%v)", tc.circuit, err)
		}
		var out paramsGenerateOutput
		if err := json.Unmarshal([]byte(stdout), &out); err != nil || out.RegisteredProof != cfg.Name || out.Params != pp || out.VK != vp || out.Meta != mp || out.Reused {
			t.Fatalf("%s: %+v, %v", tc.circuit, out, err)
		}
		if filepath.Base(vp) != filepath.Base(v.VKFile) {
			t.Fatalf("%s: .vk named %s, rust-fil-proofs' is %s", tc.circuit, filepath.Base(vp), filepath.Base(v.VKFile))
		}
		want, err := os.ReadFile(v.VKFile)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(vp); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: .vk differs from rust-fil-proofs' (%v)", tc.circuit, err)
		}
		st, err := paramfile.ReadTestStamp(filepath.Join(dir, cfg.ParameterFileStem()+".cuseal-test.json"))
		if err != nil || st.Seed != toxic || st.Circuit != cfg.ParameterIdentifier() {
			t.Fatalf("%s: stamp %+v, %v", tc.circuit, st, err)
		}
		code, stdout, stderr = runCLI(t, "params", "info", "--json", pp)
		var info paramsFileInfo
		if code != exitOK || json.Unmarshal([]byte(stdout), &info) != nil {
			t.Fatalf("%s: params info: exit %d: %s%s", tc.circuit, code, stdout, stderr)
		}
		if want := fmt.Sprintf("%sPoSt (%s), 2KiB sectors", cfg.Kind, cfg.Name); info.Status != "test" || info.Circuit != want || info.SectorSize != 2048 {
			t.Errorf("%s: params info: status %q, circuit %q; want test, %q", tc.circuit, info.Status, info.Circuit, want)
		}
		code, stdout, stderr = runCLI(t, "params", "generate", "--circuit", tc.circuit, "--sector-size", "2KiB", "--seed", toxic, "--out", dir, "--reuse")
		if code != 0 || !strings.Contains(stdout, "reused TEST parameters for "+cfg.Name) {
			t.Fatalf("%s: --reuse: exit %d: %s %s", tc.circuit, code, stdout, stderr)
		}
		code, _, stderr = runCLI(t, "params", "generate", "--circuit", tc.circuit, "--sector-size", "2KiB", "--seed", toxic, "--out", dir)
		if code != exitUsage {
			t.Fatalf("%s: without --reuse: exit %d: %s", tc.circuit, code, stderr)
		}
		wantOneLineError(t, stderr, "refusing to overwrite")
	}
	code, _, stderr := runCLI(t, "params", "generate", "--circuit", "seal", "--sector-size", "2KiB", "--out", t.TempDir())
	if code != exitUsage {
		t.Fatalf("--circuit seal: exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, `--circuit "seal": want porep, winning-post, window-post or update`)
}

// TestParamsGenerateOneAtATime: a second `params generate` of the same
// circuit into the same directory, while one runs, is refused (exit 2)
// before it writes anything; both would otherwise pass the overwrite check
// and report success, the last rename winning.
func TestParamsGenerateOneAtATime(t *testing.T) {
	dir := t.TempDir()
	tc, _, err := testCircuitFor(circuitWindowPoSt, "2KiB")
	if err != nil {
		t.Fatal(err)
	}
	release, held, err := lockFile(genLockPath(dir, tc)) // as the running generation holds it
	if err != nil || held {
		t.Fatalf("lock: held %v, %v", held, err)
	}
	code, _, stderr := runCLI(t, "params", "generate", "--circuit", "window-post", "--sector-size", "2KiB", "--out", dir)
	if code != exitUsage {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "another `cuseal params generate` is writing StackedDrgWindow2KiBV1_1's parameters there")
	release()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("left in --out: %v", ents)
	}
}
