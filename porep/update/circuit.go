// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

import (
	"context"
	"fmt"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/internal/hostmem"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/gadget"
	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
)

// ChallengeWitness is circuit.rs ChallengeProof: the leaves of one challenge
// and the siblings of its three paths, leaf side first. PathR* hold
// arity−1 siblings per TreeR level (base, sub, top flattened as path()
// does); PathDNew one sibling per TreeD level, all ChallengeBitLen of them.
// LeafRNew is only compared with the computed label, never allocated.
type ChallengeWitness struct {
	LeafROld, LeafDNew, LeafRNew fr.Element
	PathROld, PathRNew           [][]fr.Element
	PathDNew                     []fr.Element
}

// Circuit is one partition's EmptySectorUpdateCircuit (storage-proofs-update
// circuit.rs) with its witness. Build it with NewCircuit (from a parsed
// partition proof) or BlankCircuit (shape only); synthesize it with
// Synthesize.
type Circuit struct {
	Cfg Config
	// K is the partition index; the first public input is
	// Cfg.KAndHSelect(K).
	K                            int
	CommROld, CommDNew, CommRNew fr.Element
	CommC, RootROld, RootRNew    fr.Element
	ApexLeafs                    []fr.Element
	Challenges                   []ChallengeWitness
}

// domainFr converts a canonical 32-byte domain; name prefixes the error.
func domainFr(name string, d *stacked.Domain) (fr.Element, error) {
	e, err := stacked.FrFromBytes((*[32]byte)(d))
	if err != nil {
		return e, fmt.Errorf("%s: %w", name, err)
	}
	return e, nil
}

// NewCircuit builds partition k's circuit from its partition proof and the
// three public commitments, as EmptySectorUpdateCompound::circuit,
// PublicInputs::new and PrivateInputs::new do: root_r_old and root_r_new
// are challenge 0's TreeR roots, the partition path the top
// PartitionBitLen levels of challenge 0's TreeD path (every challenge must
// share it). It validates the shapes (Validate); it does not check the
// Merkle paths, the challenges or the commitments.
func NewCircuit(cfg *Config, k int, commROld, commDNew, commRNew *fr.Element, p *PartitionProof) (*Circuit, error) {
	if k < 0 || k >= cfg.Partitions {
		return nil, fmt.Errorf("update: circuit: partition %d out of range (%s has %d)", k, cfg.Name, cfg.Partitions)
	}
	if len(p.ChallengeProofs) == 0 {
		return nil, fmt.Errorf("update: circuit: partition proof has no challenge proofs")
	}
	c := &Circuit{Cfg: *cfg, K: k, CommROld: *commROld, CommDNew: *commDNew, CommRNew: *commRNew}
	var err error
	if c.CommC, err = domainFr("comm_c", &p.CommC); err != nil {
		return nil, fmt.Errorf("update: circuit: %w", err)
	}
	if c.RootROld, err = domainFr("challenge_proofs[0].proof_r_old.root", &p.ChallengeProofs[0].ProofROld.Root); err != nil {
		return nil, fmt.Errorf("update: circuit: %w", err)
	}
	if c.RootRNew, err = domainFr("challenge_proofs[0].proof_r_new.root", &p.ChallengeProofs[0].ProofRNew.Root); err != nil {
		return nil, fmt.Errorf("update: circuit: %w", err)
	}
	c.ApexLeafs = make([]fr.Element, len(p.ApexLeafs))
	for i := range p.ApexLeafs {
		if c.ApexLeafs[i], err = domainFr(fmt.Sprintf("apex_leafs[%d]", i), &p.ApexLeafs[i]); err != nil {
			return nil, fmt.Errorf("update: circuit: %w", err)
		}
	}
	c.Challenges = make([]ChallengeWitness, len(p.ChallengeProofs))
	for i := range p.ChallengeProofs {
		if err := c.Challenges[i].from(&p.ChallengeProofs[i]); err != nil {
			return nil, fmt.Errorf("update: circuit: challenge_proofs[%d]: %w", i, err)
		}
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// from fills w from a vanilla ChallengeProof
// (ChallengeProof::from_merkle_proofs: leaves and path siblings → Fr).
func (w *ChallengeWitness) from(cp *ChallengeProof) error {
	var err error
	for _, v := range []struct {
		name string
		d    *stacked.Domain
		dst  *fr.Element
	}{{"proof_r_old.leaf", &cp.ProofROld.Leaf, &w.LeafROld}, {"proof_d_new.leaf", &cp.ProofDNew.Leaf, &w.LeafDNew}, {"proof_r_new.leaf", &cp.ProofRNew.Leaf, &w.LeafRNew}} {
		if *v.dst, err = domainFr(v.name, v.d); err != nil {
			return err
		}
	}
	siblings := func(name string, p *stacked.MerkleProof) ([][]fr.Element, error) {
		path := p.Path()
		out := make([][]fr.Element, len(path))
		for l, e := range path {
			out[l] = make([]fr.Element, len(e.Hashes))
			for j := range e.Hashes {
				if out[l][j], err = domainFr(fmt.Sprintf("%s.path[%d].hashes[%d]", name, l, j), &e.Hashes[j]); err != nil {
					return nil, err
				}
			}
		}
		return out, nil
	}
	if w.PathROld, err = siblings("proof_r_old", &cp.ProofROld); err != nil {
		return err
	}
	if w.PathRNew, err = siblings("proof_r_new", &cp.ProofRNew); err != nil {
		return err
	}
	d, err := siblings("proof_d_new", &cp.ProofDNew)
	if err != nil {
		return err
	}
	w.PathDNew = make([]fr.Element, len(d))
	for l := range d {
		if len(d[l]) != 1 {
			return fmt.Errorf("proof_d_new.path[%d]: %d siblings, want 1", l, len(d[l]))
		}
		w.PathDNew[l] = d[l][0]
	}
	return nil
}

// BlankCircuit is EmptySectorUpdateCircuit::blank for cfg: partition 0, zero
// values, ApexLeafCount apex leaves and ChallengeCount challenges with
// paths of the configured shape. Its R1CS is the one every witness of cfg
// gives; it is what parameter generation synthesizes.
func BlankCircuit(cfg *Config) *Circuit {
	c := &Circuit{Cfg: *cfg, ApexLeafs: make([]fr.Element, cfg.ApexLeafCount), Challenges: make([]ChallengeWitness, cfg.ChallengeCount)}
	arities := cfg.PathArities()
	pathR := func() [][]fr.Element {
		out := make([][]fr.Element, len(arities))
		for l, a := range arities {
			out[l] = make([]fr.Element, a-1)
		}
		return out
	}
	for i := range c.Challenges {
		c.Challenges[i] = ChallengeWitness{PathROld: pathR(), PathRNew: pathR(), PathDNew: make([]fr.Element, cfg.ChallengeBitLen)}
	}
	return c
}

// Validate checks the circuit's structure against its configuration (the
// asserts of EmptySectorUpdateCircuit::synthesize: partition index, apex
// leaves, challenges, path shapes, one partition path shared by every
// challenge) so that Synthesize never stops half-way.
func (c *Circuit) Validate() error {
	cfg := &c.Cfg
	if c.K < 0 || c.K >= cfg.Partitions {
		return fmt.Errorf("update: circuit: partition %d out of range (%s has %d)", c.K, cfg.Name, cfg.Partitions)
	}
	if len(c.ApexLeafs) != cfg.ApexLeafCount || len(c.Challenges) != cfg.ChallengeCount {
		return fmt.Errorf("update: circuit: %d apex leaves and %d challenges, %s has %d and %d",
			len(c.ApexLeafs), len(c.Challenges), cfg.Name, cfg.ApexLeafCount, cfg.ChallengeCount)
	}
	arities := cfg.PathArities()
	top := cfg.ChallengeBitLen - cfg.PartitionBitLen
	for i := range c.Challenges {
		w := &c.Challenges[i]
		for _, p := range []struct {
			name string
			path [][]fr.Element
		}{{"path_r_old", w.PathROld}, {"path_r_new", w.PathRNew}} {
			if len(p.path) != len(arities) {
				return fmt.Errorf("update: circuit: challenge %d %s: %d levels, want %d", i, p.name, len(p.path), len(arities))
			}
			for l, a := range arities {
				if len(p.path[l]) != a-1 {
					return fmt.Errorf("update: circuit: challenge %d %s level %d: %d siblings, want %d", i, p.name, l, len(p.path[l]), a-1)
				}
			}
		}
		if len(w.PathDNew) != cfg.ChallengeBitLen {
			return fmt.Errorf("update: circuit: challenge %d path_d_new: %d levels, want %d", i, len(w.PathDNew), cfg.ChallengeBitLen)
		}
		for l := top; l < cfg.ChallengeBitLen; l++ {
			if !w.PathDNew[l].Equal(&c.Challenges[0].PathDNew[l]) {
				return fmt.Errorf("update: circuit: challenge %d path_d_new level %d differs from challenge 0's partition path", i, l)
			}
		}
	}
	return nil
}

// pow2 holds 2^i for i < 255 (the bit-decomposition coefficients).
var pow2 = func() (t [gadget.NumBits]fr.Element) {
	t[0].SetOne()
	for i := 1; i < len(t); i++ {
		t[i].Double(&t[i-1])
	}
	return t
}()

// enforcePacked enforces (Σ 2^i·bits_i) · ONE = x: the form circuit.rs uses
// for k_and_h_select and gadgets.rs allocated_num_to_allocated_bits.
func enforcePacked(sys cs.ConstraintSystem, bits []gadget.AllocatedBit, x cs.Variable) {
	a := make(cs.LC, len(bits))
	for i, b := range bits {
		a[i] = cs.Term{Coeff: pow2[i], Var: b.Var}
	}
	sys.Enforce(a, cs.LC{{Coeff: pow2[0], Var: cs.One}}, cs.LC{{Coeff: pow2[0], Var: x}})
}

// allocBitsLE allocates the low n bits of v (LE), each with its booleanity
// constraint (field_into_allocated_bits_le for n = 255).
func allocBitsLE(sys cs.ConstraintSystem, v *fr.Element, n int) []gadget.AllocatedBit {
	limbs := v.Bits()
	out := make([]gadget.AllocatedBit, n)
	for i := range out {
		out[i] = gadget.AllocBit(sys, limbs[i/64]>>(uint(i)%64)&1 == 1)
	}
	return out
}

// hashG is PoseidonG in the circuit (neptune poseidon_hash with
// POSEIDON_CONSTANTS_GEN_RANDOMNESS).
func hashG(sys cs.ConstraintSystem, a, b *gadget.AllocatedNum) (gadget.AllocatedNum, error) {
	v, val, err := poseidon.HashCircuitWith(sys, GenRandomnessConstants(), []cs.Variable{a.Var, b.Var}, []fr.Element{a.Val, b.Val})
	return gadget.AllocatedNum{Var: v, Val: val}, err
}

// hash2 is the TreeR hasher's hash2_circuit (Poseidon arity 2, tag 3).
func hash2(sys cs.ConstraintSystem, a, b *gadget.AllocatedNum) (gadget.AllocatedNum, error) {
	v, val, err := poseidon.HashCircuit(sys, []cs.Variable{a.Var, b.Var}, []fr.Element{a.Val, b.Val})
	return gadget.AllocatedNum{Var: v, Val: val}, err
}

func allocNums(sys cs.ConstraintSystem, vals []fr.Element) []gadget.AllocatedNum {
	out := make([]gadget.AllocatedNum, len(vals))
	for i := range vals {
		out[i] = gadget.AllocNum(sys, &vals[i])
	}
	return out
}

func isBits(bits []gadget.AllocatedBit) []gadget.Boolean {
	out := make([]gadget.Boolean, len(bits))
	for i, b := range bits {
		out[i] = gadget.Is(b)
	}
	return out
}

// top holds the partition-level variables every challenge uses.
type top struct {
	partitionBits, hSelectBits []gadget.AllocatedBit
	phi, commRNew              gadget.AllocatedNum
	rootROld, rootRNew         gadget.AllocatedNum
	apexLeafs                  []gadget.AllocatedNum
	challengeBits              [][]gadget.AllocatedBit
}

// Synthesize writes the circuit into sys exactly as
// EmptySectorUpdateCircuit::synthesize (update-circuit.md §5): the public
// inputs k_and_h_select, comm_r_old, comm_d_new, comm_r_new and their bits,
// phi, the private commitments, comm_r checks, apex_por, gen_challenge_bits,
// then per challenge c_high, rho, label_r_new and the TreeROld, TreeRNew and
// TreeD (to the apex leaf) PoRs. A structural defect (Validate) is reported
// before anything is written; ctx is checked before each challenge. A
// computed leaf_r_new that differs from the witness's is an error (Rust
// asserts it).
func (c *Circuit) Synthesize(ctx context.Context, sys cs.ConstraintSystem) error {
	if err := c.Validate(); err != nil {
		return err
	}
	t, err := c.synthesizeTop(sys)
	if err != nil {
		return err
	}
	for i := range c.Challenges {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("update: circuit: challenge %d: %w", i, err)
		}
		if err := c.synthesizeChallenge(sys, t, i); err != nil {
			return fmt.Errorf("update: circuit: challenge %d: %w", i, err)
		}
	}
	return nil
}

// synthesizeTop is §5.1: everything before the per-challenge loop.
func (c *Circuit) synthesizeTop(sys cs.ConstraintSystem) (*top, error) {
	cfg := &c.Cfg
	t := &top{}
	khsVal := stacked.FrFromUint64(cfg.KAndHSelect(c.K))
	khs := gadget.AllocNum(sys, &khsVal)
	khs.Inputize(sys)
	bits := allocBitsLE(sys, &khsVal, cfg.PartitionBitLen+HSCount)
	enforcePacked(sys, bits, khs.Var)
	t.partitionBits, t.hSelectBits = bits[:cfg.PartitionBitLen], bits[cfg.PartitionBitLen:]
	partition := gadget.PackBits(sys, isBits(t.partitionBits))

	commROld := gadget.AllocNum(sys, &c.CommROld)
	commROld.Inputize(sys)
	commDNew := gadget.AllocNum(sys, &c.CommDNew)
	commDNew.Inputize(sys)
	t.commRNew = gadget.AllocNum(sys, &c.CommRNew)
	t.commRNew.Inputize(sys)
	var err error
	if t.phi, err = hashG(sys, &commDNew, &commROld); err != nil {
		return nil, fmt.Errorf("update: circuit: phi: %w", err)
	}

	commC := gadget.AllocNum(sys, &c.CommC)
	t.rootROld = gadget.AllocNum(sys, &c.RootROld)
	t.rootRNew = gadget.AllocNum(sys, &c.RootRNew)
	t.apexLeafs = allocNums(sys, c.ApexLeafs)
	top := cfg.ChallengeBitLen - cfg.PartitionBitLen
	partitionPath := make([][]gadget.AllocatedNum, cfg.PartitionBitLen)
	for l := range partitionPath {
		partitionPath[l] = []gadget.AllocatedNum{gadget.AllocNum(sys, &c.Challenges[0].PathDNew[top+l])}
	}

	for _, r := range []struct {
		name       string
		root, comm *gadget.AllocatedNum
	}{{"comm_r_old", &t.rootROld, &commROld}, {"comm_r_new", &t.rootRNew, &t.commRNew}} {
		calc, err := hash2(sys, &commC, r.root)
		if err != nil {
			return nil, fmt.Errorf("update: circuit: %s: %w", r.name, err)
		}
		gadget.Equal(sys, &calc, r.comm)
	}

	if err := c.apexPoR(sys, t, partitionPath, &commDNew); err != nil {
		return nil, err
	}
	if t.challengeBits, err = c.genChallengeBits(sys, &t.commRNew, &partition); err != nil {
		return nil, err
	}
	return t, nil
}

// apexPoR is gadgets.rs apex_por: the apex tree over the apex leaves, row by
// row, then the partition path from its root to comm_d_new.
func (c *Circuit) apexPoR(sys cs.ConstraintSystem, t *top, partitionPath [][]gadget.AllocatedNum, commDNew *gadget.AllocatedNum) error {
	row := t.apexLeafs
	for len(row) > 1 {
		next := make([]gadget.AllocatedNum, len(row)/2)
		for i := range next {
			h, err := gadget.SHA256HashMultiLeaf(sys, row[2*i:2*i+2])
			if err != nil {
				return fmt.Errorf("update: circuit: apex tree: %w", err)
			}
			next[i] = h
		}
		row = next
	}
	arities := make([]int, len(partitionPath))
	for i := range arities {
		arities[i] = 2
	}
	if err := gadget.PoRNoChallengeInput(sys, gadget.TreeSHA256, arities, isBits(t.partitionBits), &row[0], partitionPath, commDNew); err != nil {
		return fmt.Errorf("update: circuit: partition-tree por: %w", err)
	}
	return nil
}

// genChallengeBits is gadgets.rs gen_challenge_bits: per digest j the digest
// index k·dpp + j, PoseidonG(comm_r_new, index), its 255 bits
// (allocated_num_to_allocated_bits), cut into RandomBits chunks.
func (c *Circuit) genChallengeBits(sys cs.ConstraintSystem, commRNew, partition *gadget.AllocatedNum) ([][]gadget.AllocatedBit, error) {
	cfg := &c.Cfg
	rb, per, dpp := cfg.RandomBits(), cfg.ChallengesPerDigest(), cfg.DigestsPerPartition()
	dppFr := stacked.FrFromUint64(uint64(dpp))
	out := make([][]gadget.AllocatedBit, 0, cfg.ChallengeCount)
	for j := 0; j < dpp; j++ {
		jFr := stacked.FrFromUint64(uint64(j))
		var v fr.Element
		v.Mul(&partition.Val, &dppFr).Add(&v, &jFr)
		di := gadget.AllocNum(sys, &v)
		a := cs.LC{{Coeff: dppFr, Var: partition.Var}}
		if j != 0 {
			// j = 0 has coefficient 0 on ONE: no term.
			a = append(a, cs.Term{Coeff: jFr, Var: cs.One})
		}
		sys.Enforce(a, cs.LC{{Coeff: pow2[0], Var: cs.One}}, cs.LC{{Coeff: pow2[0], Var: di.Var}})
		digest, err := hashG(sys, commRNew, &di)
		if err != nil {
			return nil, fmt.Errorf("update: circuit: digest %d: %w", j, err)
		}
		bits := allocBitsLE(sys, &digest.Val, gadget.NumBits)
		enforcePacked(sys, bits, digest.Var)
		take := per
		if j == dpp-1 {
			take = cfg.ChallengeCount - len(out)
		}
		for i := 0; i < take; i++ {
			out = append(out, bits[i*rb:(i+1)*rb])
		}
	}
	return out, nil
}

// synthesizeChallenge is §5.2 for challenge i.
func (c *Circuit) synthesizeChallenge(sys cs.ConstraintSystem, t *top, i int) error {
	cfg := &c.Cfg
	w := &c.Challenges[i]
	cBits := make([]gadget.Boolean, 0, cfg.ChallengeBitLen)
	cBits = append(cBits, isBits(t.challengeBits[i])...)
	cBits = append(cBits, isBits(t.partitionBits)...)

	cHigh := c.challengeHigh(sys, cBits, t.hSelectBits)
	rho, err := hashG(sys, &t.phi, &cHigh)
	if err != nil {
		return fmt.Errorf("rho: %w", err)
	}
	leafROld := gadget.AllocNum(sys, &w.LeafROld)
	leafDNew := gadget.AllocNum(sys, &w.LeafDNew)
	m := leafDNew.Mul(sys, &rho)
	leafRNew := leafROld.Add(sys, &m)
	if !leafRNew.Val.Equal(&w.LeafRNew) {
		return fmt.Errorf("leaf_r_new %s is not leaf_r_old + leaf_d_new·rho = %s", frString(&w.LeafRNew), frString(&leafRNew.Val))
	}

	arities := cfg.PathArities()
	pathROld := make([][]gadget.AllocatedNum, len(w.PathROld))
	for l := range w.PathROld {
		pathROld[l] = allocNums(sys, w.PathROld[l])
	}
	if err := gadget.PoRNoChallengeInput(sys, gadget.TreePoseidon, arities, cBits, &leafROld, pathROld, &t.rootROld); err != nil {
		return fmt.Errorf("por tree_r_old: %w", err)
	}
	pathRNew := make([][]gadget.AllocatedNum, len(w.PathRNew))
	for l := range w.PathRNew {
		pathRNew[l] = allocNums(sys, w.PathRNew[l])
	}
	if err := gadget.PoRNoChallengeInput(sys, gadget.TreePoseidon, arities, cBits, &leafRNew, pathRNew, &t.rootRNew); err != nil {
		return fmt.Errorf("por tree_r_new: %w", err)
	}

	d := cfg.ApexDepth()
	apexLeaf, err := gadget.Select(sys, t.apexLeafs, cBits[d:d+cfg.ApexLeafBitLen])
	if err != nil {
		return fmt.Errorf("select apex leaf: %w", err)
	}
	pathD := make([][]gadget.AllocatedNum, d)
	aritiesD := make([]int, d)
	for l := range pathD {
		pathD[l] = []gadget.AllocatedNum{gadget.AllocNum(sys, &w.PathDNew[l])}
		aritiesD[l] = 2
	}
	if err := gadget.PoRNoChallengeInput(sys, gadget.TreeSHA256, aritiesD, cBits[:d], &leafDNew, pathD, &apexLeaf); err != nil {
		return fmt.Errorf("por to apex leaf: %w", err)
	}
	return nil
}

// challengeHigh is gadgets.rs get_challenge_high_bits: per hs entry the
// packed top hs[i] bits and that value times h-select bit i, then their
// sum (13 constraints).
func (c *Circuit) challengeHigh(sys cs.ConstraintSystem, cBits []gadget.Boolean, hSelect []gadget.AllocatedBit) gadget.AllocatedNum {
	n := len(cBits)
	var sum fr.Element
	sumLC := make(cs.LC, 0, HSCount)
	for i, h := range c.Cfg.HS {
		ch := gadget.PackBits(sys, cBits[n-h:])
		var v fr.Element
		if hSelect[i].Val {
			v = ch.Val
		}
		cz := gadget.AllocNum(sys, &v)
		sys.Enforce(cs.LC{{Coeff: pow2[0], Var: ch.Var}}, cs.LC{{Coeff: pow2[0], Var: hSelect[i].Var}}, cs.LC{{Coeff: pow2[0], Var: cz.Var}})
		sum.Add(&sum, &v)
		sumLC = append(sumLC, cs.Term{Coeff: pow2[0], Var: cz.Var})
	}
	out := gadget.AllocNum(sys, &sum)
	sys.Enforce(sumLC, cs.LC{{Coeff: pow2[0], Var: cs.One}}, cs.LC{{Coeff: pow2[0], Var: out.Var}})
	return out
}

func frString(e *fr.Element) string {
	b := stacked.FrToBytes(e)
	return fmt.Sprintf("%x", b[:])
}

// challengeHints caches ChallengeSizeHint per registered proof.
var challengeHints sync.Map // abi.RegisteredUpdateProof → cs.SizeHint

// ChallengeSizeHint returns the size of one challenge's part of cfg's
// circuit (constraints, aux; no inputs): (SizeHintFor − the top part) / N,
// the top part counted by synthesizing it alone into a cs.Counter. Cached.
func ChallengeSizeHint(cfg *Config) (cs.SizeHint, error) {
	if v, ok := challengeHints.Load(cfg.Proof); ok {
		return v.(cs.SizeHint), nil
	}
	total, err := SizeHintFor(cfg)
	if err != nil {
		return cs.SizeHint{}, err
	}
	cnt := cs.NewCounter()
	if _, err := BlankCircuit(cfg).synthesizeTop(cnt); err != nil {
		return cs.SizeHint{}, err
	}
	n := cfg.ChallengeCount
	dc, da := total.Constraints-cnt.Constraints, total.Aux-cnt.Aux
	if total.Inputs != cnt.Inputs || dc%n != 0 || da%n != 0 {
		return cs.SizeHint{}, fmt.Errorf("update: circuit: %s: challenges are not of equal size (%d constraints, %d aux for %d)", cfg.Name, dc, da, n)
	}
	h := cs.SizeHint{Constraints: dc / n, Aux: da / n}
	challengeHints.Store(cfg.Proof, h)
	return h, nil
}

// SynthesizeParallel synthesizes the circuit into p — a fresh
// ProvingAssignment (ONE allocated, nothing else) — with the same result as
// Synthesize, bit for bit (R1CS order, numbering, witness, a/b/c,
// densities), but with the challenges on up to workers goroutines: the top
// part (§5.1) first, then every challenge into its own precomputed range of
// p (cs.ProvingAssignment.SynthesizeSegments; a challenge reads only the
// top part's variables and its own; per is ChallengeSizeHint of the
// circuit's configuration). Challenges are handed out in order; ctx is
// checked before each. workers < 1 means 1; it is capped at the number of
// challenges and by memory (stacked.ChallengeScratchBytes per worker
// within half of MemAvailable).
func (c *Circuit) SynthesizeParallel(ctx context.Context, p *cs.ProvingAssignment, per cs.SizeHint, workers int) error {
	if err := c.Validate(); err != nil {
		return err
	}
	if p.NumInputs() != 1 || p.NumAux() != 0 || p.NumConstraints() != 0 {
		return fmt.Errorf("update: circuit: SynthesizeParallel needs a fresh ProvingAssignment (has %d inputs, %d aux, %d constraints)",
			p.NumInputs(), p.NumAux(), p.NumConstraints())
	}
	t, err := c.synthesizeTop(p)
	if err != nil {
		return err
	}
	n := len(c.Challenges)
	workers = min(max(workers, 1), n)
	if avail, ok := hostmem.Available(); ok {
		workers = max(1, min(workers, int(avail/2/stacked.ChallengeScratchBytes(per))))
	}
	return p.SynthesizeSegments(ctx, "update: circuit: challenge", n, per, workers, func(seg *cs.Segment, i int) error {
		return c.synthesizeChallenge(seg, t, i)
	})
}

// shapes caches the counts of the blank circuit per registered proof.
var shapes sync.Map // abi.RegisteredUpdateProof → shape

// shape is what one count of the blank circuit gives.
type shape struct {
	hint cs.SizeHint
	a, b int // cs.Counter.QuerySizes
}

// count synthesizes cfg's blank circuit into a cs.Counter once per
// registered proof (seconds at 32 GiB) and caches the result.
func count(cfg *Config) (shape, error) {
	if v, ok := shapes.Load(cfg.Proof); ok {
		return v.(shape), nil
	}
	cnt := cs.NewCounter()
	if err := BlankCircuit(cfg).Synthesize(context.Background(), cnt); err != nil {
		return shape{}, err
	}
	sh := shape{hint: cs.SizeHint{Constraints: cnt.Constraints, Aux: cnt.Aux, Inputs: cnt.Inputs}}
	sh.a, sh.b = cnt.QuerySizes()
	shapes.Store(cfg.Proof, sh)
	return sh, nil
}

// SizeHintFor returns the exact size of one partition circuit of cfg
// (circuit constraints without the per-input rows, aux, inputs with ONE),
// measured once per registered proof by synthesizing the blank circuit into
// a cs.Counter, and cached.
func SizeHintFor(cfg *Config) (cs.SizeHint, error) {
	sh, err := count(cfg)
	return sh.hint, err
}

// QuerySizes returns the lengths of the A and B queries (|a|, |b_g1| =
// |b_g2|) of the .params file of cfg's circuit, from the same count as
// SizeHintFor: paramfile.EstimateParamsBytes.
func (c *Config) QuerySizes() (a, b int, err error) {
	sh, err := count(c)
	return sh.a, sh.b, err
}
