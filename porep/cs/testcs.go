// SPDX-License-Identifier: Apache-2.0 OR MIT

package cs

import (
	"fmt"
	"strings"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// TestCS records the constraint system like Recorder and also keeps the
// values, so tests can check satisfaction, read and overwrite variables
// (bellpepper util_cs/test_cs.rs TestConstraintSystem). Constraints are
// tagged with the namespace path active when they were enforced.
type TestCS struct {
	Recorder
	input, aux []fr.Element

	path     []string
	pathIDs  []int    // per constraint: index into paths
	paths    []string // interned namespace paths
	curPath  int
	pathSeen map[string]int
}

// NewTestCS returns an empty TestCS with ONE = 1 allocated as Input(0).
func NewTestCS() *TestCS {
	t := &TestCS{pathSeen: map[string]int{"": 0}, paths: []string{""}}
	for _, m := range []*Matrix{&t.a, &t.b, &t.c} {
		m.RowStart = []int{0}
	}
	var one fr.Element
	one.SetOne()
	t.AllocInput(&one)
	return t
}

// Alloc appends an aux variable with value *value (nil means zero).
func (t *TestCS) Alloc(value *fr.Element) Variable {
	t.aux = append(t.aux, valueOrZero(value))
	return t.Recorder.Alloc(nil)
}

// AllocInput appends an input variable with value *value (nil means zero).
func (t *TestCS) AllocInput(value *fr.Element) Variable {
	t.input = append(t.input, valueOrZero(value))
	return t.Recorder.AllocInput(nil)
}

func valueOrZero(v *fr.Element) fr.Element {
	if v == nil {
		return fr.Element{}
	}
	return *v
}

// Enforce records the constraint and the current namespace path.
func (t *TestCS) Enforce(a, b, c LC) {
	t.Recorder.Enforce(a, b, c)
	t.pathIDs = append(t.pathIDs, t.curPath)
}

// KeepsNames implements NameKeeper.
func (t *TestCS) KeepsNames() {}

// Push enters a namespace.
func (t *TestCS) Push(name string) {
	t.path = append(t.path, name)
	t.setPath()
}

// Pop leaves the innermost namespace.
func (t *TestCS) Pop() {
	if len(t.path) > 0 {
		t.path = t.path[:len(t.path)-1]
	}
	t.setPath()
}

func (t *TestCS) setPath() {
	p := strings.Join(t.path, "/")
	id, ok := t.pathSeen[p]
	if !ok {
		id = len(t.paths)
		t.paths = append(t.paths, p)
		t.pathSeen[p] = id
	}
	t.curPath = id
}

// Value returns the value of v.
func (t *TestCS) Value(v Variable) fr.Element {
	if v.IsAux() {
		return t.aux[v.Index()]
	}
	return t.input[v.Index()]
}

// Set overwrites the value of v (for negative tests).
func (t *TestCS) Set(v Variable, value fr.Element) {
	if v.IsAux() {
		t.aux[v.Index()] = value
	} else {
		t.input[v.Index()] = value
	}
}

// Inputs returns the input assignment, ONE first (aliases t's storage).
func (t *TestCS) Inputs() []fr.Element { return t.input }

// AuxValues returns the aux assignment (aliases t's storage).
func (t *TestCS) AuxValues() []fr.Element { return t.aux }

// UnsatisfiedError names the first constraint that does not hold.
type UnsatisfiedError struct {
	Index int    // constraint index, 0-based in enforcement order
	Path  string // namespace path ("a/b/c"), empty at the root
}

func (e *UnsatisfiedError) Error() string {
	return fmt.Sprintf("cs: constraint %d (namespace %q) is not satisfied", e.Index, e.Path)
}

// Validate evaluates every recorded constraint (the per-input rows are
// trivially satisfied and not checked) and returns an *UnsatisfiedError
// for the first one with ⟨A,w⟩·⟨B,w⟩ ≠ ⟨C,w⟩, or nil.
func (t *TestCS) Validate() error {
	n := t.NumConstraints()
	for r := 0; r < n; r++ {
		a := rowValue(&t.a, r, t.input, t.aux)
		b := rowValue(&t.b, r, t.input, t.aux)
		c := rowValue(&t.c, r, t.input, t.aux)
		a.Mul(&a, &b)
		if !a.Equal(&c) {
			return &UnsatisfiedError{Index: r, Path: t.paths[t.pathIDs[r]]}
		}
	}
	return nil
}

func rowValue(m *Matrix, r int, input, aux []fr.Element) fr.Element {
	var acc, tmp fr.Element
	for k := m.RowStart[r]; k < m.RowStart[r+1]; k++ {
		v := m.Vars[k]
		if v.IsAux() {
			tmp.Mul(&m.Coeffs[k], &aux[v.Index()])
		} else {
			tmp.Mul(&m.Coeffs[k], &input[v.Index()])
		}
		acc.Add(&acc, &tmp)
	}
	return acc
}
