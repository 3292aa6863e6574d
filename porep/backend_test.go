// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/bridge"
)

func TestGPUDisabledByEnv(t *testing.T) {
	for _, tc := range []struct {
		val  string
		set  bool
		want bool
	}{
		{"", false, false},
		{"0", true, false}, // bellperson#249/#306: "0" keeps the GPU
		{"1", true, true},
		{"", true, true}, // set but empty: disabled
		{"true", true, true},
		{"false", true, true}, // any value but "0"
	} {
		if tc.set {
			t.Setenv("BELLMAN_NO_GPU", tc.val)
		} else {
			unsetenv(t, "BELLMAN_NO_GPU")
		}
		if got := GPUDisabledByEnv(); got != tc.want {
			t.Errorf("BELLMAN_NO_GPU=%q (set %v): disabled=%v, want %v", tc.val, tc.set, got, tc.want)
		}
	}
}

// unsetenv removes key for the rest of the test (t.Setenv first, so the
// original value is restored afterwards).
func unsetenv(t *testing.T, key string) {
	t.Helper()
	t.Setenv(key, "")
	os.Unsetenv(key)
}

func TestCUDADevicesFromEnv(t *testing.T) {
	for _, tc := range []struct {
		val  string
		want []int
		err  bool
	}{
		{"", nil, false},
		{"host", []int{bridge.HostDevice}, false},
		{"0, 2", []int{0, 2}, false},
		{"-1,host", []int{-1, -1}, false},
		{"gpu0", nil, true},
		{"-2", nil, true},
	} {
		t.Setenv("CUSEAL_CUDA_DEVICES", tc.val)
		got, err := CUDADevicesFromEnv()
		if (err != nil) != tc.err || (!tc.err && !slices.Equal(got, tc.want)) {
			t.Errorf("CUSEAL_CUDA_DEVICES=%q: %v, %v; want %v (error %v)", tc.val, got, err, tc.want, tc.err)
		}
	}
	t.Setenv("CUSEAL_CUDA_DEVICES", "gpu0")
	if ok, why := cudaUsable(); ok || !strings.Contains(why, "gpu0") {
		t.Errorf("bad CUSEAL_CUDA_DEVICES: usable %v, %q", ok, why)
	}
}

// TestCUDAUsableReasons: the reasons the CUDA backend cannot run, in any build.
func TestCUDAUsableReasons(t *testing.T) {
	unsetenv(t, "CUSEAL_CUDA_DEVICES")
	t.Setenv("BELLMAN_NO_GPU", "1")
	if ok, why := cudaUsable(); ok || why != "BELLMAN_NO_GPU is set" {
		t.Errorf("BELLMAN_NO_GPU=1: %v %q", ok, why)
	}
	t.Setenv("BELLMAN_NO_GPU", "0")
	t.Setenv("CUDA_VISIBLE_DEVICES", "")
	if ok, why := cudaUsable(); ok || !strings.Contains(why, "CUDA_VISIBLE_DEVICES") {
		t.Errorf("CUDA_VISIBLE_DEVICES=\"\": %v %q", ok, why)
	}
	unsetenv(t, "CUDA_VISIBLE_DEVICES")
	if _, err := bridge.Version(); errors.Is(err, bridge.ErrNoCUDA) {
		if ok, why := cudaUsable(); ok || why != "built without the cuda tag" {
			t.Errorf("pure-Go build: %v %q", ok, why)
		}
	}
}

// TestBackendRegistryKnown: every backend is known in every build; Built says which this binary
// has, and agrees with Backends.
func TestBackendRegistryKnown(t *testing.T) {
	var names []string
	for _, s := range KnownBackends() {
		names = append(names, s.Name)
		if s.Built != slices.Contains(Backends(), s.Name) {
			t.Errorf("%s: Built %v, registered %v", s.Name, s.Built, Backends())
		}
		if s.Name != BackendCPU && (!s.GPU || s.Missing == "" || s.Without == "" || s.Binary == "") {
			t.Errorf("%s: incomplete spec %+v", s.Name, s)
		}
	}
	if !slices.Equal(names[:3], []string{BackendCPU, BackendCUDA, BackendSupraSeal}) {
		t.Errorf("known backends %v", names)
	}
	if _, ok := LookupBackend(BackendAuto); ok {
		t.Error(`"auto" is a choice, not a backend`)
	}
	if s, ok := LookupBackend(BackendCUDA); !ok || !s.Auto {
		t.Errorf("cuda: %+v %v", s, ok)
	}
	if want := map[bool]string{true: BackendCUDA, false: BackendCPU}[slices.Contains(Backends(), BackendCUDA)]; AutoPreference() != want {
		t.Errorf("AutoPreference = %q, want %q", AutoPreference(), want)
	}
}

// TestBackendRegistryAutoFallback: "auto" falls back to the CPU with one slog line at info level
// naming the reason, which AutoBackend reports too; a GPU backend asked for by name fails.
func TestBackendRegistryAutoFallback(t *testing.T) {
	var logs bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo})))
	t.Cleanup(func() { slog.SetDefault(prev) })
	unsetenv(t, "CUSEAL_CUDA_DEVICES")
	t.Setenv("BELLMAN_NO_GPU", "1")

	name, reason := AutoBackend()
	if name != BackendCPU || reason == "" {
		t.Fatalf("AutoBackend with BELLMAN_NO_GPU: %q, %q", name, reason)
	}
	if slices.Contains(Backends(), BackendCUDA) && reason != "BELLMAN_NO_GPU is set" {
		t.Errorf("cuda build: reason %q", reason)
	}
	if _, got, err := NewBackend(BackendAuto); err != nil || got != BackendCPU {
		t.Fatalf("auto with BELLMAN_NO_GPU: %q %v", got, err)
	}
	if n := strings.Count(logs.String(), "backend auto: using the CPU"); n != 1 || !strings.Contains(logs.String(), reason) ||
		!strings.Contains(logs.String(), "level=INFO") {
		t.Errorf("auto log: %q", logs.String())
	}
	logs.Reset()
	if _, got, err := NewBackend(BackendCPU); err != nil || got != BackendCPU || logs.Len() != 0 {
		t.Errorf("cpu: %q %v, log %q", got, err, logs.String())
	}
	_, _, err := NewBackend(BackendCUDA)
	switch {
	case !slices.Contains(Backends(), BackendCUDA):
		if !errors.Is(err, ErrUnknownBackend) || !strings.Contains(err.Error(), "this build has no CUDA backend (build with -tags cuda") {
			t.Errorf("cuda in a pure-Go build: %v", err)
		}
	default:
		if !errors.Is(err, ErrGPUDisabled) {
			t.Errorf("cuda with BELLMAN_NO_GPU: %v", err)
		}
	}
	if slices.Contains(Backends(), BackendSupraSeal) {
		if _, _, err := NewBackend(BackendSupraSeal); !errors.Is(err, ErrGPUDisabled) {
			t.Errorf("supraseal with BELLMAN_NO_GPU: %v", err)
		}
	}
}
