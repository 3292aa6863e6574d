// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import "testing"

// TestBenchEngineUsage: bad flags are usage errors before anything is
// sealed or loaded. (The scheduling workload on a simulated device is
// porep/engine's BenchmarkScheduling, checked by TestSchedulingFigures.)
func TestBenchEngineUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--backend", "cpu", "--repeat", "0"}, "--repeat"},
		{[]string{"--backend", "no-such"}, "--backend"},
		{[]string{"--critical-tasks", "-5"}, "--critical-tasks -5: want 0"},
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
