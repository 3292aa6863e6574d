// SPDX-License-Identifier: Apache-2.0 OR MIT

package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
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

// A temporary file no writer holds (what a writer killed mid-write leaves:
// the kernel drops its lock) is removed by the next Write of the path; one
// a live Write holds is not, and other files are never touched.
func TestSweepAbandoned(t *testing.T) {
	if !lockable {
		t.Skip("no advisory file locks on this platform: abandoned temporary files are not swept")
	}
	// Glob metacharacters in the directory match themselves.
	dir := filepath.Join(t.TempDir(), "params [x]*?")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "v28-x.params")
	stale := filepath.Join(dir, ".v28-x.params.tmp123")
	other := filepath.Join(dir, ".v28-y.params.tmp456")
	fresh := filepath.Join(dir, ".v28-x.params.tmp789") // as if its writer had not locked it yet
	old := time.Now().Add(-2 * AbandonedAge)
	for _, f := range []string{stale, other, fresh} {
		if err := os.WriteFile(f, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
		if f != fresh {
			if err := os.Chtimes(f, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	err := Write(p, func(w io.Writer) error {
		if _, err := os.Stat(stale); !os.IsNotExist(err) {
			t.Errorf("abandoned %s still there while the next write runs (%v)", stale, err)
		}
		if writing, _ := Writing(p); len(writing) != 1 || writing[0] == fresh {
			t.Errorf("Writing %v while writing, want this write's file alone", writing)
		}
		live, _ := filepath.Glob(TempGlob(p))
		if len(live) != 2 || !slices.Contains(live, fresh) {
			t.Fatalf("TempGlob %v while writing, want this write's file and %s", live, fresh)
		}
		live = slices.DeleteFunc(live, func(n string) bool { return n == fresh })
		// A second writer of the same path must keep this one's file.
		if err := WriteBytes(p, []byte("inner")); err != nil {
			return err
		}
		if _, err := os.Stat(live[0]); err != nil {
			t.Errorf("a live write's temporary file was removed: %v", err)
		}
		_, err := w.Write([]byte("outer"))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "outer" {
		t.Fatalf("path holds %q, want the last rename's", got)
	}
	if _, err := os.Stat(other); err != nil {
		t.Fatalf("another path's temporary file was removed: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Fatalf("a temporary file younger than AbandonedAge was removed: %v", err)
	}
	if err := os.Remove(fresh); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, make([]byte, 10), 0o600); err != nil {
		t.Fatal(err)
	}
	if listed, _ := Abandoned(p); len(listed) != 0 {
		t.Fatalf("Abandoned lists %v, modified just now", listed)
	}
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	if listed, n := Abandoned(p); len(listed) != 1 || listed[0] != stale || n != 10 {
		t.Fatalf("Abandoned: %v, %d bytes; want %s, 10", listed, n, stale)
	}
	if _, err := os.Stat(stale); err != nil {
		t.Fatalf("Abandoned removed %s: %v", stale, err)
	}
	if removed, n := SweepAbandoned(p); len(removed) != 1 || removed[0] != stale || n != 10 {
		t.Fatalf("SweepAbandoned: %v, %d bytes; want %s, 10", removed, n, stale)
	}
}
