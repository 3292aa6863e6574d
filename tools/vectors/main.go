// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

//go:generate go run . -out ../../testdata/native

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"math/big"
	"math/rand"
	"os"
	"path/filepath"
	"unsafe"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"
)

const seed = 20261130

func main() {
	out := flag.String("out", "testdata/native", "output directory")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "vectors:", err)
		os.Exit(1)
	}
}

// file accumulates fixed-size records.
type file struct {
	size  int
	count uint64
	buf   bytes.Buffer
}

func newFile(recordSize int) *file { return &file{size: recordSize} }

// add appends raw memory of each value (all pointers to plain structs).
func (f *file) add(vals ...any) {
	start := f.buf.Len()
	for _, v := range vals {
		switch x := v.(type) {
		case *fp.Element:
			f.buf.Write(raw(unsafe.Pointer(x), unsafe.Sizeof(*x)))
		case *fr.Element:
			f.buf.Write(raw(unsafe.Pointer(x), unsafe.Sizeof(*x)))
		case *bls12381.E2:
			f.buf.Write(raw(unsafe.Pointer(x), unsafe.Sizeof(*x)))
		case *bls12381.G1Affine:
			f.buf.Write(raw(unsafe.Pointer(x), unsafe.Sizeof(*x)))
		case *bls12381.G2Affine:
			f.buf.Write(raw(unsafe.Pointer(x), unsafe.Sizeof(*x)))
		case uint64:
			_ = binary.Write(&f.buf, binary.LittleEndian, x)
		default:
			panic(fmt.Sprintf("vectors: unsupported type %T", v))
		}
	}
	if f.buf.Len()-start != f.size {
		panic(fmt.Sprintf("vectors: record of %d bytes, want %d", f.buf.Len()-start, f.size))
	}
	f.count++
}

func raw(p unsafe.Pointer, n uintptr) []byte { return unsafe.Slice((*byte)(p), n) }

func (f *file) write(path string) error {
	var h bytes.Buffer
	h.WriteString("CUSEALV1")
	_ = binary.Write(&h, binary.LittleEndian, f.count)
	_ = binary.Write(&h, binary.LittleEndian, uint64(f.size))
	h.Write(f.buf.Bytes())
	return os.WriteFile(path, h.Bytes(), 0o644)
}

func run(out string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewSource(seed))
	files := map[string]*file{
		"fp_ops.bin":  fpOps(rng),
		"fr_ops.bin":  frOps(rng),
		"fp2_ops.bin": fp2Ops(rng),
		"g1_ops.bin":  g1Ops(rng),
		"g2_ops.bin":  g2Ops(rng),
	}
	scalars := msmScalars(rng, 4096)
	files["msm_scalars.bin"] = frList(scalars)
	g1pts := g1Points(rng, 4096)
	files["msm_g1_points.bin"] = g1List(g1pts)
	files["msm_g1_expected.bin"] = g1Expected(g1pts, scalars)
	g2pts := g2Points(rng, 1024)
	files["msm_g2_points.bin"] = g2List(g2pts)
	files["msm_g2_expected.bin"] = g2Expected(g2pts, scalars[:1024])
	in, exp, err := nttVectors(rng)
	if err != nil {
		return err
	}
	files["ntt_input.bin"] = in
	for lg, f := range exp {
		files[fmt.Sprintf("ntt_expected_%02d.bin", lg)] = f
	}
	for name, f := range files {
		if err := f.write(filepath.Join(out, name)); err != nil {
			return err
		}
	}
	return nil
}

// ---- fields ---------------------------------------------------------------

func randBig(rng *rand.Rand, mod *big.Int) *big.Int { return new(big.Int).Rand(rng, mod) }

// edge values for a field of modulus q: 0, 1, 2, q-1, q-2, (q-1)/2, 2^64, 2^k-1.
func edges(q *big.Int) []*big.Int {
	one := big.NewInt(1)
	return []*big.Int{
		big.NewInt(0), big.NewInt(1), big.NewInt(2),
		new(big.Int).Sub(q, one), new(big.Int).Sub(q, big.NewInt(2)),
		new(big.Int).Rsh(new(big.Int).Sub(q, one), 1),
		new(big.Int).Lsh(one, 64), new(big.Int).Sub(new(big.Int).Lsh(one, 255), one),
		new(big.Int).Mod(new(big.Int).Sub(new(big.Int).Lsh(one, 320), one), q),
	}
}

func fieldOperands(rng *rand.Rand, q *big.Int, n int) [][2]*big.Int {
	e := edges(q)
	var ops [][2]*big.Int
	for _, a := range e {
		for _, b := range e {
			ops = append(ops, [2]*big.Int{a, b})
		}
	}
	for len(ops) < n {
		ops = append(ops, [2]*big.Int{randBig(rng, q), randBig(rng, q)})
	}
	return ops
}

// fpOps records: a, b, a+b, a-b, a·b, a⁻¹ (0 for 0), canonical a (plain limbs).
func fpOps(rng *rand.Rand) *file {
	f := newFile(7 * fp.Bytes)
	for _, op := range fieldOperands(rng, fp.Modulus(), 256) {
		var a, b, s, d, m, i fp.Element
		a.SetBigInt(op[0])
		b.SetBigInt(op[1])
		s.Add(&a, &b)
		d.Sub(&a, &b)
		m.Mul(&a, &b)
		i.Inverse(&a)
		c := fp.Element(a.Bits())
		f.add(&a, &b, &s, &d, &m, &i, &c)
	}
	return f
}

func frOps(rng *rand.Rand) *file {
	f := newFile(7 * fr.Bytes)
	for _, op := range fieldOperands(rng, fr.Modulus(), 256) {
		var a, b, s, d, m, i fr.Element
		a.SetBigInt(op[0])
		b.SetBigInt(op[1])
		s.Add(&a, &b)
		d.Sub(&a, &b)
		m.Mul(&a, &b)
		i.Inverse(&a)
		c := fr.Element(a.Bits())
		f.add(&a, &b, &s, &d, &m, &i, &c)
	}
	return f
}

func randE2(rng *rand.Rand) bls12381.E2 {
	var e bls12381.E2
	e.A0.SetBigInt(randBig(rng, fp.Modulus()))
	e.A1.SetBigInt(randBig(rng, fp.Modulus()))
	return e
}

// fp2Ops records: a, b, a+b, a-b, a·b, a², a⁻¹.
func fp2Ops(rng *rand.Rand) *file {
	f := newFile(7 * 2 * fp.Bytes)
	for k := 0; k < 64; k++ {
		a, b := randE2(rng), randE2(rng)
		switch k {
		case 0:
			a.SetZero()
		case 1:
			a.SetOne()
		case 2:
			b = a
		case 3:
			a.A0.SetZero()
		}
		var s, d, m, q, i bls12381.E2
		s.Add(&a, &b)
		d.Sub(&a, &b)
		m.Mul(&a, &b)
		q.Square(&a)
		i.Inverse(&a)
		f.add(&a, &b, &s, &d, &m, &q, &i)
	}
	return f
}

// ---- groups ---------------------------------------------------------------

func randScalar(rng *rand.Rand) *big.Int { return randBig(rng, fr.Modulus()) }

func g1Mul(k *big.Int) bls12381.G1Affine {
	_, _, g, _ := bls12381.Generators()
	var r bls12381.G1Affine
	r.ScalarMultiplication(&g, k)
	return r
}

func g2Mul(k *big.Int) bls12381.G2Affine {
	_, _, _, g := bls12381.Generators()
	var r bls12381.G2Affine
	r.ScalarMultiplication(&g, k)
	return r
}

// g1Ops records: P, Q, P+Q, 2P (affine). Includes Q = P, Q = -P, infinities.
func g1Ops(rng *rand.Rand) *file {
	f := newFile(4 * 2 * fp.Bytes)
	for k := 0; k < 64; k++ {
		p, q := g1Mul(randScalar(rng)), g1Mul(randScalar(rng))
		switch k {
		case 0:
			q = p
		case 1:
			q.Neg(&p)
		case 2:
			q = bls12381.G1Affine{}
		case 3:
			p = bls12381.G1Affine{}
		case 4:
			p, q = bls12381.G1Affine{}, bls12381.G1Affine{}
		}
		var pj, qj bls12381.G1Jac
		pj.FromAffine(&p)
		qj.FromAffine(&q)
		var sj, dj bls12381.G1Jac
		sj.Set(&pj).AddAssign(&qj)
		dj.Double(&pj)
		var s, d bls12381.G1Affine
		s.FromJacobian(&sj)
		d.FromJacobian(&dj)
		f.add(&p, &q, &s, &d)
	}
	return f
}

func g2Ops(rng *rand.Rand) *file {
	f := newFile(4 * 4 * fp.Bytes)
	for k := 0; k < 32; k++ {
		p, q := g2Mul(randScalar(rng)), g2Mul(randScalar(rng))
		switch k {
		case 0:
			q = p
		case 1:
			q.Neg(&p)
		case 2:
			q = bls12381.G2Affine{}
		case 3:
			p = bls12381.G2Affine{}
		}
		var pj, qj bls12381.G2Jac
		pj.FromAffine(&p)
		qj.FromAffine(&q)
		var sj, dj bls12381.G2Jac
		sj.Set(&pj).AddAssign(&qj)
		dj.Double(&pj)
		var s, d bls12381.G2Affine
		s.FromJacobian(&sj)
		d.FromJacobian(&dj)
		f.add(&p, &q, &s, &d)
	}
	return f
}

// ---- MSM ------------------------------------------------------------------

// msmScalars: random, with 0, 1, -1, 2, small values and r-2 scattered in.
func msmScalars(rng *rand.Rand, n int) []fr.Element {
	s := make([]fr.Element, n)
	for i := range s {
		switch {
		case i%13 == 0:
			s[i].SetZero()
		case i%13 == 1:
			s[i].SetOne()
		case i%13 == 2:
			s[i].SetOne()
			s[i].Neg(&s[i])
		case i%13 == 3:
			s[i].SetUint64(uint64(i))
		case i%13 == 4:
			s[i].SetInt64(-2)
		default:
			s[i].SetBigInt(randScalar(rng))
		}
	}
	return s
}

// Point patterns: i%7 == 3 repeats point i-1, i%11 == 5 is -point[i-1],
// i%29 == 9 is infinity; the rest are random multiples of the generator.
func pointPattern(i int) int {
	switch {
	case i > 0 && i%29 == 9:
		return 3
	case i > 0 && i%11 == 5:
		return 2
	case i > 0 && i%7 == 3:
		return 1
	}
	return 0
}

func g1Points(rng *rand.Rand, n int) []bls12381.G1Affine {
	p := make([]bls12381.G1Affine, n)
	for i := range p {
		switch pointPattern(i) {
		case 1:
			p[i] = p[i-1]
		case 2:
			p[i].Neg(&p[i-1])
		case 3:
			p[i] = bls12381.G1Affine{}
		default:
			p[i] = g1Mul(randScalar(rng))
		}
	}
	return p
}

func g2Points(rng *rand.Rand, n int) []bls12381.G2Affine {
	p := make([]bls12381.G2Affine, n)
	for i := range p {
		switch pointPattern(i) {
		case 1:
			p[i] = p[i-1]
		case 2:
			p[i].Neg(&p[i-1])
		case 3:
			p[i] = bls12381.G2Affine{}
		default:
			p[i] = g2Mul(randScalar(rng))
		}
	}
	return p
}

var msmSizes = []int{0, 1, 2, 3, 5, 13, 64, 100, 255, 1000, 1024, 2048, 4095, 4096}

func frList(s []fr.Element) *file {
	f := newFile(fr.Bytes)
	for i := range s {
		f.add(&s[i])
	}
	return f
}

func g1List(p []bls12381.G1Affine) *file {
	f := newFile(2 * fp.Bytes)
	for i := range p {
		f.add(&p[i])
	}
	return f
}

func g2List(p []bls12381.G2Affine) *file {
	f := newFile(4 * fp.Bytes)
	for i := range p {
		f.add(&p[i])
	}
	return f
}

// g1Expected records (n, Σ_{i<n} s_i·P_i) by scalar multiplication and
// addition, independent of any MSM algorithm.
func g1Expected(p []bls12381.G1Affine, s []fr.Element) *file {
	f := newFile(8 + 2*fp.Bytes)
	var acc bls12381.G1Jac
	acc.X.SetOne()
	acc.Y.SetOne()
	next := 0
	for n := 0; n <= len(p); n++ {
		if next < len(msmSizes) && msmSizes[next] == n {
			var a bls12381.G1Affine
			a.FromJacobian(&acc)
			f.add(uint64(n), &a)
			next++
		}
		if n == len(p) {
			break
		}
		var pj, t bls12381.G1Jac
		pj.FromAffine(&p[n])
		var k big.Int
		s[n].BigInt(&k)
		t.ScalarMultiplication(&pj, &k)
		acc.AddAssign(&t)
	}
	return f
}

func g2Expected(p []bls12381.G2Affine, s []fr.Element) *file {
	f := newFile(8 + 4*fp.Bytes)
	var acc bls12381.G2Jac
	acc.X.SetOne()
	acc.Y.SetOne()
	next := 0
	for n := 0; n <= len(p); n++ {
		if next < len(msmSizes) && msmSizes[next] == n {
			var a bls12381.G2Affine
			a.FromJacobian(&acc)
			f.add(uint64(n), &a)
			next++
		}
		if n == len(p) {
			break
		}
		var pj, t bls12381.G2Jac
		pj.FromAffine(&p[n])
		var k big.Int
		s[n].BigInt(&k)
		t.ScalarMultiplication(&pj, &k)
		acc.AddAssign(&t)
	}
	return f
}

// ---- NTT ------------------------------------------------------------------

const nttMaxLog = 12

var nttLogs = []int{0, 1, 2, 3, 5, 8, 12}

// omega returns 7^((r-1)/2^lg), checked against gnark-crypto's fft domain.
func omega(lg int) (fr.Element, error) {
	e := new(big.Int).Sub(fr.Modulus(), big.NewInt(1))
	e.Rsh(e, uint(lg))
	var g, w fr.Element
	g.SetUint64(7)
	w.Exp(g, e)
	d := fft.NewDomain(uint64(1) << lg)
	if !d.Generator.Equal(&w) {
		return w, fmt.Errorf("ω for 2^%d differs from gnark-crypto's fft domain generator", lg)
	}
	return w, nil
}

// nttVectors: input x (2^12 elements) and, per lg, a file of records
// (coset, X) where X_i = Σ_{j<2^lg} x_j·c^j·ω^(ij), c = 7 for coset and 1
// otherwise, in natural order.
func nttVectors(rng *rand.Rand) (*file, map[int]*file, error) {
	n := 1 << nttMaxLog
	x := make([]fr.Element, n)
	for i := range x {
		x[i].SetBigInt(randScalar(rng))
	}
	x[1].SetZero()
	x[2].SetOne()
	in := frList(x)
	exps := map[int]*file{}
	for _, lg := range nttLogs {
		w, err := omega(lg)
		if err != nil {
			return nil, nil, err
		}
		m := 1 << lg
		exp := newFile(8 + m*fr.Bytes)
		exps[lg] = exp
		for coset := uint64(0); coset <= 1; coset++ {
			var c fr.Element
			c.SetUint64(1 + 6*coset)
			xs := make([]fr.Element, m)
			var cj fr.Element
			cj.SetOne()
			for j := 0; j < m; j++ {
				xs[j].Mul(&x[j], &cj)
				cj.Mul(&cj, &c)
			}
			out := make([]fr.Element, m)
			var wi fr.Element
			wi.SetOne()
			for i := 0; i < m; i++ {
				// Horner in ω^i.
				var acc fr.Element
				for j := m - 1; j >= 0; j-- {
					acc.Mul(&acc, &wi)
					acc.Add(&acc, &xs[j])
				}
				out[i] = acc
				wi.Mul(&wi, &w)
			}
			vals := []any{coset}
			for i := range out {
				vals = append(vals, &out[i])
			}
			exp.add(vals...)
		}
	}
	return in, exps, nil
}
