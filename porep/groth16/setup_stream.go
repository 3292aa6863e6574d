// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
)

// StreamSetup generates Groth16 test parameters from a circuit synthesized
// into it, in memory bounded by the circuit's variables rather than its
// R1CS: it is a cs.ConstraintSystem that evaluates each constraint at τ as
// it is enforced. For constraint j with Lagrange value L_j(τ) it adds
// coeff·L_j(τ) to u[var] (A terms) and v[var] (B terms), and the l/ic
// scalar β·u + α·v + w directly (ext[var], so w never exists). L_j(τ) =
// Z(τ)·ω^j / (m·(τ − ω^j)) is computed in chunks with one batched inversion
// (exactly what Setup's inverse FFT of the powers of τ gives; for τ an m-th
// root of unity, 1 at τ = ω^j and 0 elsewhere). The per-input rows
// input_i·0 = 0 follow the circuit's rows (Finish), as cs.Recorder.R1CS
// orders them. WriteParams then computes the queries in chunks with the
// fixed-base tables and writes them as it makes them.
//
// The output is byte for byte Setup's (and so bellperson's
// generate_parameters) for the same R1CS and toxic waste. The shape
// (constraints without the per-input rows, inputs with ONE, aux) must be
// known up front: it fixes the domain m and where inputs and aux live in
// the vectors; a circuit of another shape is an error at Finish.
//
// Memory: u, v and ext are 3 × 32 bytes per variable outside the Go heap
// (allocFr); the rest is one chunk of Lagrange values, the fixed-base
// tables and one chunk of points (StreamSetupMemory; docs/architecture.md,
// "Memory and concurrency").
// FOR TESTS ONLY: whoever knows the toxic waste can forge proofs.
type StreamSetup struct {
	tw        ToxicWaste
	shape     cs.SizeHint
	inputRows bool // Finish appends the per-input rows
	numInputs int
	numAux    int
	rows      int
	m         int
	lag       lagrangeStream
	u, v, ext []fr.Element
	release   []func()
	finished  bool
	err       error
}

// lagrangeChunk is how many Lagrange values a StreamSetup computes at once.
const lagrangeChunk = 1 << 12

// setupWriteChunk is how many query points WriteParams computes, then
// writes, at a time.
const setupWriteChunk = 1 << 16

// NewStreamSetup returns a StreamSetup for a circuit of the given shape
// (cs.SizeHint: Constraints without the per-input rows, Inputs with ONE,
// Aux) with ONE allocated as Input(0). Errors: a shape without ONE or past
// the 2^31 domain, γ or δ zero, or memory for the vectors refused.
// Close releases the vectors.
func NewStreamSetup(shape cs.SizeHint, tw ToxicWaste) (*StreamSetup, error) {
	s, err := newStreamSetup(shape, tw, true)
	if err != nil {
		return nil, err
	}
	s.AllocInput(nil)
	return s, nil
}

// newStreamSetup sizes a StreamSetup; with inputRows false shape.Constraints
// counts every row and the caller enforces the per-input rows itself.
func newStreamSetup(shape cs.SizeHint, tw ToxicWaste, inputRows bool) (*StreamSetup, error) {
	if shape.Inputs < 1 || shape.Aux < 0 || shape.Constraints < 0 {
		return nil, fmt.Errorf("groth16: setup: shape has %d inputs (need ≥ 1 for ONE), %d aux, %d constraints", shape.Inputs, shape.Aux, shape.Constraints)
	}
	n := shape.Constraints
	if inputRows {
		n += shape.Inputs
	}
	m, err := setupDomain(n)
	if err != nil {
		return nil, err
	}
	if tw.Gamma.IsZero() || tw.Delta.IsZero() {
		return nil, errors.New("groth16: setup: γ and δ must be non-zero")
	}
	s := &StreamSetup{tw: tw, shape: shape, inputRows: inputRows, m: m}
	s.lag.init(m, &tw)
	nVars := shape.Inputs + shape.Aux
	for _, p := range []*[]fr.Element{&s.u, &s.v, &s.ext} {
		vec, free, err := allocFr(nVars)
		if err != nil {
			s.Close()
			return nil, err
		}
		*p = vec
		s.release = append(s.release, free)
	}
	return s, nil
}

// setupDomain is the Groth16 domain for n rows: the smallest power of two
// ≥ n (1 for none), at most 2^31.
func setupDomain(n int) (int, error) {
	m, logm := 1, 0
	for m < n {
		m <<= 1
		logm++
		if logm >= frTwoAdicity {
			return 0, fmt.Errorf("groth16: setup: %d constraints exceed the 2^%d FFT domain", n, frTwoAdicity-1)
		}
	}
	return m, nil
}

// Close releases the vectors; s is unusable afterwards.
func (s *StreamSetup) Close() {
	for _, f := range s.release {
		if f != nil {
			f()
		}
	}
	s.release = nil
	s.u, s.v, s.ext = nil, nil, nil
	if s.err == nil {
		s.err = errors.New("groth16: setup: closed")
	}
}

func (s *StreamSetup) fail(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf("groth16: setup: "+format, args...)
	}
}

// Alloc counts an aux variable (the value is ignored).
func (s *StreamSetup) Alloc(*fr.Element) cs.Variable {
	s.numAux++
	return cs.Aux(s.numAux - 1)
}

// AllocInput counts an input variable (the value is ignored).
func (s *StreamSetup) AllocInput(*fr.Element) cs.Variable {
	s.numInputs++
	return cs.Input(s.numInputs - 1)
}

// Push is a no-op.
func (s *StreamSetup) Push(string) {}

// Pop is a no-op.
func (s *StreamSetup) Pop() {}

// index is v's slot in u, v, ext: inputs first, then aux.
func (s *StreamSetup) index(v cs.Variable) (int, bool) {
	i := v.Index()
	if v.IsAux() {
		if i >= s.shape.Aux {
			s.fail("aux variable %d past the shape's %d aux", i, s.shape.Aux)
			return 0, false
		}
		return s.shape.Inputs + i, true
	}
	if i >= s.shape.Inputs {
		s.fail("input variable %d past the shape's %d inputs", i, s.shape.Inputs)
		return 0, false
	}
	return i, true
}

// Enforce evaluates the constraint ⟨a⟩·⟨b⟩ = ⟨c⟩ at τ into u, v and ext.
func (s *StreamSetup) Enforce(a, b, c cs.LC) {
	if s.err != nil {
		return
	}
	j := s.rows
	s.rows++
	if j >= s.m {
		s.fail("constraint %d is past the domain of %d (the shape says %d constraints)", j, s.m, s.shape.Constraints)
		return
	}
	l, bl, al := s.lag.at(j)
	s.addTerms(a, l, bl, s.u)
	s.addTerms(b, l, al, s.v)
	s.addTerms(c, l, nil, nil)
}

// addTerms adds coeff·l into q[var] (when q is not nil) and coeff·lx into
// ext[var] (coeff·l when lx is nil: the C terms) for every term of lc.
func (s *StreamSetup) addTerms(lc cs.LC, l, lx *fr.Element, q []fr.Element) {
	if lx == nil {
		lx = l
	}
	for k := range lc {
		idx, ok := s.index(lc[k].Var)
		if !ok {
			return
		}
		co := &lc[k].Coeff
		if co.IsOne() {
			if q != nil {
				q[idx].Add(&q[idx], l)
			}
			s.ext[idx].Add(&s.ext[idx], lx)
			continue
		}
		var t fr.Element
		if q != nil {
			t.Mul(co, l)
			q[idx].Add(&q[idx], &t)
		}
		t.Mul(co, lx)
		s.ext[idx].Add(&s.ext[idx], &t)
	}
}

// Finish appends the per-input rows (A = 1·Input(i), B = C = 0), checks
// the circuit against the shape and turns ext into the ic (÷γ) and l (÷δ)
// scalars. Errors: the first problem of synthesis (a variable or row
// outside the shape), counts other than the shape's, or
// ErrUnconstrainedVariable for an aux whose l scalar is zero.
func (s *StreamSetup) Finish() error {
	if s.finished || s.err != nil {
		return s.err
	}
	if s.inputRows {
		var one fr.Element
		one.SetOne()
		for i := 0; i < s.numInputs && s.err == nil; i++ {
			s.Enforce(cs.LC{{Coeff: one, Var: cs.Input(i)}}, nil, nil)
		}
	}
	if s.err != nil {
		return s.err
	}
	rows := s.shape.Constraints
	if s.inputRows {
		rows += s.shape.Inputs
	}
	if s.numInputs != s.shape.Inputs || s.numAux != s.shape.Aux || s.rows != rows {
		s.fail("circuit has %d inputs, %d aux, %d rows; the shape says %d, %d, %d",
			s.numInputs, s.numAux, s.rows, s.shape.Inputs, s.shape.Aux, rows)
		return s.err
	}
	if err := scaleExt(s.ext, s.shape.Inputs, &s.tw); err != nil {
		s.err = err
		return err
	}
	s.finished = true
	return nil
}

// scaleExt turns β·u + α·v + w into the ic scalars (÷γ, ext[:nIn]) and the
// l scalars (÷δ, the rest); an aux's zero scalar is ErrUnconstrainedVariable.
func scaleExt(ext []fr.Element, nIn int, tw *ToxicWaste) error {
	var gammaInv, deltaInv fr.Element
	gammaInv.Inverse(&tw.Gamma)
	deltaInv.Inverse(&tw.Delta)
	parallelRange(len(ext), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if i < nIn {
				ext[i].Mul(&ext[i], &gammaInv)
			} else {
				ext[i].Mul(&ext[i], &deltaInv)
			}
		}
	})
	for i := nIn; i < len(ext); i++ {
		if ext[i].IsZero() {
			return fmt.Errorf("%w: aux %d has a zero l-query scalar", ErrUnconstrainedVariable, i-nIn)
		}
	}
	return nil
}

// lagrangeStream yields L_j(τ) (with β·L_j and α·L_j) for j = 0, 1, … in
// order, lagrangeChunk at a time.
type lagrangeStream struct {
	m                 int
	tau, omega, scale fr.Element // scale = Z(τ)/m
	alpha, beta       fr.Element
	root              bool       // Z(τ) = 0: τ is an m-th root of unity
	pow               fr.Element // ω^next
	lo, next          int        // the chunk holds rows [lo, next)
	l, bl, al, den    []fr.Element
}

func (g *lagrangeStream) init(m int, tw *ToxicWaste) {
	g.m, g.tau, g.alpha, g.beta = m, tw.Tau, tw.Alpha, tw.Beta
	w, err := fr.Generator(uint64(m))
	if err != nil { // setupDomain bounds m
		panic(err)
	}
	g.omega = w
	var zt, one, minv fr.Element
	one.SetOne()
	zt.Exp(tw.Tau, big.NewInt(int64(m)))
	zt.Sub(&zt, &one)
	g.root = zt.IsZero()
	minv.SetUint64(uint64(m))
	minv.Inverse(&minv)
	g.scale.Mul(&zt, &minv)
	g.pow.SetOne()
}

// at returns L_j(τ), β·L_j(τ), α·L_j(τ); j must be the last row asked for
// or the next one, and < m.
func (g *lagrangeStream) at(j int) (l, bl, al *fr.Element) {
	if j >= g.next {
		g.fill()
	}
	k := j - g.lo
	return &g.l[k], &g.bl[k], &g.al[k]
}

// fill computes the next chunk: L_j = (Z(τ)/m)·ω^j/(τ − ω^j).
func (g *lagrangeStream) fill() {
	n := min(lagrangeChunk, g.m-g.next)
	if g.l == nil {
		size := min(lagrangeChunk, g.m)
		g.l, g.bl, g.al, g.den = make([]fr.Element, size), make([]fr.Element, size), make([]fr.Element, size), make([]fr.Element, size)
	}
	g.lo = g.next
	g.next += n
	l, den := g.l[:n], g.den[:n]
	for k := range l {
		l[k] = g.pow // ω^j for now
		g.pow.Mul(&g.pow, &g.omega)
	}
	if g.root {
		for k := range l {
			if l[k].Equal(&g.tau) {
				l[k].SetOne()
			} else {
				l[k].SetZero()
			}
		}
	} else {
		for k := range l {
			den[k].Sub(&g.tau, &l[k])
		}
		inv := fr.BatchInvert(den)
		for k := range l {
			l[k].Mul(&l[k], &inv[k]).Mul(&l[k], &g.scale)
		}
	}
	for k := range l {
		g.bl[k].Mul(&l[k], &g.beta)
		g.al[k].Mul(&l[k], &g.alpha)
	}
}

// streamR1CS feeds a recorded R1CS (per-input rows included, as
// cs.Recorder.R1CS returns it) row by row into a new StreamSetup.
func streamR1CS(r *cs.R1CS, tw ToxicWaste) (*StreamSetup, error) {
	if err := validateR1CS(r); err != nil {
		return nil, err
	}
	rows := r.NumConstraints()
	s, err := newStreamSetup(cs.SizeHint{Constraints: rows, Inputs: r.NumInputs, Aux: r.NumAux}, tw, false)
	if err != nil {
		return nil, err
	}
	s.numInputs, s.numAux = r.NumInputs, r.NumAux
	var lcs [3]cs.LC
	for j := 0; j < rows; j++ {
		for k, m := range [3]*cs.Matrix{&r.A, &r.B, &r.C} {
			vars, coeffs := m.Row(j)
			lcs[k] = lcs[k][:0]
			for i := range vars {
				lcs[k] = append(lcs[k], cs.Term{Coeff: coeffs[i], Var: vars[i]})
			}
		}
		s.Enforce(lcs[0], lcs[1], lcs[2])
	}
	return s, nil
}
