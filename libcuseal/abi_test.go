// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cgo

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testparams"
	"github.com/cuseal/cuseal/testsupport/testsector"
)

// The tests here use libcuseal the way its callers do: they build it with
// `go build -buildmode=c-shared` (and c-archive), compile
// testdata/porep_test.c against include/cuseal_porep.h with the system C
// compiler, load it from Python with ctypes (testdata/porep_ctypes.py), and
// compare what those programs print with the Go API's results for the same
// 2 KiB sector and the same test-only randomness seed.

const (
	testMiner  = testsector.Miner
	testSector = testsector.Sector
)

var (
	testTicket = testsector.Ticket
	testSeed   = testsector.Seed
	// testRSSeed is the test-only blinding seed given to every prover here.
	testRSSeed = [32]byte{'l', 'i', 'b', 'c', 'u', 's', 'e', 'a', 'l'}
)

// tmpRoot holds what the tests build; TestMain removes it.
var tmpRoot string

func TestMain(m *testing.M) {
	code := m.Run()
	if tmpRoot != "" {
		os.RemoveAll(tmpRoot)
	}
	os.Exit(code)
}

var tmpOnce sync.Once

func testTmp(t *testing.T) string {
	tmpOnce.Do(func() {
		d, err := os.MkdirTemp("", "libcuseal-test-")
		if err != nil {
			panic(err)
		}
		tmpRoot = d
	})
	return tmpRoot
}

// tool returns the first of names found on PATH, or skips the test.
func tool(t *testing.T, why string, names ...string) string {
	t.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("none of %v on PATH (needed %s); CI must provide it (./build.sh deps)", names, why)
	}
	t.Skipf("none of %v on PATH (needed %s)", names, why)
	return ""
}

// subprocessLimit bounds each program a test runs (go build, the C
// programs, Python; the longest, a long-tier C2 proof from C, takes about
// a minute): one that hangs fails its test naming the command, instead of
// running into go test's -timeout, whose panic names only the test (a CI
// run once ended that way).
const subprocessLimit = 10 * time.Minute

// command is exec.Command killed after subprocessLimit; explain wraps the
// error of its Run/Output to say when that was why it failed.
func command(t *testing.T, name string, args ...string) (cmd *exec.Cmd, explain func(error) error) {
	limit := subprocessLimit
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	t.Cleanup(cancel)
	cmd = exec.CommandContext(ctx, name, args...)
	cmd.WaitDelay = 10 * time.Second
	return cmd, func(err error) error {
		if err != nil && ctx.Err() != nil {
			return fmt.Errorf("%w (killed: it ran past %v)", err, limit)
		}
		return err
	}
}

// python returns the Python 3 interpreter itself (sys.executable), or
// skips the test as tool does. python3 on PATH may be a wrapper script
// (pyenv's shim is bash): LD_PRELOAD of the cuda library would load the Go
// runtime into that shell, whose forks then hang now and then (a Go
// runtime does not survive fork; TestForkedChild) — a CI run timed out so.
func python(t *testing.T, why string) string {
	t.Helper()
	py := tool(t, why, "python3")
	out, err := exec.Command(py, "-c", "import sys; print(sys.executable)").Output()
	exe := strings.TrimSpace(string(out))
	if err != nil || exe == "" {
		t.Fatalf("%s -c 'import sys; print(sys.executable)': %v (%q)", py, err, out)
	}
	return exe
}

func run(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	return runEnv(t, nil, name, args...)
}

// runEnv is run with extra environment variables.
func runEnv(t *testing.T, env []string, name string, args ...string) []byte {
	t.Helper()
	cmd, explain := command(t, name, args...)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err = explain(err); err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), err, out, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Logf("%s stderr:\n%s", filepath.Base(name), stderr.String())
	}
	return out
}

var (
	libMu    sync.Mutex
	libBuilt = map[string]string{}
)

// buildLib builds libcuseal with -buildmode=mode (c-shared or c-archive)
// once per test binary and returns the library's path. With -tags cuda
// (cudaBuild) the library is built with the tag too.
func buildLib(t *testing.T, mode string) string {
	t.Helper()
	tool(t, "by cgo", "cc", "gcc")
	goBin := tool(t, "to build the library", "go")
	libMu.Lock()
	defer libMu.Unlock()
	if p, ok := libBuilt[mode]; ok {
		return p
	}
	name := map[string]string{"c-shared": "libcuseal.so", "c-archive": "libcuseal.a"}[mode]
	dir := filepath.Join(testTmp(t), mode)
	out := filepath.Join(dir, name)
	args := []string{"build", "-buildmode=" + mode, "-o", out}
	if cudaBuild {
		args = append(args, "-tags", "cuda")
	}
	args = append(args, ".")
	start := time.Now()
	cmd, explain := command(t, goBin, args...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	if b, err := cmd.CombinedOutput(); explain(err) != nil {
		err = explain(err)
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	t.Logf("built %s in %v", out, time.Since(start).Round(time.Millisecond))
	libBuilt[mode] = out
	return out
}

// TestHeaderCompiles compiles include/cuseal_porep.h (with include/cuseal_native.h:
// the two ABIs must not clash) as C99 and C++17 with -Wall -Wextra -Werror
// -pedantic.
func TestHeaderCompiles(t *testing.T) {
	src := `#include "cuseal_native.h"
#include "cuseal_porep.h"
/* The layouts the header documents (Python declares them field by field). */
typedef char cuseal_check_sector_info[sizeof(cuseal_porep_sector_info) == 40 ? 1 : -1];
typedef char cuseal_check_aggregation_input[sizeof(cuseal_porep_aggregation_input) == 136 ? 1 : -1];
typedef char cuseal_check_bytes[sizeof(cuseal_porep_bytes) == 2 * sizeof(size_t) ? 1 : -1];
int cuseal_header_check(void);
int cuseal_header_check(void) {
	cuseal_porep_options o;
	cuseal_porep_bytes b = {NULL, 0};
	cuseal_porep_sector_info si;
	cuseal_porep_aggregation_input ai;
	cuseal_porep_options_init(&o);
	o.log_level = CUSEAL_POREP_LOG_DEBUG;
	si.sector_number = 1;
	ai.sector_number = 2;
	return (int)o.struct_size + CUSEAL_POREP_ABI_VERSION + CUSEAL_POREP_ERR_CANCELLED + o.log_level + (int)b.len +
	       (int)si.sector_number + (int)ai.sector_number;
}
`
	dir := t.TempDir()
	for _, c := range []struct {
		lang, file string
		compilers  []string
		std        string
	}{
		{"C99", "h.c", []string{"cc", "gcc", "clang"}, "-std=c99"},
		{"C++17", "h.cpp", []string{"c++", "g++", "clang++"}, "-std=c++17"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			cc := tool(t, "to compile the header as "+c.lang, c.compilers...)
			f := filepath.Join(dir, c.file)
			if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			run(t, cc, c.std, "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only", "-I", filepath.Join("..", "include"), f)
		})
	}
}

// sealed2K is a sealed 2 KiB sector: its C1 output and commitments.
type sealed2K struct {
	c1Path       string
	c1           []byte
	commR, commD []byte
}

var (
	sealOnce sync.Once
	sealRes  *sealed2K
	sealErr  error
)

// seal2K seals one 2 KiB sector of fixed pseudo-random data with porep/seal
// (milliseconds) and writes its C1 output to a file.
func seal2K(t *testing.T) *sealed2K {
	t.Helper()
	sealOnce.Do(func() {
		sealRes, sealErr = doSeal2K(testTmp(t))
	})
	if sealErr != nil {
		t.Fatal(sealErr)
	}
	return sealRes
}

func doSeal2K(root string) (*sealed2K, error) {
	cfg, err := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	if err != nil {
		return nil, err
	}
	ts, err := testsector.Seal(cfg, 17)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, "sector")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	s := &sealed2K{c1Path: filepath.Join(dir, "c1.json"), c1: ts.C1}
	if s.commR, err = commcid.CIDToReplicaCommitmentV1(ts.CommR); err != nil {
		return nil, err
	}
	if s.commD, err = commcid.CIDToDataCommitmentV1(ts.CommD); err != nil {
		return nil, err
	}
	return s, os.WriteFile(s.c1Path, ts.C1, 0o644)
}

// paramsDir returns the 2 KiB test parameters: $CUSEAL_TEST_PARAMS_DIR as
// it is (what ./build.sh test fills), else generated once (or reused) into
// testparams.Dir with testparams.Seed, as the porep tests do.
func paramsDir(t *testing.T) string {
	t.Helper()
	if d, ok := testparams.Preset(); ok {
		return d
	}
	t.Logf("%s is unset: generating (or reusing) 2 KiB test parameters in %s", testparams.EnvDir, testparams.Dir())
	return testparams.Get2K(t)
}

var (
	refOnce  sync.Once
	refProof []byte
	refErr   error
)

// goProof is the Go API's proof of the sealed sector with testRSSeed: what
// the C and Python callers must get byte for byte.
func goProof(t *testing.T, s *sealed2K, dir string) []byte {
	t.Helper()
	refOnce.Do(func() {
		start := time.Now()
		refProof, refErr = porep.SealCommitPhase2(s.c1, testSector, testMiner, porep.WithParamsDir(dir),
			porep.WithBackend(porep.BackendCPU), porep.WithDeterministicRandomness(testRSSeed))
		t.Logf("Go API SealCommitPhase2 (reference) in %v", time.Since(start).Round(time.Millisecond))
	})
	if refErr != nil {
		t.Fatal(refErr)
	}
	return refProof
}

// programArgs are the arguments porep_test.c and porep_ctypes.py share.
func programArgs(s *sealed2K, params string) []string {
	return []string{s.c1Path, strconv.FormatUint(uint64(testSector), 10), strconv.FormatUint(uint64(testMiner), 10),
		hex.EncodeToString(testTicket), hex.EncodeToString(testSeed), hex.EncodeToString(s.commR), hex.EncodeToString(s.commD),
		params, hex.EncodeToString(testRSSeed[:])}
}

// parseKV reads the KEY=VALUE lines a test program printed; it must end with "OK".
func parseKV(t *testing.T, out []byte) map[string]string {
	t.Helper()
	kv, last := readKV(out)
	if last != "OK" {
		t.Fatalf("program output does not end with OK:\n%s", out)
	}
	return kv
}

// readKV reads the KEY=VALUE lines of out, and its last line.
func readKV(out []byte) (kv map[string]string, last string) {
	kv = map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		last = sc.Text()
		if k, v, ok := strings.Cut(last, "="); ok {
			kv[k] = v
		}
	}
	return kv, last
}

// goErr returns err's message, failing when there is no error.
func goErr(t *testing.T, what string, err error) string {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: Go API returned no error", what)
	}
	return err.Error()
}

// expectMessages checks that the programs' messages are the Go API's for the same input.
// short is the too-short proof the program passed to verify_seal.
func expectMessages(t *testing.T, kv map[string]string, s *sealed2K, params string, proofBytes, short []byte) {
	t.Helper()
	garbage := []byte(`{"registered_proof": `)
	_, err := porep.SealCommitPhase2(garbage, testSector, testMiner)
	want := map[string]string{"MSG_GARBAGE": cmsg("seal_commit_phase2", goErr(t, "garbage C1", err))}
	_, err = porep.SealCommitPhase2(s.c1, testSector+1, testMiner)
	want["MSG_WRONG_SECTOR"] = cmsg("seal_commit_phase2", goErr(t, "wrong sector", err))
	info := func(pf []byte) proof.SealVerifyInfo {
		sealed, _ := commcid.ReplicaCommitmentV1ToCID(s.commR)
		unsealed, _ := commcid.DataCommitmentV1ToCID(s.commD)
		return proof.SealVerifyInfo{SealProof: abi.RegisteredSealProof_StackedDrg2KiBV1_1,
			SectorID:   abi.SectorID{Miner: testMiner, Number: testSector},
			Randomness: testTicket, InteractiveRandomness: testSeed, Proof: pf, SealedCID: sealed, UnsealedCID: unsealed}
	}
	if _, ok := kv["MSG_SHORT_PROOF"]; ok {
		_, err = porep.VerifySeal(info(short), porep.WithParamsDir(params))
		want["MSG_SHORT_PROOF"] = cmsg("verify_seal", goErr(t, "short proof", err))
	}
	if _, ok := kv["MSG_UNDECODABLE"]; ok {
		bad := bytes.Clone(proofBytes)
		bad[0] ^= 0x80
		_, err = porep.VerifySeal(info(bad), porep.WithParamsDir(params))
		want["MSG_UNDECODABLE"] = cmsg("verify_seal", goErr(t, "undecodable proof", err))
	}
	if _, ok := kv["MSG_INVALID"]; ok {
		want["MSG_INVALID"] = cmsg("verify_seal", "porep: the proof is invalid")
	}
	for k, w := range want {
		if got, ok := kv[k]; !ok || got != w {
			t.Errorf("%s:\n got %q\nwant %q (the Go API's message)", k, got, w)
		}
	}
	checkInfo(t, kv["INFO"])
	if g, ok := kv["MSG_GEN_BAD_PROOF"]; ok && !strings.HasPrefix(g, "libcuseal: generate_test_params: registered_proof 999: ") {
		t.Errorf("MSG_GEN_BAD_PROOF = %q", g)
	}
}

// checkInfo checks the JSON cuseal_porep_info returned: this ABI version,
// and the CUDA backend exactly when the library was built with -tags cuda.
func checkInfo(t *testing.T, js string) {
	t.Helper()
	var info libInfo
	if err := json.Unmarshal([]byte(js), &info); err != nil {
		t.Fatalf("INFO %q: %v", js, err)
	}
	if info.ABIVersion != abiVersion || info.Version != version || info.CUDA != cudaBuild ||
		slices.Contains(info.Backends, porep.BackendCUDA) != cudaBuild || !slices.Contains(info.Backends, porep.BackendCPU) {
		t.Errorf("info = %+v (abi %d, version %s, cuda %v)", info, abiVersion, version, cudaBuild)
	}
	if b := info.Build; b.Version != version || b.GoVersion == "" || b.CUDA != cudaBuild || b.NativeVersion != info.NativeVersion {
		t.Errorf("info: build %+v, want version %s, cuda %v, the native version %q", b, version, cudaBuild, info.NativeVersion)
	}
	if cudaBuild && info.NativeVersion == "" {
		t.Errorf("info: a cuda build names no native library: %+v", info)
	}
}

// cShortProof is the proof porep_test.c passes to verify_seal as too short.
var cShortProof = []byte{1, 2, 3, 4, 5}

// compileC compiles testdata/porep_test.c against the header and lib.
func compileC(t *testing.T, lib string) string {
	t.Helper()
	return compileProgram(t, lib, "porep_test.c", filepath.Join("..", "include"))
}

// compileProgram compiles testdata/src against the header in include and
// lib (a .so: linked with an rpath; a .a: linked statically with the Go
// runtime's system libraries).
func compileProgram(t *testing.T, lib, src, include string) string {
	t.Helper()
	cc := tool(t, "to compile the C test program", "cc", "gcc", "clang")
	exe := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(src), ".c"))
	args := []string{"-std=c99", "-Wall", "-Wextra", "-Werror", "-O1", "-I", include,
		"-o", exe, filepath.Join("testdata", src)}
	if strings.HasSuffix(lib, ".so") {
		args = append(args, "-L", filepath.Dir(lib), "-lcuseal", "-Wl,-rpath,"+filepath.Dir(lib))
	} else {
		args = append(args, lib)
		if cudaBuild {
			args = append(args, "-L", filepath.Join("..", "build", "native"), "-lcuseal_native", "-lcuseal_cudart", "-lstdc++", "-lrt")
		}
	}
	args = append(args, "-pthread", "-lm", "-ldl")
	run(t, cc, args...)
	return exe
}

// TestCABI runs testdata/porep_test.c against libcuseal.so. In the unit tier it
// runs only the checks that need no parameters (version, info, bad input
// with the Go API's messages, pre-cancelled call); the full run proves the
// 2 KiB sector from C and checks that the proof equals the Go API's, that
// it verifies, that tampered proofs are rejected, that four concurrent
// verifications pass, and that a C2 cancelled from another thread returns
// CUSEAL_POREP_ERR_CANCELLED.
func TestCABI(t *testing.T) {
	lib := buildLib(t, "c-shared")
	exe := compileC(t, lib)
	s := seal2K(t)
	if !testenv.Enabled(testenv.TierLong) {
		kv := parseKV(t, run(t, exe, programArgs(s, "-")...))
		expectMessages(t, kv, s, "", nil, cShortProof)
		return
	}
	dir := paramsDir(t)
	want := goProof(t, s, dir)
	start := time.Now()
	kv := parseKV(t, run(t, exe, programArgs(s, dir)...))
	t.Logf("C program (cheap checks, C2, verifications, cancelled C2) in %v", time.Since(start).Round(time.Millisecond))
	got, err := hex.DecodeString(kv["PROOF"])
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("C proof %s\nGo proof %x", kv["PROOF"], want)
	}
	expectMessages(t, kv, s, dir, want, cShortProof)
	if sec, err := strconv.ParseFloat(kv["CANCEL_SECONDS"], 64); err != nil || sec > 60 {
		t.Errorf("cancelled C2 returned %s s after the trigger", kv["CANCEL_SECONDS"])
	}
}

// TestCArchive links the C test programs statically against libcuseal.a
// and runs their cheap checks (the full paths are TestCABI's and
// TestCKinds'). Long: building the archive compiles everything again (~40 s).
func TestCArchive(t *testing.T) {
	testenv.Long(t, "building libcuseal.a takes a second full compile")
	lib := buildLib(t, "c-archive")
	exe := compileC(t, lib)
	s := seal2K(t)
	kv := parseKV(t, run(t, exe, programArgs(s, "-")...))
	expectMessages(t, kv, s, "", nil, cShortProof)

	v := loadVectors(t)
	dir := vkDir(t, v)
	kv = parseKV(t, run(t, compileKinds(t, lib), writeManifest(t, v, dir, false)))
	expectKinds(t, kv, kindsMessages(t, v, dir), cKindsKeys, v, false)
}

// TestCABIVersion1Caller compiles the version 1 C test program
// (testdata/v1/porep_test.c, as it was before version 2) against the
// version 1 header (testdata/v1/cuseal_porep.h) and runs its cheap checks
// on this library: a caller built against version 1 — its calls, its
// options struct and struct_size — keeps working, except that it compared
// cuseal_porep_abi_version() with == (docs/c-abi.md, "Versions"): exactly
// its two version checks fail, and every message it prints is this
// library's.
func TestCABIVersion1Caller(t *testing.T) {
	lib := buildLib(t, "c-shared")
	exe := compileProgram(t, lib, filepath.Join("v1", "porep_test.c"), filepath.Join("testdata", "v1"))
	s := seal2K(t)
	cmd, explain := command(t, exe, programArgs(s, "-")...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	err = explain(err)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("version 1 program: %v (want exit status 1: its == version checks fail)\nstdout:\n%s\nstderr:\n%s", err, out, stderr.String())
	}
	var fails []string
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.HasPrefix(l, "FAIL ") {
			fails = append(fails, l)
		}
	}
	want := []string{
		fmt.Sprintf("FAIL testdata/v1/porep_test.c:127: abi version %d", abiVersion),
		fmt.Sprintf(`FAIL testdata/v1/porep_test.c:131: info json: {"abi_version":%d,`, abiVersion),
	}
	if len(fails) != len(want) || !strings.HasPrefix(fails[0], want[0]) || !strings.HasPrefix(fails[1], want[1]) {
		t.Fatalf("version 1 program's failed checks:\n%s\nwant exactly its two == version checks:\n%s", strings.Join(fails, "\n"), strings.Join(want, "\n"))
	}
	kv, _ := readKV(out)
	expectMessages(t, kv, s, "", nil, cShortProof)
}

// TestPythonCtypes runs testdata/porep_ctypes.py against libcuseal.so:
// in the unit tier the bad-input checks only; the full run proves the 2 KiB
// sector from Python and compares the proof with the Go API's, then
// verifies it and a tampered copy.
func TestPythonCtypes(t *testing.T) {
	py := python(t, "for the ctypes test")
	lib := buildLib(t, "c-shared")
	s := seal2K(t)
	script := filepath.Join("testdata", "porep_ctypes.py")
	// The cuda variant links the static CUDA runtime, whose 4 KiB
	// page-aligned TLS block glibc cannot place in a library dlopen'ed later
	// ("cannot allocate memory in static TLS block"): it must be loaded at
	// process start, so the script gets it through LD_PRELOAD (README).
	var env []string
	if cudaBuild {
		env = []string{"LD_PRELOAD=" + lib}
	}
	run := func(t *testing.T, name string, args ...string) []byte { return runEnv(t, env, name, args...) }
	if !testenv.Enabled(testenv.TierLong) {
		kv := parseKV(t, run(t, py, append([]string{script, lib}, programArgs(s, "-")...)...))
		expectMessages(t, kv, s, "", nil, nil)
		return
	}
	dir := paramsDir(t)
	want := goProof(t, s, dir)
	start := time.Now()
	kv := parseKV(t, run(t, py, append([]string{script, lib}, programArgs(s, dir)...)...))
	t.Logf("Python ctypes (C2, verifications) in %v", time.Since(start).Round(time.Millisecond))
	got, err := hex.DecodeString(kv["PROOF"])
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("Python proof %s\nGo proof %x", kv["PROOF"], want)
	}
	expectMessages(t, kv, s, dir, want, want[:100]) // the script cuts the proof to 100 bytes
}
