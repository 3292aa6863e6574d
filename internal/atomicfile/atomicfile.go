// SPDX-License-Identifier: Apache-2.0 OR MIT

package atomicfile

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
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
// path, for cleaning up after a process that was killed mid-write. Glob
// metacharacters in path match themselves.
func TempGlob(path string) string {
	return filepath.Join(escapeGlob(filepath.Dir(path)), "."+escapeGlob(filepath.Base(path))+".tmp*")
}

// escapeGlob quotes filepath.Match's metacharacters (unix: a backslash
// quotes; elsewhere the brackets make a one-character class).
func escapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			if filepath.Separator == '\\' {
				if r == '\\' {
					b.WriteRune(r)
					continue
				}
				b.WriteString("[" + string(r) + "]")
				continue
			}
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// AbandonedAge is how long a temporary file must have gone unmodified
// before Abandoned counts it: a writer flocks its file just after creating
// it, and one that is killed is swept by a later write.
const AbandonedAge = 30 * time.Second

// Abandoned lists path's temporary files (TempGlob) that no writer holds
// and that have not changed for AbandonedAge — left by a process that ended
// mid-write — and their total size, removing nothing. Where advisory locks are not available (not unix) it lists none.
func Abandoned(path string) (names []string, bytes int64) {
	all, _ := filepath.Glob(TempGlob(path))
	for _, n := range all {
		fi, err := os.Lstat(n)
		if err != nil || !fi.Mode().IsRegular() || time.Since(fi.ModTime()) < AbandonedAge || !abandoned(n) {
			continue
		}
		names = append(names, n)
		bytes += fi.Size()
	}
	return names, bytes
}

// Writing lists path's temporary files that a live Write holds now (in
// this process or another) and their total size so far: path is being
// written. Where advisory locks are not available (not unix) it lists none.
func Writing(path string) (names []string, bytes int64) {
	all, _ := filepath.Glob(TempGlob(path))
	for _, n := range all {
		fi, err := os.Lstat(n)
		if err != nil || !fi.Mode().IsRegular() || !held(n) {
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
