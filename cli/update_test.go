// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/porep/update"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testprover"
	"github.com/cuseal/cuseal/testsupport/testupdate"
)

// TestUpdateProveBadInput: defective inputs of update prove and verify exit
// 2 with a one-line error naming what is wrong, and write nothing. The
// parameter files only need to exist: every defect is found before they
// are read.
func TestUpdateProveBadInput(t *testing.T) {
	v := testupdate.Load(t)
	cfg, err := update.ConfigFor(v.Proof)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	params := filepath.Join(dir, "params")
	if err := os.Mkdir(params, 0o755); err != nil {
		t.Fatal(err)
	}
	pp, vp, _ := cfg.ParameterPaths(params)
	for _, p := range []string{pp, vp} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	truncated := filepath.Join(dir, "truncated.bin")
	if err := os.WriteFile(truncated, v.Vanilla[0][:1000], 0o644); err != nil {
		t.Fatal(err)
	}
	proofFile := filepath.Join(dir, "proof.bin")
	if err := os.WriteFile(proofFile, v.Want[:100], 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.proof")
	args := func(cmd string, comms [3]string, extra ...string) []string {
		return append([]string{"update", cmd, "--sector-size", "2KiB", "--comm-r-old", comms[0], "--comm-r-new", comms[1],
			"--comm-d-new", comms[2], "--params-dir", params}, extra...)
	}
	good := [3]string{v.OldSealed.String(), v.NewSealed.String(), v.NewUnseal.String()}
	prove := func(comms [3]string, vanilla ...string) []string {
		a := args("prove", comms, "--out", out, "--backend", "cpu")
		for _, f := range vanilla {
			a = append(a, "--vanilla", f)
		}
		return a
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unsealed CID as comm_r_old", prove([3]string{v.NewUnseal.String(), good[1], good[2]}, v.VanillaFiles...), "--comm-r-old " + v.NewUnseal.String() + ": unexpected commitment codec: an unsealed CID (comm_d), want a sealed CID"},
		{"sealed CID as comm_d_new", prove([3]string{good[0], good[1], v.NewSealed.String()}, v.VanillaFiles...), "a sealed CID (comm_r), want an unsealed CID"},
		{"commitments of another update", prove([3]string{good[0], good[1], v.OldUnsealed.String()}, v.VanillaFiles...), "vanilla proof: partition 0 challenge 0"},
		{"truncated vanilla", prove(good, truncated), "vanilla proof of partition 0 (1000 bytes, StackedDrg2KiBV1 wants 15064)"},
		{"two partitions", prove(good, v.VanillaFiles[0], v.VanillaFiles[0]), "--vanilla: StackedDrg2KiBV1 has 1 partition; got 2 files"},
		{"partitions missing", append(prove(good, v.VanillaFiles...), "--sector-size", "8MiB"), "--vanilla: StackedDrg8MiBV1 has 4 partitions; got 1 file"},
		{"no vanilla", prove(good), "--vanilla: no vanilla partition proofs"},
		{"vanilla dir without partition-0.bin", prove(good, dir), "partition-0.bin"},
		{"size and type disagree", append(prove(good, v.VanillaFiles...), "--proof-type", "1"), "--sector-size 2KiB does not match --proof-type 1"},
		{"unknown proof type", append(args("prove", good, "--vanilla", v.VanillaFiles[0]), "--sector-size", "", "--proof-type", "7"), "--proof-type \"7\""},
		{"missing params", append(prove(good, v.VanillaFiles...), "--params-dir", dir), "cuseal params generate --circuit update --sector-size 2KiB"},
		{"short proof", args("verify", good, "--proof", proofFile), "--proof " + proofFile + ": 100 bytes"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want %d: %s", tc.name, code, exitUsage, stderr)
			continue
		}
		wantOneLineError(t, stderr, tc.want)
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Fatalf("%s: --out %s written", tc.name, out)
		}
	}
}

// TestUpdateProveReference: `update prove` of the 2 KiB reference vector's
// partition proofs (testprover.BackendAnyRS: the reference double in the
// unit tier, the CPU in the long tier) writes a 192-byte proof that
// `update verify` accepts, and rejects with another comm_d_new (exit 1).
func TestUpdateProveReference(t *testing.T) {
	v := testupdate.Load(t)
	var vanilla []string
	for _, f := range v.VanillaFiles {
		vanilla = append(vanilla, "--vanilla", f)
	}
	other := v.CommDNew
	other[0] ^= 1
	updateProveVerify(t, v.ParamsDir(t), testprover.BackendAnyRS(t), vanilla,
		[3]string{v.OldSealed.String(), v.NewSealed.String(), v.NewUnseal.String()}, hex.EncodeToString(other[:]))
}

// updateProveVerify runs `update prove` (--backend backend, the vanilla
// flags, comms: comm_r_old, comm_r_new, comm_d_new) into a new file, checks
// the 192 bytes and the JSON, then `update verify`: valid with comms, exit 1
// with otherCommDNew.
func updateProveVerify(t *testing.T, params, backend string, vanilla []string, comms [3]string, otherCommDNew string) {
	t.Helper()
	flags := func(commDNew string) []string {
		return []string{"--comm-r-old", comms[0], "--comm-r-new", comms[1], "--comm-d-new", commDNew}
	}
	pf := filepath.Join(t.TempDir(), "update.proof")
	args := append(append([]string{"update", "prove", "--proof-type", "StackedDrg2KiBV1", "--params-dir", params, "--backend", backend,
		"--out", pf, "--json"}, vanilla...), flags(comms[2])...)
	code, stdout, stderr := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("update prove: exit %d: %s", code, stderr)
	}
	var res updateOutput
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if b, err := os.ReadFile(pf); err != nil || len(b) != 192 || res.Partitions != 1 || res.UpdateProof != "StackedDrg2KiBV1" {
		t.Fatalf("update prove wrote %d bytes (%v), printed %+v", len(b), err, res)
	}
	verify := func(commDNew string) (int, string, string) {
		return runCLI(t, append([]string{"update", "verify", "--sector-size", "2KiB", "--proof", pf, "--params-dir", params}, flags(commDNew)...)...)
	}
	if code, stdout, stderr := verify(comms[2]); code != exitOK || !strings.HasPrefix(stdout, "valid: StackedDrg2KiBV1 proof") {
		t.Fatalf("update verify: exit %d: %s%s", code, stdout, stderr)
	}
	if code, _, stderr := verify(otherCommDNew); code != exitInvalidProof {
		t.Fatalf("update verify with another comm_d_new: exit %d, want %d: %s", code, exitInvalidProof, stderr)
	}
}

// TestUpdateProveVerifyE2E is SnapDeals end to end through the CLI with no
// Rust stack: `seal` a CC 2 KiB sector, `update encode` new data into it,
// `update vanilla`, `update prove` (test parameters of the reference
// vector's toxic seed) and `update verify` (valid; another comm_d_new:
// invalid, exit 1). Long: a CPU proof of 1.7 M constraints of a sector
// that is no reference vector (TestUpdateProveReference is the unit tier's).
func TestUpdateProveVerifyE2E(t *testing.T) {
	testenv.Long(t, "a CPU proof (1.7 M constraints) of a sector the test sealer updated")
	v := testupdate.Load(t)
	params := v.ParamsDir(t)
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.dat")
	if err := os.WriteFile(zero, make([]byte, 2032), 0o644); err != nil {
		t.Fatal(err)
	}
	key, upd, van := filepath.Join(dir, "key"), filepath.Join(dir, "updated"), filepath.Join(dir, "vanilla")
	if code, _, stderr := runCLI(t, "seal", "--data", zero, "--out", key, "--miner", "t01000", "--sector", "77", "--ticket", testTicket, "--seed", testSeed); code != exitOK {
		t.Fatalf("seal: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := runCLI(t, "update", "encode", "--sector-key", key, "--data", sampleData, "--out", upd, "--json")
	if code != exitOK {
		t.Fatalf("update encode: exit %d: %s", code, stderr)
	}
	var enc updateEncodeOutput
	if err := json.Unmarshal([]byte(stdout), &enc); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	comms := []string{"--comm-r-old", enc.CommROld, "--comm-r-new", enc.CommRNew, "--comm-d-new", enc.CommDNew}
	if code, _, stderr := runCLI(t, append([]string{"update", "vanilla", "--sector-key", key, "--updated", upd, "--out", van}, comms...)...); code != exitOK {
		t.Fatalf("update vanilla: exit %d: %s", code, stderr)
	}
	updateProveVerify(t, params, "cpu", []string{"--vanilla", van}, [3]string{enc.CommROld, enc.CommRNew, enc.CommDNew}, v.NewUnseal.String())
}

// TestBenchSynthUpdateDigests: bench synth --circuit update on the
// reference vector's vanilla partition proof gives rust-fil-proofs'
// counts and its R1CS, witness, a/b/c and density digests, with the
// challenges synthesized in parallel into reused storage; missing
// commitments are exit 2.
func TestBenchSynthUpdateDigests(t *testing.T) {
	v := testupdate.Load(t)
	args := []string{"bench", "synth", "--circuit", "update", "--vanilla", filepath.Join(v.Dir, "vanilla"), "--comm-r-old", v.OldSealed.String(),
		"--comm-r-new", v.NewSealed.String(), "--comm-d-new", v.NewUnseal.String(), "--workers", "2", "--runs", "2", "--digests", "--json"}
	code, stdout, stderr := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res synthResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	want := v.Partitions[0]
	if res.RegisteredProof != "StackedDrg2KiBV1" || res.Constraints != want.NumConstraints || res.Aux != want.NumAux || res.Inputs != want.NumInputs {
		t.Errorf("%s: %d constraints, %d aux, %d inputs; rust-fil-proofs %+v", res.RegisteredProof, res.Constraints, res.Aux, res.Inputs, want)
	}
	for _, d := range []struct{ name, got, want string }{
		{"r1cs", res.R1CSDigest, want.R1CS}, {"witness", res.WitnessDigest, want.Witness}, {"abc", res.ABCDigest, want.ABC}, {"density", res.DensityDigest, want.Density},
	} {
		if d.got != d.want {
			t.Errorf("%s digest %s, rust-fil-proofs %s", d.name, d.got, d.want)
		}
	}
	code, _, stderr = runCLI(t, args[:6]...)
	if code != exitUsage {
		t.Fatalf("without --comm-r-new/--comm-d-new: exit %d: %s", code, stderr)
	}
	wantOneLineError(t, stderr, "--comm-r-old, --comm-r-new and --comm-d-new")
}

// TestBenchVanillaUpdate: bench vanilla --circuit update writes a
// synthetic sector's partition proofs and commitments.json, which bench
// synth --vanilla reads back; bench synth --synthetic synthesizes the same
// circuit shape in memory (rust-fil-proofs' counts at 2 KiB); --partition
// writes that partition only.
func TestBenchVanillaUpdate(t *testing.T) {
	v := testupdate.Load(t)
	dir := filepath.Join(t.TempDir(), "v")
	if code, out, stderr := runCLI(t, "bench", "vanilla", "--circuit", "update", "--sector-size", "2KiB", "--seed", "3", "--out", dir, "--json"); code != exitOK {
		t.Fatalf("bench vanilla: exit %d: %s%s", code, out, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, updateCommitmentsFile))
	if err != nil {
		t.Fatal(err)
	}
	var comms updateCommitmentsJSON
	if err := json.Unmarshal(b, &comms); err != nil || comms.UpdateProof != "StackedDrg2KiBV1" || comms.Seed != 3 || len(comms.Partitions) != 1 || !comms.Synthetic {
		t.Fatalf("%s: %+v, %v", updateCommitmentsFile, comms, err)
	}
	want := v.Partitions[0]
	for name, args := range map[string][]string{
		"vanilla":   {"--vanilla", dir, "--comm-r-old", comms.CommROld, "--comm-r-new", comms.NewSealed, "--comm-d-new", comms.Unsealed},
		"synthetic": {"--synthetic", "--sector-size", "2KiB"},
	} {
		code, stdout, stderr := runCLI(t, append([]string{"bench", "synth", "--circuit", "update", "--runs", "1", "--json"}, args...)...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", name, code, stderr)
		}
		var res synthResult
		if err := json.Unmarshal([]byte(stdout), &res); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, stdout)
		}
		if res.Constraints != want.NumConstraints || res.Aux != want.NumAux || res.Inputs != want.NumInputs {
			t.Errorf("%s: %d constraints, %d aux, %d inputs; rust-fil-proofs %+v", name, res.Constraints, res.Aux, res.Inputs, want)
		}
	}
	one := filepath.Join(t.TempDir(), "one")
	if code, out, stderr := runCLI(t, "bench", "vanilla", "--circuit", "update", "--sector-size", "8MiB", "--partition", "2", "--out", one); code != exitOK {
		t.Fatalf("bench vanilla --partition 2: exit %d: %s%s", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(one, partitionProofFile(2))); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(one, partitionProofFile(0))); err == nil {
		t.Error("--partition 2 wrote partition-0.bin")
	}
	if code, _, stderr := runCLI(t, "bench", "vanilla", "--circuit", "update", "--sector-size", "8MiB", "--out", one); code != exitUsage {
		t.Errorf("over an existing commitments.json without --force: exit %d: %s", code, stderr)
	}
}

// TestBenchUpdateBadInput: bench synth and bench prove --circuit update
// refuse inputs they cannot use (exit 2, one line) before any work.
func TestBenchUpdateBadInput(t *testing.T) {
	v := testupdate.Load(t)
	van := filepath.Join(v.Dir, "vanilla")
	comms := []string{"--comm-r-old", v.OldSealed.String(), "--comm-r-new", v.NewSealed.String(), "--comm-d-new", v.NewUnseal.String()}
	empty := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"synthetic without size", []string{"bench", "synth", "--circuit", "update", "--synthetic"}, "--synthetic needs --sector-size"},
		{"synthetic and vanilla", append([]string{"bench", "synth", "--circuit", "update", "--synthetic", "--sector-size", "2KiB", "--vanilla", van}, comms...), "exactly one of --synthetic"},
		{"synthetic with commitments", append([]string{"bench", "synth", "--circuit", "update", "--synthetic", "--sector-size", "2KiB"}, comms...), "--comm-r-old: not with --synthetic"},
		{"vanilla: sectors", []string{"bench", "vanilla", "--circuit", "update", "--sector-size", "2KiB", "--sectors", "2", "--out", empty}, "--sectors: not with --circuit update"},
		{"vanilla: partition out of range", []string{"bench", "vanilla", "--circuit", "update", "--sector-size", "8MiB", "--partition", "4", "--out", empty}, "--partition 4: StackedDrg8MiBV1 has partitions 0 to 3"},
		{"vanilla: partition for post", []string{"bench", "vanilla", "--circuit", circuitWindowPoSt, "--sector-size", "2KiB", "--partition", "0", "--out", empty}, "--partition: only with --circuit update"},
		{"c1", append([]string{"bench", "synth", "--circuit", "update", "--vanilla", van, "--c1", "x.json"}, comms...), "--c1: not with --circuit update"},
		{"other size", append([]string{"bench", "synth", "--circuit", "update", "--vanilla", van, "--sector-size", "8MiB"}, comms...), "--sector-size 8MiB does not match"},
		{"not a vanilla dir", append([]string{"bench", "synth", "--circuit", "update", "--vanilla", empty}, comms...), "partition-0.bin"},
		{"other commitments", []string{"bench", "synth", "--circuit", "update", "--vanilla", van, "--comm-r-old", v.NewSealed.String(),
			"--comm-r-new", v.OldSealed.String(), "--comm-d-new", v.NewUnseal.String()}, "comm_r_old"},
		{"prove without params", append([]string{"bench", "prove", "--circuit", "update", "--vanilla", van, "--params-dir", empty}, comms...), "cuseal params generate --circuit update"},
		{"prove without commitments", []string{"bench", "prove", "--circuit", "update", "--vanilla", van}, "--comm-r-old, --comm-r-new and --comm-d-new"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want %d: %s", tc.name, code, exitUsage, stderr)
			continue
		}
		wantOneLineError(t, stderr, tc.want)
	}
}

// TestParamsGenerateUpdate: --circuit update from the reference vector's
// toxic seed writes, under the official file names, a .vk byte-identical
// to the one rust-fil-proofs made (porep/update/testdata), stamped as
// test parameters that params info names; --reuse reuses them. Long tier
// (a setup of 1.7 M constraints writing a 656 MB .params).
func TestParamsGenerateUpdate(t *testing.T) {
	testenv.Long(t, "the 2 KiB update setup")
	v := testupdate.Load(t)
	toxic := hex.EncodeToString(v.ToxicSeed[:])
	cfg, err := update.ConfigFor(v.Proof)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pp, vp, _ := cfg.ParameterPaths(dir)
	code, stdout, stderr := runCLI(t, "params", "generate", "--circuit", "update", "--sector-size", "2KiB", "--seed", toxic, "--out", dir, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out paramsGenerateOutput
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || out.RegisteredProof != cfg.Name || out.Params != pp || out.VK != vp {
		t.Fatalf("%+v, %v", out, err)
	}
	if filepath.Base(vp) != filepath.Base(v.VKFile) {
		t.Fatalf(".vk named %s, rust-fil-proofs' is %s", filepath.Base(vp), filepath.Base(v.VKFile))
	}
	want, err := os.ReadFile(v.VKFile)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(vp); err != nil || !bytes.Equal(got, want) {
		t.Fatalf(".vk differs from rust-fil-proofs' (%v)", err)
	}
	code, stdout, stderr = runCLI(t, "params", "info", "--json", pp)
	var info paramsFileInfo
	if code != exitOK || json.Unmarshal([]byte(stdout), &info) != nil {
		t.Fatalf("params info: exit %d: %s%s", code, stdout, stderr)
	}
	if want := "SnapDeals update (StackedDrg2KiBV1), 2KiB sectors"; info.Status != "test" || info.Circuit != want {
		t.Errorf("params info: status %q, circuit %q; want test, %q", info.Status, info.Circuit, want)
	}
	code, stdout, stderr = runCLI(t, "params", "generate", "--circuit", "update", "--sector-size", "2KiB", "--seed", toxic, "--out", dir, "--reuse")
	if code != exitOK || !strings.Contains(stdout, "reused TEST parameters for "+cfg.Name) {
		t.Fatalf("--reuse: exit %d: %s %s", code, stdout, stderr)
	}
}
