// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"fmt"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
)

// G1Chunks calls fn on points [lo, hi) of the G1 query section (SectionH,
// SectionL, SectionA or SectionBG1), in order, in chunks of at most
// len(bufs[0]) points: fn(first, pts) gets points first…first+len(pts)−1.
//
// A file-backed Params decodes each chunk through the parameter reader
// (chunked pread, the file's identity checked: ErrParamsChanged, a
// *FormatError naming the point) into bufs[0] and bufs[1] in turn; when
// bufs[1] is not nil (it must then be as long as bufs[0]) the next chunk is
// decoded on another goroutine while fn runs on the current one, so at most
// the two buffers are held, whatever the query's length. Memory-backed and
// preloaded params pass views of their held vectors, in chunks of the same
// size, without copying. pts is valid only during fn and must not be
// modified. fn's error is returned as is, and no chunk is read after it.
// When G1Chunks returns, nothing writes into bufs any more.
func (p *Params) G1Chunks(section string, lo, hi int, bufs [2][]bls.G1Affine, fn func(first int, pts []bls.G1Affine) error) error {
	q, ok := queryIndex(section)
	if !ok || q == qBG2 {
		return fmt.Errorf("groth16: G1Chunks: %q is not a G1 query", section)
	}
	return queryChunks(p, q, lo, hi, len(bufs[0]), bufs, fn)
}

// G2Chunks is G1Chunks for the b_g2 query.
func (p *Params) G2Chunks(lo, hi int, bufs [2][]bls.G2Affine, fn func(first int, pts []bls.G2Affine) error) error {
	return queryChunks(p, qBG2, lo, hi, len(bufs[0]), bufs, fn)
}

// queryIndex maps a query's section name to its index.
func queryIndex(section string) (int, bool) {
	for q, n := range queryNames {
		if n == section {
			return q, true
		}
	}
	return 0, false
}

// held returns query q of the memory-backed or preloaded queries, or nil.
func (p *Params) held(q int) any {
	d := p.decoded()
	if d == nil {
		return nil
	}
	switch q {
	case qH:
		return d.h
	case qL:
		return d.l
	case qA:
		return d.a
	case qBG1:
		return d.bg1
	}
	return d.bg2
}

// queryChunks is G1Chunks and G2Chunks with chunks of n points (bufs, of
// at least n points each, are not used for held queries): P is
// bls.G1Affine for qH…qBG1 and bls.G2Affine for qBG2.
func queryChunks[P any](p *Params, q, lo, hi, n int, bufs [2][]P, fn func(int, []P) error) error {
	name := queryNames[q]
	switch {
	case n <= 0:
		return fmt.Errorf("groth16: %s chunks: chunks of %d points", name, n)
	case lo < 0 || hi < lo || hi > p.Sections()[q].Count:
		return fmt.Errorf("groth16: %s chunks: range [%d, %d) outside the query's %d points", name, lo, hi, p.Sections()[q].Count)
	}
	if h := p.held(q); h != nil {
		v := h.([]P)
		for c := lo; c < hi; c += n {
			if err := fn(c, v[c:min(c+n, hi)]); err != nil {
				return err
			}
		}
		return nil
	}
	switch {
	case len(bufs[0]) < n:
		return fmt.Errorf("groth16: %s chunks: a buffer of %d points for chunks of %d", name, len(bufs[0]), n)
	case bufs[1] != nil && len(bufs[1]) < n:
		return fmt.Errorf("groth16: %s chunks: a second buffer of %d points for chunks of %d", name, len(bufs[1]), n)
	}
	src := p.src
	if src == nil {
		return fmt.Errorf("groth16: %s: params closed", p.name)
	}
	var decode func(*P, []byte, bool) error
	if q == qBG2 {
		decode = any(decodeG2Uncompressed).(func(*P, []byte, bool) error)
	} else {
		decode = any(decodeG1Uncompressed).(func(*P, []byte, bool) error)
	}
	sec := p.sec[q]
	read := func(c0 int, buf []P) ([]P, error) {
		buf = buf[:min(n, hi-c0)]
		return buf, src.readSection(sec, c0, c0+len(buf), func(i int, b []byte) error {
			return decode(&buf[i-c0], b, p.checked)
		})
	}
	if bufs[1] == nil || hi-lo <= n {
		for c := lo; c < hi; c += n {
			pts, err := read(c, bufs[0])
			if err != nil {
				return err
			}
			if err := fn(c, pts); err != nil {
				return err
			}
		}
		return nil
	}
	// Two buffers: the reader decodes chunk k+1 into bufs[(k+1)%2] while fn
	// runs on chunk k; the unbuffered channel hands a chunk over only once
	// fn is done with the buffer the reader fills next.
	type chunk struct {
		first int
		pts   []P
		err   error
	}
	ch := make(chan chunk)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(ch)
		for k, c := 0, lo; c < hi; k, c = k+1, c+n {
			pts, err := read(c, bufs[k%2])
			select {
			case ch <- chunk{c, pts, err}:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	defer func() {
		close(stop)
		<-done // nothing writes into bufs after return
	}()
	for c := range ch {
		if c.err != nil {
			return c.err
		}
		if err := fn(c.first, c.pts); err != nil {
			return err
		}
	}
	return nil
}
