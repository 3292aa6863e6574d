// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"fmt"
	"strings"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/poseidon"
)

// ParseC1 parses C1 JSON (or a lotus-bench Commit2In wrapper around it),
// looks up the registered proof named in it and validates the output against
// that configuration (see Validate). Errors are *ParseError values naming the
// JSON path.
func ParseC1(data []byte) (*C1Output, SectorConfig, error) {
	raw, _, err := UnwrapC1Input(data)
	if err != nil {
		return nil, SectorConfig{}, err
	}
	out, err := DecodeC1(raw)
	if err != nil {
		return nil, SectorConfig{}, err
	}
	if out.Bare {
		return nil, SectorConfig{}, &ParseError{Path: "vanilla_proofs", Offset: -1,
			Msg: "filecoin-proofs' own C1 format (no registered_proof, untagged vanilla_proofs) names no sector configuration: parse it with ParseC1ForConfig"}
	}
	cfg, err := ConfigByName(out.RegisteredProof)
	if err != nil {
		msg := err.Error()
		if strings.Contains(out.RegisteredProof, "Test") {
			msg += " (a test-only configuration: parse it with ParseC1ForConfig)"
		}
		return nil, SectorConfig{}, &ParseError{Path: "registered_proof", Offset: -1, Msg: msg}
	}
	if err := out.Validate(&cfg); err != nil {
		return nil, SectorConfig{}, err
	}
	return out, cfg, nil
}

// ParseC1ForConfig parses and validates C1 JSON for a given configuration,
// e.g. a test-only shape; registered_proof must equal cfg.Name. For a test
// configuration (not Registered) it also reads filecoin-proofs' own
// SealCommitPhase1Output<Tree> (no registered_proof, bare vanilla_proofs
// array), as rust-fil-proofs' tests write it, and fills RegisteredProof and
// VanillaTag from cfg. A registered proof's C1 must carry its name.
func ParseC1ForConfig(data []byte, cfg *SectorConfig) (*C1Output, error) {
	raw, _, err := UnwrapC1Input(data)
	if err != nil {
		return nil, err
	}
	out, err := DecodeC1(raw)
	if err != nil {
		return nil, err
	}
	if out.Bare {
		if cfg.Registered {
			return nil, semErr("registered_proof", "missing (filecoin-proofs' own C1 format), want %q: filecoin-ffi's C1 names its registered proof", cfg.Name)
		}
		out.RegisteredProof, out.VanillaTag = cfg.Name, cfg.VanillaTag()
	}
	if err := out.Validate(cfg); err != nil {
		return nil, err
	}
	return out, nil
}

func semErr(path string, format string, args ...any) error {
	return &ParseError{Path: path, Offset: -1, Msg: fmt.Sprintf(format, args...)}
}

// Validate checks a decoded C1 output against cfg: registered proof and
// vanilla tag; partition and challenge counts; every domain a canonical field
// element; path kinds, lengths, arities and indices matching the tree shapes;
// comm_d proofs rooted at comm_d; comm_c and comm_r_last identical for every
// challenge; columns with one row per layer at the challenged / parent index;
// labeling and encoding proofs well-formed; and
// comm_r == Poseidon2(comm_c, comm_r_last). It does not recompute Merkle
// paths or labels (seal.VerifyC1 does) nor re-derive challenges
// (ValidateChallenges does).
func (c *C1Output) Validate(cfg *SectorConfig) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if c.RegisteredProof != cfg.Name {
		return semErr("registered_proof", "%q does not match the configuration %q", c.RegisteredProof, cfg.Name)
	}
	tag := cfg.VanillaTag()
	if c.VanillaTag != tag {
		return semErr("vanilla_proofs", "variant %q, want %q for %s", c.VanillaTag, tag, cfg.Name)
	}
	for _, f := range []struct {
		name string
		d    *Domain
	}{{"comm_r", &c.CommR}, {"comm_d", &c.CommD}, {"replica_id", &c.ReplicaID}} {
		if !IsCanonical((*[32]byte)(f.d)) {
			return semErr(f.name, "0x%x (little-endian) is not a canonical field element", reverse(f.d[:]))
		}
	}
	vp := "vanilla_proofs." + tag
	if len(c.VanillaProofs) != cfg.Partitions {
		return semErr(vp, "%d partitions, want %d", len(c.VanillaProofs), cfg.Partitions)
	}
	for k, part := range c.VanillaProofs {
		if len(part) != cfg.ChallengesPerPartition {
			return semErr(fmt.Sprintf("%s[%d]", vp, k), "%d challenges, want %d", len(part), cfg.ChallengesPerPartition)
		}
	}
	commC := c.CommC()
	commRLast := c.CommRLast()
	for k, part := range c.VanillaProofs {
		for i := range part {
			p := fmt.Sprintf("%s[%d][%d]", vp, k, i)
			if err := validateVanilla(&part[i], p, cfg, &c.CommD, &commC, &commRLast); err != nil {
				return err
			}
		}
	}
	a, err := FrFromBytes((*[32]byte)(&commC))
	if err != nil {
		return semErr(vp+"[0][0].replica_column_proofs.c_x.inclusion_proof.root", "%v", err)
	}
	b, err := FrFromBytes((*[32]byte)(&commRLast))
	if err != nil {
		return semErr(vp+"[0][0].comm_r_last_proof.root", "%v", err)
	}
	h := poseidon.Hash2(&a, &b)
	if FrToBytes(&h) != [32]byte(c.CommR) {
		return semErr("comm_r", "does not equal Poseidon2(comm_c, comm_r_last) = %x (little-endian bytes)", FrToBytes(&h))
	}
	return nil
}

// proofKindFor is the ProofData variant a tree of this shape produces.
func proofKindFor(s TreeShape) ProofKind {
	switch {
	case s.Sub == 0:
		return ProofSingle
	case s.Top == 0:
		return ProofSub
	}
	return ProofTop
}

func merklePaths(kind ProofKind, p string) (base, sub, top string) {
	switch kind {
	case ProofSingle:
		return p + ".data.Single.path.path", "", ""
	case ProofSub:
		return p + ".data.Sub.base_proof.path", p + ".data.Sub.sub_proof.path", ""
	}
	return p + ".data.Top.base_proof.path", p + ".data.Top.sub_proof.path", p + ".data.Top.top_proof.path"
}

func checkElems(elems []PathElement, path string, arity int) error {
	for j := range elems {
		e := &elems[j]
		ep := fmt.Sprintf("%s[%d]", path, j)
		if len(e.Hashes) != arity-1 {
			return semErr(ep+".hashes", "%d hashes, want %d (arity %d)", len(e.Hashes), arity-1, arity)
		}
		if e.Index >= uint64(arity) {
			return semErr(ep+".index", "index %d not below arity %d", e.Index, arity)
		}
		for h := range e.Hashes {
			if !IsCanonical((*[32]byte)(&e.Hashes[h])) {
				return semErr(fmt.Sprintf("%s.hashes[%d]", ep, h), "not a canonical field element")
			}
		}
	}
	return nil
}

// validateMerkle checks variant, lengths, arities, canonical values, the
// proved index and (when root != nil) the root.
func validateMerkle(m *MerkleProof, p string, shape TreeShape, baseLen int, wantIndex uint64, root *Domain, rootName string) error {
	kind := proofKindFor(shape)
	if m.Kind != kind {
		return semErr(p+".data", "variant %s, want %s for tree shape %s", m.Kind, kind, shape)
	}
	bp, sp, tp := merklePaths(kind, p)
	if len(m.Base) != baseLen {
		return semErr(bp, "%d path elements, want %d", len(m.Base), baseLen)
	}
	if err := checkElems(m.Base, bp, shape.Base); err != nil {
		return err
	}
	if kind != ProofSingle {
		if len(m.Sub) != 1 {
			return semErr(sp, "%d path elements, want 1", len(m.Sub))
		}
		if err := checkElems(m.Sub, sp, shape.Sub); err != nil {
			return err
		}
	}
	if kind == ProofTop {
		if len(m.Top) != 1 {
			return semErr(tp, "%d path elements, want 1", len(m.Top))
		}
		if err := checkElems(m.Top, tp, shape.Top); err != nil {
			return err
		}
	}
	vp := p + ".data." + kind.String()
	if !IsCanonical((*[32]byte)(&m.Root)) {
		return semErr(vp+".root", "not a canonical field element")
	}
	if !IsCanonical((*[32]byte)(&m.Leaf)) {
		return semErr(vp+".leaf", "not a canonical field element")
	}
	if got := m.PathIndex(shape.Base, shape.Sub, shape.Top); got != wantIndex {
		return semErr(bp, "path proves node %d, want %d", got, wantIndex)
	}
	if root != nil && m.Root != *root {
		return semErr(vp+".root", "differs from %s", rootName)
	}
	return nil
}

func validateColumn(cp *ColumnProof, p string, cfg *SectorConfig, node uint64, commC *Domain) error {
	if uint64(cp.Column.Index) != node {
		return semErr(p+".column.index", "column index %d, want %d", cp.Column.Index, node)
	}
	if len(cp.Column.Rows) != cfg.Layers {
		return semErr(p+".column.rows", "%d rows, want %d layers", len(cp.Column.Rows), cfg.Layers)
	}
	for r := range cp.Column.Rows {
		if !IsCanonical((*[32]byte)(&cp.Column.Rows[r])) {
			return semErr(fmt.Sprintf("%s.column.rows[%d]", p, r), "not a canonical field element")
		}
	}
	return validateMerkle(&cp.InclusionProof, p+".inclusion_proof", cfg.Shape, cfg.BasePathLen(), node, commC, "comm_c (vanilla_proofs[0][0] c_x root)")
}

func validateLabeling(l *LabelingProof, p string, layer int, node uint64) error {
	if len(l.Parents) != TotalParents {
		return semErr(p+".parents", "%d parents, want %d", len(l.Parents), TotalParents)
	}
	for j := range l.Parents {
		if !IsCanonical((*[32]byte)(&l.Parents[j])) {
			return semErr(fmt.Sprintf("%s.parents[%d]", p, j), "not a canonical field element")
		}
	}
	if int64(l.LayerIndex) != int64(layer) {
		return semErr(p+".layer_index", "%d, want %d", l.LayerIndex, layer)
	}
	if l.Node != node {
		return semErr(p+".node", "%d, want challenge %d", l.Node, node)
	}
	return nil
}

func validateVanilla(v *VanillaProof, p string, cfg *SectorConfig, commD, commC, commRLast *Domain) error {
	if len(v.LabelingProofs) != cfg.Layers {
		return semErr(p+".labeling_proofs", "%d labeling proofs, want %d layers", len(v.LabelingProofs), cfg.Layers)
	}
	c := v.LabelingProofs[0].Node
	if c >= cfg.Nodes {
		return semErr(p+".labeling_proofs[0].node", "challenge %d not below %d nodes", c, cfg.Nodes)
	}
	// comm_d: binary SHA-256 tree, always Single.
	if err := validateMerkle(&v.CommDProofs, p+".comm_d_proofs", TreeShape{2, 0, 0}, cfg.CommDDepth(), c, commD, "comm_d"); err != nil {
		return err
	}
	if err := validateMerkle(&v.CommRLastProof, p+".comm_r_last_proof", cfg.Shape, cfg.BasePathLen(), c, commRLast, "comm_r_last (vanilla_proofs[0][0] comm_r_last_proof root)"); err != nil {
		return err
	}
	rc := &v.ReplicaColumnProofs
	rp := p + ".replica_column_proofs"
	if err := validateColumn(&rc.CX, rp+".c_x", cfg, c, commC); err != nil {
		return err
	}
	if len(rc.DRGParents) != BaseDegree {
		return semErr(rp+".drg_parents", "%d column proofs, want %d", len(rc.DRGParents), BaseDegree)
	}
	if len(rc.ExpParents) != ExpDegree {
		return semErr(rp+".exp_parents", "%d column proofs, want %d", len(rc.ExpParents), ExpDegree)
	}
	for j := range rc.DRGParents {
		cp := &rc.DRGParents[j]
		if err := validateColumn(cp, fmt.Sprintf("%s.drg_parents[%d]", rp, j), cfg, uint64(cp.Column.Index), commC); err != nil {
			return err
		}
	}
	for j := range rc.ExpParents {
		cp := &rc.ExpParents[j]
		if err := validateColumn(cp, fmt.Sprintf("%s.exp_parents[%d]", rp, j), cfg, uint64(cp.Column.Index), commC); err != nil {
			return err
		}
	}
	for j := range v.LabelingProofs {
		if err := validateLabeling(&v.LabelingProofs[j], fmt.Sprintf("%s.labeling_proofs[%d]", p, j), j+1, c); err != nil {
			return err
		}
	}
	return validateLabeling(&v.EncodingProof, p+".encoding_proof", cfg.Layers, c)
}

// ValidateChallenges re-derives every partition's challenges and the graph
// parents and compares them with the challenged nodes and the parent column
// indices of the C1 output. Call it after Validate.
func (c *C1Output) ValidateChallenges(cfg *SectorConfig) error {
	g, err := GraphFor(cfg)
	if err != nil {
		return err
	}
	vp := "vanilla_proofs." + c.VanillaTag
	for k, part := range c.VanillaProofs {
		want, err := PartitionChallenges(cfg, c.ReplicaID, c.CommR, c.Seed, k)
		if err != nil {
			return err
		}
		for i := range part {
			p := fmt.Sprintf("%s[%d][%d]", vp, k, i)
			v := &part[i]
			if v.Challenge() != want[i] {
				return semErr(p+".labeling_proofs[0].node", "challenge %d, derivation gives %d (%s challenges from %s): seed, replica_id or comm_r altered?", v.Challenge(), want[i], cfg.Challenges, challengeInputs(cfg.Challenges))
			}
			var par [Degree]uint32
			g.Parents(uint32(want[i]), &par)
			for j := 0; j < Degree; j++ {
				var got uint32
				var fp string
				if j < BaseDegree {
					got = v.ReplicaColumnProofs.DRGParents[j].Column.Index
					fp = fmt.Sprintf("%s.replica_column_proofs.drg_parents[%d].column.index", p, j)
				} else {
					got = v.ReplicaColumnProofs.ExpParents[j-BaseDegree].Column.Index
					fp = fmt.Sprintf("%s.replica_column_proofs.exp_parents[%d].column.index", p, j-BaseDegree)
				}
				if got != par[j] {
					return semErr(fp, "parent %d, graph gives %d", got, par[j])
				}
			}
		}
	}
	return nil
}

// challengeInputs names the C1 fields the challenges of kind k derive from.
func challengeInputs(k ChallengeKind) string {
	switch k {
	case ChallengesSynthetic:
		return "replica_id, comm_r and seed"
	case ChallengesNonInteractive:
		return "replica_id and comm_r"
	}
	return "replica_id and seed"
}

// CircuitValues returns (replica_id, comm_d, comm_r, comm_r_last, comm_c) as
// field elements, the top-level values of StackedCircuit. Call after Validate.
func (c *C1Output) CircuitValues() (replicaID, commD, commR, commRLast, commC fr.Element, err error) {
	vals := []*Domain{&c.ReplicaID, &c.CommD, &c.CommR}
	cr, cc := c.CommRLast(), c.CommC()
	vals = append(vals, &cr, &cc)
	var out [5]fr.Element
	for i, d := range vals {
		if out[i], err = FrFromBytes((*[32]byte)(d)); err != nil {
			return
		}
	}
	return out[0], out[1], out[2], out[3], out[4], nil
}
