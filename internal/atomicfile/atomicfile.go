// SPDX-License-Identifier: Apache-2.0 OR MIT

package atomicfile

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
)

// Write creates path with what write produces, through a temporary file
// named like TempGlob(path) in path's directory: written, chmod 0644,
// synced, closed and renamed over path. On an error (write's included) the
// temporary file is removed and path is untouched; errors are returned as
// they are (callers name the file). The temporary file is flock'ed while
// it is written; Write first removes path's temporary files that no
// process holds (SweepAbandoned), so a writer killed mid-write (SIGKILL,
// OOM: nothing runs to clean up) leaves its bytes on disk only until the
// next write of the same path.
func Write(path string, write func(io.Writer) error) (err error) {
	SweepAbandoned(path)
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	holdTemp(f)
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// WriteBytes is Write of data.
func WriteBytes(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := io.Copy(w, bytes.NewReader(data))
		return err
	})
}

// TempGlob returns the filepath.Glob pattern of Write's temporary files for
// path, for cleaning up after a process that was killed mid-write.
func TempGlob(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
}

// Abandoned lists path's temporary files (TempGlob) that no writer holds —
// left by a process that ended mid-write — and their total size, removing
// nothing. Where advisory locks are not available (not unix) it lists none.
func Abandoned(path string) (names []string, bytes int64) {
	all, _ := filepath.Glob(TempGlob(path))
	for _, n := range all {
		fi, err := os.Lstat(n)
		if err != nil || !fi.Mode().IsRegular() || !abandoned(n) {
			continue
		}
		names = append(names, n)
		bytes += fi.Size()
	}
	return names, bytes
}

// SweepAbandoned removes path's temporary files that no writer holds
// (Abandoned) and returns the names and total size of those it removed. A
// temporary file being written by a live Write, in this process or
// another, is kept.
func SweepAbandoned(path string) (removed []string, bytes int64) {
	names, _ := Abandoned(path)
	for _, n := range names {
		fi, err := os.Lstat(n)
		if err != nil {
			continue
		}
		if os.Remove(n) == nil {
			removed = append(removed, n)
			bytes += fi.Size()
		}
	}
	return removed, bytes
}
