// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/cuseal/cuseal/porep/cs"
)

func TestSyntheticShape(t *testing.T) {
	if _, err := NewSyntheticShape(9); err == nil {
		t.Fatal("log 9 accepted")
	}
	s, err := NewSyntheticShape(10)
	if err != nil {
		t.Fatal(err)
	}
	if s.Constraints != 993 || s.Aux != 993 || s.Inputs != 16 {
		t.Fatalf("shape %+v", s)
	}
	path := filepath.Join(t.TempDir(), "synthetic.params")
	p, wrote, err := SyntheticParams(path, s)
	if err != nil || !wrote {
		t.Fatalf("first: wrote %v, %v", wrote, err)
	}
	defer p.Close()
	st, err := os.Stat(path)
	if err != nil || st.Size() != s.SyntheticParamsSize() {
		t.Fatalf("size %v, want %d (%v)", st.Size(), s.SyntheticParamsSize(), err)
	}
	if p.DomainSize() != 1<<10 || p.NumL() != s.Aux {
		t.Fatalf("domain %d, l %d", p.DomainSize(), p.NumL())
	}
	a := SyntheticAssignment(s, 1)
	if err := ValidateAssignment(p, a); err != nil {
		t.Fatal(err)
	}
	if b := SyntheticAssignment(s, 1); b.Aux[100] != a.Aux[100] || b.C[5] != a.C[5] {
		t.Fatal("same seed, different values")
	}
	if _, err := Prove(context.Background(), &CPUBackend{}, p, []*cs.Assignment{a}, []Randomness{RandomnessFromSeed(seed32(3), 0)}); err != nil {
		t.Fatal(err)
	}
	p2, wrote, err := SyntheticParams(path, s)
	if err != nil || wrote {
		t.Fatalf("second: wrote %v, %v", wrote, err)
	}
	p2.Close()
}

// The synthetic densities and assignments do not depend on GOMAXPROCS (a
// cached params file must agree with assignments made by another process).
func TestSyntheticIndependentOfGOMAXPROCS(t *testing.T) {
	s, err := NewSyntheticShape(18) // Aux > 2^17: several random streams
	if err != nil {
		t.Fatal(err)
	}
	var want *cs.Assignment
	for _, procs := range []int{1, 3, 2} {
		old := runtime.GOMAXPROCS(procs)
		got := SyntheticAssignment(s, 7)
		runtime.GOMAXPROCS(old)
		if want == nil {
			want = got
			continue
		}
		if !slices.Equal(got.Aux, want.Aux) || !slices.Equal(got.A, want.A) ||
			!slices.Equal(got.ADensityAux.Words, want.ADensityAux.Words) || !slices.Equal(got.BDensityAux.Words, want.BDensityAux.Words) {
			t.Fatalf("GOMAXPROCS %d: synthetic assignment differs from GOMAXPROCS 1", procs)
		}
	}
}
