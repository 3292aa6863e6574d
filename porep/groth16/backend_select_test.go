package groth16

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
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
			t.Setenv("BELLMAN_NO_GPU", "x")
			unsetenv(t, "BELLMAN_NO_GPU")
		}
		if got := GPUDisabledByEnv(); got != tc.want {
			t.Errorf("BELLMAN_NO_GPU=%q (set %v): disabled=%v, want %v", tc.val, tc.set, got, tc.want)
		}
	}
}

func TestSelectBackend(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))

	b, name, err := SelectBackend("cpu", CUDAOptions{})
	if _, ok := b.(*CPUBackend); err != nil || !ok || name != "cpu" {
		t.Fatalf("cpu: %T %q %v", b, name, err)
	}
	if _, _, err := SelectBackend("gpu", CUDAOptions{}); err == nil || !strings.Contains(err.Error(), `unknown backend "gpu"`) {
		t.Errorf("unknown name: %v", err)
	}

	// GPU disabled: auto falls back to the CPU with one log line; cuda fails.
	t.Setenv("BELLMAN_NO_GPU", "1")
	b, name, err = SelectBackend("auto", CUDAOptions{Logger: log})
	if _, ok := b.(*CPUBackend); err != nil || !ok || name != "cpu" {
		t.Fatalf("auto with BELLMAN_NO_GPU: %T %q %v", b, name, err)
	}
	if n := strings.Count(logs.String(), "backend auto: using the CPU"); n != 1 || !strings.Contains(logs.String(), "BELLMAN_NO_GPU") {
		t.Errorf("auto log: %q", logs.String())
	}
	if _, _, err := SelectBackend("cuda", CUDAOptions{}); !errors.Is(err, ErrGPUDisabled) {
		t.Errorf("cuda with BELLMAN_NO_GPU: %v", err)
	}

	// CUDA_VISIBLE_DEVICES hiding every device.
	t.Setenv("BELLMAN_NO_GPU", "0")
	t.Setenv("CUDA_VISIBLE_DEVICES", "")
	logs.Reset()
	if _, name, _ := SelectBackend("auto", CUDAOptions{Logger: log}); name != "cpu" || !strings.Contains(logs.String(), "CUDA_VISIBLE_DEVICES") {
		t.Errorf("auto with CUDA_VISIBLE_DEVICES=\"\": %q, log %q", name, logs.String())
	}
	unsetenv(t, "CUDA_VISIBLE_DEVICES")

	// Without a usable device (always true in the pure-Go build), auto picks
	// the CPU and "cuda" names the reason.
	if ok, why := CUDAUsable(); !ok {
		logs.Reset()
		if _, name, _ := SelectBackend("auto", CUDAOptions{Logger: log}); name != "cpu" || !strings.Contains(logs.String(), why) {
			t.Errorf("auto without device: %q, log %q", name, logs.String())
		}
		_, _, err := SelectBackend("cuda", CUDAOptions{})
		if err == nil || !(errors.Is(err, bridge.ErrNoCUDA) || errors.Is(err, bridge.ErrNoDevice)) {
			t.Errorf("cuda without device: %v", err)
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

func TestDevicesFromEnv(t *testing.T) {
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
		got, err := devicesFromEnv()
		if (err != nil) != tc.err || (!tc.err && !slicesEqual(got, tc.want)) {
			t.Errorf("CUSEAL_CUDA_DEVICES=%q: %v, %v; want %v (error %v)", tc.val, got, err, tc.want, tc.err)
		}
	}
	t.Setenv("CUSEAL_CUDA_DEVICES", "gpu0")
	if ok, why := CUDAUsable(); ok || !strings.Contains(why, "gpu0") {
		t.Errorf("bad CUSEAL_CUDA_DEVICES: usable %v, %q", ok, why)
	}
}

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
