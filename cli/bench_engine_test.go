// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/json"
	"testing"
)

// TestBenchEngine runs a small `bench engine --json` and checks that every
// figure the issue asks for is there and plausible.
func TestBenchEngine(t *testing.T) {
	code, out, stderr := runCLI(t, "--log-level", "warn", "bench", "engine", "--json", "--jobs", "3", "--partitions", "3",
		"--partition-time", "10ms", "--synthesis-time", "2ms", "--partition-bytes", "1048576", "--budget", "67108864")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var all map[string]any
	if err := json.Unmarshal([]byte(out), &all); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if all["critical_prover"] != "double:critical" {
		t.Errorf("critical_prover %v, want the kept double", all["critical_prover"])
	}
	r := map[string]float64{}
	for k, v := range all {
		if f, ok := v.(float64); ok {
			r[k] = f
		}
	}
	for _, k := range []string{"device_busy_fraction", "critical_latency_seconds", "critical_idle_seconds", "critical_ratio", "partition_device_seconds", "peak_rss_bytes", "budget_bytes"} {
		if _, ok := r[k]; !ok {
			t.Errorf("%s missing from %s", k, out)
		}
	}
	if f := r["device_busy_fraction"]; f <= 0 || f > 1 {
		t.Errorf("device_busy_fraction %v", f)
	}
	if r["critical_idle_seconds"] < 0.01 || r["critical_latency_seconds"] < 0.01 || r["partition_device_seconds"] != 0.01 {
		t.Errorf("latencies %v %v", r["critical_idle_seconds"], r["critical_latency_seconds"])
	}
	if r["budget_bytes"] != 64<<20 || r["peak_budget_used_bytes"] > 64<<20 || r["peak_budget_used_bytes"] == 0 || r["peak_rss_bytes"] == 0 {
		t.Errorf("budget figures %s", out)
	}
}

func TestBenchEngineUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--partition-bytes", "10", "--budget", "5"}, "--partition-bytes"},
		{[]string{"--backend", "cpu", "--repeat", "0"}, "--repeat"},
		{[]string{"--backend", "no-such"}, "--backend"},
		{[]string{"--critical-tasks", "-5"}, "--critical-tasks: only with --backend"},
		{[]string{"--backend", "cpu", "--critical-tasks", "1025"}, "--critical-tasks 1025: want 0"},
		{[]string{"--backend", "cpu", "--critical-tasks", "8", "--no-critical-prover"}, "no kept CPU prover"},
	} {
		code, _, stderr := runCLI(t, append([]string{"bench", "engine"}, tc.args...)...)
		if code != exitUsage {
			t.Fatalf("%v: exit %d", tc.args, code)
		}
		wantOneLineError(t, stderr, tc.want)
	}
}
