// SPDX-License-Identifier: Apache-2.0 OR MIT

package gadget

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/testsupport/testcs"
)

// allBooleans returns the six Boolean shapes for a fresh pair of allocated
// bits: Constant(false/true), Is(0), Is(1), Not(0), Not(1).
func allBooleans(sys cs.ConstraintSystem) []Boolean {
	b0 := AllocBit(sys, false)
	b1 := AllocBit(sys, true)
	return []Boolean{Constant(false), Constant(true), Is(b0), Is(b1), Is(b0).Not(), Is(b1).Not()}
}

func expectCost(t *testing.T, name string, tc *testcs.CS, c0, a0, wantC, wantA int) {
	t.Helper()
	if dc, da := tc.NumConstraints()-c0, tc.NumAux()-a0; dc != wantC || da != wantA {
		t.Fatalf("%s: %d constraints, %d aux; want %d, %d", name, dc, da, wantC, wantA)
	}
}

func TestBooleanOps(t *testing.T) {
	type op struct {
		name string
		f    func(cs.ConstraintSystem, Boolean, Boolean) Boolean
		ref  func(a, b bool) bool
	}
	ops := []op{
		{"xor", Xor, func(a, b bool) bool { return a != b }},
		{"and", And, func(a, b bool) bool { return a && b }},
	}
	for _, o := range ops {
		for i := 0; i < 6; i++ {
			for j := 0; j < 6; j++ {
				tc := testcs.New()
				bs := allBooleans(tc)
				a, b := bs[i], bs[j]
				c0, a0 := tc.NumConstraints(), tc.NumAux()
				r := o.f(tc, a, b)
				if r.Value() != o.ref(a.Value(), b.Value()) {
					t.Fatalf("%s(%v,%v): wrong value", o.name, a, b)
				}
				// Constants fold; otherwise exactly one bit and one constraint.
				want := 1
				if a.IsConstant() || b.IsConstant() {
					want = 0
				}
				expectCost(t, o.name, tc, c0, a0, want, want)
				mustCheck(t, tc)
				if want == 1 {
					// Flipping the result must break the constraint.
					x := tc.Value(r.Variable())
					var one fr.Element
					one.SetOne()
					x.Sub(&one, &x)
					tc.Set(r.Variable(), x)
					if tc.Validate() == nil {
						t.Fatalf("%s: flipped result still satisfies", o.name)
					}
				}
			}
		}
	}
}

func TestShaChMaj(t *testing.T) {
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			for k := 0; k < 6; k++ {
				tc := testcs.New()
				bs := allBooleans(tc)
				a, b, c := bs[i], bs[j], bs[k]
				av, bv, cv := a.Value(), b.Value(), c.Value()
				c0, a0 := tc.NumConstraints(), tc.NumAux()
				ch := SHA256Ch(tc, a, b, c)
				if ch.Value() != ((av && bv) != (!av && cv)) {
					t.Fatalf("ch(%d,%d,%d) wrong", i, j, k)
				}
				// General case (only a may be Constant(true)): 1 constraint.
				chGeneral := !b.IsConstant() && !c.IsConstant() && !a.isConst(false)
				dc := tc.NumConstraints() - c0
				if chGeneral && dc != 1 || dc > 1 || tc.NumAux()-a0 != dc {
					t.Fatalf("ch(%d,%d,%d): %d constraints", i, j, k, dc)
				}
				c1 := tc.NumConstraints()
				maj := SHA256Maj(tc, a, b, c)
				if maj.Value() != ((av && bv) != (av && cv) != (bv && cv)) {
					t.Fatalf("maj(%d,%d,%d) wrong", i, j, k)
				}
				dm := tc.NumConstraints() - c1
				if !a.IsConstant() && !b.IsConstant() && !c.IsConstant() && dm != 2 || dm > 2 {
					t.Fatalf("maj(%d,%d,%d): %d constraints", i, j, k, dm)
				}
				mustCheck(t, tc)
			}
		}
	}
}

func TestBitOpsAndEnforceEqual(t *testing.T) {
	for _, av := range []bool{false, true} {
		for _, bv := range []bool{false, true} {
			tc := testcs.New()
			a, b := AllocBit(tc, av), AllocBit(tc, bv)
			checks := []struct {
				got, want bool
			}{
				{XorBits(tc, a, b).Val, av != bv},
				{AndBits(tc, a, b).Val, av && bv},
				{AndNotBits(tc, a, b).Val, av && !bv},
				{NorBits(tc, a, b).Val, !av && !bv},
			}
			for i, c := range checks {
				if c.got != c.want {
					t.Fatalf("bit op %d wrong for %v,%v", i, av, bv)
				}
			}
			mustCheck(t, tc)
			if tc.NumConstraints() != 6 || tc.NumAux() != 6 {
				t.Fatalf("bit ops: %d constraints", tc.NumConstraints())
			}
			// enforce_equal over all shape pairs.
			for _, x := range []Boolean{Is(a), Is(a).Not(), Constant(av), Constant(!av)} {
				for _, y := range []Boolean{Is(b), Is(b).Not(), Constant(bv), Constant(!bv)} {
					tc2 := testcs.New()
					a2, b2 := AllocBit(tc2, av), AllocBit(tc2, bv)
					remap := func(z Boolean, bit AllocatedBit) Boolean {
						if z.IsConstant() {
							return z
						}
						r := Is(bit)
						if z.Kind() == KindNot {
							r = r.Not()
						}
						return r
					}
					x2, y2 := remap(x, a2), remap(y, b2)
					err := EnforceEqual(tc2, x2, y2)
					eq := x2.Value() == y2.Value()
					if x2.IsConstant() && y2.IsConstant() {
						if (err == nil) != eq {
							t.Fatalf("enforce_equal constants: err %v, equal %v", err, eq)
						}
						continue
					}
					if (tc2.Validate() == nil) != eq {
						t.Fatalf("enforce_equal(%v,%v): satisfied %v, equal %v", x2, y2, tc2.Validate() == nil, eq)
					}
				}
			}
		}
	}
}

func TestToBitsLEAndPacking(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for iter := 0; iter < 20; iter++ {
		tc := testcs.New()
		var v fr.Element
		v.SetUint64(rng.Uint64())
		v.Square(&v)
		v.Square(&v)
		if iter == 0 {
			v.SetOne()
			v.Neg(&v) // p − 1: all 255 bits meaningful
		}
		n := AllocNum(tc, &v)
		c0, a0 := tc.NumConstraints(), tc.NumAux()
		bits := n.ToBitsLE(tc)
		expectCost(t, "to_bits_le", tc, c0, a0, 256, 255)
		if len(bits) != 255 {
			t.Fatalf("to_bits_le: %d bits", len(bits))
		}
		canon := v.Bits()
		for i, b := range bits {
			if b.Value() != (canon[i/64]>>(uint(i)%64)&1 == 1) {
				t.Fatalf("bit %d wrong", i)
			}
		}
		mustCheck(t, tc)
		// pack_bits of the first 254 bits recovers v mod 2^254.
		c0, a0 = tc.NumConstraints(), tc.NumAux()
		p := PackBits(tc, bits)
		expectCost(t, "pack_bits", tc, c0, a0, 1, 1)
		canon[3] &= (1 << 62) - 1
		var buf [32]byte
		for i, l := range canon {
			for j := 0; j < 8; j++ {
				buf[8*i+j] = byte(l >> (8 * j))
			}
		}
		want, err := fr.LittleEndian.Element(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Val.Equal(&want) {
			t.Fatalf("pack_bits value wrong")
		}
		mustCheck(t, tc)
		// Corrupting one bit breaks the unpacking constraint.
		flip := tc.Value(bits[7].Variable())
		flip.Sub(&frOne, &flip)
		tc.Set(bits[7].Variable(), flip)
		if tc.Validate() == nil {
			t.Fatal("corrupted bit still satisfies the unpacking constraint")
		}
	}
}

func TestPackIntoInputs(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, nbits := range []int{0, 1, 64, 253, 254, 255, 600} {
		tc := testcs.New()
		raw := make([]bool, nbits)
		bits := make([]Boolean, nbits)
		for i := range raw {
			raw[i] = rng.IntN(2) == 1
			switch rng.IntN(3) {
			case 0:
				bits[i] = Constant(raw[i])
			case 1:
				bits[i] = Is(AllocBit(tc, raw[i]))
			default:
				bits[i] = Is(AllocBit(tc, !raw[i])).Not()
			}
		}
		c0 := tc.NumConstraints()
		PackIntoInputs(tc, bits)
		chunks := (nbits + Capacity - 1) / Capacity
		if tc.NumConstraints()-c0 != chunks || tc.NumInputs() != 1+chunks {
			t.Fatalf("%d bits: %d constraints, %d inputs", nbits, tc.NumConstraints()-c0, tc.NumInputs())
		}
		want := ComputeMultipacking(raw)
		for i := range want {
			if !tc.Inputs()[1+i].Equal(&want[i]) {
				t.Fatalf("%d bits: input %d wrong", nbits, i)
			}
		}
		mustCheck(t, tc)
	}
}

func TestUInt64(t *testing.T) {
	tc := testcs.New()
	const v = uint64(0xfedc_ba98_7654_3210)
	u := AllocUInt64(tc, v)
	u.PackIntoInput(tc)
	if tc.NumConstraints() != 65 || tc.NumAux() != 64 || tc.NumInputs() != 2 {
		t.Fatalf("uint64 alloc+pack: %d constraints, %d aux, %d inputs", tc.NumConstraints(), tc.NumAux(), tc.NumInputs())
	}
	var want fr.Element
	want.SetUint64(v)
	if !tc.Inputs()[1].Equal(&want) {
		t.Fatal("packed input != Fr(v)")
	}
	be := u.BitsBE()
	for i := 0; i < 64; i++ {
		if be[i].Value() != (v>>(63-uint(i))&1 == 1) {
			t.Fatalf("to_bits_be bit %d wrong", i)
		}
	}
	mustCheck(t, tc)
}

func TestUInt32Ops(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for iter := 0; iter < 50; iter++ {
		tc := testcs.New()
		s := acquire(tc)
		n := 2 + rng.IntN(9)
		ops := make([]UInt32, n)
		ptrs := make([]*UInt32, n)
		var sum uint64
		for i := range ops {
			v := rng.Uint32()
			ops[i] = UInt32Constant(v)
			if rng.IntN(3) != 0 { // allocated, some negated
				for k := range ops[i].Bits {
					bv := v>>uint(k)&1 == 1
					if rng.IntN(2) == 0 {
						ops[i].Bits[k] = Is(s.allocBit(bv))
					} else {
						ops[i].Bits[k] = Is(s.allocBit(!bv)).Not()
					}
				}
			}
			ptrs[i] = &ops[i]
			sum += uint64(v)
		}
		r := s.addmany(ptrs)
		s.finishMultiEq()
		x := s.addmany(ptrs[:2])
		_ = x
		s.finishMultiEq()
		release(s)
		if r.Value != uint32(sum) {
			t.Fatal("addmany value wrong")
		}
		var got uint32
		for k := range r.Bits {
			if r.Bits[k].Value() {
				got |= 1 << uint(k)
			}
		}
		if got != uint32(sum) {
			t.Fatal("addmany bits wrong")
		}
		mustCheck(t, tc)
		// rotr / shr / from_bits_be / xor against native.
		a := UInt32Constant(rng.Uint32())
		if ra := a.Rotr(13); ra.Value != a.Value>>13|a.Value<<19 {
			t.Fatal("rotr")
		}
		if sa := a.Shr(5); sa.Value != a.Value>>5 || sa.Bits[31].Value() {
			t.Fatal("shr")
		}
		be := a.AppendBitsBE(nil)
		if b := UInt32FromBitsBE(be); b.Value != a.Value || b.Bits != a.Bits {
			t.Fatal("from_bits_be/into_bits_be round trip")
		}
		b := UInt32Constant(rng.Uint32())
		if xr := UInt32Xor(tc, &a, &b); xr.Value != a.Value^b.Value {
			t.Fatal("xor")
		}
	}
}

// insertion.rs test_insert: sizes 2/4/8 cost 2/8/22, test_select size−1;
// every index places the element correctly.
func TestInsertAndSelect(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for logSize := 1; logSize <= 4; logSize++ {
		size := 1 << logSize
		for index := 0; index < size; index++ {
			tc := testcs.New()
			elems := make([]AllocatedNum, size-1)
			for i := range elems {
				var v fr.Element
				v.SetUint64(rng.Uint64())
				elems[i] = AllocNum(tc, &v)
			}
			var xv fr.Element
			xv.SetUint64(rng.Uint64())
			x := AllocNum(tc, &xv)
			bits := make([]Boolean, logSize)
			for i := range bits {
				bits[i] = Is(AllocBit(tc, index>>uint(i)&1 == 1))
			}
			c0 := tc.NumConstraints()
			out, err := Insert(tc, &x, bits, elems)
			if err != nil {
				t.Fatal(err)
			}
			want := map[int]int{2: 2, 4: 8, 8: 22, 16: 16 * 15}[size]
			if got := tc.NumConstraints() - c0; got != want {
				t.Fatalf("insert size %d: %d constraints, want %d", size, got, want)
			}
			for pos := range out {
				var w fr.Element
				switch {
				case pos < index:
					w = elems[pos].Val
				case pos == index:
					w = xv
				default:
					w = elems[pos-1].Val
				}
				if !out[pos].Val.Equal(&w) {
					t.Fatalf("insert size %d index %d: position %d wrong", size, index, pos)
				}
			}
			mustCheck(t, tc)
			// select
			c1 := tc.NumConstraints()
			sel, err := Select(tc, out, bits)
			if err != nil {
				t.Fatal(err)
			}
			if tc.NumConstraints()-c1 != size-1 || !sel.Val.Equal(&xv) {
				t.Fatalf("select size %d: wrong cost or value", size)
			}
			mustCheck(t, tc)
		}
	}
}

func TestNumMulSquareInputizeEqual(t *testing.T) {
	tc := testcs.New()
	var a, b fr.Element
	a.SetUint64(12345)
	b.SetUint64(678)
	x, y := AllocNum(tc, &a), AllocNum(tc, &b)
	p := x.Mul(tc, &y)
	q := x.Square(tc)
	sum := Encode(tc, &x, &y)
	x.Inputize(tc)
	Equal(tc, &p, &p)
	var wp, wq, ws fr.Element
	wp.Mul(&a, &b)
	wq.Square(&a)
	ws.Add(&a, &b)
	if !p.Val.Equal(&wp) || !q.Val.Equal(&wq) || !sum.Val.Equal(&ws) {
		t.Fatal("mul/square/add values wrong")
	}
	if tc.NumConstraints() != 5 || tc.NumInputs() != 2 || tc.NumAux() != 5 {
		t.Fatalf("costs: %d constraints %d inputs %d aux", tc.NumConstraints(), tc.NumInputs(), tc.NumAux())
	}
	mustCheck(t, tc)
	tc.Set(p.Var, wq)
	var ue *testcs.UnsatisfiedError
	if err := tc.Validate(); !errors.As(err, &ue) || ue.Index != 0 {
		t.Fatalf("wrong product not caught at constraint 0: %v", err)
	}
	// Num: pack a few bits through AddBoolWithCoeff and Scale.
	var num Num
	bits := []Boolean{Constant(true), Is(AllocBit(tc, true)), Is(AllocBit(tc, false)).Not()}
	for i, bit := range bits {
		num.AddBoolWithCoeff(bit, &pow2[i])
	}
	num.Scale(&frTwo)
	if num.Val.String() != "14" {
		t.Fatalf("num value %s, want 14", num.Val.String())
	}
}
