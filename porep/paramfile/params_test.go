// SPDX-License-Identifier: Apache-2.0 OR MIT

package paramfile

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"

	"github.com/cuseal/cuseal/porep/groth16"
)

// TestVKDifference names the first differing field.
func TestVKDifference(t *testing.T) {
	_, _, g1, g2 := bls.Generators()
	var g1x2 bls.G1Affine
	g1x2.Add(&g1, &g1)
	a := groth16.VerifyingKey{Alpha1: g1, Beta1: g1, Beta2: g2, Gamma2: g2, Delta1: g1, Delta2: g2, IC: []bls.G1Affine{g1, g1}}
	if d := vkDifference(&a, &a); d != "" {
		t.Fatalf("equal keys differ in %s", d)
	}
	b := a
	b.IC = []bls.G1Affine{g1, g1x2}
	if d := vkDifference(&a, &b); d != "ic[1]" {
		t.Fatalf("difference %q, want ic[1]", d)
	}
	b.Delta1 = g1x2
	if d := vkDifference(&a, &b); d != "delta_g1" {
		t.Fatalf("difference %q, want delta_g1", d)
	}
}

// TestParamFileErrorPermission: a parameter file the user may not read is
// the user's to fix (ErrBadInput), named with its path in one line. As root
// mode 000 is still readable, so the os error is classified directly
// (porep's TestParamFileKinds covers the file when it bites).
func TestParamFileErrorPermission(t *testing.T) {
	pe := &fs.PathError{Op: "open", Path: "/p/x.params", Err: fs.ErrPermission}
	if err := paramFileError("/p/x.params", pe); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "/p/x.params: permission denied") {
		t.Fatalf("paramFileError(permission) = %v; want ErrBadInput naming the file", err)
	}
}
