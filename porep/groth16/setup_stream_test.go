// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"
	"github.com/consensys/gnark-crypto/utils"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// synthFunc is a circuit for these tests: it synthesizes into any system.
type synthFunc func(sys cs.ConstraintSystem)

// shapeOf records f and returns its R1CS and shape (cs.SizeHint).
func shapeOf(f synthFunc) (*cs.R1CS, cs.SizeHint) {
	rec := cs.NewRecorder()
	f(rec)
	return rec.R1CS(), cs.SizeHint{Constraints: rec.NumConstraints(), Inputs: rec.NumInputs(), Aux: rec.NumAux()}
}

// streamBytes synthesizes f into a StreamSetup and returns the .params
// bytes and the verifying key.
func streamBytes(t *testing.T, f synthFunc, shape cs.SizeHint, tw ToxicWaste) ([]byte, *VerifyingKey) {
	t.Helper()
	s, err := NewStreamSetup(shape, tw)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f(s)
	var buf bytes.Buffer
	vk, err := s.WriteParams(context.Background(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), vk
}

// setupBytes is the in-memory Setup's .params encoding and key.
func setupBytes(t *testing.T, r *cs.R1CS, tw ToxicWaste) ([]byte, *VerifyingKey) {
	t.Helper()
	p, err := Setup(r, tw)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := p.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), &p.VK
}

// rootTau returns toxic waste whose τ is ω^k of the domain m.
func rootTau(m, k int) ToxicWaste {
	tw := ToxicWasteFromSeed(seed32(5))
	w, _ := fr.Generator(uint64(m))
	tw.Tau.SetOne()
	for i := 0; i < k; i++ {
		tw.Tau.Mul(&tw.Tau, &w)
	}
	return tw
}

// TestStreamSetupMatchesSetup: the streamed generator writes byte for byte
// what the in-memory Setup (R1CS recorded, Lagrange basis by inverse FFT)
// writes, for circuits of several shapes: with and without public inputs,
// inputs allocated after aux, aux variables in no A or B (absent from the
// a/b queries), cancelling duplicate terms and zero coefficients (the
// random circuits), a domain of 1, rows across Lagrange chunks, and τ an
// m-th root of unity inside and past the rows.
func TestStreamSetupMatchesSetup(t *testing.T) {
	cases := []struct {
		name string
		f    synthFunc
		tw   ToxicWaste
	}{
		{"random/inputs=2", randomCircuit{shapeSeed: 3, valueSeed: 1, nPub: 2, nAux0: 3, nCons: 9}.synth, ToxicWasteFromSeed(seed32(1))},
		{"random/inputs=0/m=exact", randomCircuit{shapeSeed: 4, valueSeed: 1, nPub: 0, nAux0: 2, nCons: 7}.synth, ToxicWasteFromSeed(seed32(2))},
		{"random/many-constraints", randomCircuit{shapeSeed: 9, valueSeed: 1, nPub: 5, nAux0: 40, nCons: 3*lagrangeChunk + 17}.synth, ToxicWasteFromSeed(seed32(3))},
		{"domain=1", func(cs.ConstraintSystem) {}, ToxicWasteFromSeed(seed32(4))},
		{"domain=1/tau=1", func(cs.ConstraintSystem) {}, rootTau(1, 0)},
		{"c-only-aux/late-inputs", cOnlyCircuit, ToxicWasteFromSeed(seed32(6))},
		{"tau=root-in-rows", repeatCircuit, rootTau(8, 2)},
		{"tau=0", cOnlyCircuit, ToxicWaste{Alpha: seedFr(1), Beta: seedFr(2), Gamma: seedFr(3), Delta: seedFr(4)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, shape := shapeOf(c.f)
			want, wantVK := setupBytes(t, r, c.tw)
			got, gotVK := streamBytes(t, c.f, shape, c.tw)
			if !bytes.Equal(got, want) {
				t.Fatalf("streamed params differ from Setup's (%d vs %d bytes, first difference at %d)", len(got), len(want), firstDiff(got, want))
			}
			if !bytes.Equal(gotVK.Bytes(), wantVK.Bytes()) {
				t.Fatal("streamed verifying key differs from Setup's")
			}
			if !bytes.Equal(want[:len(wantVK.Bytes())], wantVK.Bytes()) {
				t.Fatal("the .params does not start with the verifying key")
			}
		})
	}
}

// TestCachedSetupMatchesSetup: CachedSetup (the streamed generator fed a
// recorded R1CS row by row) writes Setup's bytes.
func TestCachedSetupMatchesSetup(t *testing.T) {
	r := randomCircuit{shapeSeed: 12, valueSeed: 1, nPub: 3, nAux0: 7, nCons: 300}.r1cs(t)
	want, _ := setupBytes(t, r, ToxicWasteFromSeed(seed32(9)))
	p, err := CachedSetup(t.TempDir(), r, seed32(9))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var got bytes.Buffer
	if _, err := p.WriteTo(&got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("CachedSetup's params differ from Setup's at byte %d", firstDiff(got.Bytes(), want))
	}
}

func (c randomCircuit) synth(sys cs.ConstraintSystem) { c.synthesize(sys) }

func seedFr(x uint64) fr.Element {
	var e fr.Element
	e.SetUint64(x*7919 + 13)
	return e
}

// cOnlyCircuit allocates aux that appear only in C (zero a/b density),
// inputs after aux, and an input used in no constraint but its own row.
func cOnlyCircuit(sys cs.ConstraintSystem) {
	var one, two fr.Element
	one.SetOne()
	two.SetUint64(2)
	x := sys.Alloc(nil)
	y := sys.Alloc(nil) // only in C
	in1 := sys.AllocInput(nil)
	z := sys.Alloc(nil)
	sys.Enforce(cs.LC{{Coeff: one, Var: x}}, cs.LC{{Coeff: two, Var: in1}}, cs.LC{{Coeff: one, Var: y}})
	sys.Enforce(cs.LC{{Coeff: one, Var: cs.One}, {Coeff: fr.Element{}, Var: z}}, cs.LC{{Coeff: one, Var: x}, {Coeff: one, Var: x}}, cs.LC{{Coeff: one, Var: z}})
	sys.AllocInput(nil) // in no constraint
}

// repeatCircuit: one aux x in five rows x·1 = x and one public input:
// seven rows, domain 8.
func repeatCircuit(sys cs.ConstraintSystem) {
	var one fr.Element
	one.SetOne()
	sys.AllocInput(nil)
	x := sys.Alloc(nil)
	for range 5 {
		sys.Enforce(cs.LC{{Coeff: one, Var: x}}, cs.LC{{Coeff: one, Var: cs.One}}, cs.LC{{Coeff: one, Var: x}})
	}
}

// TestLagrangeStream: the chunked L_j(τ) equals the inverse FFT of the
// powers of τ (what Setup uses) for every j, across chunk boundaries, and
// the product formula on a small domain.
func TestLagrangeStream(t *testing.T) {
	for _, m := range []int{1, 2, 16, 2 * lagrangeChunk} {
		tw := ToxicWasteFromSeed(seed32(byte(m)))
		want := make([]fr.Element, m)
		powersOf(want, &tw.Tau)
		if m > 1 {
			fft.NewDomain(uint64(m)).FFTInverse(want, fft.DIF)
			utils.BitReverse(want)
		}
		if m <= 16 {
			naive := naiveLagrange(m, tw.Tau)
			for j := range naive {
				if !naive[j].Equal(&want[j]) {
					t.Fatalf("m=%d: inverse FFT disagrees with the product formula at %d", m, j)
				}
			}
		}
		var g lagrangeStream
		g.init(m, &tw)
		for j := 0; j < m; j++ {
			l, bl, al := g.at(j)
			var wb, wa fr.Element
			wb.Mul(&want[j], &tw.Beta)
			wa.Mul(&want[j], &tw.Alpha)
			if !l.Equal(&want[j]) || !bl.Equal(&wb) || !al.Equal(&wa) {
				t.Fatalf("m=%d: L_%d(τ) differs", m, j)
			}
		}
	}
}

// TestStreamSetupRejects: a circuit of another shape than announced, an
// unconstrained aux, zero γ or δ, and a cancelled write leave errors (and
// no file).
func TestStreamSetupRejects(t *testing.T) {
	c := randomCircuit{shapeSeed: 3, valueSeed: 1, nPub: 1, nAux0: 2, nCons: 5}
	_, shape := shapeOf(c.synth)
	tw := ToxicWasteFromSeed(seed32(1))
	finish := func(shape cs.SizeHint, f synthFunc) error {
		s, err := NewStreamSetup(shape, tw)
		if err != nil {
			return err
		}
		defer s.Close()
		f(s)
		return s.Finish()
	}
	for name, sh := range map[string]cs.SizeHint{
		"fewer aux":         {Constraints: shape.Constraints, Inputs: shape.Inputs, Aux: shape.Aux - 1},
		"fewer inputs":      {Constraints: shape.Constraints, Inputs: shape.Inputs - 1, Aux: shape.Aux},
		"more constraints":  {Constraints: shape.Constraints + 1, Inputs: shape.Inputs, Aux: shape.Aux},
		"fewer constraints": {Constraints: 1, Inputs: shape.Inputs, Aux: shape.Aux},
	} {
		if err := finish(sh, c.synth); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// τ = ω^7 of the domain 8 lies past repeatCircuit's seven rows: every
	// L_j(τ) is zero, so x's l scalar is (Setup says the same).
	_, rshape := shapeOf(repeatCircuit)
	s, err := NewStreamSetup(rshape, rootTau(8, 7))
	if err != nil {
		t.Fatal(err)
	}
	repeatCircuit(s)
	if _, err := s.WriteParams(context.Background(), io.Discard); !errors.Is(err, ErrUnconstrainedVariable) {
		t.Errorf("τ past the rows: got %v", err)
	}
	unconstrained := shape
	unconstrained.Aux++
	err = finish(unconstrained, func(sys cs.ConstraintSystem) { c.synth(sys); sys.Alloc(nil) })
	if !errors.Is(err, ErrUnconstrainedVariable) {
		t.Errorf("unconstrained aux: got %v", err)
	}
	bad := tw
	bad.Gamma = fr.Element{}
	if _, err := NewStreamSetup(shape, bad); err == nil {
		t.Error("zero γ accepted")
	}
	if _, err := NewStreamSetup(cs.SizeHint{Inputs: 0}, tw); err == nil {
		t.Error("a shape without ONE accepted")
	}

	s, err = NewStreamSetup(shape, tw)
	if err != nil {
		t.Fatal(err)
	}
	c.synth(s)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	path := filepath.Join(dir, "x.params")
	if _, err := s.WriteParamsFile(ctx, path); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled write: got %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("a cancelled write left %v", ents)
	}
}

// TestStreamSetupBellpersonGolden: the streamed generator reproduces
// bellperson's .params and .vk of the reference circuits (the files in
// testdata, or their SHA-256 in refDigests).
func TestStreamSetupBellpersonGolden(t *testing.T) {
	tw := ToxicWasteFromSeed(refToxicSeed)
	for name, c := range refCircuits {
		t.Run(name, func(t *testing.T) {
			_, shape := shapeOf(c.synth)
			got, vk := streamBytes(t, c.synth, shape, tw)
			gotSHA, vkSHA := sha256.Sum256(got), sha256.Sum256(vk.Bytes())
			want := refDigests[name]
			if want[0] == "" {
				base := filepath.Join("testdata", "bellperson_"+name)
				for i, ext := range []string{".params", ".vk"} {
					b, err := os.ReadFile(base + ext)
					if err != nil {
						t.Fatal(err)
					}
					d := sha256.Sum256(b)
					want[i] = hex.EncodeToString(d[:])
				}
			}
			if hex.EncodeToString(gotSHA[:]) != want[0] {
				t.Errorf(".params SHA-256 %x, bellperson's %s", gotSHA, want[0])
			}
			if hex.EncodeToString(vkSHA[:]) != want[1] {
				t.Errorf(".vk SHA-256 %x, bellperson's %s", vkSHA, want[1])
			}
		})
	}
}

// TestScalarDigit: every window size up to the largest tables' reads the
// scalar's bits as math/big does, across 64-bit word boundaries.
func TestScalarDigit(t *testing.T) {
	var minus1 fr.Element
	minus1.SetOne()
	minus1.Neg(&minus1)
	scalars := []fr.Element{minus1, seedFr(1), seedFr(12345)}
	for i := 0; i < 8; i++ {
		var s fr.Element
		s.SetRandom()
		scalars = append(scalars, s)
	}
	for c := 2; c <= max(fbMaxWindowG1, fbMaxWindowG2); c++ {
		for _, s := range scalars {
			bits := s.Bits()
			x := s.BigInt(new(big.Int))
			for w := 0; w*c < frBits; w++ {
				want := new(big.Int).Rsh(x, uint(w*c))
				want.And(want, big.NewInt(1<<c-1))
				if got := scalarDigit(&bits, w, c); got != want.Uint64() {
					t.Fatalf("c=%d window %d: digit %d, want %d", c, w, got, want.Uint64())
				}
			}
		}
	}
}

// TestFixedBaseLargestWindows: the largest tables (16-bit G1, 19-bit G2
// windows, what a 32 GiB partition's setup builds) give gnark's points.
func TestFixedBaseLargestWindows(t *testing.T) {
	testenv.Long(t, "the 1.4 GB G2 table of the largest windows takes half a minute to build")
	_, _, gen1, gen2 := bls.Generators()
	var minus1 fr.Element
	minus1.SetOne()
	minus1.Neg(&minus1)
	scalars := []fr.Element{{}, minus1, seedFr(3)}
	for i := 0; i < 20; i++ {
		var s fr.Element
		s.SetRandom()
		scalars = append(scalars, s)
	}
	out1 := make([]bls.G1Affine, len(scalars))
	if t1 := newFixedBase[bls.G1Affine, bls.G1Jac, fp.Element, *fp.Element, g1](&gen1, 1<<40, fbMaxWindowG1); t1.c == fbMaxWindowG1 {
		t1.mul(out1, scalars)
	} else {
		t.Fatalf("G1 table has %d-bit windows, want %d", t1.c, fbMaxWindowG1)
	}
	debug.FreeOSMemory() // one table at a time
	out2 := make([]bls.G2Affine, len(scalars))
	if t2 := newFixedBase[bls.G2Affine, bls.G2Jac, bls.E2, *bls.E2, g2](&gen2, 1<<40, fbMaxWindowG2); t2.c == fbMaxWindowG2 {
		t2.mul(out2, scalars)
	} else {
		t.Fatalf("G2 table has %d-bit windows, want %d", t2.c, fbMaxWindowG2)
	}
	for i := range scalars {
		if want := g1Base(scalars[i]); !out1[i].Equal(&want) {
			t.Fatalf("G1 scalar %d", i)
		}
		if want := g2Base(scalars[i]); !out2[i].Equal(&want) {
			t.Fatalf("G2 scalar %d", i)
		}
	}
}
