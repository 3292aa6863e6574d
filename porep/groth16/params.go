// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/cuseal/cuseal/internal/atomicfile"
)

// Section describes one point vector of a `.params` file: where its first
// element starts (absolute byte offset, just after the u32 count), how many
// elements it holds and their encoded size (96 for G1, 192 for G2).
type Section struct {
	Name     string
	Offset   int64
	Count    int
	ElemSize int
}

// query indexes, in file order.
const (
	qH = iota
	qL
	qA
	qBG1
	qBG2
	numQueries
)

var queryNames = [numQueries]string{SectionH, SectionL, SectionA, SectionBG1, SectionBG2}

// Params is a Groth16 proving key in bellperson's layout (docs/formats.md §1):
// the verifying key, then the h, l, a, b_g1, b_g2 queries.
//
// A Params is either file-backed (OpenParams / ParseParams: the vk is
// decoded eagerly, each query is located by byte offset and decoded on
// demand, in parallel, by H/L/A/BG1/BG2 — bellperson MappedParameters,
// read with pread instead of a mapping, see paramreader.go) or
// memory-backed (Setup: the queries are held decoded). Query accessors
// return fresh slices for file-backed params and the held slices for
// memory-backed (or preloaded, see Preload) ones; callers must not modify
// them. A file that changes on disk while in use makes the reads fail
// with ErrParamsChanged (and Changed report true), never the process.
//
// A Params is safe for concurrent use. Close closes the file.
type Params struct {
	VK VerifyingKey

	name    string // file path or caller-chosen name
	path    string // the file, for OpenParams; "" otherwise
	checked bool
	src     *paramSource // nil when memory-backed or closed
	sec     [numQueries]Section

	mem *queries // memory-backed queries, nil when file-backed

	// preloaded holds queries decoded by Preload (file-backed only).
	preloaded atomic.Pointer[queries]
	preloadMu sync.Mutex

	closeOnce sync.Once
	closeErr  error
}

// queries holds decoded query vectors (memory-backed Params).
type queries struct {
	h, l, a, bg1 []bls.G1Affine
	bg2          []bls.G2Affine
}

// OpenParams opens a `.params` file and parses it: the vk eagerly
// (always subgroup-checked), the query sections by offset only; the file
// stays open and its identity (size, mtime, inode) is recorded, which
// every later read checks (ErrParamsChanged). checked
// selects how the queries are decoded later: true = on-curve and subgroup
// checks (blstrs from_uncompressed), false = canonical coordinates and
// on-curve only (from_uncompressed_unchecked, what rust-fil-proofs uses in
// production behind the file digest). The file size must match the counts
// exactly. Errors are *FormatError naming the file, section and offset.
func OpenParams(path string, checked bool) (*Params, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("groth16: open params: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("groth16: stat params: %w", err)
	}
	if st.Size() == 0 {
		f.Close()
		return nil, &FormatError{path, SectionVK, 0, 0, fmt.Errorf("%w: empty file", ErrTruncated)}
	}
	p, err := parseParams(&paramSource{name: path, f: f, id: IdentityOf(st)}, checked)
	if err != nil {
		f.Close()
		return nil, err
	}
	p.path = path
	return p, nil
}

// ParseParams parses `.params` bytes held in memory (same checks as
// OpenParams; data is retained, not copied). name is used in errors.
func ParseParams(data []byte, name string, checked bool) (*Params, error) {
	return parseParams(&paramSource{name: name, data: data}, checked)
}

// vkHeadSize is the vk's bytes before its IC points: the six fixed points
// and the IC count.
const vkHeadSize = vkFixedSize + 4

func parseParams(src *paramSource, checked bool) (*Params, error) {
	name, size := src.name, src.size()
	head, err := src.readRange(0, int(min(size, vkHeadSize)), SectionVK)
	if err != nil {
		return nil, err
	}
	vkLen := int64(len(head))
	if vkLen == vkHeadSize {
		// An IC count past the end is refused before reading that far.
		count, err := checkCount(head[vkFixedSize:], vkFixedSize, size, name, SectionIC, G1UncompressedSize)
		if err != nil {
			return nil, err
		}
		vkLen += int64(count) * G1UncompressedSize
	}
	if head, err = src.readRange(0, int(vkLen), SectionVK); err != nil {
		return nil, err
	}
	vk, o, err := parseVK(head, name)
	if err != nil {
		return nil, err
	}
	off := int64(o)
	p := &Params{VK: *vk, name: name, checked: checked, src: src}
	for q := 0; q < numQueries; q++ {
		esize := G1UncompressedSize
		if q == qBG2 {
			esize = G2UncompressedSize
		}
		var b []byte
		if size-off >= 4 {
			if b, err = src.readRange(off, 4, queryNames[q]); err != nil {
				return nil, err
			}
		}
		count, err := checkCount(b, off, size, name, queryNames[q], esize)
		if err != nil {
			return nil, err
		}
		p.sec[q] = Section{Name: queryNames[q], Offset: off + 4, Count: count, ElemSize: esize}
		off += 4 + int64(count*esize)
	}
	if off != size {
		return nil, &FormatError{name, SectionBG2, -1, off, fmt.Errorf("%w: %d bytes after b_g2", ErrTrailingData, size-off)}
	}
	return p, nil
}

// Changed reports whether the file of a file-backed Params has changed
// since it was opened (size, mtime, inode or device, of the open file or
// of its path): its reads then fail with ErrParamsChanged, and a cache
// holding it must open the file afresh. The check costs two stat calls.
func (p *Params) Changed() bool {
	src := p.src
	return src != nil && src.check() != nil
}

// Close closes the file of a file-backed Params. Accessors must not be
// called after (they then fail: the file is closed).
func (p *Params) Close() error {
	p.closeOnce.Do(func() {
		if p.src != nil && p.src.f != nil {
			p.closeErr = p.src.f.Close()
		}
		p.preloaded.Store(nil)
	})
	return p.closeErr
}

// Preload decodes every query of a file-backed Params once and keeps the
// decoded vectors, so later H/L/A/BG1/BG2 calls (one per QuerySums on the
// CPU backend) return them without decoding again. It costs about the
// file size in memory (decoded points are as large as encoded ones). A
// no-op for memory-backed params and when already preloaded; safe for
// concurrent use. Decoding errors are returned as by the accessors.
func (p *Params) Preload() error {
	if p.mem != nil {
		return nil
	}
	p.preloadMu.Lock()
	defer p.preloadMu.Unlock()
	if p.preloaded.Load() != nil {
		return nil
	}
	q := new(queries)
	var err error
	if q.h, err = p.g1Query(qH); err != nil {
		return err
	}
	if q.l, err = p.g1Query(qL); err != nil {
		return err
	}
	if q.a, err = p.g1Query(qA); err != nil {
		return err
	}
	if q.bg1, err = p.g1Query(qBG1); err != nil {
		return err
	}
	if q.bg2, err = p.BG2(); err != nil {
		return err
	}
	p.preloaded.Store(q)
	return nil
}

// decoded returns the memory-backed or preloaded queries, or nil.
func (p *Params) decoded() *queries {
	if p.mem != nil {
		return p.mem
	}
	return p.preloaded.Load()
}

// Name returns the file path (or name) the params were read from; "" for
// memory-backed params.
func (p *Params) Name() string { return p.name }

// Path returns the file an OpenParams Params was read from ("" for params
// parsed from memory or made by Setup): backends that load the proving key
// themselves (supraseal) read the same file.
func (p *Params) Path() string { return p.path }

// Checked reports whether queries are subgroup-checked when decoded.
func (p *Params) Checked() bool { return p.checked }

// Sections returns the five query sections (h, l, a, b_g1, b_g2) in file
// order. For memory-backed params Offset is where the section would start
// in the encoded file.
func (p *Params) Sections() [5]Section {
	if p.mem == nil {
		return p.sec
	}
	var s [numQueries]Section
	off := int64(p.VK.EncodedSize())
	counts := [numQueries]int{len(p.mem.h), len(p.mem.l), len(p.mem.a), len(p.mem.bg1), len(p.mem.bg2)}
	for q := 0; q < numQueries; q++ {
		size := G1UncompressedSize
		if q == qBG2 {
			size = G2UncompressedSize
		}
		s[q] = Section{Name: queryNames[q], Offset: off + 4, Count: counts[q], ElemSize: size}
		off += 4 + int64(counts[q]*size)
	}
	return s
}

// NumH, NumL, NumA, NumBG1, NumBG2 return the query lengths.
func (p *Params) NumH() int   { return p.Sections()[qH].Count }
func (p *Params) NumL() int   { return p.Sections()[qL].Count }
func (p *Params) NumA() int   { return p.Sections()[qA].Count }
func (p *Params) NumBG1() int { return p.Sections()[qBG1].Count }
func (p *Params) NumBG2() int { return p.Sections()[qBG2].Count }

// DomainSize is the FFT domain size m = |h| + 1 (a power of two).
func (p *Params) DomainSize() int { return p.NumH() + 1 }

// RawSection returns the encoded points of a file-backed section (no count
// prefix) without decoding them: a new slice read through the parameter
// reader (chunked pread, identity-checked: ErrParamsChanged), the
// section's size in memory. It is meant for native loaders that
// deserialize on their own. It fails for memory-backed params.
func (p *Params) RawSection(name string) ([]byte, error) {
	if p.mem != nil || p.src == nil {
		return nil, fmt.Errorf("groth16: RawSection(%q): params are not file-backed", name)
	}
	for _, s := range p.sec {
		if s.Name == name {
			out := make([]byte, s.Count*s.ElemSize)
			err := p.src.readSection(s, 0, s.Count, func(i int, b []byte) error {
				copy(out[i*s.ElemSize:], b)
				return nil
			})
			if err != nil {
				return nil, err
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("groth16: RawSection: unknown section %q", name)
}

// H returns the h query (τ^i·Z(τ)/δ, i < m−1).
func (p *Params) H() ([]bls.G1Affine, error) { return p.g1Query(qH) }

// L returns the l query ((β·u_i + α·v_i + w_i)/δ per aux variable).
func (p *Params) L() ([]bls.G1Affine, error) { return p.g1Query(qL) }

// A returns the density-filtered a query (inputs, then A-dense aux).
func (p *Params) A() ([]bls.G1Affine, error) { return p.g1Query(qA) }

// BG1 returns the density-filtered b_g1 query (B-dense inputs, then aux).
func (p *Params) BG1() ([]bls.G1Affine, error) { return p.g1Query(qBG1) }

// BG2 returns the density-filtered b_g2 query.
func (p *Params) BG2() ([]bls.G2Affine, error) {
	if d := p.decoded(); d != nil {
		return d.bg2, nil
	}
	return readQuery[bls.G2Affine](p, qBG2, decodeG2Uncompressed)
}

func (p *Params) g1Query(q int) ([]bls.G1Affine, error) {
	if d := p.decoded(); d != nil {
		switch q {
		case qH:
			return d.h, nil
		case qL:
			return d.l, nil
		case qA:
			return d.a, nil
		default:
			return d.bg1, nil
		}
	}
	return readQuery[bls.G1Affine](p, q, decodeG1Uncompressed)
}

// readQuery decodes query q of a file-backed Params whole, through the
// parameter reader.
func readQuery[P any](p *Params, q int, decode func(*P, []byte, bool) error) ([]P, error) {
	if p.src == nil {
		return nil, fmt.Errorf("groth16: %s: params closed", p.name)
	}
	s := p.sec[q]
	out := make([]P, s.Count)
	err := p.src.readSection(s, 0, s.Count, func(i int, b []byte) error {
		return decode(&out[i], b, p.checked)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// WriteTo writes the params in bellperson's Parameters::write layout. For
// file-backed params the queries are copied byte for byte.
func (p *Params) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	var n int64
	k, err := p.VK.WriteTo(bw)
	n += k
	if err != nil {
		return n, err
	}
	for q := 0; q < numQueries; q++ {
		k, err := p.writeQuery(bw, q)
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, bw.Flush()
}

func (p *Params) writeQuery(w io.Writer, q int) (int64, error) {
	var buf [4]byte
	if p.mem == nil {
		if p.src == nil {
			return 0, fmt.Errorf("groth16: %s: params closed", p.name)
		}
		s := p.sec[q]
		binary.BigEndian.PutUint32(buf[:], uint32(s.Count))
		if _, err := w.Write(buf[:]); err != nil {
			return 0, err
		}
		// One chunk at a time, in order: the points of a chunk are
		// gathered, then written.
		n := int64(4)
		for lo := 0; lo < s.Count; lo += writeChunkPoints {
			hi := min(lo+writeChunkPoints, s.Count)
			b := make([]byte, (hi-lo)*s.ElemSize)
			err := p.src.readSection(s, lo, hi, func(i int, e []byte) error {
				copy(b[(i-lo)*s.ElemSize:], e)
				return nil
			})
			if err != nil {
				return n, err
			}
			k, err := w.Write(b)
			n += int64(k)
			if err != nil {
				return n, err
			}
		}
		return n, nil
	}
	var g1 []bls.G1Affine
	switch q {
	case qH:
		g1 = p.mem.h
	case qL:
		g1 = p.mem.l
	case qA:
		g1 = p.mem.a
	case qBG1:
		g1 = p.mem.bg1
	}
	n := int64(4)
	if q == qBG2 {
		binary.BigEndian.PutUint32(buf[:], uint32(len(p.mem.bg2)))
		if _, err := w.Write(buf[:]); err != nil {
			return 0, err
		}
		for i := range p.mem.bg2 {
			b := p.mem.bg2[i].RawBytes()
			k, err := w.Write(b[:])
			n += int64(k)
			if err != nil {
				return n, err
			}
		}
		return n, nil
	}
	binary.BigEndian.PutUint32(buf[:], uint32(len(g1)))
	if _, err := w.Write(buf[:]); err != nil {
		return 0, err
	}
	for i := range g1 {
		b := g1[i].RawBytes()
		k, err := w.Write(b[:])
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// writeChunkPoints is how many points WriteTo copies at a time.
const writeChunkPoints = 1 << 16

// WriteParamsFile writes p to path atomically (temporary file in the same
// directory, fsync, rename): an existing file is replaced only by a
// complete one.
func WriteParamsFile(path string, p *Params) error {
	return writeFileAtomic(path, func(w io.Writer) error {
		_, err := p.WriteTo(w)
		return err
	})
}

// writeFileAtomic writes path through internal/atomicfile (no partial file
// at path, ever), naming it in the error.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	if err := atomicfile.Write(path, write); err != nil {
		return fmt.Errorf("groth16: write %s: %w", path, err)
	}
	return nil
}
