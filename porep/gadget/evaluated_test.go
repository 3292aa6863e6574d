// SPDX-License-Identifier: Apache-2.0 OR MIT

package gadget

import (
	"fmt"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/testsupport/testcs"
)

// rawBooleans allocates two bits without booleanity constraints (so they are
// in no density yet and every density mark of the gadget under test shows)
// and returns constants, Is and Not of each.
func rawBooleans(sys cs.ConstraintSystem) []Boolean {
	x := AllocatedBit{Var: sys.Alloc(frBit(true)), Val: true}
	y := AllocatedBit{Var: sys.Alloc(frBit(false)), Val: false}
	return []Boolean{Constant(false), Constant(true), Is(x), Is(y), Is(x).Not(), Is(y).Not()}
}

// bitCases are one-gadget circuits over raw bits: every bit gadget on every
// combination of Boolean kinds and values (b and c sometimes share a
// variable), plus the SHA-256 node circuit.
func bitCases(t *testing.T) map[string]func(cs.ConstraintSystem) {
	cases := map[string]func(cs.ConstraintSystem){
		"node": func(sys cs.ConstraintSystem) { nodeCircuit(t, sys) },
		"alloc": func(sys cs.ConstraintSystem) {
			AllocBit(sys, true)
			AllocBit(sys, false)
		},
	}
	// MultiEq: operands over raw bits of every kind, the same variables
	// twice (merging to 2^(k+1), or to zero against their negation), and
	// enough additions to flush more than once.
	cases["addmany"] = func(sys cs.ConstraintSystem) {
		var u, v, w [32]Boolean
		for i := range u {
			bit := AllocatedBit{Var: sys.Alloc(frBit(i%3 == 0)), Val: i%3 == 0}
			switch i % 4 {
			case 0, 1:
				u[i], v[i] = Is(bit), Is(bit).Not()
			case 2:
				u[i], v[i] = Is(bit).Not(), Is(bit)
			default:
				u[i], v[i] = Constant(i%5 == 0), Is(bit)
			}
			w[i] = Is(AllocatedBit{Var: sys.Alloc(frBit(i%2 == 0)), Val: i%2 == 0})
		}
		a, b, c := UInt32FromBitsBE(u[:]), UInt32FromBitsBE(v[:]), UInt32FromBitsBE(w[:])
		s := acquire(sys)
		defer release(s)
		s.meq = multiEq{}
		for range 4 {
			s.addmany([]*UInt32{&a, &b})
			s.addmany([]*UInt32{&a, &a, &c})
			s.addmany([]*UInt32{&c, &b, &a, &c, &c})
		}
		s.finishMultiEq()
	}
	const n = 6
	// Pick and Insert over raw numbers: every cond kind, a pick of a
	// number against itself (b − a merges to zero), every insertion
	// arity the trees use and the generic one.
	rawNums := func(sys cs.ConstraintSystem, k int) []AllocatedNum {
		out := make([]AllocatedNum, k)
		for i := range out {
			var v fr.Element
			v.SetUint64(uint64(1000 + 37*i))
			out[i] = AllocatedNum{Var: sys.Alloc(&v), Val: v}
		}
		return out
	}
	for i := 0; i < n; i++ {
		cases[fmt.Sprintf("pick/%d", i)] = func(sys cs.ConstraintSystem) {
			bs := rawBooleans(sys)
			x := rawNums(sys, 3)
			Pick(sys, bs[i], &x[0], &x[1])
			Pick(sys, bs[i], &x[2], &x[2])
		}
	}
	for _, bitsN := range []int{1, 2, 3, 4} {
		for idx := 0; idx < 1<<bitsN; idx += 3 {
			cases[fmt.Sprintf("insert/%d/%d", 1<<bitsN, idx)] = func(sys cs.ConstraintSystem) {
				bits := make([]Boolean, bitsN)
				for j := range bits {
					bits[j] = Is(AllocBit(sys, (idx>>j)&1 == 1))
				}
				x := rawNums(sys, 1<<bitsN)
				if _, err := Insert(sys, &x[0], bits, x[1:]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			cases[fmt.Sprintf("xor/%d%d", i, j)] = func(sys cs.ConstraintSystem) {
				bs := rawBooleans(sys)
				Xor(sys, bs[i], bs[j])
			}
			cases[fmt.Sprintf("and/%d%d", i, j)] = func(sys cs.ConstraintSystem) {
				bs := rawBooleans(sys)
				And(sys, bs[i], bs[j])
			}
			for k := 0; k < n; k++ {
				cases[fmt.Sprintf("ch/%d%d%d", i, j, k)] = func(sys cs.ConstraintSystem) {
					bs := rawBooleans(sys)
					SHA256Ch(sys, bs[i], bs[j], bs[k])
				}
				cases[fmt.Sprintf("maj/%d%d%d", i, j, k)] = func(sys cs.ConstraintSystem) {
					bs := rawBooleans(sys)
					SHA256Maj(sys, bs[i], bs[j], bs[k])
				}
			}
		}
	}
	return cases
}

func withEvaluatedPath(on bool, f func()) {
	old := evaluatedPath.Swap(on)
	defer evaluatedPath.Store(old)
	f()
}

// The evaluated path (bit gadgets hand their values to EnforceEvaluated)
// gives exactly the generic path's assignment — a, b, c, witness and the
// three density bitmaps — in a ProvingAssignment and in a Segment.
func TestEvaluatedPathMatchesGeneric(t *testing.T) {
	for name, circuit := range bitCases(t) {
		var want *cs.Assignment
		withEvaluatedPath(false, func() {
			p := cs.NewProvingAssignment(cs.SizeHint{})
			circuit(p)
			want = p.Assignment()
		})
		cnt := cs.NewCounter()
		circuit(cnt)
		// The same circuit in one segment after ONE (Split's shared prefix).
		seg := cs.SizeHint{Constraints: cnt.Constraints, Aux: cnt.Aux, Inputs: cnt.Inputs - 1}
		runs := map[string]func() (*cs.Assignment, error){
			"ProvingAssignment": func() (*cs.Assignment, error) {
				p := cs.NewProvingAssignment(cs.SizeHint{})
				circuit(p)
				return p.Assignment(), nil
			},
			"Segment": func() (*cs.Assignment, error) {
				p := cs.NewProvingAssignment(cs.SizeHint{})
				s := p.Split(1, seg)
				circuit(s[0])
				if err := p.Join(); err != nil {
					return nil, err
				}
				return p.Assignment(), nil
			},
		}
		testcs.CheckPaths(t, name, want, runs, func(f func()) { withEvaluatedPath(true, f) })
	}
}
