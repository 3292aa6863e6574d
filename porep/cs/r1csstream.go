// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// R1CSStream computes the cuseal-r1cs-v1 digest (docs/digests.md §1) row by
// row without keeping the matrices, for circuits too large for Recorder (a
// 32 GiB WindowPoSt partition has 125M rows). The digest's header holds the
// counts, so they come first (prover view: ONE and the per-input rows
// included, as R1CS.Digest counts them); Digest fails if the circuit did not
// match them. Values are ignored. Rust twin: the streaming mode of
// cuseal-refproofs' recording CS (porep/stacked/testdata/refcircuit).
type R1CSStream struct {
	numInputs, numAux, rows       int
	wantInputs, wantAux, wantRows int
	d                             *digester
	m                             merger
}

// NewR1CSStream returns a stream for a circuit of numInputs inputs (ONE
// included), numAux aux variables and numConstraints rows (per-input rows
// included), with ONE allocated as Input(0).
func NewR1CSStream(numInputs, numAux, numConstraints int) *R1CSStream {
	s := &R1CSStream{wantInputs: numInputs, wantAux: numAux, wantRows: numConstraints,
		d: newDigester("cuseal-r1cs-v1")}
	s.d.u64(uint64(numInputs))
	s.d.u64(uint64(numAux))
	s.d.u64(uint64(numConstraints))
	s.AllocInput(nil)
	return s
}

// Alloc counts an aux variable (the value is ignored).
func (s *R1CSStream) Alloc(*fr.Element) Variable {
	s.numAux++
	return Aux(s.numAux - 1)
}

// AllocInput counts an input variable (the value is ignored).
func (s *R1CSStream) AllocInput(*fr.Element) Variable {
	s.numInputs++
	return Input(s.numInputs - 1)
}

// Enforce hashes one merged row.
func (s *R1CSStream) Enforce(a, b, c LC) {
	s.row(s.m.merge(a))
	s.row(s.m.merge(b))
	s.row(s.m.merge(c))
	s.rows++
}

func (s *R1CSStream) row(lc LC) {
	s.d.u32(uint32(len(lc)))
	for i := range lc {
		if lc[i].Var.IsAux() {
			s.d.u8(1)
		} else {
			s.d.u8(0)
		}
		s.d.u32(uint32(lc[i].Var.Index()))
		s.d.fr(&lc[i].Coeff)
	}
}

// Push is a no-op.
func (s *R1CSStream) Push(string) {}

// Pop is a no-op.
func (s *R1CSStream) Pop() {}

// Digest appends the per-input rows (A = 1·Input(i), B = C = 0) and returns
// the digest. Errors: counts other than those given to NewR1CSStream.
func (s *R1CSStream) Digest() ([32]byte, error) {
	var one fr.Element
	one.SetOne()
	for i := 0; i < s.numInputs; i++ {
		s.row(LC{{Coeff: one, Var: Input(i)}})
		s.row(nil)
		s.row(nil)
		s.rows++
	}
	if s.numInputs != s.wantInputs || s.numAux != s.wantAux || s.rows != s.wantRows {
		return [32]byte{}, fmt.Errorf("cs: r1cs stream: circuit has %d inputs, %d aux, %d rows; the header says %d, %d, %d",
			s.numInputs, s.numAux, s.rows, s.wantInputs, s.wantAux, s.wantRows)
	}
	return s.d.sum(), nil
}
