// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"bufio"
	"context"
	"encoding/binary"
	"io"
	"math/big"
	"runtime"
	"runtime/debug"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
)

// The query writer of StreamSetup: once the circuit is evaluated at τ, the
// queries are computed setupWriteChunk points at a time by the fixed-base
// tables and written as they are made.

// WriteParams writes the parameters to w in bellperson's Parameters::write
// layout (the vk, then h, l, a, b_g1, b_g2, each with its big-endian u32
// count), computing each query chunk by chunk and writing it as it is
// made, and returns the verifying key (the .vk's content). It calls
// Finish first. ctx is checked between chunks; on an error the bytes
// written so far are not a valid file (write through internal/atomicfile).
// The vectors are released as their queries are written: s can write once.
func (s *StreamSetup) WriteParams(ctx context.Context, w io.Writer) (*VerifyingKey, error) {
	if err := s.Finish(); err != nil {
		return nil, err
	}
	defer s.Close()
	bw := bufio.NewWriterSize(w, 1<<20)
	nB := countNonZero(s.v)
	vk, err := s.writeG1(ctx, bw, nB)
	if err != nil {
		return nil, err
	}
	// The G1 table (up to ~1.3 GB) goes back before the G2 one is built.
	debug.FreeOSMemory()
	_, _, _, g2 := bls.Generators()
	tab2 := newFixedBaseG2(&g2, nB)
	bufs := newSectionBuffers[bls.G2Affine](G2UncompressedSize)
	if err := writeQuerySection(ctx, bw, tab2, nB, nonZeroSource(s.v), appendG2, bufs); err != nil {
		return nil, err
	}
	return vk, bw.Flush()
}

// writeG1 writes the vk and the G1 queries h, l, a and b_g1 (nB points)
// with one G1 table, releasing ext and u once written.
func (s *StreamSetup) writeG1(ctx context.Context, w io.Writer, nB int) (*VerifyingKey, error) {
	nIn, nVars := s.shape.Inputs, s.shape.Inputs+s.shape.Aux
	nA := countNonZero(s.u)
	_, _, g1, g2 := bls.Generators()
	tw := &s.tw
	tab1 := newFixedBaseG1(&g1, s.m-1+nVars+nA+nB+3)
	var vkG1 [3]bls.G1Affine
	tab1.mul(vkG1[:], []fr.Element{tw.Alpha, tw.Beta, tw.Delta})
	var vkG2 [3]bls.G2Affine
	newFixedBaseG2(&g2, 3).mul(vkG2[:], []fr.Element{tw.Beta, tw.Gamma, tw.Delta})
	vk := &VerifyingKey{
		Alpha1: vkG1[0], Beta1: vkG1[1], Delta1: vkG1[2],
		Beta2: vkG2[0], Gamma2: vkG2[1], Delta2: vkG2[2],
		IC: make([]bls.G1Affine, nIn),
	}
	tab1.mul(vk.IC, s.ext[:nIn])
	if _, err := vk.WriteTo(w); err != nil {
		return nil, err
	}
	sections := []struct {
		count int
		src   func([]fr.Element)
		done  func()
	}{
		{s.m - 1, s.hSource(), nil},
		{s.shape.Aux, sliceSource(s.ext[nIn:]), func() { s.releaseVec(2) }},
		{nA, nonZeroSource(s.u), func() { s.releaseVec(0) }},
		{nB, nonZeroSource(s.v), nil},
	}
	bufs := newSectionBuffers[bls.G1Affine](G1UncompressedSize)
	for _, sec := range sections {
		if err := writeQuerySection(ctx, w, tab1, sec.count, sec.src, appendG1, bufs); err != nil {
			return nil, err
		}
		if sec.done != nil {
			sec.done()
		}
	}
	return vk, nil
}

// hSource hands out the h scalars τ^i·Z(τ)/δ, i = 0, 1, … (bellperson: m−1
// of them).
func (s *StreamSetup) hSource() func([]fr.Element) {
	tw := &s.tw
	var coeff, one, deltaInv fr.Element
	one.SetOne()
	coeff.Exp(tw.Tau, big.NewInt(int64(s.m)))
	coeff.Sub(&coeff, &one)
	deltaInv.Inverse(&tw.Delta)
	coeff.Mul(&coeff, &deltaInv)
	return func(dst []fr.Element) {
		for i := range dst {
			dst[i] = coeff
			coeff.Mul(&coeff, &tw.Tau)
		}
	}
}

// releaseVec unmaps u (0), v (1) or ext (2) once its queries are written.
func (s *StreamSetup) releaseVec(k int) {
	if k < len(s.release) && s.release[k] != nil {
		s.release[k]()
		s.release[k] = nil
	}
	switch k {
	case 0:
		s.u = nil
	case 1:
		s.v = nil
	case 2:
		s.ext = nil
	}
}

// writeQuerySection writes one query: the big-endian u32 count, then the
// count points scalar·G, computed setupWriteChunk at a time from src (which
// fills its argument with the next scalars) and encoded uncompressed.
func writeQuerySection[A, J, F any, PF fbField[F], G fbGroup[A, J, F]](ctx context.Context, w io.Writer,
	tab *fixedBase[A, J, F, PF, G], count int, src func([]fr.Element), enc func([]byte, *A) []byte, bufs *sectionBuffers[A]) error {
	var cnt [4]byte
	binary.BigEndian.PutUint32(cnt[:], uint32(count))
	if _, err := w.Write(cnt[:]); err != nil {
		return err
	}
	for lo := 0; lo < count; lo += setupWriteChunk {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(setupWriteChunk, count-lo)
		scalars, pts := bufs.scalars[:n], bufs.pts[:n]
		src(scalars)
		tab.mul(pts, scalars)
		buf := bufs.enc[:0]
		for i := range pts {
			buf = enc(buf, &pts[i])
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
		bufs.enc = buf
	}
	return nil
}

// sectionBuffers is the storage of one chunk of a query, reused by every
// section of a group (the Go heap then holds little garbage beside the
// tables).
type sectionBuffers[A any] struct {
	scalars []fr.Element
	pts     []A
	enc     []byte
}

func newSectionBuffers[A any](pointSize int) *sectionBuffers[A] {
	return &sectionBuffers[A]{
		scalars: make([]fr.Element, setupWriteChunk),
		pts:     make([]A, setupWriteChunk),
		enc:     make([]byte, 0, setupWriteChunk*pointSize),
	}
}

// sliceSource hands out s's elements in order.
func sliceSource(s []fr.Element) func([]fr.Element) {
	return func(dst []fr.Element) {
		s = s[copy(dst, s):]
	}
}

// nonZeroSource hands out s's non-zero elements in order (the a, b_g1 and
// b_g2 queries drop the identity points).
func nonZeroSource(s []fr.Element) func([]fr.Element) {
	i := 0
	return func(dst []fr.Element) {
		for k := range dst {
			for s[i].IsZero() {
				i++
			}
			dst[k] = s[i]
			i++
		}
	}
}

// countNonZero counts s's non-zero elements.
func countNonZero(s []fr.Element) int {
	n := 0
	for i := range s {
		if !s[i].IsZero() {
			n++
		}
	}
	return n
}

// WriteParamsFile writes the parameters to path atomically (s.WriteParams
// into a temporary file renamed over path: never a partial file at path)
// and returns the verifying key.
func (s *StreamSetup) WriteParamsFile(ctx context.Context, path string) (*VerifyingKey, error) {
	var vk *VerifyingKey
	err := writeFileAtomic(path, func(w io.Writer) error {
		var err error
		vk, err = s.WriteParams(ctx, w)
		return err
	})
	if err != nil {
		return nil, err
	}
	return vk, nil
}

// StreamSetupMemory is the most memory in bytes a StreamSetup of the given
// shape holds while it runs, V its variables and m its domain:
//
//	max(96·V + T1, 32·V + T2) + chunk + scratch
//
// u, v and ext (3 × 32 bytes per variable, outside the Go heap) are all
// alive while the G1 queries are made with the G1 table T1; ext and u are
// released once l and a are written, and the G1 table before the G2 table
// T2 is built, so only v (32·V) meets T2. T1 and T2 are the tables
// newFixedBase picks for at most m − 1 + 3·V + 3 G1 and V G2 scalars
// (⌈255/c⌉·(2^c − 1) points of 96 or 192 bytes: at most ~101 MB and ~1.41
// GB). chunk is one chunk of query scalars, G2 points and their encoding
// (setupWriteChunk of each) with the 1 MiB write buffer and one chunk of
// Lagrange values; scratch is the per-worker scratch of the table build
// and of mul. The synthesis of the circuit and the Go runtime come on top.
func StreamSetupMemory(shape cs.SizeHint) uint64 {
	const (
		e2      = G2UncompressedSize / 2 // one G2 coordinate (bls.E2)
		chunk   = setupWriteChunk*(fr.Bytes+2*G2UncompressedSize) + 1<<20 + 4*lagrangeChunk*fr.Bytes
		scratch = fbBuildChunk*(3*e2+e2) + // Jacobian G2 points and the prefix products
			fbChunk*(fr.Bytes+1+4+8+2*e2) // fbScratch of G2
	)
	m, err := setupDomain(shape.Constraints + shape.Inputs)
	if err != nil {
		m = 1 << (frTwoAdicity - 1)
	}
	nV := shape.Inputs + shape.Aux
	vec := uint64(fr.Bytes) * uint64(nV)
	g1Phase := 3*vec + fbTableBytes(m-1+3*nV+3, fbMaxWindowG1, G1UncompressedSize)
	g2Phase := vec + fbTableBytes(nV, fbMaxWindowG2, G2UncompressedSize)
	return max(g1Phase, g2Phase) + chunk + uint64(runtime.GOMAXPROCS(0))*scratch
}
