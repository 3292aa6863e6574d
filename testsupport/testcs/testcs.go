// SPDX-License-Identifier: Apache-2.0 OR MIT

package testcs

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
)

// CS records the constraint system like cs.Recorder and also keeps the
// values, so tests can check satisfaction, read and overwrite variables
// (bellpepper util_cs/test_cs.rs TestConstraintSystem). Constraints are
// tagged with the namespace path active when they were enforced.
type CS struct {
	*cs.Recorder
	input, aux []fr.Element

	path     []string
	pathIDs  []int    // per constraint: index into paths
	paths    []string // interned namespace paths
	curPath  int
	pathSeen map[string]int
}

// New returns an empty CS with ONE = 1 allocated as Input(0).
func New() *CS {
	var one fr.Element
	one.SetOne()
	// cs.NewRecorder allocates ONE.
	return &CS{Recorder: cs.NewRecorder(), input: []fr.Element{one}, pathSeen: map[string]int{"": 0}, paths: []string{""}}
}

// Alloc appends an aux variable with value *value (nil means zero).
func (t *CS) Alloc(value *fr.Element) cs.Variable {
	t.aux = append(t.aux, valueOrZero(value))
	return t.Recorder.Alloc(nil)
}

// AllocInput appends an input variable with value *value (nil means zero).
func (t *CS) AllocInput(value *fr.Element) cs.Variable {
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
func (t *CS) Enforce(a, b, c cs.LC) {
	t.Recorder.Enforce(a, b, c)
	t.pathIDs = append(t.pathIDs, t.curPath)
}

// KeepsNames implements cs.NameKeeper.
func (t *CS) KeepsNames() {}

// Push enters a namespace.
func (t *CS) Push(name string) {
	t.path = append(t.path, name)
	t.setPath()
}

// Pop leaves the innermost namespace.
func (t *CS) Pop() {
	if len(t.path) > 0 {
		t.path = t.path[:len(t.path)-1]
	}
	t.setPath()
}

func (t *CS) setPath() {
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
func (t *CS) Value(v cs.Variable) fr.Element {
	if v.IsAux() {
		return t.aux[v.Index()]
	}
	return t.input[v.Index()]
}

// Set overwrites the value of v (for negative tests).
func (t *CS) Set(v cs.Variable, value fr.Element) {
	if v.IsAux() {
		t.aux[v.Index()] = value
	} else {
		t.input[v.Index()] = value
	}
}

// Inputs returns the input assignment, ONE first (aliases t's storage).
func (t *CS) Inputs() []fr.Element { return t.input }

// AuxValues returns the aux assignment (aliases t's storage).
func (t *CS) AuxValues() []fr.Element { return t.aux }

// UnsatisfiedError names the first constraint that does not hold.
type UnsatisfiedError struct {
	Index int    // constraint index, 0-based in enforcement order
	Path  string // namespace path ("a/b/c"), empty at the root
}

func (e *UnsatisfiedError) Error() string {
	return fmt.Sprintf("testcs: constraint %d (namespace %q) is not satisfied", e.Index, e.Path)
}

// Validate evaluates every recorded constraint (the per-input rows are
// trivially satisfied and not checked) and returns an *UnsatisfiedError
// for the first one with ⟨A,w⟩·⟨B,w⟩ ≠ ⟨C,w⟩, or nil.
func (t *CS) Validate() error {
	sys := t.R1CS()
	rows := len(sys.A.RowStart) - 1
	a, b, c := make([]fr.Element, rows), make([]fr.Element, rows), make([]fr.Element, rows)
	sys.A.Eval(a, t.input, t.aux)
	sys.B.Eval(b, t.input, t.aux)
	sys.C.Eval(c, t.input, t.aux)
	for r := range t.NumConstraints() {
		a[r].Mul(&a[r], &b[r])
		if !a[r].Equal(&c[r]) {
			return &UnsatisfiedError{Index: r, Path: t.paths[t.pathIDs[r]]}
		}
	}
	return nil
}

// AssignmentDiff names the parts of got that differ from want: "A", "B",
// "C", "aux", "input", "A-aux density", "B-input density", "B-aux density"
// (none: the two are identical element for element). The evaluated- and
// block-path tests compare each path with the generic one by it.
func AssignmentDiff(got, want *cs.Assignment) []string {
	den := func(a, b cs.Density) bool { return slices.Equal(a.Words, b.Words) && a.BitLen == b.BitLen }
	var diff []string
	for _, v := range []struct {
		what string
		eq   bool
	}{
		{"A", slices.Equal(got.A, want.A)},
		{"B", slices.Equal(got.B, want.B)},
		{"C", slices.Equal(got.C, want.C)},
		{"aux", slices.Equal(got.Aux, want.Aux)},
		{"input", slices.Equal(got.Input, want.Input)},
		{"A-aux density", den(got.ADensityAux, want.ADensityAux)},
		{"B-input density", den(got.BDensityInput, want.BDensityInput)},
		{"B-aux density", den(got.BDensityAux, want.BDensityAux)},
	} {
		if !v.eq {
			diff = append(diff, v.what)
		}
	}
	return diff
}

// CheckPaths runs each of runs inside wrap (which switches a gadget's
// evaluated path on) and reports, under name and the run's key, every
// part of its assignment that differs from want (AssignmentDiff), or its
// error.
func CheckPaths(t testing.TB, name string, want *cs.Assignment, runs map[string]func() (*cs.Assignment, error), wrap func(func())) {
	t.Helper()
	for kind, run := range runs {
		var got *cs.Assignment
		var err error
		wrap(func() { got, err = run() })
		if err != nil {
			t.Fatalf("%s, %s: %v", name, kind, err)
		}
		for _, what := range AssignmentDiff(got, want) {
			t.Errorf("%s, %s: %s differs from the generic path", name, kind, what)
		}
	}
}
