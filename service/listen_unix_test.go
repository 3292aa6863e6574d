// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build unix

package service

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestSocketDirMode: the socket's missing directories are made 0755
// whatever the umask (027 would give 0750 and shut a Curio of
// --socket-group out); a directory that exists keeps its mode.
func TestSocketDirMode(t *testing.T) {
	root := t.TempDir()
	kept := filepath.Join(root, "kept")
	if err := os.Mkdir(kept, 0o700); err != nil {
		t.Fatal(err)
	}
	umaskMu.Lock()
	old := syscall.Umask(0o027)
	umaskMu.Unlock()
	defer syscall.Umask(old)
	path := filepath.Join(kept, "run", "cuseal", "s.sock")
	l, _, err := Listen(ListenConfig{Address: "unix://" + path})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for dir, want := range map[string]os.FileMode{kept: 0o700, filepath.Join(kept, "run"): 0o755, filepath.Dir(path): 0o755} {
		fi, err := os.Stat(dir)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v under umask 027, want %v", dir, fi.Mode().Perm(), want)
		}
	}
}
