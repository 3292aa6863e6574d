// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/cuseal/cuseal/internal/parallel"
)

// The parameter reader: every byte of a file-backed Params is read with
// pread (os.File.ReadAt) in chunks, never through a mapping, so a file
// that shrinks while in use yields an error instead of SIGBUS, and no page
// of it stays in the process once its chunk is decoded. Each chunk is
// followed by a check of the file's identity (size, mtime, inode, device:
// of the open file and of the path), so a file truncated, rewritten,
// appended to or replaced by rename fails the reads with *ChangedError.

// ErrParamsChanged is wrapped by every error about a parameter file that
// changed on disk (truncated, rewritten, appended to, replaced) while a
// Params read from it was in use: the read stops, and the Params is marked
// Changed so that caches load the file afresh.
var ErrParamsChanged = errors.New("changed while in use")

// ChangedError is ErrParamsChanged with the file and its identity when it
// was opened and now.
type ChangedError struct {
	File     string
	Was, Now FileIdentity
}

func (e *ChangedError) Error() string {
	return fmt.Sprintf("groth16: parameter file %s changed while in use (opened as %s; now %s): the proof using it failed; it will be read afresh by the next load",
		e.File, e.Was, e.Now)
}

func (e *ChangedError) Unwrap() error { return ErrParamsChanged }

// FileIdentity is what identifies one version of a file: its size, mtime,
// inode and device. A zero Inode means the file is missing (or could not
// be read).
type FileIdentity struct {
	Size   int64
	MTime  time.Time
	Inode  uint64
	Device uint64
}

func (id FileIdentity) String() string {
	if id.Inode == 0 && id.Size == 0 {
		return "missing or unreadable"
	}
	return fmt.Sprintf("%d bytes, modified %s, inode %d", id.Size, id.MTime.UTC().Format(time.RFC3339Nano), id.Inode)
}

// Equal reports whether a and b are the same version of a file.
func (id FileIdentity) Equal(o FileIdentity) bool {
	return id.Size == o.Size && id.MTime.Equal(o.MTime) && id.Inode == o.Inode && id.Device == o.Device
}

// IdentityOf is the identity of fi (from os.Stat or File.Stat).
func IdentityOf(fi os.FileInfo) FileIdentity {
	id := FileIdentity{Size: fi.Size(), MTime: fi.ModTime()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id.Inode, id.Device = uint64(st.Ino), uint64(st.Dev) // the field types differ by platform
	}
	return id
}

// paramSource is where a Params' bytes come from: an open file (checked
// after every chunk) or bytes held in memory (nothing to check).
type paramSource struct {
	name    string
	f       *os.File // nil: data
	data    []byte
	id      FileIdentity
	changed atomic.Pointer[ChangedError]
}

func (s *paramSource) size() int64 {
	if s.f == nil {
		return int64(len(s.data))
	}
	return s.id.Size
}

// check compares the open file's and the path's identity with the one
// recorded at open; a difference is remembered and returned as
// *ChangedError. A no-op for bytes in memory.
func (s *paramSource) check() error {
	if s.f == nil {
		return nil
	}
	if e := s.changed.Load(); e != nil {
		return e
	}
	var now FileIdentity
	fi, err := s.f.Stat()
	if err == nil {
		now = IdentityOf(fi)
		if now.Equal(s.id) {
			fi, err = os.Stat(s.name)
			now = FileIdentity{}
			if err == nil {
				now = IdentityOf(fi)
			}
		}
	}
	if now.Equal(s.id) {
		return nil
	}
	e := &ChangedError{File: s.name, Was: s.id, Now: now}
	s.changed.CompareAndSwap(nil, e)
	return s.changed.Load()
}

// readAt fills b from offset off. A short read of a file is a change when
// the identity check says so, else a truncation FormatError.
func (s *paramSource) readAt(b []byte, off int64, section string) error {
	if s.f == nil {
		if off+int64(len(b)) > int64(len(s.data)) {
			return &FormatError{s.name, section, -1, off, ErrTruncated}
		}
		copy(b, s.data[off:])
		return nil
	}
	_, err := s.f.ReadAt(b, off)
	if err == nil {
		return nil
	}
	if cerr := s.check(); cerr != nil {
		return cerr
	}
	if errors.Is(err, io.EOF) {
		return &FormatError{s.name, section, -1, off, fmt.Errorf("%w: %v", ErrTruncated, err)}
	}
	return fmt.Errorf("groth16: read %s at byte offset %d: %w", s.name, off, err)
}

// Chunking of section reads: chunkBytes between identity checks, each
// chunk read and decoded in blocks of blockBytes, one per worker at a time.
const (
	defaultChunkBytes = 64 << 20
	blockBytes        = 192 << 10 // a multiple of 96 and 192
)

// readHook is the test hook of SetReadHook.
type readHook struct {
	chunkBytes int
	after      func(file, section string, chunk int)
}

var hook atomic.Pointer[readHook]

// SetReadHook makes every section read of a file-backed Params use chunks
// of chunkBytes (rounded down to whole points; ≤ 0: the default) and call
// after(file, section, k) once chunk k of a section (counted from the
// section's start) has been read and decoded, before the next chunk: where a test changes the file between
// two chunks, deterministically. It returns the function restoring the
// previous hook. FOR TESTS ONLY; not safe to call during reads.
func SetReadHook(chunkBytes int, after func(file, section string, chunk int)) (restore func()) {
	old := hook.Swap(&readHook{chunkBytes, after})
	return func() { hook.Store(old) }
}

var blockPool = sync.Pool{New: func() any { b := make([]byte, blockBytes); return &b }}

// readSection decodes points [lo, hi) of section s, calling decode(i, b)
// for each point i with its encoded bytes: chunk by chunk, the blocks of
// a chunk in parallel, the file's identity checked before the first chunk
// and after each. Errors: *ChangedError, *FormatError (from decode: the
// point's index and offset), or an I/O error naming the file.
func (s *paramSource) readSection(sec Section, lo, hi int, decode func(i int, b []byte) error) error {
	if err := s.check(); err != nil {
		return err
	}
	h := hook.Load()
	chunkPts := defaultChunkBytes / sec.ElemSize
	if h != nil && h.chunkBytes > 0 {
		chunkPts = max(h.chunkBytes/sec.ElemSize, 1)
	}
	blockPts := blockBytes / sec.ElemSize
	// k counts chunks from the section's start (⌊c0/chunkPts⌋), so a read
	// of part of a section (the prover's chunks) names the same chunks.
	for k, c0 := lo/chunkPts, lo; c0 < hi; k, c0 = k+1, c0+chunkPts {
		c1 := min(c0+chunkPts, hi)
		nb := (c1 - c0 + blockPts - 1) / blockPts
		// Blocks handed out in order as workers come free: a chunk's end
		// waits for one block at most, not for a slower worker's half.
		err := parallel.Dynamic(nb, 0, func(_, bi int) error {
			b0 := c0 + bi*blockPts
			b1 := min(b0+blockPts, c1)
			bp := blockPool.Get().(*[]byte)
			defer blockPool.Put(bp)
			buf := (*bp)[:(b1-b0)*sec.ElemSize]
			if err := s.readAt(buf, sec.Offset+int64(b0*sec.ElemSize), sec.Name); err != nil {
				return err
			}
			for i := b0; i < b1; i++ {
				o := (i - b0) * sec.ElemSize
				if err := decode(i, buf[o:o+sec.ElemSize]); err != nil {
					return &FormatError{s.name, sec.Name, i, sec.Offset + int64(i*sec.ElemSize), err}
				}
			}
			return nil
		})
		if err != nil {
			// A point that fails to decode may be a chunk of a changed file.
			if cerr := s.check(); cerr != nil {
				return cerr
			}
			return err
		}
		if err := s.check(); err != nil {
			return err
		}
		if h != nil && h.after != nil {
			h.after(s.name, sec.Name, k)
		}
	}
	return nil
}

// readRange reads n bytes at off into a new slice (small headers: the vk,
// the counts), checked like a chunk.
func (s *paramSource) readRange(off int64, n int, section string) ([]byte, error) {
	b := make([]byte, n)
	if err := s.readAt(b, off, section); err != nil {
		return nil, err
	}
	return b, s.check()
}
