// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cgo

package main

// The version-2 calls from outside Go: testdata/kinds_test.c (C, linked
// against libcuseal.so or libcuseal.a) and testdata/kinds_ctypes.py
// (Python ctypes) read a manifest naming the reference vectors' files and
// check statuses and reference bytes themselves; the test compares the
// messages and challenges they print with the Go API's. In the unit tier
// they verify, aggregate and refuse bad input (the .vk files and the test
// SRS suffice); in the long tier they also prove each kind with the
// vectors' test parameters and r, s seed, byte for byte rust-fil-proofs'.

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/aggregate"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testpost"
)

// kindsParams returns the parameter directory the programs use: with long
// the vectors' test parameters (.params from their toxic seeds, cached
// under the test parameters' post/ and update/; the first run generates
// them) joined with the 2 KiB PoRep .vk and the SRS; otherwise the .vk
// files and the SRS only.
func kindsParams(t *testing.T, v *vectors, long bool) string {
	t.Helper()
	if !long {
		return vkDir(t, v)
	}
	dir := testpost.JoinParamsDirs(t, v.window.ParamsDir(t), v.winning.ParamsDir(t), v.update.ParamsDir(t))
	for _, src := range []string{filepath.Join(goldenDir, "2KiB-s10", porep2KiBVK), filepath.Join(goldenDir, "agg-srs", aggregate.SRSFileName)} {
		abs, err := filepath.Abs(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(abs, filepath.Join(dir, filepath.Base(src))); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// writeManifest writes the manifest kinds_test.c and kinds_ctypes.py read
// (its format is at the top of kinds_test.c) and returns its path.
func writeManifest(t *testing.T, v *vectors, params string, long bool) string {
	t.Helper()
	var b strings.Builder
	line := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	line("params %s", params)
	line("long %d", map[bool]int{false: 0, true: 1}[long])
	if v.window.RSSeed != v.winning.RSSeed || v.window.RSSeed != v.update.RSSeed {
		t.Fatal("the vectors' rs_seeds differ: the programs take one")
	}
	line("rs_seed %x", v.window.RSSeed[:])
	for _, pv := range []struct {
		name string
		v    *testpost.Vector
	}{{"window", v.window}, {"winning", v.winning}} {
		line("%s_proof %d", pv.name, pv.v.Proof)
		line("%s_miner %d", pv.name, pv.v.Miner)
		line("%s_randomness %x", pv.name, pv.v.Randomness)
		for _, f := range pv.v.VanillaFiles {
			line("%s_vanilla %s", pv.name, abs(f))
		}
		for i, s := range pv.v.Sectors {
			line("%s_sector %d %x", pv.name, s.SectorNumber, commR(t, pv.v, i))
		}
		line("%s_want %s", pv.name, abs(filepath.Join(pv.v.Dir, "proof.bin")))
	}
	u := v.update
	line("update_proof %d", u.Proof)
	line("update_comm_r_old %x", u.CommROld[:])
	line("update_comm_r_new %x", u.CommRNew[:])
	line("update_comm_d_new %x", u.CommDNew[:])
	line("update_vanilla %s", abs(u.VanillaFiles[0]))
	line("update_want %s", abs(filepath.Join(u.Dir, "proof.bin")))
	line("agg_proof %d", v.agg.Proof)
	line("agg_miner %d", v.agg.Miner)
	for _, s := range v.agg.Sectors {
		line("agg_sector %d %x %x %x %x %s", s.Number, s.CommR, s.CommD, s.Ticket, s.Seed, abs(s.ProofFile))
	}
	line("agg_want %s", abs(v.agg.File))
	path := filepath.Join(t.TempDir(), "manifest.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// kindsMessages are the messages the programs print for their bad inputs,
// as the Go API (or libcuseal, for what only C can get wrong) words them.
func kindsMessages(t *testing.T, v *vectors, params string) map[string]string {
	t.Helper()
	w, win, u := v.window, v.winning, v.update
	opts := []porep.Option{porep.WithParamsDir(params), porep.WithBackend(porep.BackendCPU)}
	want := map[string]string{
		"MSG_RANDOMNESS_31": "libcuseal: generate_winning_post_sector_challenge: randomness_len is 31, want 32 (the PoSt randomness)",
		"MSG_INVALID":       cmsg("verify_window_post", "porep: the proof is invalid"),
		"MSG_AGG_SWAPPED":   "libcuseal: aggregate_seal_proofs: the aggregate does not verify: a seal proof is not a valid proof of its sector's inputs",
		"MSG_NULL_ENTRY":    "libcuseal: generate_single_window_post_with_vanilla: vanilla_proofs[1].ptr is NULL with len 5680",
	}
	_, err := porep.GeneratePoStFallbackSectorChallenges(999, w.Miner, w.Randomness, []abi.SectorNumber{w.Sectors[0].SectorNumber})
	want["MSG_UNKNOWN_POST_PROOF"] = cmsg("generate_fallback_sector_challenges", goMsg(t, err))
	_, err = porep.VerifyWindowPoSt(proof.WindowPoStVerifyInfo{Randomness: w.Randomness, ChallengedSectors: w.Sectors, Prover: w.Miner,
		Proofs: []proof.PoStProof{{PoStProof: w.Proof, ProofBytes: w.Want[:191]}}}, opts...)
	want["MSG_WINDOW_TRUNCATED_PROOF"] = cmsg("verify_window_post", goMsg(t, err))
	a := v.agg
	infos := make([]proof.AggregateSealVerifyInfo, len(a.Sectors))
	for i, s := range a.Sectors {
		sealed, unsealed := aggCIDs(t, s)
		infos[i] = proof.AggregateSealVerifyInfo{Number: s.Number, Randomness: s.Ticket, InteractiveRandomness: s.Seed, SealedCID: sealed, UnsealedCID: unsealed}
	}
	_, err = porep.VerifyAggregateSeals(proof.AggregateSealVerifyProofAndInfos{Miner: a.Miner, SealProof: a.Proof,
		AggregateProof: abi.RegisteredAggregationProof_SnarkPackV2, Infos: infos, Proof: a.Want[:100]}, opts...)
	want["MSG_AGG_TRUNCATED"] = cmsg("verify_aggregate_seal_proof", goMsg(t, err))
	_, err = porep.GenerateWindowPoStWithVanilla(w.Proof, w.Miner, w.Randomness, [][]byte{w.Vanilla[0], w.Vanilla[1][:100]}, opts...)
	want["MSG_WINDOW_TRUNCATED_VANILLA"] = cmsg("generate_window_post_with_vanilla", goMsg(t, err))
	_, err = porep.GenerateWindowPoStWithVanilla(w.Proof, w.Miner, w.Randomness, [][]byte{w.Vanilla[1], w.Vanilla[0]}, opts...)
	want["MSG_WINDOW_OUT_OF_ORDER"] = cmsg("generate_window_post_with_vanilla", goMsg(t, err))
	_, err = porep.GenerateWinningPoStWithVanilla(win.Proof, win.Miner, win.Randomness, [][]byte{w.Vanilla[0]}, opts...)
	want["MSG_WINNING_WRONG_VANILLA"] = cmsg("generate_winning_post_with_vanilla", goMsg(t, err))
	_, err = porep.GenerateUpdateProofWithVanilla(u.Proof, u.OldSealed, u.NewSealed, u.NewUnseal, [][]byte{flip(u.Vanilla[0], 1000, 1)}, opts...)
	want["MSG_UPDATE_CORRUPTED"] = cmsg("generate_empty_sector_update_proof_with_vanilla", goMsg(t, err))
	_, err = porep.MergeWindowPoStPartitionProofs(w.Proof, []porep.PartitionProof{{PoStProof: w.Proof, ProofBytes: w.Want[:100]}})
	want["MSG_MERGE_SHORT"] = cmsg("merge_window_post_partition_proofs", goMsg(t, err))
	// The C ABI checks the length itself, naming its argument.
	want["MSG_PY_RANDOMNESS_SHORT"] = "libcuseal: generate_window_post_with_vanilla: randomness_len is 31, want 32 (the PoSt randomness)"

	ids := make([]abi.SectorNumber, len(w.Sectors))
	for i, s := range w.Sectors {
		ids[i] = s.SectorNumber
	}
	fc, err := porep.GeneratePoStFallbackSectorChallenges(w.Proof, w.Miner, w.Randomness, ids)
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, s := range fc.Sectors {
		var chs []string
		for _, c := range fc.Challenges[s] {
			chs = append(chs, strconv.FormatUint(c, 10))
		}
		parts = append(parts, fmt.Sprintf("%d:%s", s, strings.Join(chs, ",")))
	}
	want["CHALLENGES_WINDOW"] = strings.Join(parts, ";")
	idx, err := porep.GenerateWinningPoStSectorChallenge(win.Proof, win.Miner, win.Randomness, 1000)
	if err != nil {
		t.Fatal(err)
	}
	want["WINNING_INDEX_OF_1000"] = strconv.FormatUint(idx[0], 10)
	return want
}

// expectKinds checks a program's output: every key of keys printed with
// the Go API's value, and in the long tier the proofs equal to the
// vectors' proof.bin.
func expectKinds(t *testing.T, kv, want map[string]string, keys []string, v *vectors, long bool) {
	t.Helper()
	for _, k := range keys {
		got, ok := kv[k]
		if !ok {
			t.Errorf("%s: not printed", k)
		} else if got != want[k] {
			t.Errorf("%s:\n got %q\nwant %q (the Go API's)", k, got, want[k])
		}
	}
	if !long {
		return
	}
	for key, w := range map[string][]byte{"PROOF_WINDOW": v.window.Want, "PROOF_WINNING": v.winning.Want, "PROOF_UPDATE": v.update.Want} {
		got, err := hex.DecodeString(kv[key])
		if err != nil || !bytes.Equal(got, w) {
			t.Errorf("%s %s\nrust-fil-proofs %x", key, kv[key], w)
		}
	}
}

// cKindsKeys are the values kinds_test.c prints in every tier.
var cKindsKeys = []string{"CHALLENGES_WINDOW", "WINNING_INDEX_OF_1000", "MSG_RANDOMNESS_31", "MSG_UNKNOWN_POST_PROOF", "MSG_INVALID",
	"MSG_WINDOW_TRUNCATED_PROOF", "MSG_AGG_TRUNCATED", "MSG_AGG_SWAPPED", "MSG_WINDOW_TRUNCATED_VANILLA", "MSG_WINDOW_OUT_OF_ORDER",
	"MSG_NULL_ENTRY", "MSG_WINNING_WRONG_VANILLA", "MSG_UPDATE_CORRUPTED", "MSG_MERGE_SHORT"}

// compileKinds compiles testdata/kinds_test.c against lib (as compileC).
func compileKinds(t *testing.T, lib string) string {
	t.Helper()
	return compileProgram(t, lib, "kinds_test.c", filepath.Join("..", "include"))
}

// TestCKinds runs testdata/kinds_test.c against libcuseal.so: challenges,
// verification of the reference proofs and of tampered ones, aggregation
// (filecoin-proofs' bytes), bad input of every prover, cancellation before
// the work and concurrent verification; in the long tier also WindowPoSt
// and WinningPoSt proven at once from two threads, one partition and its
// merge, SnapDeals, each byte for byte rust-fil-proofs', and a SnapDeals
// proof cancelled from another thread.
func TestCKinds(t *testing.T) {
	v := loadVectors(t)
	lib := buildLib(t, "c-shared")
	exe := compileKinds(t, lib)
	long := testenv.Enabled(testenv.TierLong)
	params := kindsParams(t, v, long)
	start := time.Now()
	kv := parseKV(t, run(t, exe, writeManifest(t, v, params, long)))
	t.Logf("C program in %v", time.Since(start).Round(time.Millisecond))
	expectKinds(t, kv, kindsMessages(t, v, params), cKindsKeys, v, long)
	if long {
		if sec, err := strconv.ParseFloat(kv["CANCEL_SECONDS"], 64); err != nil || sec > 60 {
			t.Errorf("cancelled SnapDeals proof returned %s s after the trigger", kv["CANCEL_SECONDS"])
		}
	}
}

// pyKindsKeys are the values kinds_ctypes.py prints in every tier.
var pyKindsKeys = []string{"CHALLENGES_WINDOW", "WINNING_INDEX_OF_1000", "MSG_PY_RANDOMNESS_SHORT", "MSG_WINDOW_TRUNCATED_VANILLA", "MSG_UNKNOWN_POST_PROOF", "MSG_INVALID"}

// TestPythonKinds runs testdata/kinds_ctypes.py against libcuseal.so: the
// unit tier verifies each kind's reference proof and tampered copies,
// aggregates (filecoin-proofs' bytes) and refuses bad input; the long tier
// also proves WindowPoSt, WinningPoSt and SnapDeals from Python, byte for
// byte rust-fil-proofs'.
func TestPythonKinds(t *testing.T) {
	py := python(t, "for the ctypes test")
	v := loadVectors(t)
	lib := buildLib(t, "c-shared")
	long := testenv.Enabled(testenv.TierLong)
	params := kindsParams(t, v, long)
	var env []string
	if cudaBuild {
		env = []string{"LD_PRELOAD=" + lib} // see TestPythonCtypes
	}
	start := time.Now()
	kv := parseKV(t, runEnv(t, env, py, filepath.Join("testdata", "kinds_ctypes.py"), lib, writeManifest(t, v, params, long)))
	t.Logf("Python ctypes in %v", time.Since(start).Round(time.Millisecond))
	expectKinds(t, kv, kindsMessages(t, v, params), pyKindsKeys, v, long)
}

// TestPythonWindowPoStExample runs examples/window_post.py, the complete
// Python WindowPoSt of docs/c-abi.md (challenges, proof from the vanilla
// proofs, verification), on the window reference vector with its test
// parameters and r, s seed: its proof must be rust-fil-proofs' proof.bin.
func TestPythonWindowPoStExample(t *testing.T) {
	testenv.Long(t, "PoSt test parameters and a CPU proof")
	py := python(t, "for the example")
	v := loadVectors(t)
	lib := buildLib(t, "c-shared")
	params := v.window.ParamsDir(t)
	var env []string
	if cudaBuild {
		env = []string{"LD_PRELOAD=" + lib}
	}
	w := v.window
	args := []string{filepath.Join("..", "examples", "window_post.py"), "--lib", lib, "--params", params,
		"--proof-type", strconv.FormatInt(int64(w.Proof), 10), "--miner", strconv.FormatUint(uint64(w.Miner), 10),
		"--randomness", hex.EncodeToString(w.Randomness), "--test-only-randomness-seed", hex.EncodeToString(w.RSSeed[:])}
	for i := len(w.Sectors) - 1; i >= 0; i-- { // in reverse: the example sorts them
		args = append(args, "--sector", fmt.Sprintf("%d:%x:%s", w.Sectors[i].SectorNumber, commR(t, w, i), w.VanillaFiles[i]))
	}
	out := runEnv(t, env, py, args...)
	kv := parseKV(t, out)
	got, err := hex.DecodeString(kv["proof"])
	if err != nil || !bytes.Equal(got, v.window.Want) {
		t.Fatalf("example's proof %s\nrust-fil-proofs %x\noutput:\n%s", kv["proof"], v.window.Want, out)
	}
	if kv["verified"] != "true" {
		t.Errorf("example: verified=%q", kv["verified"])
	}
}
