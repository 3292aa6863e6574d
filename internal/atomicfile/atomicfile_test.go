// SPDX-License-Identifier: Apache-2.0 OR MIT

package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteBytes(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.bin")
	if err := WriteBytes(p, []byte("first")); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(p, []byte("second")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(p)
	if err != nil || string(got) != "second" {
		t.Fatalf("read %q, %v", got, err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v, want 0644", fi.Mode().Perm())
	}
	if m, _ := filepath.Glob(TempGlob(p)); len(m) != 0 {
		t.Fatalf("temporary files left: %v", m)
	}
}

// A failing writer leaves the old file as it was and no temporary file.
func TestWriteFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.bin")
	if err := WriteBytes(p, []byte("old")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(p, func(w io.Writer) error {
		if _, err := w.Write([]byte("partial")); err != nil {
			return err
		}
		if m, _ := filepath.Glob(TempGlob(p)); len(m) != 1 {
			t.Errorf("TempGlob matches %v while writing, want the one temporary file", m)
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	if got, _ := os.ReadFile(p); string(got) != "old" {
		t.Fatalf("path holds %q after a failed write", got)
	}
	if m, _ := filepath.Glob(TempGlob(p)); len(m) != 0 {
		t.Fatalf("temporary files left: %v", m)
	}
	if err := WriteBytes(filepath.Join(dir, "missing", "x"), nil); err == nil {
		t.Fatal("write into a missing directory succeeded")
	}
}
