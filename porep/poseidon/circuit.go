// SPDX-License-Identifier: Apache-2.0 OR MIT

package poseidon

import (
	"fmt"
	"sort"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
)

// The circuit is neptune 11's legacy gadget (src/circuit.rs poseidon_hash,
// used by rust-fil-proofs through filecoin-hashers). Its R1CS does not
// depend on the preimage, so it is synthesised once per arity into a
// template over local references (0 = ONE, 1…A = the inputs, A+1+k = the
// k-th allocated aux) and replayed per call. Every allocation in the gadget
// is followed at once by the constraint that defines it, so a template step
// is one (alloc v, enforce a·b = c) pair with c = 1·v + (terms without v),
// hence v = ⟨a⟩·⟨b⟩ − ⟨c − v⟩. Replay takes the values from circuitWitness
// (the optimised permutation's intermediates, witness.go); tests check them
// against that solved form.

// HashCircuit synthesises neptune's legacy Poseidon circuit over the
// already-allocated preimage vars (arity len(vars), 1…MaxArity) with values
// vals, and returns the allocated hash and its value. Allocation and
// constraint order and every merged coefficient mirror neptune v11.0.0
// circuit.rs poseidon_hash with PoseidonConstants::new() (Standard,
// MerkleTree): constraints = aux = 3A + 28(A+1) + 4R_P + 1, e.g. 311, 377,
// 505, 598 for A = 2, 4, 8, 11.
//
// vals may be nil for shape-only synthesis (Counter, Recorder): then Alloc
// receives nil and the returned value is zero. Otherwise len(vals) must equal
// len(vars) and vals[i] must be the value assigned to vars[i]: the prover's
// systems (cs.BlockEnforcer) take the constraints' evaluations from vals,
// not from the assignment. The returned value equals Hash(vals), also when
// sys has recorded an error (a full Segment).
func HashCircuit(sys cs.ConstraintSystem, vars []cs.Variable, vals []fr.Element) (cs.Variable, fr.Element, error) {
	var zero fr.Element
	if vals != nil && len(vals) != len(vars) {
		return 0, zero, fmt.Errorf("poseidon: HashCircuit got %d variables but %d values", len(vars), len(vals))
	}
	tpl, err := templateFor(len(vars))
	if err != nil {
		return 0, zero, err
	}
	return tpl.replay(sys, vars, vals)
}

// CircuitCost returns the number of constraints (= aux variables) that
// HashCircuit adds for arity, or an error for an unsupported arity.
func CircuitCost(arity int) (int, error) {
	c, err := ConstantsFor(arity)
	if err != nil {
		return 0, err
	}
	return 3*arity + 28*(arity+1) + 4*c.PartialRounds + 1, nil
}

// tterm is a template term: coeff·ref.
type tterm struct {
	ref   int32
	coeff fr.Element
}

// tstep is one alloc + enforce; a, b, c index template.terms. c's first term
// is 1·(the allocated ref).
type tstep struct {
	a, b, c [2]int32
}

type tround struct {
	name       string
	start, end int // steps[start:end]
}

type template struct {
	c      *Constants
	arity  int
	terms  []tterm
	steps  []tstep
	rounds []tround
	pool   sync.Pool // *replayScratch

	// The block path (cs.BlockEnforcer), set by planBlock: per step the
	// sources of ⟨A⟩, ⟨B⟩, ⟨C⟩; the A and B densities of the new variables
	// (bit k: step k's variable); which preimage refs (1…A) sit in some A
	// or B, and whether ONE sits in some B.
	block      []blockStep
	consts     []fr.Element // blockSrc.k indexes it
	aDen, bDen []uint64
	aPre, bPre []int32
	bOne       bool
}

var templateCache [MaxArity + 1]struct {
	once sync.Once
	t    *template
}

func templateFor(arity int) (*template, error) {
	c, err := ConstantsFor(arity)
	if err != nil {
		return nil, err
	}
	e := &templateCache[arity]
	e.once.Do(func() { e.t = buildTemplate(c) })
	return e.t, nil
}

type replayScratch struct {
	vars    []cs.Variable
	vals    []fr.Element
	a, b, c cs.LC
	aV, bV  []cs.Variable // the block path's density lists
}

func (tpl *template) replay(sys cs.ConstraintSystem, vars []cs.Variable, vals []fr.Element) (cs.Variable, fr.Element, error) {
	n := 1 + tpl.arity + len(tpl.steps)
	sc, _ := tpl.pool.Get().(*replayScratch)
	if sc == nil {
		sc = &replayScratch{vars: make([]cs.Variable, n), vals: make([]fr.Element, n)}
	}
	defer tpl.pool.Put(sc)
	if be, ok := sys.(cs.BlockEnforcer); ok && vals != nil && evaluatedPath.Load() && tpl.blockFits(vars) {
		v, out := tpl.replayBlock(be, sc, vars, vals)
		return v, out, nil
	}
	sc.vars[0] = cs.One
	copy(sc.vars[1:], vars)
	withValues := vals != nil
	base := int32(1 + tpl.arity)
	if withValues {
		// sc.vals[:base] (ONE and the preimage) is never read here.
		circuitWitness(tpl.c, sc.vals[base:], vals)
	}
	for _, r := range tpl.rounds {
		sys.Push(r.name)
		for s := r.start; s < r.end; s++ {
			st := &tpl.steps[s]
			ref := base + int32(s)
			if withValues {
				sc.vars[ref] = sys.Alloc(&sc.vals[ref])
			} else {
				sc.vars[ref] = sys.Alloc(nil)
			}
			sc.a = tpl.lc(sc.a[:0], sc.vars, st.a)
			sc.b = tpl.lc(sc.b[:0], sc.vars, st.b)
			sc.c = tpl.lc(sc.c[:0], sc.vars, st.c)
			sys.Enforce(sc.a, sc.b, sc.c)
		}
		sys.Pop()
	}
	last := int(base) + len(tpl.steps) - 1
	var out fr.Element
	if withValues {
		out = sc.vals[last]
	}
	return sc.vars[last], out, nil
}

// solveWitness fills vals[1+A:] by solving each recorded step for its new
// variable, v = ⟨a⟩·⟨b⟩ − ⟨c − v⟩, given vals[0] = 1 and vals[1…A] = the
// preimage. Tests compare it with circuitWitness.
func (tpl *template) solveWitness(vals []fr.Element) {
	base := int32(1 + tpl.arity)
	for s := range tpl.steps {
		st := &tpl.steps[s]
		v := &vals[base+int32(s)]
		a, b := tpl.eval(vals, st.a), tpl.eval(vals, st.b)
		v.Mul(&a, &b)
		cRest := tpl.eval(vals, [2]int32{st.c[0] + 1, st.c[1]})
		v.Sub(v, &cRest)
	}
}

// eval returns Σ coeff·vals[ref] over terms[r[0]:r[1]].
func (tpl *template) eval(vals []fr.Element, r [2]int32) fr.Element {
	var acc, p fr.Element
	for i := r[0]; i < r[1]; i++ {
		t := &tpl.terms[i]
		switch {
		case t.ref == 0:
			acc.Add(&acc, &t.coeff)
		case t.coeff.IsOne():
			acc.Add(&acc, &vals[t.ref])
		default:
			p.Mul(&t.coeff, &vals[t.ref])
			acc.Add(&acc, &p)
		}
	}
	return acc
}

func (tpl *template) lc(dst cs.LC, vars []cs.Variable, r [2]int32) cs.LC {
	for i := r[0]; i < r[1]; i++ {
		t := &tpl.terms[i]
		dst = append(dst, cs.Term{Coeff: t.coeff, Var: vars[t.ref]})
	}
	return dst
}

// ---- symbolic synthesis (once per arity), mirroring circuit.rs ----

// symLC is a merged linear combination over local refs, like bellpepper's
// LinearCombination (adding a present ref adds coefficients).
type symLC map[int32]fr.Element

// elt mirrors circuit.rs Elt: Allocated(ref) or Num(lc).
type elt struct {
	allocated bool
	ref       int32
	lc        symLC
	val       fr.Element // only tracked for the constant tag element
}

func numConst(c *fr.Element) elt {
	return elt{lc: symLC{0: *c}, val: *c}
}

func (e elt) asLC() symLC {
	if e.allocated {
		var one fr.Element
		one.SetOne()
		return symLC{e.ref: one}
	}
	return e.lc
}

// scale mirrors Elt::scale (Num::scale; an Allocated becomes 1·var first).
func (e elt) scale(s *fr.Element) elt {
	src := e.asLC()
	out := make(symLC, len(src))
	for r, c := range src {
		c.Mul(&c, s)
		out[r] = c
	}
	return elt{lc: out}
}

// add mirrors Elt::add, defined on two Nums only.
func (e elt) add(o elt) elt {
	if e.allocated || o.allocated {
		panic("poseidon: circuit template adds an Allocated element (neptune forbids it)")
	}
	out := make(symLC, len(e.lc)+len(o.lc))
	for r, c := range e.lc {
		out[r] = c
	}
	for r, c := range o.lc {
		s := out[r]
		s.Add(&s, &c)
		out[r] = s
	}
	return elt{lc: out}
}

type builder struct {
	c       *Constants
	tpl     *template
	next    int32
	elems   []elt
	offset  int
	round   int
	curName string
	curFrom int
}

func buildTemplate(c *Constants) *template {
	tpl := &template{c: c, arity: c.Arity}
	b := &builder{c: c, tpl: tpl, next: int32(1 + c.Arity)}
	b.elems = make([]elt, c.Width)
	b.elems[0] = numConst(&c.DomainTag)
	for i := 1; i < c.Width; i++ {
		b.elems[i] = elt{allocated: true, ref: int32(i)}
	}
	half := c.FullRounds / 2
	b.begin("first round")
	b.fullRound(true, false)
	for i := 1; i < half; i++ {
		b.begin(fmt.Sprintf("initial full round %d", i))
		b.fullRound(false, false)
	}
	for i := 0; i < c.PartialRounds; i++ {
		b.begin(fmt.Sprintf("partial round %d", i))
		b.partialRound()
	}
	for i := 0; i < half-1; i++ {
		b.begin(fmt.Sprintf("final full round %d", i))
		b.fullRound(false, false)
	}
	b.begin("terminal full round")
	b.fullRound(false, true)
	b.begin("hash result")
	b.ensureAllocated(b.elems[1])
	b.begin("")
	if b.offset != len(c.Compressed) {
		panic(fmt.Sprintf("poseidon: circuit template used %d of %d compressed constants", b.offset, len(c.Compressed)))
	}
	tpl.planBlock()
	return tpl
}

// begin closes the current namespace and opens name.
func (b *builder) begin(name string) {
	if b.curName != "" {
		b.tpl.rounds = append(b.tpl.rounds, tround{b.curName, b.curFrom, len(b.tpl.steps)})
	}
	b.curName, b.curFrom = name, len(b.tpl.steps)
}

// emit appends a term range from lc (sorted by ref, zero coefficients
// dropped: they affect neither density nor evaluation). If first ≥ 0 that
// ref's term is emitted first.
func (b *builder) emit(lc symLC, first int32) [2]int32 {
	start := int32(len(b.tpl.terms))
	if first >= 0 {
		b.tpl.terms = append(b.tpl.terms, tterm{first, lc[first]})
	}
	refs := make([]int32, 0, len(lc))
	for r, c := range lc {
		if r != first && !c.IsZero() {
			refs = append(refs, r)
		}
	}
	sort.Slice(refs, func(i, j int) bool { return refs[i] < refs[j] })
	for _, r := range refs {
		b.tpl.terms = append(b.tpl.terms, tterm{r, lc[r]})
	}
	return [2]int32{start, int32(len(b.tpl.terms))}
}

// allocEnforce allocates a ref and records enforce(a, b, c(v)).
func (b *builder) allocEnforce(a, bb symLC, c func(v int32) symLC) int32 {
	v := b.next
	b.next++
	cl := c(v)
	if one := cl[v]; !one.IsOne() {
		panic("poseidon: circuit template step without 1·v in C")
	}
	b.tpl.steps = append(b.tpl.steps, tstep{a: b.emit(a, -1), b: b.emit(bb, -1), c: b.emit(cl, v)})
	return v
}

func oneTimes(r int32) symLC {
	var one fr.Element
	one.SetOne()
	return symLC{r: one}
}

// plusConst returns 1·r + k·ONE.
func plusConst(r int32, k *fr.Element) symLC {
	lc := oneTimes(r)
	lc[0] = *k
	return lc
}

// ensureAllocated mirrors Elt::ensure_allocated(enforce = true):
// alloc v; enforce(num.lc, ONE, v).
func (b *builder) ensureAllocated(e elt) int32 {
	if e.allocated {
		return e.ref
	}
	return b.allocEnforce(e.lc, oneTimes(0), oneTimes)
}

// quinticSBox mirrors circuit.rs quintic_s_box: l = ensure_allocated(e);
// l2 = l·l; l4 = l2·l2; l5 = mul_sum(l4, l, None, post):
// enforce(l, l4, l5 − post·ONE), or enforce(l, l4, l5) without a key.
func (b *builder) quinticSBox(e elt, post *fr.Element) elt {
	l := b.ensureAllocated(e)
	l2 := b.allocEnforce(oneTimes(l), oneTimes(l), oneTimes)
	l4 := b.allocEnforce(oneTimes(l2), oneTimes(l2), oneTimes)
	l5 := b.allocEnforce(oneTimes(l), oneTimes(l4), func(v int32) symLC {
		if post == nil {
			return oneTimes(v)
		}
		var neg fr.Element
		neg.Neg(post)
		return plusConst(v, &neg)
	})
	return elt{allocated: true, ref: l5}
}

// quinticSBoxPreAdd mirrors quintic_s_box_pre_add (first round, inputs):
// l2 = square_sum: enforce(l + pre·ONE, l + pre·ONE, l2); l4 = l2²;
// l5 = mul_sum(l4, l, pre, post): enforce(l + pre·ONE, l4, l5 − post·ONE).
func (b *builder) quinticSBoxPreAdd(e elt, pre, post *fr.Element) elt {
	l := b.ensureAllocated(e)
	l2 := b.allocEnforce(plusConst(l, pre), plusConst(l, pre), oneTimes)
	l4 := b.allocEnforce(oneTimes(l2), oneTimes(l2), oneTimes)
	var neg fr.Element
	neg.Neg(post)
	l5 := b.allocEnforce(plusConst(l, pre), oneTimes(l4), func(v int32) symLC { return plusConst(v, &neg) })
	return elt{allocated: true, ref: l5}
}

// fullRound mirrors PoseidonCircuit::full_round.
func (b *builder) fullRound(first, last bool) {
	t := b.c.Width
	crc := b.c.Compressed
	var pre, post []fr.Element
	if first {
		pre = crc[b.offset : b.offset+t]
		b.offset += t
	}
	if first || !last {
		post = crc[b.offset : b.offset+t]
		b.offset += t
	}
	for i := range b.elems {
		switch {
		case first && i == 0:
			// constant_quintic_s_box_pre_add_tag: the tag's S-box is a constant.
			v := b.elems[0].val
			v.Add(&v, &pre[0])
			sbox5(&v)
			v.Add(&v, &post[0])
			b.elems[0] = numConst(&v)
		case first:
			b.elems[i] = b.quinticSBoxPreAdd(b.elems[i], &pre[i], &post[i])
		case post != nil:
			b.elems[i] = b.quinticSBox(b.elems[i], &post[i])
		default:
			b.elems[i] = b.quinticSBox(b.elems[i], nil)
		}
	}
	b.productMDS()
}

// partialRound mirrors PoseidonCircuit::partial_round.
func (b *builder) partialRound() {
	key := b.c.Compressed[b.offset]
	b.offset++
	b.elems[0] = b.quinticSBox(b.elems[0], &key)
	b.productMDS()
}

// productMDS mirrors PoseidonCircuit::product_mds: pre-sparse after round
// half−1, sparse factors during the partial rounds, M otherwise.
func (b *builder) productMDS() {
	half := b.c.FullRounds / 2
	switch {
	case b.round == half-1:
		b.denseProduct(b.c.PreSparse)
	case b.round > half-1 && b.round < half+b.c.PartialRounds:
		b.sparseProduct(&b.c.Sparse[b.round-half])
	default:
		b.denseProduct(b.c.MDS)
	}
	b.round++
}

// denseProduct mirrors product_mds_with_matrix: out[j] = Σ_i e[i]·m[i][j],
// folded from Num::zero().
func (b *builder) denseProduct(m []fr.Element) {
	t := b.c.Width
	out := make([]elt, t)
	for j := 0; j < t; j++ {
		acc := elt{lc: symLC{}}
		for i := 0; i < t; i++ {
			acc = acc.add(b.elems[i].scale(&m[i*t+j]))
		}
		out[j] = acc
	}
	b.elems = out
}

// sparseProduct mirrors product_mds_with_sparse_matrix:
// out[0] = Σ_i e[i]·ŵ[i]; out[j] = e[j] + e[0]·v[j−1].
func (b *builder) sparseProduct(s *SparseMatrix) {
	t := b.c.Width
	out := make([]elt, t)
	acc := elt{lc: symLC{}}
	for i := 0; i < t; i++ {
		acc = acc.add(b.elems[i].scale(&s.WHat[i]))
	}
	out[0] = acc
	for j := 1; j < t; j++ {
		out[j] = b.elems[j].add(b.elems[0].scale(&s.VRest[j-1]))
	}
	b.elems = out
}
