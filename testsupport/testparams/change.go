// SPDX-License-Identifier: Apache-2.0 OR MIT

package testparams

import (
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cuseal/cuseal/porep/groth16"
)

// ChangeChunkBytes is the chunk size ChangeBetweenChunks reads with: small,
// so that even a 2 KiB PoSt query has several chunks.
const ChangeChunkBytes = 64 << 10

// OwnCopy replaces the parameter file at path (a symbolic link into the
// shared test parameters, as testpost.ParamsDir makes it) by a private
// copy that a test may truncate or replace, dated an hour back so that
// any later write changes its mtime. It returns restore, which copies the
// original bytes back over path in place, as an operator's `cp` would.
func OwnCopy(t testing.TB, path string) (restore func()) {
	t.Helper()
	orig := filepath.Join(t.TempDir(), filepath.Base(path)+".orig")
	if err := copyFile(path, orig); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := copyFile(orig, path); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	return func() {
		if err := copyFile(orig, path); err != nil {
			t.Fatal(err)
		}
	}
}

// copyFile writes src's bytes to dst (created or truncated in place).
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// ChangeBetweenChunks makes the parameter reader call change once, right
// after chunk `chunk` of section `section` of the file path has been read
// (groth16.SetReadHook, chunks of ChangeChunkBytes): a file changed in the
// middle of a proof, deterministically. The hook is removed at the end of
// the test; fired reports whether change ran.
func ChangeBetweenChunks(t testing.TB, path, section string, chunk int, change func()) (fired func() bool) {
	t.Helper()
	var done atomic.Bool
	restore := groth16.SetReadHook(ChangeChunkBytes, func(file, sec string, k int) {
		if file == path && sec == section && k == chunk && done.CompareAndSwap(false, true) {
			change()
		}
	})
	t.Cleanup(restore)
	return done.Load
}

// Truncate cuts the file at path to size bytes, as an interrupted
// re-download does (a change for ChangeBetweenChunks: it reports with
// t.Error, as it runs on the reader's goroutine).
func Truncate(t testing.TB, path string, size int64) {
	t.Helper()
	if err := os.Truncate(path, size); err != nil {
		t.Error(err)
	}
}

// ReplaceByRename puts a copy of path's bytes in its place by rename, as
// a tool that downloads to a temporary name does: the same content, a new
// file (inode).
func ReplaceByRename(t testing.TB, path string) {
	t.Helper()
	tmp := path + ".download"
	if err := copyFile(path, tmp); err != nil {
		t.Error(err)
		return
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Error(err)
	}
}

// Change is one way a parameter file changes while in use, for
// ChangeBetweenChunks.
type Change struct {
	Name string
	Do   func()
}

// Changes are the changes the prover tests make to path mid-proof: an
// interrupted re-download (truncated to 100,000 bytes; restore it by
// copying the original back) and a download renamed over it.
func Changes(t testing.TB, path string) []Change {
	return []Change{
		{"truncated", func() { Truncate(t, path, 100000) }},
		{"replaced by rename", func() { ReplaceByRename(t, path) }},
	}
}
