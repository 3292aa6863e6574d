// SPDX-License-Identifier: Apache-2.0 OR MIT

package post

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/gadget"
	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
)

// Circuit is one partition's FallbackPoStCircuit (storage-proofs-post
// fallback/circuit.rs) with its witness: cfg.Slots sector slots. Build it
// with NewCircuit (from ProverSlots) or BlankCircuit (shape only);
// synthesize it with Synthesize.
type Circuit struct {
	// Arities are the tree R path's arities, leaf side first
	// (Config.PathArities): every path must have exactly these.
	Arities []int
	Sectors []SectorCircuit
}

// SectorCircuit is fallback/circuit.rs Sector: the public comm_r, the
// private comm_c and comm_r_last, and per challenge the leaf (the replica
// node) and its tree R path. prover_id and the sector id are not part of
// the synthesis (Rust stores them unused).
type SectorCircuit struct {
	CommR, CommC, CommRLast fr.Element
	Leaves                  []fr.Element
	Paths                   [][]gadget.PathLevel
}

// NewCircuit builds the circuit of a partition from its prover slots
// (ProverSlots), as FallbackPoStCompound::circuit / Sector::circuit do:
// slot i's comm_r, its sector proof's comm_c and comm_r_last, and per
// inclusion proof the leaf and the path (AuthPath::from(as_options())).
func NewCircuit(cfg *Config, slots []Slot) (*Circuit, error) {
	if len(slots) != cfg.Slots {
		return nil, fmt.Errorf("post: circuit: %d slots, %s has %d", len(slots), cfg.Name, cfg.Slots)
	}
	arities := cfg.PathArities()
	c := &Circuit{Arities: arities, Sectors: make([]SectorCircuit, len(slots))}
	for i := range slots {
		s := &slots[i]
		if s.Proof == nil {
			return nil, fmt.Errorf("post: circuit: slot %d (sector %d) has no sector proof", i, s.Sector.ID)
		}
		sc := &c.Sectors[i]
		for _, v := range []struct {
			name string
			d    *stacked.Domain
			dst  *fr.Element
		}{{"comm_r", &s.Sector.CommR, &sc.CommR}, {"comm_c", &s.Proof.CommC, &sc.CommC}, {"comm_r_last", &s.Proof.CommRLast, &sc.CommRLast}} {
			e, err := stacked.FrFromBytes((*[32]byte)(v.d))
			if err != nil {
				return nil, fmt.Errorf("post: circuit: slot %d (sector %d) %s: %w", i, s.Sector.ID, v.name, err)
			}
			*v.dst = e
		}
		for j := range s.Proof.InclusionProofs {
			p := &s.Proof.InclusionProofs[j]
			name := fmt.Sprintf("post: circuit: slot %d (sector %d) inclusion proof %d", i, s.Sector.ID, j)
			leaf, err := stacked.FrFromBytes((*[32]byte)(&p.Leaf))
			if err != nil {
				return nil, fmt.Errorf("%s leaf: %w", name, err)
			}
			path, err := convertPath(p.Path(), arities)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			sc.Leaves = append(sc.Leaves, leaf)
			sc.Paths = append(sc.Paths, path)
		}
	}
	if err := c.Validate(cfg); err != nil {
		return nil, err
	}
	return c, nil
}

// convertPath turns path elements into circuit levels of the given arities.
func convertPath(elems []stacked.PathElement, arities []int) ([]gadget.PathLevel, error) {
	if len(elems) != len(arities) {
		return nil, fmt.Errorf("path has %d levels, want %d", len(elems), len(arities))
	}
	out := make([]gadget.PathLevel, len(elems))
	nsib := 0
	for _, a := range arities {
		nsib += a - 1
	}
	sibs := make([]fr.Element, nsib) // one array for the whole path
	for l, e := range elems {
		a := arities[l]
		if len(e.Hashes) != a-1 || e.Index >= uint64(a) {
			return nil, fmt.Errorf("path[%d]: %d hashes and index %d, want %d and < %d", l, len(e.Hashes), e.Index, a-1, a)
		}
		sib := sibs[: a-1 : a-1]
		sibs = sibs[a-1:]
		for k := range e.Hashes {
			v, err := stacked.FrFromBytes((*[32]byte)(&e.Hashes[k]))
			if err != nil {
				return nil, fmt.Errorf("path[%d].hashes[%d]: %w", l, k, err)
			}
			sib[k] = v
		}
		out[l] = gadget.PathLevel{Arity: a, Index: int(e.Index), Siblings: sib}
	}
	return out, nil
}

// BlankCircuit is FallbackPoStCompound::blank_circuit: cfg.Slots sectors of
// cfg.SlotChallenges challenges with zero values, index-0 paths
// (AuthPath::blank). Its R1CS is the one every witness of cfg gives; it is
// what parameter generation synthesizes.
func BlankCircuit(cfg *Config) *Circuit {
	arities := cfg.PathArities()
	c := &Circuit{Arities: arities, Sectors: make([]SectorCircuit, cfg.Slots)}
	for i := range c.Sectors {
		sc := &c.Sectors[i]
		sc.Leaves = make([]fr.Element, cfg.SlotChallenges)
		sc.Paths = make([][]gadget.PathLevel, cfg.SlotChallenges)
		for j := range sc.Paths {
			p := make([]gadget.PathLevel, len(arities))
			for l, a := range arities {
				p[l] = gadget.PathLevel{Arity: a, Siblings: make([]fr.Element, a-1)}
			}
			sc.Paths[j] = p
		}
	}
	return c
}

// Validate checks the circuit's structure against cfg (slot count,
// challenges per slot, path arities, sibling counts, indices) so that
// Synthesize never stops half-way.
func (c *Circuit) Validate(cfg *Config) error {
	if len(c.Sectors) != cfg.Slots {
		return fmt.Errorf("post: circuit: %d sectors, %s has %d", len(c.Sectors), cfg.Name, cfg.Slots)
	}
	want := cfg.PathArities()
	if len(c.Arities) != len(want) {
		return fmt.Errorf("post: circuit: arities %v, %s has %v", c.Arities, cfg.Name, want)
	}
	for l := range want {
		if c.Arities[l] != want[l] {
			return fmt.Errorf("post: circuit: arities %v, %s has %v", c.Arities, cfg.Name, want)
		}
	}
	for i := range c.Sectors {
		if err := c.validateSector(i, cfg.SlotChallenges); err != nil {
			return err
		}
	}
	return nil
}

func (c *Circuit) validateSector(i, challenges int) error {
	sc := &c.Sectors[i]
	if len(sc.Leaves) != challenges || len(sc.Paths) != challenges {
		return fmt.Errorf("post: circuit: sector %d: %d leaves and %d paths, want %d", i, len(sc.Leaves), len(sc.Paths), challenges)
	}
	for j, p := range sc.Paths {
		if len(p) != len(c.Arities) {
			return fmt.Errorf("post: circuit: sector %d path %d: %d levels, want %d", i, j, len(p), len(c.Arities))
		}
		for l, lv := range p {
			if lv.Arity != c.Arities[l] || len(lv.Siblings) != lv.Arity-1 || lv.Index < 0 || lv.Index >= lv.Arity {
				return fmt.Errorf("post: circuit: sector %d path %d level %d: arity %d, %d siblings, index %d; want arity %d",
					i, j, l, lv.Arity, len(lv.Siblings), lv.Index, c.Arities[l])
			}
		}
	}
	return nil
}

// Synthesize writes the circuit into sys exactly as FallbackPoStCircuit's
// sequential synthesize (post-circuit.md §3): for each sector in order,
// comm_r_last, comm_c, comm_r (aux), comm_r inputized (1 input, 1
// constraint), Poseidon-2(comm_c, comm_r_last) (311) and comm_r · ONE =
// hash (1); then per challenge the leaf (aux) and its inclusion check
// (gadget.EnforceInclusion: per level index bits, siblings, insert,
// Poseidon; the packed index as 1 input; computed root · ONE =
// comm_r_last). Inputs: per sector comm_r, then its challenges. A
// structural defect (see Validate) is reported before anything is written;
// ctx is checked before each sector (a 32 GiB window partition has 2349).
func (c *Circuit) Synthesize(ctx context.Context, sys cs.ConstraintSystem) error {
	if len(c.Arities) == 0 {
		return fmt.Errorf("post: circuit: no path arities")
	}
	for i := range c.Sectors {
		if err := c.validateSector(i, len(c.Sectors[i].Leaves)); err != nil {
			return err
		}
	}
	for i := range c.Sectors {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("post: circuit: sector %d: %w", i, err)
		}
		cs.PushIndexed(sys, "sector_", i)
		err := c.Sectors[i].synthesize(sys)
		sys.Pop()
		if err != nil {
			return fmt.Errorf("post: circuit: sector %d: %w", i, err)
		}
	}
	return nil
}

// synthesize is `impl Circuit for &Sector` (§3.2): the header, then every
// challenge.
func (sc *SectorCircuit) synthesize(sys cs.ConstraintSystem) error {
	commRLast, err := sc.header(sys)
	if err != nil {
		return err
	}
	for j := range sc.Leaves {
		if err := sc.challenge(sys, j, &commRLast); err != nil {
			return err
		}
	}
	return nil
}

// header allocates comm_r_last, comm_c and comm_r (aux), inputizes comm_r
// and enforces comm_r = Poseidon-2(comm_c, comm_r_last); it returns
// comm_r_last, the root every challenge's path ends in.
func (sc *SectorCircuit) header(sys cs.ConstraintSystem) (gadget.AllocatedNum, error) {
	commRLast := gadget.AllocNum(sys, &sc.CommRLast)
	commC := gadget.AllocNum(sys, &sc.CommC)
	commR := gadget.AllocNum(sys, &sc.CommR)
	commR.Inputize(sys)
	v, val, err := poseidon.HashCircuit(sys, []cs.Variable{commC.Var, commRLast.Var}, []fr.Element{commC.Val, commRLast.Val})
	if err != nil {
		return gadget.AllocatedNum{}, fmt.Errorf("comm_r hash: %w", err)
	}
	hash := gadget.AllocatedNum{Var: v, Val: val}
	gadget.Equal(sys, &commR, &hash)
	return commRLast, nil
}

// challenge is PoRCircuit::synthesize with Root::Val(leaf) for challenge j:
// the leaf is a fresh aux variable, the root the sector's comm_r_last.
func (sc *SectorCircuit) challenge(sys cs.ConstraintSystem, j int, commRLast *gadget.AllocatedNum) error {
	cs.PushIndexed(sys, "challenge_inclusion_", j)
	leaf := gadget.AllocNum(sys, &sc.Leaves[j])
	err := gadget.EnforceInclusion(sys, gadget.TreePoseidon, sc.Paths[j], commRLast, &leaf)
	sys.Pop()
	if err != nil {
		return fmt.Errorf("challenge %d: %w", j, err)
	}
	return nil
}

// sectorHints caches SectorSizeHint per registered proof.
var sectorHints sync.Map // abi.RegisteredPoStProof → cs.SizeHint

// SectorSizeHint returns the size of one sector slot of cfg's circuit
// (constraints, aux, inputs; no ONE), measured once per registered proof by
// synthesizing a one-sector blank circuit into a cs.Counter, and cached.
func SectorSizeHint(cfg *Config) (cs.SizeHint, error) {
	if v, ok := sectorHints.Load(cfg.Proof); ok {
		return v.(cs.SizeHint), nil
	}
	one := *cfg
	one.Slots = 1
	cnt := cs.NewCounter()
	if err := BlankCircuit(&one).Synthesize(context.Background(), cnt); err != nil {
		return cs.SizeHint{}, err
	}
	h := cs.SizeHint{Constraints: cnt.Constraints, Aux: cnt.Aux, Inputs: cnt.Inputs - 1}
	sectorHints.Store(cfg.Proof, h)
	return h, nil
}

// QuerySizes returns the lengths of the A and B queries (|a|, |b_g1| =
// |b_g2|) of the .params file of cfg's partition circuit, counted from its
// structure (cs.PartsQuerySizes over one- and two-slot blank circuits) and
// cached per registered proof: paramfile.EstimateParamsBytes.
func (c *Config) QuerySizes() (a, b int, err error) {
	return cs.PartsQuerySizes(c.Proof, c.Slots, func(n int) cs.Circuit {
		one := *c
		one.Slots = n
		return BlankCircuit(&one)
	})
}

// SizeHintFor returns the exact size of one partition circuit of cfg
// (circuit constraints without the per-input rows, aux, inputs with ONE) to
// pre-size a cs.ProvingAssignment: Slots × SectorSizeHint.
func SizeHintFor(cfg *Config) (cs.SizeHint, error) {
	per, err := SectorSizeHint(cfg)
	if err != nil {
		return cs.SizeHint{}, err
	}
	return cs.SizeHint{
		Constraints: cfg.Slots * per.Constraints,
		Aux:         cfg.Slots * per.Aux,
		Inputs:      1 + cfg.Slots*per.Inputs,
	}, nil
}

// SynthesizeParallel synthesizes the circuit into p — a fresh
// ProvingAssignment (ONE allocated, nothing else) — with the same result as
// Synthesize, bit for bit (R1CS order, numbering, witness, a/b/c,
// densities), on up to workers goroutines: each sector references only ONE
// and its own variables (bellperson's synthesize_extendable relies on the
// same), so each is synthesized into its own precomputed range of p
// (cs.ProvingAssignment.Split; per is SectorSizeHint of the circuit's
// configuration). With fewer sectors than workers (a WindowPoSt partition of
// small sectors has two, a GPU box 16 or more cores; WinningPoSt has one
// slot per challenge, so it always splits by slot)
// the parts are challenges instead: a sector's header goes into p, then
// its challenges, which read only ONE, comm_r_last and their own
// variables, into ranges of their own. Parts are handed out in order; ctx
// is checked before each. workers < 1 means 1.
func (c *Circuit) SynthesizeParallel(ctx context.Context, p *cs.ProvingAssignment, per cs.SizeHint, workers int) error {
	if len(c.Arities) == 0 {
		return fmt.Errorf("post: circuit: no path arities")
	}
	n := len(c.Sectors)
	for i := range c.Sectors {
		// Every sector must have the same size: as many challenges as the
		// first.
		if err := c.validateSector(i, len(c.Sectors[0].Leaves)); err != nil {
			return err
		}
	}
	if p.NumInputs() != 1 || p.NumAux() != 0 || p.NumConstraints() != 0 {
		return fmt.Errorf("post: circuit: SynthesizeParallel needs a fresh ProvingAssignment (has %d inputs, %d aux, %d constraints)",
			p.NumInputs(), p.NumAux(), p.NumConstraints())
	}
	if n == 0 || n >= workers || len(c.Sectors[0].Leaves) < 2 {
		return p.SynthesizeSegments(ctx, "post: circuit: sector", n, per, workers, func(seg *cs.Segment, i int) error {
			return c.Sectors[i].synthesize(seg)
		})
	}
	header, challenge, err := c.partSizes()
	if err != nil {
		return err
	}
	k := len(c.Sectors[0].Leaves)
	if want := (cs.SizeHint{Constraints: header.Constraints + k*challenge.Constraints, Aux: header.Aux + k*challenge.Aux,
		Inputs: header.Inputs + k*challenge.Inputs}); per != want {
		return fmt.Errorf("post: circuit: sector size %+v, the circuit's is %+v", per, want)
	}
	for i := range c.Sectors {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("post: circuit: sector %d: %w", i, err)
		}
		sc := &c.Sectors[i]
		commRLast, err := sc.header(p)
		if err != nil {
			return fmt.Errorf("post: circuit: sector %d: %w", i, err)
		}
		err = p.SynthesizeSegments(ctx, "post: circuit: sector "+strconv.Itoa(i)+": challenge", k, challenge, workers, func(seg *cs.Segment, j int) error {
			return sc.challenge(seg, j, &commRLast)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// partSizes measures a sector's header and one challenge (constraints,
// aux, inputs) on a blank sector of c's arities, into a cs.Counter.
func (c *Circuit) partSizes() (header, challenge cs.SizeHint, err error) {
	sc := SectorCircuit{Leaves: make([]fr.Element, 1), Paths: [][]gadget.PathLevel{make([]gadget.PathLevel, len(c.Arities))}}
	for l, a := range c.Arities {
		sc.Paths[0][l] = gadget.PathLevel{Arity: a, Siblings: make([]fr.Element, a-1)}
	}
	cnt := cs.NewCounter()
	root, err := sc.header(cnt)
	if err != nil {
		return header, challenge, fmt.Errorf("post: circuit: %w", err)
	}
	header = cs.SizeHint{Constraints: cnt.Constraints, Aux: cnt.Aux, Inputs: cnt.Inputs - 1}
	if err := sc.challenge(cnt, 0, &root); err != nil {
		return header, challenge, fmt.Errorf("post: circuit: %w", err)
	}
	challenge = cs.SizeHint{Constraints: cnt.Constraints - header.Constraints, Aux: cnt.Aux - header.Aux, Inputs: cnt.Inputs - 1 - header.Inputs}
	return header, challenge, nil
}
