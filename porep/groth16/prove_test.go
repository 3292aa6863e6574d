// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
)

// testCircuit is the default mid-size circuit of this file: 3 public
// inputs, ~700 constraints (domain 1024).
var testCircuit = randomCircuit{shapeSeed: 7, valueSeed: 1, nPub: 3, nAux0: 40, nCons: 700}

var (
	testParamsOnce sync.Once
	testParams     *Params
	testParamsErr  error
)

// sharedParams generates the test circuit's parameters once per test run.
func sharedParams(t *testing.T) *Params {
	t.Helper()
	testParamsOnce.Do(func() {
		rec := cs.NewRecorder()
		testCircuit.synthesize(rec)
		testParams, testParamsErr = Setup(rec.R1CS(), ToxicWasteFromSeed(seed32(1)))
	})
	if testParamsErr != nil {
		t.Fatal(testParamsErr)
	}
	return testParams
}

func proveOne(t *testing.T, p *Params, a *cs.Assignment, rs Randomness) Proof {
	t.Helper()
	proofs, err := Prove(context.Background(), &CPUBackend{}, p, []*cs.Assignment{a}, []Randomness{rs})
	if err != nil {
		t.Fatal(err)
	}
	return proofs[0]
}

func TestProveVerifyRoundTrip(t *testing.T) {
	p := sharedParams(t)
	if got, want := p.DomainSize(), 1024; got != want {
		t.Fatalf("domain size %d, want %d", got, want)
	}
	pvk, err := PrepareVerifyingKey(&p.VK)
	if err != nil {
		t.Fatal(err)
	}
	// two witnesses of the same circuit, proved in one batch
	c2 := testCircuit
	c2.valueSeed = 99
	a1, pub1 := testCircuit.assignment(t)
	a2, pub2 := c2.assignment(t)
	rs := []Randomness{RandomnessFromSeed(seed32(5), 0), RandomnessFromSeed(seed32(5), 1)}
	proofs, err := Prove(context.Background(), &CPUBackend{}, p, []*cs.Assignment{a1, a2}, rs)
	if err != nil {
		t.Fatal(err)
	}
	if err := pvk.Verify(&proofs[0], pub1); err != nil {
		t.Fatalf("proof 0: %v", err)
	}
	if err := pvk.Verify(&proofs[1], pub2); err != nil {
		t.Fatalf("proof 1: %v", err)
	}
	if err := pvk.VerifyBatch(proofs, [][]fr.Element{pub1, pub2}); err != nil {
		t.Fatalf("batch: %v", err)
	}
	// swapped public inputs must fail, single and batch
	if err := pvk.Verify(&proofs[0], pub2); !errors.Is(err, ErrInvalidProof) {
		t.Fatalf("proof 0 with pub 1: got %v, want ErrInvalidProof", err)
	}
	if err := pvk.VerifyBatch(proofs, [][]fr.Element{pub2, pub1}); !errors.Is(err, ErrInvalidProof) {
		t.Fatalf("batch with swapped inputs: got %v, want ErrInvalidProof", err)
	}
	// random r, s from crypto/rand also verify
	rnd, err := NewRandomness()
	if err != nil {
		t.Fatal(err)
	}
	pr := proveOne(t, p, a1, rnd)
	if err := pvk.Verify(&pr, pub1); err != nil {
		t.Fatalf("random r,s: %v", err)
	}
	// ProveAndVerify self-check passes
	if _, err := ProveAndVerify(context.Background(), &CPUBackend{}, p, []*cs.Assignment{a1}, rs[:1]); err != nil {
		t.Fatal(err)
	}
}

func TestVerifyRejects(t *testing.T) {
	p := sharedParams(t)
	pvk, _ := PrepareVerifyingKey(&p.VK)
	a, pub := testCircuit.assignment(t)
	good := proveOne(t, p, a, RandomnessFromSeed(seed32(9), 0))
	if err := pvk.Verify(&good, pub); err != nil {
		t.Fatal(err)
	}

	t.Run("tampered", func(t *testing.T) {
		for k, mut := range []func(*Proof){
			func(pr *Proof) { pr.A.Add(&pr.A, &p.VK.Alpha1) },
			func(pr *Proof) { pr.B.Add(&pr.B, &p.VK.Beta2) },
			func(pr *Proof) { pr.C.Add(&pr.C, &p.VK.Delta1) },
			func(pr *Proof) { pr.A, pr.C = pr.C, pr.A },
		} {
			bad := good
			mut(&bad)
			if err := pvk.Verify(&bad, pub); !errors.Is(err, ErrInvalidProof) {
				t.Errorf("mutation %d: got %v, want ErrInvalidProof", k, err)
			}
			if err := pvk.VerifyBatch([]Proof{good, bad}, [][]fr.Element{pub, pub}); !errors.Is(err, ErrInvalidProof) {
				t.Errorf("mutation %d in batch: got %v, want ErrInvalidProof", k, err)
			}
		}
	})
	t.Run("tampered bytes", func(t *testing.T) {
		enc := good.Bytes()
		for _, pos := range []int{5, 60, 150} {
			b := enc
			b[pos] ^= 1
			var pr Proof
			if err := pr.SetBytes(b[:]); err != nil {
				continue // no longer a valid point: rejected at decoding
			}
			if err := pvk.Verify(&pr, pub); !errors.Is(err, ErrInvalidProof) {
				t.Errorf("byte %d flipped: got %v, want ErrInvalidProof", pos, err)
			}
		}
	})
	t.Run("wrong public input", func(t *testing.T) {
		for i := range pub {
			bad := append([]fr.Element(nil), pub...)
			var one fr.Element
			one.SetOne()
			bad[i].Add(&bad[i], &one)
			if err := pvk.Verify(&good, bad); !errors.Is(err, ErrInvalidProof) {
				t.Errorf("input %d changed: got %v, want ErrInvalidProof", i, err)
			}
		}
		if err := pvk.Verify(&good, pub[:2]); err == nil || errors.Is(err, ErrInvalidProof) {
			t.Errorf("too few inputs: got %v, want a count error", err)
		}
	})
	t.Run("other params", func(t *testing.T) {
		rec := cs.NewRecorder()
		testCircuit.synthesize(rec)
		other, err := Setup(rec.R1CS(), ToxicWasteFromSeed(seed32(2)))
		if err != nil {
			t.Fatal(err)
		}
		pr := proveOne(t, other, a, RandomnessFromSeed(seed32(9), 0))
		otherPVK, _ := PrepareVerifyingKey(&other.VK)
		if err := otherPVK.Verify(&pr, pub); err != nil {
			t.Fatalf("proof under its own params: %v", err)
		}
		if err := pvk.Verify(&pr, pub); !errors.Is(err, ErrInvalidProof) {
			t.Fatalf("proof from other params: got %v, want ErrInvalidProof", err)
		}
	})
	t.Run("unsatisfied witness", func(t *testing.T) {
		// overwrite one aux value: the QAP no longer divides, the proof fails
		bad := *a
		bad.Aux = append([]fr.Element(nil), a.Aux...)
		var one fr.Element
		one.SetOne()
		bad.Aux[len(bad.Aux)-1].Add(&bad.Aux[len(bad.Aux)-1], &one)
		pr := proveOne(t, p, &bad, RandomnessFromSeed(seed32(9), 0))
		if err := pvk.Verify(&pr, pub); !errors.Is(err, ErrInvalidProof) {
			t.Fatalf("unsatisfied witness: got %v, want ErrInvalidProof", err)
		}
	})
}

// TestDeterministicProofs: fixed r, s give identical bytes across runs and
// GOMAXPROCS values, and the derivation is per partition.
func TestDeterministicProofs(t *testing.T) {
	p := sharedParams(t)
	a, _ := testCircuit.assignment(t)
	seed := seed32(3)
	var ref []byte
	prev := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(prev)
	for _, procs := range []int{1, 2, 3} {
		runtime.GOMAXPROCS(procs)
		for run := 0; run < 2; run++ {
			pr := proveOne(t, p, a, RandomnessFromSeed(seed, 0))
			b := pr.Bytes()
			if ref == nil {
				ref = b[:]
			} else if !bytes.Equal(ref, b[:]) {
				t.Fatalf("GOMAXPROCS=%d run %d: proof bytes differ", procs, run)
			}
		}
	}
	runtime.GOMAXPROCS(prev)
	pr := proveOne(t, p, a, RandomnessFromSeed(seed, 1))
	if b := pr.Bytes(); bytes.Equal(ref, b[:]) {
		t.Fatal("partition 1 randomness gave partition 0's proof")
	}
}

func TestValidateAssignmentRejects(t *testing.T) {
	p := sharedParams(t)
	a, _ := testCircuit.assignment(t)
	if err := ValidateAssignment(p, a); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		mut  func(*cs.Assignment)
		want string
	}{
		{"extra input", func(x *cs.Assignment) { x.Input = append(x.Input, fr.Element{}) }, "ic:"},
		{"missing aux", func(x *cs.Assignment) { x.Aux = x.Aux[:len(x.Aux)-1] }, "l:"},
		{"too many constraints", func(x *cs.Assignment) {
			n := p.DomainSize() + 1
			x.A, x.B, x.C = make([]fr.Element, n), make([]fr.Element, n), make([]fr.Element, n)
		}, "h:"},
		{"abc lengths", func(x *cs.Assignment) { x.C = x.C[:len(x.C)-1] }, "h:"},
		{"A density", func(x *cs.Assignment) {
			x.ADensityAux.Words = flipFirstZero(x.ADensityAux)
		}, "a:"},
		{"B density", func(x *cs.Assignment) {
			x.BDensityAux.Words = flipFirstZero(x.BDensityAux)
		}, "b_g1:"},
		{"density bit length", func(x *cs.Assignment) { x.BDensityInput.BitLen++ }, "B-input density"},
		{"stray density bit", func(x *cs.Assignment) {
			w := append([]uint64(nil), x.ADensityAux.Words...)
			w[len(w)-1] |= 1 << 63
			x.ADensityAux.Words = w
		}, "past bit"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := *a
			tc.mut(&b)
			err := ValidateAssignment(p, &b)
			if !errors.Is(err, ErrShape) || !bytes.Contains([]byte(err.Error()), []byte(tc.want)) {
				t.Fatalf("got %v, want ErrShape mentioning %q", err, tc.want)
			}
			if _, err := (&CPUBackend{}).QuerySums(context.Background(), p, []*cs.Assignment{&b}); !errors.Is(err, ErrShape) {
				t.Fatalf("QuerySums: got %v, want ErrShape", err)
			}
		})
	}
}

// flipFirstZero returns a copy of d's words with its first clear bit set.
func flipFirstZero(d cs.Density) []uint64 {
	w := append([]uint64(nil), d.Words...)
	for i := 0; i < d.BitLen; i++ {
		if w[i/64]>>(i%64)&1 == 0 {
			w[i/64] |= 1 << (i % 64)
			return w
		}
	}
	panic("density is full")
}

func TestQuerySumsCancelled(t *testing.T) {
	p := sharedParams(t)
	a, _ := testCircuit.assignment(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (&CPUBackend{}).QuerySums(ctx, p, []*cs.Assignment{a}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

// TestQuerySumsStages: the CPU backend reports its stages in query order,
// H per assignment and each MSM stage once, and a cancellation during a
// stage stops it before the next MSM.
func TestQuerySumsStages(t *testing.T) {
	p := sharedParams(t)
	a1, _ := testCircuit.assignment(t)
	c2 := testCircuit
	c2.valueSeed = 99
	a2, _ := c2.assignment(t)
	var got []string
	ctx := WithStageFunc(context.Background(), func(s string) { got = append(got, s) })
	if _, err := (&CPUBackend{}).QuerySums(ctx, p, []*cs.Assignment{a1, a2}); err != nil {
		t.Fatal(err)
	}
	want := []string{"H polynomial", "H MSM", "H polynomial", "H MSM", "L MSM", "A MSM", "B_G1 MSM", "B_G2 MSM"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("stages %q, want %q", got, want)
	}

	cctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got = nil
	cctx = WithStageFunc(cctx, func(s string) {
		got = append(got, s)
		if s == "A MSM" {
			cancel()
		}
	})
	if _, err := (&CPUBackend{}).QuerySums(cctx, p, []*cs.Assignment{a1, a2}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled at A MSM: got %v, want context.Canceled", err)
	}
	if got[len(got)-1] != "A MSM" {
		t.Fatalf("stages after the cancellation: %q", got)
	}
}

// TestParamsFileProveVerify: Setup → write → mmap read (checked and
// unchecked) → prove → verify, and the byte-level identities of the files.
func TestParamsFileProveVerify(t *testing.T) {
	p := sharedParams(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "test.params")
	if err := WriteParamsFile(path, p); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := p.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	a, pub := testCircuit.assignment(t)
	rs := RandomnessFromSeed(seed32(4), 0)
	wantProof := proveOne(t, p, a, rs)
	want := wantProof.Bytes()
	for _, checked := range []bool{false, true} {
		fp, err := OpenParams(path, checked)
		if err != nil {
			t.Fatal(err)
		}
		if fp.Sections() != p.Sections() {
			t.Fatalf("sections differ: file %+v, memory %+v", fp.Sections(), p.Sections())
		}
		gotProof := proveOne(t, fp, a, rs)
		got := gotProof.Bytes()
		if got != want {
			t.Fatalf("checked=%v: proof from file params differs from in-memory params", checked)
		}
		pvk, _ := PrepareVerifyingKey(&fp.VK)
		pr := proveOne(t, fp, a, rs)
		if err := pvk.Verify(&pr, pub); err != nil {
			t.Fatal(err)
		}
		// re-writing a file-backed params reproduces the file
		var again bytes.Buffer
		if _, err := fp.WriteTo(&again); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again.Bytes(), buf.Bytes()) {
			t.Fatal("file-backed WriteTo differs from the original bytes")
		}
		// Preload: decoded once, same proof, accessors share the vectors
		if err := fp.Preload(); err != nil {
			t.Fatal(err)
		}
		h1, _ := fp.H()
		h2, _ := fp.H()
		if len(h1) == 0 || &h1[0] != &h2[0] {
			t.Fatal("preloaded H() decoded again")
		}
		if pre := proveOne(t, fp, a, rs); pre.Bytes() != want {
			t.Fatal("proof from preloaded params differs")
		}
		raw, err := fp.RawSection(SectionBG2)
		if err != nil || len(raw) != fp.NumBG2()*G2UncompressedSize {
			t.Fatalf("RawSection(b_g2): %d bytes, err %v", len(raw), err)
		}
		if err := fp.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// the .vk is exactly the params prefix
	vkPath := filepath.Join(dir, "test.vk")
	if err := WriteVerifyingKeyFile(vkPath, &p.VK); err != nil {
		t.Fatal(err)
	}
	vkBytes := p.VK.Bytes()
	if !bytes.HasPrefix(buf.Bytes(), vkBytes) || len(vkBytes) != 864+4+96*len(p.VK.IC) {
		t.Fatal(".vk bytes are not the params prefix of the documented size")
	}
	vk, err := ReadVerifyingKeyFile(vkPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(vk.Bytes(), vkBytes) {
		t.Fatal(".vk round trip differs")
	}
	// total size: vk + 5 counts + points
	s := p.Sections()
	size := len(vkBytes) + 5*4 + (s[0].Count+s[1].Count+s[2].Count+s[3].Count)*96 + s[4].Count*192
	if buf.Len() != size {
		t.Fatalf("params size %d, want %d", buf.Len(), size)
	}
}

func TestCachedSetup(t *testing.T) {
	dir := t.TempDir()
	c := randomCircuit{shapeSeed: 11, valueSeed: 1, nPub: 1, nAux0: 5, nCons: 30}
	r := c.r1cs(t)
	p1, err := CachedSetup(dir, r, seed32(8))
	if err != nil {
		t.Fatal(err)
	}
	p2, err := CachedSetup(dir, r, seed32(8))
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	if p2.Name() == "" {
		t.Fatal("second CachedSetup did not come from the cache file")
	}
	var b1, b2 bytes.Buffer
	p1.WriteTo(&b1)
	p2.WriteTo(&b2)
	if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
		t.Fatal("cached params differ from generated ones")
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "cuseal-test-*.meta"))
	if len(matches) != 1 {
		t.Fatalf("want one .meta file, got %v", matches)
	}
}

// badBackend wraps the CPU backend and corrupts one sum.
type badBackend struct{ which int }

func (b badBackend) QuerySums(ctx context.Context, p *Params, as []*cs.Assignment) ([]Sums, error) {
	sums, err := (&CPUBackend{}).QuerySums(ctx, p, as)
	if err != nil {
		return nil, err
	}
	g := p.VK.Alpha1
	switch b.which {
	case 0:
		sums[0].H.Add(&sums[0].H, &g)
	case 1:
		sums[0].L.Add(&sums[0].L, &g)
	case 2:
		sums[0].A.Add(&sums[0].A, &g)
	case 3:
		sums[0].BG1.Add(&sums[0].BG1, &g)
	case 4:
		sums[0].BG2.Add(&sums[0].BG2, &p.VK.Beta2)
	}
	return sums, nil
}

// TestProveAndVerifyCatchesWrongSums: every one of the five sums matters,
// and a backend that gets one wrong is caught by the self-check.
func TestProveAndVerifyCatchesWrongSums(t *testing.T) {
	p := sharedParams(t)
	a, _ := testCircuit.assignment(t)
	rs := []Randomness{RandomnessFromSeed(seed32(6), 0)}
	for which := 0; which < 5; which++ {
		_, err := ProveAndVerify(context.Background(), badBackend{which}, p, []*cs.Assignment{a}, rs)
		if !errors.Is(err, ErrInvalidProof) {
			t.Errorf("sum %d corrupted: got %v, want ErrInvalidProof", which, err)
		}
	}
}
