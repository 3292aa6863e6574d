// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"hash"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// digester streams the canonical encodings of docs/digests.md into
// SHA-256 through a buffer (the a/b/c vectors of a real partition are GBs).
type digester struct {
	h hash.Hash
	w *bufio.Writer
	b [32]byte
}

func newDigester(tag string) *digester {
	d := &digester{h: sha256.New()}
	d.w = bufio.NewWriterSize(d.h, 1<<16)
	d.w.WriteString(tag)
	return d
}

func (d *digester) u64(x uint64) {
	binary.LittleEndian.PutUint64(d.b[:8], x)
	d.w.Write(d.b[:8])
}

func (d *digester) u32(x uint32) {
	binary.LittleEndian.PutUint32(d.b[:4], x)
	d.w.Write(d.b[:4])
}

func (d *digester) u8(x uint8) { d.w.WriteByte(x) }

// fr writes the 32-byte canonical little-endian encoding of e.
func (d *digester) fr(e *fr.Element) {
	fr.LittleEndian.PutElement(&d.b, *e)
	d.w.Write(d.b[:])
}

func (d *digester) frs(v []fr.Element) {
	for i := range v {
		d.fr(&v[i])
	}
}

func (d *digester) sum() (out [32]byte) {
	d.w.Flush()
	d.h.Sum(out[:0])
	return out
}

// WitnessDigest returns H("cuseal-witness-v1" ‖ u64(n_in) ‖ fr(input)… ‖
// u64(n_aux) ‖ fr(aux)…), docs/digests.md §2.
func (a *Assignment) WitnessDigest() [32]byte {
	d := newDigester("cuseal-witness-v1")
	d.u64(uint64(len(a.Input)))
	d.frs(a.Input)
	d.u64(uint64(len(a.Aux)))
	d.frs(a.Aux)
	return d.sum()
}

// ABCDigest returns H("cuseal-abc-v1" ‖ u64(n) ‖ fr(a)… ‖ fr(b)… ‖ fr(c)…),
// docs/digests.md §3; n includes the per-input rows.
func (a *Assignment) ABCDigest() [32]byte {
	d := newDigester("cuseal-abc-v1")
	d.u64(uint64(len(a.A)))
	d.frs(a.A)
	d.frs(a.B)
	d.frs(a.C)
	return d.sum()
}

// DensityDigest returns H("cuseal-density-v1" ‖ for D in (A-aux, B-input,
// B-aux): u64(bit_len) ‖ u64(popcount) ‖ words as u64), docs/digests.md §4.
func (a *Assignment) DensityDigest() [32]byte {
	d := newDigester("cuseal-density-v1")
	for _, den := range []Density{a.ADensityAux, a.BDensityInput, a.BDensityAux} {
		d.u64(uint64(den.BitLen))
		d.u64(uint64(den.PopCount()))
		for _, w := range den.Words {
			d.u64(w)
		}
	}
	return d.sum()
}

// Digest returns the cuseal-r1cs-v1 digest of r (docs/digests.md
// §1). r must include the per-input rows (as Recorder.R1CS returns it);
// its matrices are merged, non-zero and sorted, as Matrix requires.
func (r *R1CS) Digest() [32]byte {
	d := newDigester("cuseal-r1cs-v1")
	n := r.NumConstraints()
	d.u64(uint64(r.NumInputs))
	d.u64(uint64(r.NumAux))
	d.u64(uint64(n))
	for row := 0; row < n; row++ {
		for _, m := range [3]*Matrix{&r.A, &r.B, &r.C} {
			lo, hi := m.RowStart[row], m.RowStart[row+1]
			d.u32(uint32(hi - lo))
			for k := lo; k < hi; k++ {
				v := m.Vars[k]
				if v.IsAux() {
					d.u8(1)
				} else {
					d.u8(0)
				}
				d.u32(uint32(v.Index()))
				d.fr(&m.Coeffs[k])
			}
		}
	}
	return d.sum()
}

// NumConstraints returns the number of rows of r (input rows included).
func (r *R1CS) NumConstraints() int {
	if len(r.A.RowStart) == 0 {
		return 0
	}
	return len(r.A.RowStart) - 1
}
