// SPDX-License-Identifier: Apache-2.0 OR MIT

package service

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseAddress(t *testing.T) {
	for in, want := range map[string]string{
		"unix:///run/cuseal/s.sock": "unix /run/cuseal/s.sock",
		"unix:/tmp/x.sock":          "unix /tmp/x.sock",
		"127.0.0.1:9820":            "tcp 127.0.0.1:9820",
		"[::1]:9820":                "tcp [::1]:9820",
		"localhost:0":               "tcp localhost:0",
		"unix://relative.sock":      "error want unix:///absolute/path",
		"http://127.0.0.1:1":        "error want unix:///path or host:port",
		"127.0.0.1":                 "error missing port",
	} {
		n, a, err := ParseAddress(in)
		got := n + " " + a
		if err != nil {
			got = "error " + err.Error()
		}
		if !strings.HasPrefix(got, want) && !(strings.HasPrefix(want, "error") && err != nil && strings.Contains(got, strings.TrimPrefix(want, "error "))) {
			t.Errorf("ParseAddress(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCheckTCP: plain gRPC only on loopback unless TLS or --insecure-listen.
func TestCheckTCP(t *testing.T) {
	for _, tc := range []struct {
		addr          string
		tls, insecure bool
		ok            bool
	}{
		{"127.0.0.1:9820", false, false, true},
		{"127.3.4.5:9820", false, false, true},
		{"[::1]:9820", false, false, true},
		{"localhost:9820", false, false, true},
		{"0.0.0.0:9820", false, false, false},
		{":9820", false, false, false},
		{"[::]:9820", false, false, false},
		{"192.0.2.10:9820", false, false, false},
		{"prover.example:9820", false, false, false},
		{"0.0.0.0:9820", true, false, true},
		{"0.0.0.0:9820", false, true, true},
	} {
		err := checkTCP(tc.addr, tc.tls, tc.insecure)
		if (err == nil) != tc.ok || err != nil && !strings.Contains(err.Error(), "--insecure-listen") {
			t.Errorf("checkTCP(%s, tls %v, insecure %v) = %v, want ok %v", tc.addr, tc.tls, tc.insecure, err, tc.ok)
		}
	}
	_, _, err := Listen(ListenConfig{Address: "0.0.0.0:0"})
	if err == nil || !strings.Contains(err.Error(), "not a loopback address") {
		t.Errorf("Listen 0.0.0.0:0 without TLS: %v", err)
	}
}

// TestListenUnix: mode 0600; a stale socket is replaced, a live one or a
// regular file is refused and left alone.
func TestListenUnix(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "s.sock")
	l, creds, err := Listen(ListenConfig{Address: "unix://" + path})
	if err != nil || creds != nil {
		t.Fatal(err, creds)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 || fi.Mode().Type() != os.ModeSocket {
		t.Fatalf("socket %v: %v", fi.Mode(), err)
	}
	// A live server: refused.
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	if _, _, err := Listen(ListenConfig{Address: "unix://" + path}); err == nil || !strings.Contains(err.Error(), "another server is listening") {
		t.Fatalf("second Listen on a live socket: %v", err)
	}
	// A stale socket (its server died without unlinking): replaced.
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	l.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatal("the stale socket should still be there:", err)
	}
	l2, _, err := Listen(ListenConfig{Address: "unix://" + path})
	if err != nil {
		t.Fatalf("Listen over a stale socket: %v", err)
	}
	l2.Close()
	// A regular file: refused, kept.
	file := filepath.Join(dir, "data")
	if err := os.WriteFile(file, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Listen(ListenConfig{Address: "unix://" + file}); err == nil || !strings.Contains(err.Error(), "is not a socket (a regular file)") {
		t.Fatalf("Listen on a regular file: %v", err)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "keep" {
		t.Fatalf("the regular file was touched: %q %v", b, err)
	}
}

func TestDefaultListen(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", "/run/user/1000")
	if got := DefaultListen(); got != "unix:///run/user/1000/cuseal.sock" {
		t.Errorf("DefaultListen = %s", got)
	}
	t.Setenv("XDG_RUNTIME_DIR", "")
	if got := DefaultListen(); got != "unix:///run/cuseal/cuseal.sock" {
		t.Errorf("DefaultListen without XDG_RUNTIME_DIR = %s", got)
	}
}

// TestCheckMetricsListen: --metrics-listen is host:port on loopback unless
// --insecure-metrics-listen, like --listen's plain gRPC.
func TestCheckMetricsListen(t *testing.T) {
	for _, tc := range []struct {
		addr     string
		insecure bool
		want     string // "" accepted
	}{
		{"127.0.0.1:9821", false, ""},
		{"[::1]:9821", false, ""},
		{"localhost:0", false, ""},
		{"0.0.0.0:9821", false, "--insecure-metrics-listen"},
		{":9821", false, "--insecure-metrics-listen"},
		{"192.0.2.10:9821", false, "not a loopback address"},
		{"0.0.0.0:9821", true, ""},
		{"127.0.0.1", false, "want host:port"},
	} {
		err := CheckMetricsListen(tc.addr, tc.insecure)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("CheckMetricsListen(%s, insecure %v) = %v, want %q", tc.addr, tc.insecure, err, tc.want)
		}
	}
}
