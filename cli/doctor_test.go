// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cuseal/cuseal/bridge"
	"github.com/cuseal/cuseal/internal/atomicfile"
	"github.com/cuseal/cuseal/internal/hostmem"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/testsupport/testparams"
)

// doctorScene is a made-up machine for `cuseal doctor`: files for /proc/meminfo, the cgroup
// limit, /sys and /proc, a CPU, GPUs and groups, and a directory of 2 KiB WindowPoSt test
// parameters without their test stamp (so their rows are OK without --digests).
type doctorScene struct {
	t                *testing.T
	root, params     string
	meminfo, cgroup  string
	sys, proc, sock  string
	probes           doctorProbes
	circuit, circDir string // the WindowPoSt circuit's files: where they came from
}

func newDoctorScene(t *testing.T) *doctorScene {
	root := t.TempDir()
	s := &doctorScene{t: t, root: root, params: filepath.Join(root, "params"), meminfo: filepath.Join(root, "meminfo"),
		cgroup: filepath.Join(root, "memory.max"), sys: filepath.Join(root, "sys"), proc: filepath.Join(root, "proc"), sock: filepath.Join(root, "run")}
	s.write(s.meminfo, "MemTotal:       67108864 kB\nMemFree:        1000 kB\nMemAvailable:   62914560 kB\n")
	s.write(filepath.Join(s.sys, "kernel/mm/transparent_hugepage/enabled"), "always [madvise] never\n")
	s.write(filepath.Join(s.sys, "kernel/mm/transparent_hugepage/defrag"), "always defer defer+madvise [madvise] never\n")
	if err := os.MkdirAll(s.sock, 0o755); err != nil {
		t.Fatal(err)
	}
	oldMem, oldCg := hostmem.MemInfoPath, hostmem.CgroupPaths
	hostmem.MemInfoPath, hostmem.CgroupPaths = s.meminfo, []string{s.cgroup}
	s.probes = doctorProbes{sysDir: s.sys, procDir: s.proc,
		cpu: cpuFacts{Cores: 64, AMD64: true, ADX: true, BMI2: true, AVX512: true, IFMA: true},
		gpu: func() gpuFacts { return gpuFacts{} },
		lookupGroup: func(name string) (int, error) {
			if name == "curio" {
				return 1234, nil
			}
			return 0, fmt.Errorf("group %q not found", name)
		},
		groups: func() ([]int, error) { return []int{0, 1234}, nil },
		uid:    1000,
	}
	doctorProbesHook = func(p *doctorProbes) { *p = s.probes }
	t.Cleanup(func() { hostmem.MemInfoPath, hostmem.CgroupPaths, doctorProbesHook = oldMem, oldCg, nil })
	// The WindowPoSt 2 KiB test parameters (11 MB): the shared ones, else generated here.
	circ, _, err := testCircuitFor(circuitWindowPoSt, "2KiB")
	if err != nil {
		t.Fatal(err)
	}
	src := testparams.Dir()
	if pp, _, _ := circ.ParameterPaths(src); !fileExists(pp) {
		src = filepath.Join(root, "generated")
		if code, _, stderr := runCLI(t, "--log-level", "warn", "params", "generate", "--circuit", "window-post", "--sector-size", "2KiB", "--seed", "doctor", "--out", src); code != 0 {
			t.Fatalf("params generate: %d %s", code, stderr)
		}
	}
	s.circDir = src
	pp, vp, mp := circ.ParameterPaths(src)
	for _, f := range []string{pp, vp, mp} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s.write(filepath.Join(s.params, filepath.Base(f)), string(b))
	}
	s.circuit = filepath.Base(pp)
	return s
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func (s *doctorScene) write(path, data string) {
	s.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// run runs doctor --json on the scene with extra flags and returns its exit code and rows by check.
func (s *doctorScene) run(extra ...string) (int, map[string]doctorRow, string) {
	s.t.Helper()
	args := append([]string{"doctor", "--json", "--kinds", "window-post", "--sector-size", "2KiB", "--params-dir", s.params,
		"--backend", "cpu", "--listen", "unix://" + filepath.Join(s.sock, "cuseal.sock")}, extra...)
	code, out, stderr := runCLI(s.t, args...)
	var rep doctorReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		return code, nil, stderr
	}
	rows := map[string]doctorRow{}
	for _, r := range rep.Rows {
		rows[r.Check] = r
		if r.Status == doctorFail && r.Remedy == "" {
			s.t.Errorf("FAIL row %q has no remedy", r.Check)
		}
	}
	if rep.Exit != code {
		s.t.Errorf("report's exit %d, process exit %d", rep.Exit, code)
	}
	return code, rows, stderr
}

// TestDoctorAllOK: a box with everything in place: every row OK, exit 0, and the line for
// Curio's config.
func TestDoctorAllOK(t *testing.T) {
	s := newDoctorScene(t)
	code, rows, stderr := s.run()
	if code != 0 {
		t.Fatalf("exit %d (%s): %+v", code, stderr, rows)
	}
	for _, check := range []string{"build", "params window-post", "memory host", "memory need", "cpu", "gpu", "huge pages", "socket", "curio config"} {
		if r, ok := rows[check]; !ok || r.Status != doctorOK {
			t.Errorf("row %q: %+v, want OK", check, r)
		}
	}
	if d := rows["curio config"].Detail; d != `[Cuzk] Address = "unix://`+filepath.Join(s.sock, "cuseal.sock")+`"` {
		t.Errorf("curio config: %q", d)
	}
	// The table for people: the same rows, and the summary.
	_, out, _ := runCLI(t, "doctor", "--kinds", "window-post", "--sector-size", "2KiB", "--params-dir", s.params, "--backend", "cpu",
		"--listen", "unix://"+filepath.Join(s.sock, "cuseal.sock"))
	if !strings.Contains(out, "STATUS  CHECK") || !strings.Contains(out, "OK      params window-post") || !strings.Contains(out, "0 WARN, 0 FAIL") {
		t.Errorf("table:\n%s", out)
	}
}

// TestDoctorRows: each row's FAIL (and WARN) is reached, with the exit code it implies.
func TestDoctorRows(t *testing.T) {
	for _, tc := range []struct {
		name   string
		setup  func(s *doctorScene) []string // changes the scene, returns extra flags
		check  string
		status string
		detail string // in the row's detail
	}{
		{"test parameters", func(s *doctorScene) []string {
			stamp := strings.TrimSuffix(s.circuit, ".params") + ".cuseal-test.json"
			s.write(filepath.Join(s.params, stamp), "{}")
			return nil
		}, "params window-post", doctorWarn, "TEST parameters"},
		{"temporary file of a killed writer", func(s *doctorScene) []string {
			tmp := filepath.Join(s.params, "."+s.circuit+".tmp4242")
			s.write(tmp, "half a download")
			old := time.Now().Add(-2 * atomicfile.AbandonedAge)
			if err := os.Chtimes(tmp, old, old); err != nil {
				t.Fatal(err)
			}
			return nil
		}, "params window-post temporary files", doctorWarn, "1 abandoned by a process that ended mid-write (15B)"},
		{"params being written", func(s *doctorScene) []string {
			// A live writer (params generate) of the missing .params.
			p := filepath.Join(s.params, s.circuit)
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			started, release := make(chan struct{}), make(chan struct{})
			done := make(chan error, 1)
			go func() {
				done <- atomicfile.Write(p, func(w io.Writer) error {
					if _, err := w.Write(make([]byte, 2048)); err != nil {
						return err
					}
					close(started)
					<-release
					return errors.New("stopped by the test")
				})
			}()
			<-started
			t.Cleanup(func() { close(release); <-done })
			return nil
		}, "params window-post .params", doctorFail, "; being written now by another process (."},
		{"params missing", func(s *doctorScene) []string {
			return []string{"--params-dir", filepath.Join(s.root, "empty")}
		}, "params window-post .params", doctorFail, "missing from"},
		{"params a directory", func(s *doctorScene) []string {
			p := filepath.Join(s.params, s.circuit)
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
			return nil
		}, "params window-post .params", doctorFail, "is a directory"},
		{"params half-downloaded", func(s *doctorScene) []string {
			p := filepath.Join(s.params, s.circuit)
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(p, fi.Size()/2); err != nil {
				t.Fatal(err)
			}
			return nil
		}, "params window-post .params", doctorFail, "truncated"},
		{"params for another sector size", func(s *doctorScene) []string {
			s.write(filepath.Join(s.params, strings.TrimSuffix(s.circuit, ".params")+".meta"), `{"sector_size": 34359738368}`)
			return nil
		}, "params window-post .params", doctorFail, "sector_size 34359738368"},
		{"vk missing", func(s *doctorScene) []string {
			if err := os.Remove(filepath.Join(s.params, strings.TrimSuffix(s.circuit, ".params")+".vk")); err != nil {
				t.Fatal(err)
			}
			return nil
		}, "params window-post .vk", doctorFail, "missing from"},
		{"vk corrupt", func(s *doctorScene) []string {
			s.write(filepath.Join(s.params, strings.TrimSuffix(s.circuit, ".params")+".vk"), strings.Repeat("\x07", 3076))
			return nil
		}, "params window-post .vk", doctorFail, ".vk"},
		{"vk of another setup", func(s *doctorScene) []string {
			// Same shape, every point valid, not this .params's key.
			p := filepath.Join(s.params, strings.TrimSuffix(s.circuit, ".params")+".vk")
			vk, err := groth16.ReadVerifyingKeyFile(p)
			if err != nil || len(vk.IC) < 2 {
				t.Fatalf("read %s: %v", p, err)
			}
			vk.IC[0], vk.IC[1] = vk.IC[1], vk.IC[0]
			s.write(p, string(vk.Bytes()))
			return nil
		}, "params window-post .vk", doctorFail, "hold different verifying keys (first difference: ic[0])"},
		{"digest not the official one", func(s *doctorScene) []string { return []string{"--digests"} },
			"params window-post digest .params", doctorFail, "official digest of this name is"},
		{"memory less than needed", func(s *doctorScene) []string {
			s.write(s.meminfo, "MemTotal:       4096 kB\nMemAvailable:   4096 kB\n")
			return nil
		}, "memory need", doctorFail, "more than MemTotal"},
		{"cgroup limit less than needed", func(s *doctorScene) []string {
			s.write(s.cgroup, "4194304\n")
			return nil
		}, "memory need", doctorFail, "more than the cgroup limit"},
		{"budget less than needed", func(s *doctorScene) []string { return []string{"--budget", "1MiB"} },
			"memory need", doctorFail, "the budget is too small"},
		{"memory in use", func(s *doctorScene) []string {
			s.write(s.meminfo, "MemTotal:       67108864 kB\nMemAvailable:   4096 kB\n")
			return nil
		}, "memory need", doctorWarn, "available now"},
		{"cpu without ADX", func(s *doctorScene) []string { s.probes.cpu.ADX = false; return nil }, "cpu", doctorWarn, "no ADX"},
		{"no CUDA in this binary", func(s *doctorScene) []string { return []string{"--backend", "auto"} }, "gpu", doctorWarn, "built without CUDA"},
		{"no device for --backend cuda", func(s *doctorScene) []string {
			s.probes.gpu = func() gpuFacts { return gpuFacts{Built: true, Runtime: 12040, Archs: []string{"sm_80"}} }
			return []string{"--backend", "cuda"}
		}, "gpu", doctorFail, "no CUDA devices found"},
		{"device without code for it", func(s *doctorScene) []string {
			s.write(filepath.Join(s.proc, "driver/nvidia/version"), "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024\n")
			s.probes.gpu = func() gpuFacts {
				return gpuFacts{Built: true, Runtime: 12040, Archs: []string{"sm_75", "sm_80"},
					Devices: []bridge.DeviceInfo{{Index: 0, Name: "NVIDIA H100", Major: 9, Minor: 0, TotalMemory: 80 << 30, FreeMemory: 79 << 30}}}
			}
			return []string{"--backend", "auto"}
		}, "gpu 0", doctorFail, "no code compiled for it"},
		{"device memory in use", func(s *doctorScene) []string {
			s.probes.gpu = func() gpuFacts {
				return gpuFacts{Built: true, Runtime: 12040, Archs: []string{"sm_80", "compute_80"},
					Devices: []bridge.DeviceInfo{{Index: 0, Name: "NVIDIA RTX A6000", Major: 8, Minor: 6, TotalMemory: 48 << 30, FreeMemory: 1 << 10}}}
			}
			return []string{"--backend", "auto"}
		}, "gpu 0", doctorWarn, "less than one partition's assignment"},
		{"huge pages off", func(s *doctorScene) []string {
			s.write(filepath.Join(s.sys, "kernel/mm/transparent_hugepage/enabled"), "always madvise [never]\n")
			return nil
		}, "huge pages", doctorWarn, "transparent huge pages never"},
		{"socket directory missing", func(s *doctorScene) []string {
			return []string{"--listen", "unix://" + filepath.Join(s.root, "nowhere", "cuseal.sock")}
		}, "socket", doctorFail, "does not exist"},
		{"socket group missing", func(s *doctorScene) []string { return []string{"--socket-group", "nobody-here"} },
			"socket group", doctorFail, "not found"},
		{"not in the socket group", func(s *doctorScene) []string {
			s.probes.groups = func() ([]int, error) { return []int{0}, nil }
			s.probes.uid = 1000
			return []string{"--socket-group", "curio"}
		}, "socket group", doctorFail, "this user is not in it"},
		{"TCP not on loopback", func(s *doctorScene) []string { return []string{"--listen", "0.0.0.0:9820"} },
			"socket", doctorWarn, "not loopback"},
		// A new user's trial: each of these passed doctor and then made serve exit 2.
		{"--backend cuda without CUDA", func(s *doctorScene) []string { return []string{"--backend", "cuda"} },
			"gpu", doctorFail, "--backend cuda: this binary is built without CUDA"},
		{"a regular file at the socket path", func(s *doctorScene) []string {
			s.write(filepath.Join(s.sock, "cuseal.sock"), "not a socket")
			return []string{"--listen", "unix://" + filepath.Join(s.sock, "cuseal.sock")}
		}, "socket", doctorFail, "exists and is not a socket (a regular file)"},
		{"root and a group it is not in", func(s *doctorScene) []string {
			s.probes.groups = func() ([]int, error) { return []int{0}, nil }
			s.probes.uid = 0
			return []string{"--socket-group", "curio"}
		}, "socket group", doctorOK, "root may give the socket any group"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newDoctorScene(t)
			extra := tc.setup(s)
			code, rows, stderr := s.run(extra...)
			r, ok := rows[tc.check]
			if !ok || r.Status != tc.status || !strings.Contains(r.Detail, tc.detail) {
				t.Fatalf("row %q: %+v (present %v), want %s with %q; rows %+v", tc.check, r, ok, tc.status, tc.detail, rows)
			}
			want := map[string]int{doctorWarn: 1, doctorFail: 2}[tc.status]
			if code != want {
				t.Errorf("exit %d, want %d (%s); rows %+v", code, want, stderr, rows)
			}
		})
	}
}

// TestDoctorUsage: bad --kinds, --backend or --budget are usage errors naming the flag.
func TestDoctorUsage(t *testing.T) {
	for _, tc := range []struct{ args []string }{
		{[]string{"doctor", "--kinds", "c2"}},
		{[]string{"doctor", "--kinds", ","}},
		{[]string{"doctor", "--backend", "opencl"}},
		{[]string{"doctor", "--budget", "lots"}},
		{[]string{"doctor", "--sector-size", "3GiB"}},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, "--") {
			t.Errorf("%v: exit %d, %q", tc.args, code, stderr)
		}
	}
}

// TestShellQuote: doctor's rm line is safe to paste: the shell gives back
// each name as it is, whatever it holds.
func TestShellQuote(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on this machine")
	}
	words := []string{"plain", "two words", "$(touch PWNED)", "it's", `back\slash`, "*", "'", ""}
	out, err := exec.Command(sh, "-c", `printf '%s\n' `+shellQuote(words...)).Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n"); !slices.Equal(got, words) {
		t.Fatalf("sh gave back %q, want %q", got, words)
	}
}
