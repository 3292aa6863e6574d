// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/urfave/cli/v2"
)

func TestSummarize(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want spread
	}{
		{[]float64{3}, spread{3, 3, 3}},
		{[]float64{5, 1, 3}, spread{1, 3, 5}},
		{[]float64{4, 1, 3, 2}, spread{1, 2.5, 4}},
		{nil, spread{}},
	} {
		if got := summarize(tc.in); got != tc.want {
			t.Errorf("summarize(%v) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

var sink [][]byte

func TestMeasureCountsAllocations(t *testing.T) {
	const perRun = 1000
	calls := 0
	m, err := measure(3, func(int) error {
		calls++
		for i := 0; i < perRun; i++ {
			sink = append(sink, make([]byte, 64))
		}
		sink = nil
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 3 || len(m.Seconds) != 3 {
		t.Fatalf("calls=%d timings=%d, want 3", calls, len(m.Seconds))
	}
	if m.Allocs < perRun || m.Bytes < perRun*64 {
		t.Fatalf("allocs=%d bytes=%d per run, want at least %d and %d", m.Allocs, m.Bytes, perRun, perRun*64)
	}
}

func TestMeasureStopsOnError(t *testing.T) {
	boom := errors.New("boom")
	calls := 0
	_, err := measure(5, func(int) error { calls++; return boom })
	if !errors.Is(err, boom) || calls != 1 {
		t.Fatalf("err=%v calls=%d", err, calls)
	}
	if _, err := measure(0, func(int) error { return nil }); err == nil {
		t.Fatal("runs=0 accepted")
	}
}

func TestPeakRSS(t *testing.T) {
	if rss := peakRSS(); rss < 1<<20 {
		t.Fatalf("peak RSS %d bytes: implausibly small for a Go test binary", rss)
	}
}

// profileContext builds a cli.Context holding only the profile flags.
func profileContext(t *testing.T, args ...string) *cli.Context {
	t.Helper()
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	for _, f := range profileFlags() {
		if err := f.Apply(fs); err != nil {
			t.Fatal(err)
		}
	}
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return cli.NewContext(&cli.App{}, fs, nil)
}

func TestProfilesWritten(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "mem.prof")
	stop, err := startProfiling(profileContext(t, "--cpuprofile", cpu, "--memprofile", mem))
	if err != nil {
		t.Fatal(err)
	}
	x := 0
	for i := 0; i < 1e6; i++ {
		x += i * i
	}
	_ = x
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{cpu, mem} {
		st, err := os.Stat(p)
		if err != nil || st.Size() == 0 {
			t.Errorf("%s: %v (size %v)", p, err, st)
		}
	}
}

func TestProfileUnwritable(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "no", "such", "dir", "cpu.prof")
	_, err := startProfiling(profileContext(t, "--cpuprofile", bad))
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitUsage {
		t.Fatalf("unwritable --cpuprofile: %v, want a usage error", err)
	}
	_, err = startProfiling(profileContext(t, "--memprofile", bad))
	if !errors.As(err, &ee) || ee.code != exitUsage {
		t.Fatalf("unwritable --memprofile: %v, want a usage error", err)
	}
}

// Every bench subcommand takes --cpuprofile and --memprofile, as the README says.
func TestEveryBenchCommandProfiles(t *testing.T) {
	subs := benchCommand().Subcommands
	if len(subs) < 5 {
		t.Fatalf("only %d bench subcommands", len(subs))
	}
	for _, sub := range subs {
		names := map[string]bool{}
		for _, f := range sub.Flags {
			for _, n := range f.Names() {
				names[n] = true
			}
		}
		if !names["cpuprofile"] || !names["memprofile"] {
			t.Errorf("bench %s lacks --cpuprofile/--memprofile", sub.Name)
		}
	}
}
