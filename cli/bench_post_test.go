// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/testsupport/testpost"
	"github.com/cuseal/cuseal/testsupport/testprover"
)

// vectorVanillaDir writes a reference vector's vanilla proofs as a
// vanilla-proof directory (what post vanilla writes for real sectors).
func vectorVanillaDir(t *testing.T, v *testpost.Vector) string {
	t.Helper()
	cfg, err := post.ConfigFor(v.Proof)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "vanilla")
	set := &postVanillaSet{cfg: &cfg, miner: v.Miner, randomness: v.Randomness, sectors: v.Sectors, vanilla: v.Vanilla}
	if err := writeVanillaDir(dir, set, false); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestBenchSynthPoStReference: bench synth of the reference vectors'
// vanilla proofs (read from a vanilla-proof directory) reports
// rust-fil-proofs' counts and all four digests, through the parallel
// path with reused storage and the sequential one with fresh storage.
func TestBenchSynthPoStReference(t *testing.T) {
	for _, tc := range []struct{ circuit, folder string }{
		{circuitWindowPoSt, "post-window-2KiB-s21"},
		{circuitWinningPoSt, "post-winning-2KiB-s22"},
	} {
		v := testpost.Load(t, tc.folder)
		dir := vectorVanillaDir(t, v)
		want := v.Partitions[0]
		for _, mode := range [][]string{{"--workers", "2", "--runs", "2"}, {"--workers", "1", "--no-pool"}} {
			res, _ := benchSynthJSON(t, append([]string{"--circuit", tc.circuit, "--vanilla", dir, "--digests"}, mode...)...)
			if res.Circuit != tc.circuit || res.Source != dir || res.Sectors != len(v.Vanilla) || res.Partitions != 1 {
				t.Errorf("%s %v: circuit %q, source %q, %d sectors, %d partitions", tc.folder, mode, res.Circuit, res.Source, res.Sectors, res.Partitions)
			}
			if res.Constraints != want.NumConstraints || res.Inputs != want.NumInputs || res.Aux != want.NumAux {
				t.Errorf("%s %v: %d constraints, %d inputs, %d aux; rust-fil-proofs %d, %d, %d", tc.folder, mode,
					res.Constraints, res.Inputs, res.Aux, want.NumConstraints, want.NumInputs, want.NumAux)
			}
			got := [4]string{res.R1CSDigest, res.WitnessDigest, res.ABCDigest, res.DensityDigest}
			if got != [4]string{want.R1CS, want.Witness, want.ABC, want.Density} {
				t.Errorf("%s %v: digests %v, rust-fil-proofs %v", tc.folder, mode, got, [4]string{want.R1CS, want.Witness, want.ABC, want.Density})
			}
		}
	}
}

// TestBenchVanillaSynth: bench vanilla writes a directory that reads back
// with the sectors and randomness it reported, bench synth takes it
// (three window sectors: two partitions) and --synthetic alike, with the
// reference circuit's shape.
func TestBenchVanillaSynth(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "v")
	code, out, stderr := runCLI(t, "bench", "vanilla", "--circuit", circuitWindowPoSt, "--sector-size", "2KiB", "--sectors", "3", "--seed", "5", "--out", dir, "--json")
	if code != exitOK {
		t.Fatalf("bench vanilla: exit %d: %s", code, stderr)
	}
	var vo benchVanillaOutput
	if err := json.Unmarshal([]byte(out), &vo); err != nil || vo.Sectors != 3 || vo.Partitions != 2 || vo.RegisteredProof != "StackedDrgWindow2KiBV1_1" {
		t.Fatalf("bench vanilla: %s (%v)", out, err)
	}
	set, err := readVanillaDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.vanilla) != 3 || !set.synthetic || set.miner != 1000 {
		t.Fatalf("read back %d proofs, synthetic %v, miner %d", len(set.vanilla), set.synthetic, set.miner)
	}
	if code, _, stderr := runCLI(t, "bench", "vanilla", "--circuit", circuitWindowPoSt, "--sector-size", "2KiB", "--out", dir); code != exitUsage {
		t.Fatalf("second bench vanilla into %s: exit %d, want %d: %s", dir, code, exitUsage, stderr)
	}
	ref := testpost.Load(t, "post-window-2KiB-s21").Partitions[0]
	res, _ := benchSynthJSON(t, "--circuit", circuitWindowPoSt, "--vanilla", dir, "--partitions", "2")
	if res.Partitions != 2 || res.Sectors != 3 || res.Constraints != ref.NumConstraints || res.Challenges != 20 {
		t.Errorf("--vanilla: %d partitions, %d sectors, %d constraints, %d challenges", res.Partitions, res.Sectors, res.Constraints, res.Challenges)
	}
	res, _ = benchSynthJSON(t, "--circuit", circuitWindowPoSt, "--synthetic", "--sector-size", "2KiB")
	if res.Source != "synthetic" || res.Sectors != 2 || res.Constraints != ref.NumConstraints {
		t.Errorf("--synthetic: source %q, %d sectors, %d constraints", res.Source, res.Sectors, res.Constraints)
	}
}

// TestBenchProvePoSt proves a reference vector's vanilla proofs with bench
// prove (each partition verified with the .vk inside; testprover.BackendAnyRS).
func TestBenchProvePoSt(t *testing.T) {
	v := testpost.Load(t, "post-window-2KiB-s21")
	code, out, stderr := runCLI(t, "--log-level", "warn", "bench", "prove", "--circuit", circuitWindowPoSt, "--vanilla", vectorVanillaDir(t, v),
		"--params-dir", v.ParamsDir(t), "--backend", testprover.BackendAnyRS(t), "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res proveResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Circuit != circuitWindowPoSt || res.Partitions != 1 || res.Backend != testprover.BackendAnyRS(t) || len(res.Timings) == 0 {
		t.Fatalf("%s (%v)", out, err)
	}
}

func TestBenchPoStBadInput(t *testing.T) {
	tmp := t.TempDir()
	window := filepath.Join(tmp, "window")
	if code, _, stderr := runCLI(t, "bench", "vanilla", "--circuit", circuitWindowPoSt, "--sector-size", "2KiB", "--out", window); code != exitOK {
		t.Fatalf("bench vanilla: %s", stderr)
	}
	truncated := filepath.Join(tmp, "truncated")
	if code, out, stderr := runCLI(t, "bench", "vanilla", "--circuit", circuitWindowPoSt, "--sector-size", "2KiB", "--out", truncated, "--json"); code != exitOK {
		t.Fatalf("bench vanilla: %s%s", out, stderr)
	}
	set, err := readVanillaDir(truncated)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(truncated, vanillaFileName(set.sectors[1].SectorNumber))
	if err := os.WriteFile(f, set.vanilla[1][:100], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"vanilla: unknown circuit", []string{"bench", "vanilla", "--circuit", "nope", "--sector-size", "2KiB", "--out", tmp}, `--circuit "nope"`},
		{"vanilla: porep sectors", []string{"bench", "vanilla", "--circuit", "porep", "--sector-size", "2KiB", "--sectors", "2", "--out", tmp}, "--sectors: not with --circuit porep"},
		{"vanilla: two winning sectors", []string{"bench", "vanilla", "--circuit", circuitWinningPoSt, "--sector-size", "2KiB", "--sectors", "2", "--out", tmp}, "exactly 1 sector"},
		{"vanilla: zero sectors", []string{"bench", "vanilla", "--circuit", circuitWindowPoSt, "--sector-size", "2KiB", "--sectors", "0", "--out", tmp}, "--sectors 0"},
		{"vanilla: bad size", []string{"bench", "vanilla", "--circuit", circuitWindowPoSt, "--sector-size", "3KiB", "--out", tmp}, "not a Filecoin sector size"},
		{"synth: unknown circuit", []string{"bench", "synth", "--circuit", "nope", "--synthetic", "--sector-size", "2KiB"}, "want porep, winning-post, window-post or update"},
		{"synth: both sources", []string{"bench", "synth", "--circuit", circuitWindowPoSt, "--synthetic", "--sector-size", "2KiB", "--vanilla", window}, "exactly one of --vanilla DIR and --synthetic"},
		{"synth: c1 for post", []string{"bench", "synth", "--circuit", circuitWindowPoSt, "--c1", "x.json"}, "--c1: only with --circuit porep"},
		{"synth: vanilla for porep", []string{"bench", "synth", "--vanilla", window}, "--vanilla and --sectors: only with"},
		{"synth: no vanilla.json", []string{"bench", "synth", "--circuit", circuitWindowPoSt, "--vanilla", tmp}, "no vanilla.json"},
		{"synth: wrong kind", []string{"bench", "synth", "--circuit", circuitWinningPoSt, "--vanilla", window}, "--circuit winning-post wants WinningPoSt"},
		{"synth: wrong size", []string{"bench", "synth", "--circuit", circuitWindowPoSt, "--vanilla", window, "--sector-size", "8MiB"}, "holds 2KiB sectors"},
		{"synth: truncated vanilla", []string{"bench", "synth", "--circuit", circuitWindowPoSt, "--vanilla", truncated}, "sector_proofs[0].inclusion_proofs[0]"},
		{"synth: too many partitions", []string{"bench", "synth", "--circuit", circuitWindowPoSt, "--vanilla", window, "--partitions", "2"}, "--partitions 2: must be between 1 and 1"},
		{"synth: sectors with vanilla", []string{"bench", "synth", "--circuit", circuitWindowPoSt, "--vanilla", window, "--sectors", "3"}, "--sectors: only with --synthetic"},
		{"prove: no c1", []string{"bench", "prove"}, "--circuit porep needs --c1 FILE"},
		{"prove: sectors for porep", []string{"bench", "prove", "--c1", "x.json", "--sectors", "2"}, "--sectors: only with"},
		{"prove: in flight for post", []string{"bench", "prove", "--circuit", circuitWindowPoSt, "--vanilla", window, "--partitions-in-flight", "2"}, "--partitions-in-flight: only with --circuit porep"},
		{"prove: no params", []string{"bench", "prove", "--circuit", circuitWindowPoSt, "--vanilla", window, "--params-dir", tmp}, "cuseal params generate --circuit window-post"},
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
