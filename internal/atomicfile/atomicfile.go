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

// lockState is what a probe of a temporary file's lock found.
type lockState int

const (
	lockUnknown lockState = iota // not opened, or no advisory locks here
	lockFree                     // no writer holds it
	lockHeld                     // a live writer holds it
)

// AbandonedAge is how long a temporary file must have gone unmodified
// before Abandoned counts it: a writer flocks its file just after creating
// it, and one that is killed is swept by a later write.
const AbandonedAge = 30 * time.Second

// Abandoned lists path's temporary files (TempGlob) that no writer holds
// and that have not changed for AbandonedAge — left by a process that ended
// mid-write — and their total size, removing nothing. Where advisory locks
// are not available (not unix) it lists none.
func Abandoned(path string) (names []string, bytes int64) {
	return sizes(temps(path, abandonedTemp))
}

// abandonedTemp: unchanged for AbandonedAge and no writer's lock on it.
func abandonedTemp(name string, fi os.FileInfo) bool {
	return time.Since(fi.ModTime()) >= AbandonedAge && probe(name) == lockFree
}

// Writing lists path's temporary files that a live Write holds now (in
// this process or another) and their total size so far: path is being
// written. Where advisory locks are not available (not unix) it lists none.
func Writing(path string) (names []string, bytes int64) {
	return sizes(temps(path, func(n string, _ os.FileInfo) bool { return probe(n) == lockHeld }))
}

// SweepAbandoned removes path's temporary files that no writer holds
// (Abandoned) and returns the names and total size of those it removed. A
// temporary file being written by a live Write, in this process or
// another, is kept.
func SweepAbandoned(path string) (removed []string, bytes int64) {
	var gone []tempFile
	for _, f := range temps(path, abandonedTemp) {
		if os.Remove(f.name) == nil {
			gone = append(gone, f)
		}
	}
	return sizes(gone)
}

// tempFile is one of path's temporary files and its size.
type tempFile struct {
	name string
	size int64
}

// temps returns path's temporary files (regular files matching TempGlob)
// that keep accepts.
func temps(path string, keep func(name string, fi os.FileInfo) bool) []tempFile {
	all, _ := filepath.Glob(TempGlob(path))
	var out []tempFile
	for _, n := range all {
		if fi, err := os.Lstat(n); err == nil && fi.Mode().IsRegular() && keep(n, fi) {
			out = append(out, tempFile{n, fi.Size()})
		}
	}
	return out
}

func sizes(fs []tempFile) (names []string, bytes int64) {
	for _, f := range fs {
		names = append(names, f.name)
		bytes += f.size
	}
	return names, bytes
}
