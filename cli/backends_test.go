// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/bridge/supraseal"
	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testparams"
)

// parseBackendFlags runs backendList on a minimal app with bench prove's two backend flags.
func parseBackendFlags(t *testing.T, args ...string) ([]string, error) {
	t.Helper()
	t.Setenv("BELLMAN_NO_GPU", "0")
	var got []string
	var gotErr error
	app := &cli.App{
		Flags:  []cli.Flag{&cli.StringFlag{Name: "backend", Value: porep.BackendAuto}, noGPUFlag()},
		Action: func(c *cli.Context) error { got, gotErr = backendList(c); return nil },
	}
	if err := app.Run(append([]string{"x"}, args...)); err != nil {
		t.Fatal(err)
	}
	return got, gotErr
}

func TestBackendList(t *testing.T) {
	supra := slices.Contains(porep.Backends(), porep.BackendSupraSeal)
	if supra != supraseal.Built {
		t.Errorf("supraseal registered with porep: %v, compiled in: %v", supra, supraseal.Built)
	}
	ok := []struct {
		args []string
		want []string
	}{
		{nil, []string{"auto"}},
		{[]string{"--backend", "cpu"}, []string{"cpu"}},
		{[]string{"--backend", "auto, cpu"}, []string{"auto", "cpu"}},
		{[]string{"--no-gpu", "--backend", "auto"}, []string{"cpu"}},
	}
	if cudaBuild {
		ok = append(ok, struct {
			args []string
			want []string
		}{[]string{"--backend", "cpu,cuda"}, []string{"cpu", "cuda"}})
	}
	if supra {
		ok = append(ok, struct {
			args []string
			want []string
		}{[]string{"--backend", "supraseal,cpu"}, []string{"supraseal", "cpu"}})
	}
	for _, tc := range ok {
		got, err := parseBackendFlags(t, tc.args...)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %v, %v; want %v", tc.args, got, err, tc.want)
		}
	}
	bad := []struct {
		args []string
		want string
	}{
		{[]string{"--backend", "gpu"}, `--backend "gpu": want auto, cpu, cuda or supraseal`},
		{[]string{"--backend", "cpu,"}, `--backend "": want auto`},
		{[]string{"--backend", "cpu,cpu"}, "cpu listed twice"},
		{[]string{"--no-gpu", "--backend", "auto,cpu"}, "cpu listed twice"},
		{[]string{"--no-gpu", "--backend", "supraseal"}, "--backend supraseal contradicts --no-gpu"},
		{[]string{"--no-gpu", "--backend", "cpu,cuda"}, "--backend cuda contradicts --no-gpu"},
	}
	if !supra {
		bad = append(bad, struct {
			args []string
			want string
		}{[]string{"--backend", "cpu,supraseal"}, "built without the supraseal backend; use bin/cuseal-supraseal"})
	}
	if !cudaBuild {
		bad = append(bad, struct {
			args []string
			want string
		}{[]string{"--backend", "cuda"}, "built without CUDA (pure Go)"})
	}
	for _, tc := range bad {
		_, err := parseBackendFlags(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.args, err, tc.want)
			continue
		}
		if code := exitCode(err, &strings.Builder{}); code != exitUsage {
			t.Errorf("%q: exit %d, want %d", tc.args, code, exitUsage)
		}
	}
}

// TestBenchProveCompare2KiB runs `bench prove` with two backends on one 2 KiB C1: "auto,cpu"
// (both the CPU without a GPU), and "cpu,supraseal" / "cpu,cuda" where those are compiled in
// and a device exists; the proofs (same fixed r, s) must be byte-identical.
func TestBenchProveCompare2KiB(t *testing.T) {
	testenv.Long(t, "proves a 2 KiB sector (2.7M constraints) once per backend")
	params := testparams.Dir()
	if code, _, stderr := runCLI(t, "--log-level", "warn", "params", "generate", "--sector-size", "2KiB", "--seed", testparams.SeedHex, "--out", params, "--reuse"); code != exitOK {
		t.Fatalf("params generate: exit %d: %s", code, stderr)
	}
	c1 := sealedSample(t) + "/c1.json"
	lists := []string{"auto,cpu"}
	if slices.Contains(porep.Backends(), porep.BackendSupraSeal) && supraseal.DeviceCount() > 0 {
		lists = append(lists, "cpu,supraseal")
		if cudaBuild {
			lists = append(lists, "cuda,supraseal")
		}
	} else {
		t.Logf("supraseal not compared: compiled in %v, devices %d", supraseal.Built, supraseal.DeviceCount())
	}
	for _, list := range lists {
		code, out, stderr := runCLI(t, "--log-level", "warn", "bench", "prove", "--c1", c1, "--params-dir", params,
			"--sector", "7", "--backend", list, "--json")
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", list, code, stderr)
		}
		var cmp proveComparison
		if err := json.Unmarshal([]byte(out), &cmp); err != nil {
			t.Fatalf("%s: %v\n%s", list, err, out)
		}
		names := strings.Split(list, ",")
		if len(cmp.Backends) != len(names) || cmp.Partitions != 1 || !cmp.ProofsIdentical {
			t.Fatalf("%s: %+v", list, cmp)
		}
		for i, r := range cmp.Backends {
			if r.Seconds <= 0 || len(r.Timings) != 2 || (names[i] != "auto" && r.Backend != names[i]) {
				t.Errorf("%s: backend %d: %+v", list, i, r)
			}
		}
	}
}

// TestPrintComparison: the text form has one column per backend, every phase, the ratio and
// the identity line.
func TestPrintComparison(t *testing.T) {
	cmp := proveComparison{RegisteredProof: "StackedDrg2KiBV1_1", Partitions: 1, Runs: 1, ProofsIdentical: false,
		Backends: []proveResult{
			{Backend: "cpu", Seconds: 40, SecondsMin: 39, Timings: []phaseTiming{{"partition 0: synthesize", 2}, {"partition 0: prove+verify", 38}}},
			{Backend: "supraseal", Seconds: 4, SecondsMin: 4, Timings: []phaseTiming{{"partition 0: synthesize", 2}}},
		}}
	var out strings.Builder
	app := &cli.App{Writer: &out, Action: func(c *cli.Context) error { printComparison(c, &cmp); return nil }}
	if err := app.Run([]string{"x"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"cpu     supraseal", "total (median)", "40.000", "4.000", "partition 0: prove+verify", "38.000             -",
		"cpu / supraseal: 10.00x", "proofs byte-identical: NO"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in:\n%s", want, out.String())
		}
	}
}

func TestBenchGroth16Synthetic(t *testing.T) {
	params := t.TempDir() + "/s.params"
	code, out, stderr := runCLI(t, "bench", "groth16", "--log", "10", "--backend", "cpu,auto", "--runs", "2", "--params", params, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res groth16BenchResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Log != 10 || !res.ParamsWritten || len(res.Backends) != 2 || res.Backends[0].Backend != "cpu" ||
		res.Backends[0].Seconds <= 0 || res.Backends[1].Runs != 2 {
		t.Fatalf("%+v", res)
	}
	if code, _, stderr := runCLI(t, "bench", "groth16", "--log", "30", "--params", params); code != exitUsage || !strings.Contains(stderr, "--log 30") {
		t.Fatalf("--log 30: exit %d: %s", code, stderr)
	}
}
