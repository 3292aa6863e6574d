// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import (
	"strconv"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// Variable names one R1CS variable: an input (ONE is Input(0)) or an aux
// (witness) variable. The top bit holds the kind, the rest the index.
type Variable uint32

const auxBit = Variable(1) << 31

// One is the constant-one input variable, allocated before synthesis.
const One = Variable(0)

// Input returns the i-th input variable (Input(0) = ONE).
func Input(i int) Variable { return Variable(i) }

// Aux returns the i-th aux (witness) variable.
func Aux(i int) Variable { return Variable(i) | auxBit }

// IsAux reports whether v is an aux variable.
func (v Variable) IsAux() bool { return v&auxBit != 0 }

// Index returns v's index within its kind.
func (v Variable) Index() int { return int(v &^ auxBit) }

// Term is coeff·var.
type Term struct {
	Coeff fr.Element
	Var   Variable
}

// LC is a linear combination, a list of terms. Duplicate variables are
// allowed in the slice; their coefficients are merged (summed) wherever it
// matters (density, matrices, digests), exactly as bellpepper's Indexer does.
type LC []Term

// ConstraintSystem is what gadgets synthesize into. Implementations must not
// retain the LC slices passed to Enforce beyond the call (callers reuse them).
//
// value may be nil where values do not matter (shape-only synthesis): the
// Counter and Recorder ignore values, ProvingAssignment (and the tests'
// testcs.CS) store nil as zero. Implementations copy *value and never retain the pointer.
type ConstraintSystem interface {
	// Alloc appends an aux variable with the given value.
	Alloc(value *fr.Element) Variable
	// AllocInput appends an input variable with the given value.
	AllocInput(value *fr.Element) Variable
	// Enforce adds the constraint ⟨a,w⟩·⟨b,w⟩ = ⟨c,w⟩.
	Enforce(a, b, c LC)
	// Push and Pop name the enclosing namespace for error messages only.
	Push(name string)
	Pop()
}

// Density is a bitmap over variables: bit i (LSB-first within 64-bit words)
// is set iff variable i appears with a non-zero merged coefficient in some
// LC of the tracked matrix. Bits past BitLen in the last word are zero.
type Density struct {
	Words  []uint64
	BitLen int
}

// Assignment is what synthesis hands to a Groth16 backend (see
// docs/architecture.md): evaluations per constraint — including the
// per-input rows input_i·0 = 0 appended after the circuit — the input
// assignment (ONE first), the aux assignment and the three density bitmaps.
// Field elements are Montgomery form, gnark-crypto layout.
type Assignment struct {
	A, B, C []fr.Element
	Input   []fr.Element
	Aux     []fr.Element

	ADensityAux   Density // A-aux density (inputs are always dense in A)
	BDensityInput Density // B-input density
	BDensityAux   Density // B-aux density

	pooled *bufferSet // BufferPool storage, for BufferPool.Release
}

// Matrix is one of A, B, C in compressed sparse rows: row r's terms are
// Vars[RowStart[r]:RowStart[r+1]] with Coeffs likewise, merged, non-zero,
// sorted by (kind: input first, index).
type Matrix struct {
	RowStart []int
	Vars     []Variable
	Coeffs   []fr.Element
}

// R1CS is a recorded constraint system as the prover sees it: NumInputs
// counts ONE, and the per-input rows input_i·0 = 0 are included after the
// circuit's constraints.
type R1CS struct {
	NumInputs, NumAux int
	A, B, C           Matrix
}

// SizeHint pre-sizes an implementation so that synthesis of a circuit of
// known shape appends without reallocating. Zero fields mean "unknown".
// Constraints counts the circuit's constraints only (the per-input rows are
// added from Inputs); Inputs counts ONE.
type SizeHint struct {
	Constraints int
	Aux         int
	Inputs      int
}

// NameKeeper is implemented by the constraint systems whose namespace
// names are kept (testsupport/testcs's CS names the namespace of an
// unsatisfied constraint); for every other system Push and Pop are no-ops.
type NameKeeper interface {
	KeepsNames()
}

// PushIndexed is sys.Push(prefix + i), with the name formatted only for a
// NameKeeper: the per-sector and per-challenge namespaces of the prover's
// systems cost nothing.
func PushIndexed(sys ConstraintSystem, prefix string, i int) {
	if _, ok := sys.(NameKeeper); ok {
		sys.Push(prefix + strconv.Itoa(i))
		return
	}
	sys.Push(prefix)
}
