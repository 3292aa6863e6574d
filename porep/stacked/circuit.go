// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"context"
	"fmt"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/internal/hostmem"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/gadget"
	"github.com/cuseal/cuseal/porep/poseidon"
)

// Circuit is one partition's StackedCircuit (storage-proofs-porep
// stacked/circuit/proof.rs) with its witness: the public replica_id, comm_d
// and comm_r, the private comm_r_last and comm_c, and one ChallengeCircuit
// per challenge of the partition. Build it with NewCircuit (from C1) or
// BlankCircuit (shape only, zero values); synthesize it with Synthesize.
type Circuit struct {
	// Layers is the number of SDR layers L (2 or 11): the column length and
	// the Poseidon arity of column hashes.
	Layers int
	// Shape is the tree C / R_last shape; it fixes the arities of the
	// comm_c and comm_r_last paths.
	Shape TreeShape

	ReplicaID, CommD, CommR fr.Element
	CommRLast, CommC        fr.Element

	Proofs []ChallengeCircuit
}

// ChallengeCircuit is the circuit form of one vanilla proof
// (stacked/circuit/params.rs Proof, built by `impl From<VanillaProof>`).
type ChallengeCircuit struct {
	// Challenge is the challenged node (labeling_proofs[0].node).
	Challenge uint64
	// DataLeaf is the comm_d proof's leaf as a field element.
	DataLeaf fr.Element
	// CommDPath is the binary SHA-256 path of the data leaf in tree D.
	CommDPath []gadget.PathLevel
	// CommRLastPath is the path of the replica node in tree R_last.
	CommRLastPath []gadget.PathLevel
	// CommCPath is the path of the challenged column's hash in tree C.
	CommCPath []gadget.PathLevel
	// DRGParents (6) and ExpParents (8) are the parents' columns in
	// graph order.
	DRGParents []ColumnCircuit
	ExpParents []ColumnCircuit
}

// ColumnCircuit is a parent column (rows for layers 1…L) with the path of
// its column hash in tree C (stacked/circuit/column_proof.rs ColumnProof).
type ColumnCircuit struct {
	Rows []fr.Element
	Path []gadget.PathLevel
}

// treePathShape lists the arities of a tree C / R_last path: BasePathLen
// levels of the base arity, then one sub level and one top level if present.
func treePathShape(cfg *SectorConfig) []int { return cfg.Shape.PathArities(cfg.BasePathLen()) }

// binaryPathShape lists the arities of a comm_d path: CommDDepth levels of 2.
func binaryPathShape(cfg *SectorConfig) []int {
	out := make([]int, cfg.CommDDepth())
	for i := range out {
		out[i] = 2
	}
	return out
}

// convertPath turns a C1 Merkle proof into circuit path levels with the
// expected arities (AuthPath::from(as_options())). name prefixes errors.
func convertPath(p *MerkleProof, arities []int, name string) ([]gadget.PathLevel, error) {
	elems := p.Path()
	if len(elems) != len(arities) {
		return nil, fmt.Errorf("%s: path has %d elements, want %d", name, len(elems), len(arities))
	}
	out := make([]gadget.PathLevel, len(elems))
	for i := range elems {
		e := &elems[i]
		a := arities[i]
		if len(e.Hashes) != a-1 {
			return nil, fmt.Errorf("%s: path[%d]: %d hashes, want %d", name, i, len(e.Hashes), a-1)
		}
		if e.Index >= uint64(a) {
			return nil, fmt.Errorf("%s: path[%d].index = %d, want < %d", name, i, e.Index, a)
		}
		sib := make([]fr.Element, len(e.Hashes))
		for j := range e.Hashes {
			v, err := FrFromBytes((*[32]byte)(&e.Hashes[j]))
			if err != nil {
				return nil, fmt.Errorf("%s: path[%d].hashes[%d]: %w", name, i, j, err)
			}
			sib[j] = v
		}
		out[i] = gadget.PathLevel{Arity: a, Index: int(e.Index), Siblings: sib}
	}
	return out, nil
}

func convertColumn(c *ColumnProof, layers int, arities []int, name string) (ColumnCircuit, error) {
	if len(c.Column.Rows) != layers {
		return ColumnCircuit{}, fmt.Errorf("%s.column.rows: %d rows, want %d", name, len(c.Column.Rows), layers)
	}
	rows := make([]fr.Element, layers)
	for i := range rows {
		v, err := FrFromBytes((*[32]byte)(&c.Column.Rows[i]))
		if err != nil {
			return ColumnCircuit{}, fmt.Errorf("%s.column.rows[%d]: %w", name, i, err)
		}
		rows[i] = v
	}
	path, err := convertPath(&c.InclusionProof, arities, name+".inclusion_proof")
	if err != nil {
		return ColumnCircuit{}, err
	}
	return ColumnCircuit{Rows: rows, Path: path}, nil
}

// NewCircuit builds partition k's circuit from a C1 output, as
// StackedCompound::circuit does: partition k uses vanilla_proofs[k];
// comm_r_last and comm_c come from its first challenge, and every challenge
// must agree on both. c1 should have passed Validate for cfg; NewCircuit
// still checks everything it reads and names the JSON path of a bad value.
func NewCircuit(c1 *C1Output, cfg *SectorConfig, k int) (*Circuit, error) {
	if k < 0 || k >= len(c1.VanillaProofs) {
		return nil, fmt.Errorf("circuit: partition %d out of range (%d partitions)", k, len(c1.VanillaProofs))
	}
	vps := c1.VanillaProofs[k]
	if len(vps) == 0 {
		return nil, fmt.Errorf("circuit: vanilla_proofs[%d]: no proofs", k)
	}
	c := &Circuit{Layers: cfg.Layers, Shape: cfg.Shape, Proofs: make([]ChallengeCircuit, len(vps))}
	for _, v := range []struct {
		name string
		d    *Domain
		dst  *fr.Element
	}{
		{"replica_id", &c1.ReplicaID, &c.ReplicaID},
		{"comm_d", &c1.CommD, &c.CommD},
		{"comm_r", &c1.CommR, &c.CommR},
		{fmt.Sprintf("vanilla_proofs[%d][0].comm_r_last_proof.root", k), &vps[0].CommRLastProof.Root, &c.CommRLast},
		{fmt.Sprintf("vanilla_proofs[%d][0].replica_column_proofs.c_x.inclusion_proof.root", k), &vps[0].ReplicaColumnProofs.CX.InclusionProof.Root, &c.CommC},
	} {
		e, err := FrFromBytes((*[32]byte)(v.d))
		if err != nil {
			return nil, fmt.Errorf("circuit: %s: %w", v.name, err)
		}
		*v.dst = e
	}
	treeShape := treePathShape(cfg)
	dShape := binaryPathShape(cfg)
	for i := range vps {
		vp := &vps[i]
		name := fmt.Sprintf("vanilla_proofs[%d][%d]", k, i)
		if vp.CommRLastProof.Root != vps[0].CommRLastProof.Root {
			return nil, fmt.Errorf("circuit: %s: inconsistent comm_r_last", name)
		}
		if vp.ReplicaColumnProofs.CX.InclusionProof.Root != vps[0].ReplicaColumnProofs.CX.InclusionProof.Root {
			return nil, fmt.Errorf("circuit: %s: inconsistent comm_c", name)
		}
		if len(vp.LabelingProofs) == 0 {
			return nil, fmt.Errorf("circuit: %s.labeling_proofs: empty", name)
		}
		p := &c.Proofs[i]
		p.Challenge = vp.LabelingProofs[0].Node
		leaf, err := FrFromBytes((*[32]byte)(&vp.CommDProofs.Leaf))
		if err != nil {
			return nil, fmt.Errorf("circuit: %s.comm_d_proofs.leaf: %w", name, err)
		}
		p.DataLeaf = leaf
		if p.CommDPath, err = convertPath(&vp.CommDProofs, dShape, name+".comm_d_proofs"); err != nil {
			return nil, fmt.Errorf("circuit: %w", err)
		}
		if p.CommRLastPath, err = convertPath(&vp.CommRLastProof, treeShape, name+".comm_r_last_proof"); err != nil {
			return nil, fmt.Errorf("circuit: %w", err)
		}
		rcp := &vp.ReplicaColumnProofs
		if p.CommCPath, err = convertPath(&rcp.CX.InclusionProof, treeShape, name+".replica_column_proofs.c_x.inclusion_proof"); err != nil {
			return nil, fmt.Errorf("circuit: %w", err)
		}
		if len(rcp.DRGParents) != BaseDegree || len(rcp.ExpParents) != ExpDegree {
			return nil, fmt.Errorf("circuit: %s.replica_column_proofs: %d drg / %d exp parents, want %d / %d",
				name, len(rcp.DRGParents), len(rcp.ExpParents), BaseDegree, ExpDegree)
		}
		p.DRGParents = make([]ColumnCircuit, BaseDegree)
		for j := range rcp.DRGParents {
			if p.DRGParents[j], err = convertColumn(&rcp.DRGParents[j], cfg.Layers, treeShape,
				fmt.Sprintf("%s.replica_column_proofs.drg_parents[%d]", name, j)); err != nil {
				return nil, fmt.Errorf("circuit: %w", err)
			}
		}
		p.ExpParents = make([]ColumnCircuit, ExpDegree)
		for j := range rcp.ExpParents {
			if p.ExpParents[j], err = convertColumn(&rcp.ExpParents[j], cfg.Layers, treeShape,
				fmt.Sprintf("%s.replica_column_proofs.exp_parents[%d]", name, j)); err != nil {
				return nil, fmt.Errorf("circuit: %w", err)
			}
		}
	}
	return c, nil
}

// blankPath is a path of the given arities with index 0 and zero siblings
// (AuthPath::blank).
func blankPath(arities []int) []gadget.PathLevel {
	out := make([]gadget.PathLevel, len(arities))
	for i, a := range arities {
		out[i] = gadget.PathLevel{Arity: a, Siblings: make([]fr.Element, a-1)}
	}
	return out
}

// BlankCircuit returns the circuit of cfg's shape with zero values
// (StackedCompound::blank_circuit): what parameter generation and shape
// measurements synthesize. Its R1CS is the one every witness of cfg gives.
func BlankCircuit(cfg *SectorConfig) *Circuit {
	tree := treePathShape(cfg)
	c := &Circuit{Layers: cfg.Layers, Shape: cfg.Shape, Proofs: make([]ChallengeCircuit, cfg.ChallengesPerPartition)}
	for i := range c.Proofs {
		p := &c.Proofs[i]
		p.CommDPath = blankPath(binaryPathShape(cfg))
		p.CommRLastPath = blankPath(tree)
		p.CommCPath = blankPath(tree)
		p.DRGParents = make([]ColumnCircuit, BaseDegree)
		p.ExpParents = make([]ColumnCircuit, ExpDegree)
		for _, cols := range [][]ColumnCircuit{p.DRGParents, p.ExpParents} {
			for j := range cols {
				cols[j] = ColumnCircuit{Rows: make([]fr.Element, cfg.Layers), Path: blankPath(tree)}
			}
		}
	}
	return c
}

// checkTreePath checks a path against the circuit's tree shape.
func (c *Circuit) checkTreePath(path []gadget.PathLevel, name string) error {
	n := len(path)
	if c.Shape.Top > 0 {
		n -= 2
	} else if c.Shape.Sub > 0 {
		n--
	}
	if n < 1 {
		return fmt.Errorf("%s: %d levels are too few for shape %s", name, len(path), c.Shape)
	}
	for i, l := range path {
		want := c.Shape.Base
		switch {
		case i == n && c.Shape.Sub > 0:
			want = c.Shape.Sub
		case i == n+1:
			want = c.Shape.Top
		}
		if l.Arity != want {
			return fmt.Errorf("%s[%d]: arity %d, want %d (shape %s)", name, i, l.Arity, want, c.Shape)
		}
	}
	return nil
}

// Validate checks the circuit's structure (layer count, parent counts,
// column lengths, path arities) so that Synthesize never stops half-way.
func (c *Circuit) Validate() error {
	if c.Layers != 2 && c.Layers != 11 {
		// hash_single_column only knows Poseidon arities 2 and 11.
		return fmt.Errorf("circuit: %d layers; hash_single_column supports 2 and 11", c.Layers)
	}
	if err := c.Shape.Validate(); err != nil {
		return fmt.Errorf("circuit: %w", err)
	}
	if len(c.Proofs) == 0 {
		return fmt.Errorf("circuit: no challenges")
	}
	for i := range c.Proofs {
		p := &c.Proofs[i]
		name := fmt.Sprintf("circuit: proofs[%d]", i)
		if len(p.DRGParents) != BaseDegree || len(p.ExpParents) != ExpDegree {
			return fmt.Errorf("%s: %d drg / %d exp parents, want %d / %d", name, len(p.DRGParents), len(p.ExpParents), BaseDegree, ExpDegree)
		}
		if len(p.CommDPath) == 0 {
			return fmt.Errorf("%s.comm_d_path: empty", name)
		}
		for j, l := range p.CommDPath {
			if l.Arity != 2 {
				return fmt.Errorf("%s.comm_d_path[%d]: arity %d, want 2", name, j, l.Arity)
			}
		}
		if err := c.checkTreePath(p.CommRLastPath, name+".comm_r_last_path"); err != nil {
			return err
		}
		if err := c.checkTreePath(p.CommCPath, name+".comm_c_path"); err != nil {
			return err
		}
		for j, col := range append(append([]ColumnCircuit{}, p.DRGParents...), p.ExpParents...) {
			if len(col.Rows) != c.Layers {
				return fmt.Errorf("%s: parent column %d has %d rows, want %d", name, j, len(col.Rows), c.Layers)
			}
			if err := c.checkTreePath(col.Path, fmt.Sprintf("%s: parent column %d path", name, j)); err != nil {
				return err
			}
		}
	}
	return nil
}

// HashSingleColumn mirrors stacked/circuit/hash.rs hash_single_column:
// neptune Poseidon of arity len(column) over the allocated rows (only
// arities 2 and 11 exist upstream; 311 and 598 constraints).
func HashSingleColumn(sys cs.ConstraintSystem, column []gadget.AllocatedNum) (gadget.AllocatedNum, error) {
	if len(column) != 2 && len(column) != 11 {
		return gadget.AllocatedNum{}, fmt.Errorf("hash_single_column: unsupported column size %d", len(column))
	}
	vars := make([]cs.Variable, len(column))
	vals := make([]fr.Element, len(column))
	for i := range column {
		vars[i], vals[i] = column[i].Var, column[i].Val
	}
	v, val, err := poseidon.HashCircuit(sys, vars, vals)
	if err != nil {
		return gadget.AllocatedNum{}, err
	}
	return gadget.AllocatedNum{Var: v, Val: val}, nil
}

// Synthesize writes the circuit into sys exactly as
// StackedCircuit::synthesize (porep-circuit.md §2.1–§2.2): same
// allocations, constraints and coefficients in the same order. Inputs:
// replica_id, comm_d, comm_r, then 18 per challenge. A structural defect
// (see Validate) is reported before anything is written. It stops with
// ctx's error, checked before each challenge (a 32 GiB challenge is ~7M
// constraints), leaving sys partially written: discard it then.
func (c *Circuit) Synthesize(ctx context.Context, sys cs.ConstraintSystem) error {
	if err := c.Validate(); err != nil {
		return err
	}
	// §2.1 steps 1–7.
	commD, commC, commRLast, replicaBits, err := c.synthesizeTop(sys)
	if err != nil {
		return err
	}
	// Step 8.
	for i := range c.Proofs {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("circuit: challenge %d: %w", i, err)
		}
		cs.PushIndexed(sys, "challenge_", i)
		err := c.Proofs[i].synthesize(sys, c.Layers, &commD, &commC, &commRLast, replicaBits)
		sys.Pop()
		if err != nil {
			return fmt.Errorf("circuit: challenge %d: %w", i, err)
		}
	}
	return nil
}

// synthesizeTop is §2.1 steps 1–7: the public inputs, comm_r_last, comm_c
// and the comm_r check. It returns what every challenge reads.
func (c *Circuit) synthesizeTop(sys cs.ConstraintSystem) (commD, commC, commRLast gadget.AllocatedNum, replicaBits []gadget.Boolean, err error) {
	replicaID := gadget.AllocNum(sys, &c.ReplicaID)
	replicaID.Inputize(sys)
	replicaBits = gadget.ReverseBitNumbering(replicaID.ToBitsLE(sys))
	commD = gadget.AllocNum(sys, &c.CommD)
	commD.Inputize(sys)
	commR := gadget.AllocNum(sys, &c.CommR)
	commR.Inputize(sys)
	commRLast = gadget.AllocNum(sys, &c.CommRLast)
	commC = gadget.AllocNum(sys, &c.CommC)
	// Steps 6–7: comm_r = H(comm_c, comm_r_last).
	v, val, err := poseidon.HashCircuit(sys, []cs.Variable{commC.Var, commRLast.Var}, []fr.Element{commC.Val, commRLast.Val})
	if err != nil {
		return commD, commC, commRLast, nil, fmt.Errorf("circuit: comm_r hash: %w", err)
	}
	hash := gadget.AllocatedNum{Var: v, Val: val}
	gadget.Equal(sys, &commR, &hash)
	return commD, commC, commRLast, replicaBits, nil
}

// SynthesizeParallel synthesizes the circuit into p — a fresh
// ProvingAssignment (ONE allocated, nothing else) — with the same result
// as Synthesize, bit for bit (R1CS order, aux and input numbering,
// witness, a/b/c, densities), but with the challenge sub-circuits on up to
// workers goroutines at once: the top part (§2.1 steps 1–7) is synthesized
// first, then every challenge into its own precomputed range of p
// (cs.ProvingAssignment.Split; per is ChallengeSizeHint of the circuit's
// configuration). Challenges are handed out in order; ctx is checked before
// each. workers < 1 means 1; it is capped at the number of challenges and
// by memory: the memory beyond p's vectors is one challenge's gadget
// scratch per worker (ChallengeScratchBytes, ~300 MB at 32 GiB), and no
// more workers start than half of MemAvailable holds scratch for.
func (c *Circuit) SynthesizeParallel(ctx context.Context, p *cs.ProvingAssignment, per cs.SizeHint, workers int) error {
	if err := c.Validate(); err != nil {
		return err
	}
	if p.NumInputs() != 1 || p.NumAux() != 0 || p.NumConstraints() != 0 {
		return fmt.Errorf("circuit: SynthesizeParallel needs a fresh ProvingAssignment (has %d inputs, %d aux, %d constraints)",
			p.NumInputs(), p.NumAux(), p.NumConstraints())
	}
	commD, commC, commRLast, replicaBits, err := c.synthesizeTop(p)
	if err != nil {
		return err
	}
	if p.NumConstraints() != topConstraints || p.NumAux() != topAux || p.NumInputs() != 1+topInputs {
		return fmt.Errorf("circuit: top part has %d constraints, %d aux, %d inputs; want %d, %d, %d",
			p.NumConstraints(), p.NumAux(), p.NumInputs(), topConstraints, topAux, 1+topInputs)
	}
	n := len(c.Proofs)
	workers = min(workers, n)
	if avail, ok := hostmem.Available(); ok {
		workers = min(workers, int(avail/2/ChallengeScratchBytes(per)))
	}
	return p.SynthesizeSegments(ctx, "circuit: challenge", n, per, workers, func(seg *cs.Segment, i int) error {
		return c.Proofs[i].synthesize(seg, c.Layers, &commD, &commC, &commRLast, replicaBits)
	})
}

// ChallengeScratchBytes estimates the heap one challenge's synthesis
// allocates besides the assignment (gadget temporaries: bits, LCs, column
// hashes): 40 bytes per constraint, from the allocations of one 32 GiB
// challenge with reused assignment storage (docs/BENCHMARKS.md, "Figures
// cited by code comments").
func ChallengeScratchBytes(per cs.SizeHint) uint64 {
	return max(uint64(per.Constraints)*40, 1<<20)
}

// allocColumn allocates a column's rows (column.rs Column::alloc).
func allocColumn(sys cs.ConstraintSystem, rows []fr.Element) []gadget.AllocatedNum {
	out := make([]gadget.AllocatedNum, len(rows))
	for i := range rows {
		out[i] = gadget.AllocNum(sys, &rows[i])
	}
	return out
}

// synthesize is stacked/circuit/params.rs Proof::synthesize (§2.2).
func (p *ChallengeCircuit) synthesize(sys cs.ConstraintSystem, layers int, commD, commC, commRLast *gadget.AllocatedNum, replicaBits []gadget.Boolean) error {
	// 1–2: data leaf and its inclusion in tree D.
	dataLeaf := gadget.AllocNum(sys, &p.DataLeaf)
	if err := gadget.EnforceInclusion(sys, gadget.TreeSHA256, p.CommDPath, commD, &dataLeaf); err != nil {
		return fmt.Errorf("comm_d inclusion: %w", err)
	}
	// 3–4: parent columns, their hashes and inclusion in tree C.
	parentCols := func(cols []ColumnCircuit, kind string) ([][]gadget.AllocatedNum, error) {
		out := make([][]gadget.AllocatedNum, len(cols))
		for i := range cols {
			out[i] = allocColumn(sys, cols[i].Rows)
			h, err := HashSingleColumn(sys, out[i])
			if err != nil {
				return nil, fmt.Errorf("%s parent %d: %w", kind, i, err)
			}
			if err := gadget.EnforceInclusion(sys, gadget.TreePoseidon, cols[i].Path, commC, &h); err != nil {
				return nil, fmt.Errorf("%s parent %d inclusion: %w", kind, i, err)
			}
		}
		return out, nil
	}
	drg, err := parentCols(p.DRGParents, "drg")
	if err != nil {
		return err
	}
	exp, err := parentCols(p.ExpParents, "exp")
	if err != nil {
		return err
	}
	// 5: the challenge as a UInt64, packed into one input.
	challenge := gadget.AllocUInt64(sys, p.Challenge)
	challenge.PackIntoInput(sys)
	// 6: labels of the challenged column, layer by layer.
	labels := make([]gadget.AllocatedNum, 0, layers)
	parents := make([][]gadget.Boolean, 0, BaseDegree+ExpDegree)
	expanded := make([][]gadget.Boolean, 0, gadget.LabelParents)
	for layer := 1; layer <= layers; layer++ {
		parents = parents[:0]
		for _, col := range drg {
			parents = append(parents, gadget.ReverseBitNumbering(col[layer-1].ToBitsLE(sys)))
		}
		if layer > 1 {
			// Expander parents use the previous layer's labels.
			for _, col := range exp {
				parents = append(parents, gadget.ReverseBitNumbering(col[layer-2].ToBitsLE(sys)))
			}
		}
		expanded = expanded[:0]
		if layer > 1 {
			expanded = append(expanded, parents...)     // 14
			expanded = append(expanded, parents...)     // 28
			expanded = append(expanded, parents[:9]...) // 37
		} else {
			for r := 0; r < 6; r++ {
				expanded = append(expanded, parents...) // 6·6 = 36
			}
			expanded = append(expanded, parents[0]) // 37
		}
		label, err := gadget.CreateLabel(sys, replicaBits, expanded, gadget.UInt32Constant(uint32(layer)), &challenge)
		if err != nil {
			return fmt.Errorf("layer %d label: %w", layer, err)
		}
		labels = append(labels, label)
	}
	// 7–8: encode the node with the last label, prove it in tree R_last.
	encoded := gadget.Encode(sys, &labels[layers-1], &dataLeaf)
	if err := gadget.EnforceInclusion(sys, gadget.TreePoseidon, p.CommRLastPath, commRLast, &encoded); err != nil {
		return fmt.Errorf("comm_r_last inclusion: %w", err)
	}
	// 9: the challenged column's hash in tree C.
	colHash, err := HashSingleColumn(sys, labels)
	if err != nil {
		return fmt.Errorf("c_x column hash: %w", err)
	}
	if err := gadget.EnforceInclusion(sys, gadget.TreePoseidon, p.CommCPath, commC, &colHash); err != nil {
		return fmt.Errorf("c_x inclusion: %w", err)
	}
	return nil
}

// Top-level cost of StackedCircuit (§2.1 steps 1–7), the same for every
// shape: replica_id (alloc, inputize, to_bits_le), comm_d and comm_r
// (alloc, inputize), comm_r_last, comm_c, Poseidon-2 and the equality.
const (
	topConstraints = 571
	topAux         = 571
	topInputs      = 3
)

type hintKey struct {
	layers int
	shape  TreeShape
	nodes  uint64
}

// perChallenge caches the cost of one challenge per circuit shape.
var perChallenge sync.Map // hintKey → cs.SizeHint (one challenge, no top)

// ChallengeSizeHint returns the exact size of one challenge sub-circuit of
// cfg's shape (constraints, aux and inputs it adds to a partition): every
// challenge of a partition has this size, whatever its witness. Measured
// once per shape on a one-challenge blank circuit and cached.
func ChallengeSizeHint(cfg *SectorConfig) (cs.SizeHint, error) {
	key := hintKey{cfg.Layers, cfg.Shape, cfg.Nodes}
	v, ok := perChallenge.Load(key)
	if !ok {
		one := *cfg
		one.ChallengesPerPartition = 1
		cnt := cs.NewCounter()
		if err := BlankCircuit(&one).Synthesize(context.Background(), cnt); err != nil {
			return cs.SizeHint{}, err
		}
		v = cs.SizeHint{Constraints: cnt.Constraints - topConstraints, Aux: cnt.Aux - topAux, Inputs: cnt.Inputs - 1 - topInputs}
		perChallenge.Store(key, v)
	}
	return v.(cs.SizeHint), nil
}

// SizeHintFor returns the exact size of one partition circuit of cfg
// (circuit constraints without the per-input rows, aux, inputs with ONE),
// to pre-size a cs.ProvingAssignment so that synthesis never reallocates
// (a 32 GiB partition's a/b/c are 4 GiB each; growing one would briefly
// need twice that). The cost of one challenge is measured once per shape by
// synthesizing a one-challenge blank circuit into a cs.Counter (seconds at
// 32 GiB; docs/BENCHMARKS.md) and cached.
func SizeHintFor(cfg *SectorConfig) (cs.SizeHint, error) {
	per, err := ChallengeSizeHint(cfg)
	if err != nil {
		return cs.SizeHint{}, err
	}
	n := cfg.ChallengesPerPartition
	return cs.SizeHint{
		Constraints: topConstraints + n*per.Constraints,
		Aux:         topAux + n*per.Aux,
		Inputs:      1 + topInputs + n*per.Inputs,
	}, nil
}
