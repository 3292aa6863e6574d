// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/cuseal/cuseal/testsupport/testenv"
)

// benchSynthJSON runs `cuseal bench synth ... --json` and decodes its output.
func benchSynthJSON(t *testing.T, args ...string) (synthResult, map[string]any) {
	t.Helper()
	args = append([]string{"--log-level", "warn", "bench", "synth", "--json"}, args...)
	code, out, stderr := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res synthResult
	var raw map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	return res, raw
}

// The 2 KiB shape: 40 public inputs including ONE (porep-circuit.md §1, the 2 KiB row of
// the sector table: 1 partition × 2 challenges).
const inputs2KiB = 40

func TestBenchSynthSynthetic2KiB(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "mem.prof")
	res, raw := benchSynthJSON(t, "--sector-size", "2KiB", "--synthetic", "--runs", "2", "--digests",
		"--cpuprofile", cpu, "--memprofile", mem)
	for _, k := range []string{"constraints", "aux", "inputs", "seconds", "constraints_per_second", "allocs",
		"peak_rss_bytes", "r1cs_digest", "witness_digest", "abc_digest", "density_digest",
		"workers", "partition_runs", "cold_seconds", "warm_seconds", "cold_minor_faults", "cores_used"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("--json lacks key %q", k)
		}
	}
	if res.Inputs != inputs2KiB || res.Partitions != 1 || res.Challenges != 2 || res.Runs != 2 {
		t.Fatalf("shape %+v", res)
	}
	if res.Constraints <= res.Inputs || res.Aux <= 0 {
		t.Fatalf("constraints %d aux %d", res.Constraints, res.Aux)
	}
	if !(res.SecondsMin <= res.Seconds && res.Seconds <= res.SecondsMax && res.SecondsMin > 0) {
		t.Fatalf("seconds min/median/max %v %v %v", res.SecondsMin, res.Seconds, res.SecondsMax)
	}
	if want := float64(res.Constraints) / res.Seconds; math.Abs(res.ConstraintsPerSecond-want) > 1e-6*want {
		t.Fatalf("constraints_per_second %v, want %v", res.ConstraintsPerSecond, want)
	}
	if res.PeakRSSBytes == 0 || res.AllocBytes == 0 {
		t.Fatalf("peak RSS %d, alloc bytes %d", res.PeakRSSBytes, res.AllocBytes)
	}
	// Two runs of one partition: the first cold, the second warm (reused storage).
	if len(res.PartitionRuns) != 2 || !res.PartitionRuns[0].Cold || res.PartitionRuns[1].Cold ||
		res.ColdSeconds != res.PartitionRuns[0].Seconds || res.WarmSeconds != res.PartitionRuns[1].Seconds || !res.Pool {
		t.Fatalf("partition runs %+v, cold %v, warm %v", res.PartitionRuns, res.ColdSeconds, res.WarmSeconds)
	}
	for _, p := range []string{cpu, mem} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("profile %s: %v", p, err)
		}
	}

	// The R1CS does not depend on the witness: a sealed sector's C1 gives the same digest,
	// and a different witness digest.
	if !testenv.Enabled(testenv.TierLong) {
		t.Log("unit tier: skipping the sealed-C1 digest comparison (two more R1CS recordings)")
		return
	}
	out := filepath.Join(dir, "sector")
	if code, _, stderr := runCLI(t, "--log-level", "warn", "seal", "--data", sampleData, "--out", out,
		"--ticket", testTicket, "--seed", testSeed); code != exitOK {
		t.Fatalf("seal: exit %d: %s", code, stderr)
	}
	// The sequential path (--workers 1, no pool) gives the parallel path's digests.
	seq, _ := benchSynthJSON(t, "--sector-size", "2KiB", "--synthetic", "--digests", "--workers", "1", "--no-pool")
	if seq.WitnessDigest != res.WitnessDigest || seq.ABCDigest != res.ABCDigest || seq.DensityDigest != res.DensityDigest || seq.Workers != 1 {
		t.Errorf("--workers 1 digests %+v differ from the default's %+v", seq, res)
	}
	real, _ := benchSynthJSON(t, "--c1", filepath.Join(out, FileC1), "--sector-size", "2KiB", "--digests")
	if real.R1CSDigest != res.R1CSDigest {
		t.Errorf("r1cs digest: sealed C1 %s, synthetic %s", real.R1CSDigest, res.R1CSDigest)
	}
	if real.WitnessDigest == res.WitnessDigest {
		t.Errorf("witness digests of different C1 data are equal: %s", real.WitnessDigest)
	}
	if real.Constraints != res.Constraints || real.Aux != res.Aux || real.Inputs != res.Inputs {
		t.Errorf("shape from sealed C1 %d/%d/%d, synthetic %d/%d/%d",
			real.Constraints, real.Aux, real.Inputs, res.Constraints, res.Aux, res.Inputs)
	}
}

func TestBenchSynthChallengesOverride(t *testing.T) {
	one, _ := benchSynthJSON(t, "--sector-size", "2KiB", "--synthetic", "--challenges", "1", "--workers", "4")
	if one.Workers != 1 {
		t.Errorf("--workers 4 with 1 challenge: reports %d workers, want 1 (one per challenge at most)", one.Workers)
	}
	if one.Challenges != 1 || one.Inputs != inputs2KiB-18 {
		// 18 public inputs per challenge (porep-circuit.md §2.4).
		t.Fatalf("1 challenge: %d challenges, %d inputs, want 1 and %d", one.Challenges, one.Inputs, inputs2KiB-18)
	}
}

func TestBenchSynthBadInput(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "c1.json")
	if err := os.WriteFile(garbage, []byte(`{"registered_proof": 5`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"neither source", []string{"--sector-size", "2KiB"}, "exactly one"},
		{"synthetic without size", []string{"--synthetic"}, "--sector-size"},
		{"bad size", []string{"--synthetic", "--sector-size", "3KiB"}, "not a Filecoin sector size"},
		{"too many partitions", []string{"--synthetic", "--sector-size", "2KiB", "--partitions", "2"}, "--partitions"},
		{"zero runs", []string{"--synthetic", "--sector-size", "2KiB", "--runs", "0"}, "--runs"},
		{"missing c1", []string{"--c1", filepath.Join(dir, "nope.json")}, "no such file"},
		{"corrupt c1", []string{"--c1", garbage}, "c1.json"},
		{"challenges with c1", []string{"--c1", garbage, "--challenges", "1"}, "--challenges"},
		{"zero challenges", []string{"--synthetic", "--sector-size", "2KiB", "--challenges", "0"}, "want 1..18"},
		{"19 challenges", []string{"--synthetic", "--sector-size", "2KiB", "--challenges", "19"}, "want 1..18"},
		{"huge challenges", []string{"--synthetic", "--sector-size", "2KiB", "--challenges", "1000000"}, "want 1..18"},
		{"negative workers", []string{"--synthetic", "--sector-size", "2KiB", "--workers", "-1"}, "--workers"},
		{"bad hugepages", []string{"--synthetic", "--sector-size", "2KiB", "--hugepages", "maybe"}, "--hugepages"},
		{"unwritable profile", []string{"--synthetic", "--sector-size", "2KiB", "--cpuprofile", filepath.Join(dir, "no", "cpu.prof")}, "--cpuprofile"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, append([]string{"bench", "synth"}, tc.args...)...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d: %s", code, exitUsage, stderr)
			}
			wantOneLineError(t, stderr, tc.want)
		})
	}
}

// TestBenchSynthUsageErrorKeepsProfiles: a flag rejected as bad usage is
// rejected before the profiles are started, so existing profile files are
// left as they were (not truncated to nothing).
func TestBenchSynthUsageErrorKeepsProfiles(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "mem.prof")
	for _, bad := range [][]string{{"--workers", "-1"}, {"--hugepages", "bogus"}, {"--runs", "0"}} {
		for _, p := range []string{cpu, mem} {
			if err := os.WriteFile(p, []byte("earlier profile"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		args := append([]string{"bench", "synth", "--synthetic", "--sector-size", "2KiB", "--cpuprofile", cpu, "--memprofile", mem}, bad...)
		code, _, stderr := runCLI(t, args...)
		if code != exitUsage {
			t.Fatalf("%v: exit %d, want %d: %s", bad, code, exitUsage, stderr)
		}
		wantOneLineError(t, stderr, bad[0])
		for _, p := range []string{cpu, mem} {
			if b, err := os.ReadFile(p); err != nil || string(b) != "earlier profile" {
				t.Errorf("%v: %s now holds %q (%v)", bad, filepath.Base(p), b, err)
			}
		}
	}
}

// TestSynthSummaryWarmOnlyReused: warm figures come only from partitions that
// reused storage; with --no-pool every partition is cold and there is no warm
// figure, however many partitions ran.
func TestSynthSummaryWarmOnlyReused(t *testing.T) {
	runs := func(cold ...bool) []partitionRun {
		var out []partitionRun
		for i, c := range cold {
			out = append(out, partitionRun{Partition: i, Seconds: float64(i + 1), CPUSeconds: float64(i + 1), MinorFaults: uint64(100 * (i + 1)), Cold: c})
		}
		return out
	}
	pooled := synthResult{PartitionRuns: runs(true, false, false)}
	pooled.summarizePartitions()
	if pooled.ColdSeconds != 1 || pooled.WarmSeconds != 2.5 || pooled.ColdMinorFaults != 100 || pooled.WarmMinorFaults != 250 || pooled.CoresUsed != 1 {
		t.Errorf("pooled: %+v", pooled)
	}
	fresh := synthResult{PartitionRuns: runs(true, true, true)}
	fresh.summarizePartitions()
	if fresh.ColdSeconds != 1 || fresh.WarmSeconds != 0 || fresh.WarmMinorFaults != 0 {
		t.Errorf("--no-pool: cold %v, warm %v (%d faults), want no warm figure", fresh.ColdSeconds, fresh.WarmSeconds, fresh.WarmMinorFaults)
	}
}
