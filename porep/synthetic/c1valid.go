// SPDX-License-Identifier: Apache-2.0 OR MIT

package synthetic

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/seal"
	"github.com/cuseal/cuseal/porep/stacked"
)

// ValidC1Options tune ValidC1. Zero values take the defaults named.
type ValidC1Options struct {
	// Miner is the prover's actor id; 0: 1000 (the CLI's default t01000).
	Miner abi.ActorID
	// Sector is the sector number; 0: 1 (commit2's default).
	Sector abi.SectorNumber
	// Seed makes the output reproducible: the ticket, the interactive seed,
	// the fill column and the fill replica node derive from it.
	Seed uint64
}

// C1Set is a valid synthetic C1 output and the identities it was made
// for (the replica_id derives from them: commit2's --miner and --sector).
type C1Set struct {
	Config stacked.SectorConfig
	Miner  abi.ActorID
	Sector abi.SectorNumber
	C1     *stacked.C1Output
}

// ValidC1 builds a valid C1 output (SealCommitPhase1Output) of an
// interactive-PoRep sector configuration of any size (32 and 64 GiB
// included), cheaply: the sector is a CC sector (all-zero data, so comm_d
// is the zero tree's root and replica_id = generate_replica_id(prover,
// sector, ticket, comm_d, porep_id) is known before any label), whose
// trees C and R_last are sparse. Every node but the challenged ones has one
// fill column (random labels) and one fill replica node, so an untouched
// subtree is a precomputed hash per level. The challenged nodes' labels are
// computed layer by layer, in node order, from their parents' labels
// (LabelingProof::create_label: base parents in the same layer, expander
// parents in the layer before, a challenged parent's own computed labels,
// any other parent's the fill column), so each node has one column wherever
// it appears; its replica node is its last label (encoding of zero data).
// comm_r = Poseidon-2(comm_c, comm_r_last); the challenges are the real
// ones of (replica_id, seed); the vanilla proofs come from
// seal.FillVanillaProofs, which checks them (seal.VerifyC1). A proof made
// from the output verifies with VerifySeal. Nothing marks it: it is what
// such a sector would give.
//
// Errors: an invalid configuration, or one whose challenges derive from
// comm_r (synthetic PoRep, NI-PoRep): comm_r depends on which nodes are
// challenged, so no sparse sector can be built for them (seal a real one).
func ValidC1(ctx context.Context, cfg stacked.SectorConfig, opt ValidC1Options) (*C1Set, error) {
	return validC1(ctx, cfg, opt, nil)
}

// validC1 is ValidC1; tamper, when set, may change the labeled columns
// before the trees are hashed (tests: an inconsistent label under
// consistent paths). On a failed self-check it returns the set too.
func validC1(ctx context.Context, cfg stacked.SectorConfig, opt ValidC1Options, tamper func(cols map[uint64][]stacked.Domain)) (*C1Set, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("synthetic c1: %w", err)
	}
	if cfg.Challenges != stacked.ChallengesInteractive {
		return nil, fmt.Errorf("synthetic c1: %s has %s challenges, derived from comm_r, which depends on the challenged nodes: only interactive PoRep (…V1_1) sectors can be synthetic", cfg.Name, cfg.Challenges)
	}
	set := &C1Set{Config: cfg, Miner: opt.Miner, Sector: opt.Sector}
	if set.Miner == 0 {
		set.Miner = 1000
	}
	if set.Sector == 0 {
		set.Sector = 1
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0xc1c1))
	ticket, seed := randomDomain(rng), randomDomain(rng)
	src := &c1Source{cfg: &cfg, d: newSparseTreeD(cfg.Nodes, nil), fill: make([]stacked.Domain, cfg.Layers), cols: map[uint64][]stacked.Domain{}}
	for l := range src.fill {
		src.fill[l] = randomDomain(rng)
	}
	commD := src.d.node(cfg.CommDDepth(), 0)
	rid := stacked.ReplicaID(stacked.ProverID(set.Miner), set.Sector, ticket, commD, cfg.PoRepID)

	// Interactive challenges ignore comm_r.
	var nodes []uint64
	for k := 0; k < cfg.Partitions; k++ {
		chs, err := stacked.PartitionChallenges(&cfg, rid, [32]byte{}, seed, k)
		if err != nil {
			return nil, fmt.Errorf("synthetic c1: %w", err)
		}
		nodes = append(nodes, chs...)
	}
	slices.Sort(nodes)
	nodes = slices.Compact(nodes)
	if err := src.label(rid, nodes); err != nil {
		return nil, fmt.Errorf("synthetic c1: %s: %w", cfg.Name, err)
	}
	if tamper != nil {
		tamper(src.cols)
	}
	if err := src.trees(randomFr(rng)); err != nil {
		return nil, fmt.Errorf("synthetic c1: %s: %w", cfg.Name, err)
	}
	commC, commRLast := src.c.RootHash(), src.r.RootHash()
	commR := poseidon.Hash2(&commC, &commRLast)
	set.C1 = &stacked.C1Output{
		RegisteredProof: cfg.Name,
		VanillaTag:      cfg.VanillaTag(),
		CommR:           stacked.FrToBytes(&commR),
		CommD:           commD,
		ReplicaID:       rid,
		Seed:            seed,
		Ticket:          ticket,
	}
	if err := seal.FillVanillaProofs(ctx, &cfg, src, set.C1); err != nil {
		return set, fmt.Errorf("synthetic c1: %s: %w", cfg.Name, err)
	}
	return set, nil
}

// c1Source is seal.VanillaSource over a sparse CC sector.
type c1Source struct {
	cfg  *stacked.SectorConfig
	d    *sparseTreeD
	c, r *sparseTree
	fill []stacked.Domain            // every other node's column
	cols map[uint64][]stacked.Domain // the challenged nodes' columns
}

func (s *c1Source) column(node uint64) []stacked.Domain {
	if col, ok := s.cols[node]; ok {
		return col
	}
	return s.fill
}

// label computes the columns of the challenged nodes (ascending): layer by
// layer, so an expander parent's label of the layer before is final, and
// in node order, so a challenged base parent's label of the same layer is.
func (s *c1Source) label(rid [32]byte, nodes []uint64) error {
	g, err := stacked.GraphFor(s.cfg)
	if err != nil {
		return err
	}
	for _, c := range nodes {
		s.cols[c] = make([]stacked.Domain, s.cfg.Layers)
	}
	var par [stacked.Degree]uint32
	drg := make([]stacked.ColumnProof, stacked.BaseDegree)
	exp := make([]stacked.ColumnProof, stacked.ExpDegree)
	for layer := 1; layer <= s.cfg.Layers; layer++ {
		for _, c := range nodes {
			g.Parents(uint32(c), &par)
			for j, p := range par {
				if j < stacked.BaseDegree {
					if _, ok := s.cols[uint64(p)]; ok && uint64(p) >= c {
						return fmt.Errorf("node %d: base parent %d is not before it", c, p)
					}
					drg[j].Column.Rows = s.column(uint64(p))
				} else {
					exp[j-stacked.BaseDegree].Column.Rows = s.column(uint64(p))
				}
			}
			s.cols[c][layer-1] = seal.LabelFromParents(&rid, uint32(layer), c, seal.LayerParents(layer, drg, exp))
		}
	}
	return nil
}

// trees hashes the sparse trees C (column hashes) and R_last (replica
// nodes: the last label plus zero data; fillR elsewhere).
func (s *c1Source) trees(fillR fr.Element) error {
	sh := s.cfg.Shape
	dc, err := newSparseDefaults(s.cfg.Nodes, sh.Base, sh.Sub, sh.Top, columnHash(s.fill))
	if err != nil {
		return err
	}
	dr, err := newSparseDefaults(s.cfg.Nodes, sh.Base, sh.Sub, sh.Top, fillR)
	if err != nil {
		return err
	}
	leavesC := make(map[uint64]fr.Element, len(s.cols))
	leavesR := make(map[uint64]fr.Element, len(s.cols))
	for c, col := range s.cols {
		leavesC[c] = columnHash(col)
		leavesR[c], _ = stacked.FrFromBytes((*[32]byte)(&col[len(col)-1]))
	}
	if s.c, err = newSparseTree(dc, leavesC); err != nil {
		return err
	}
	s.r, err = newSparseTree(dr, leavesR)
	return err
}

// columnHash is tree C's leaf of a column: Poseidon over its labels.
func columnHash(col []stacked.Domain) fr.Element {
	in := make([]fr.Element, len(col))
	for i := range col {
		in[i], _ = stacked.FrFromBytes((*[32]byte)(&col[i])) // labels are trimmed to 254 bits
	}
	return poseidon.Hash(in)
}

func (s *c1Source) CommDProof(node uint64) (stacked.MerkleProof, error) { return s.d.proof(node), nil }

func (s *c1Source) CommRLastProof(node uint64) (stacked.MerkleProof, error) {
	return sparseProof(s.r, node, s.cfg.Shape)
}

func (s *c1Source) ColumnProof(node uint64) (stacked.ColumnProof, error) {
	p, err := sparseProof(s.c, node, s.cfg.Shape)
	return stacked.ColumnProof{Column: stacked.Column{Index: uint32(node), Rows: s.column(node)}, InclusionProof: p}, err
}

// sparseProof is leaf node's MerkleProof in t (stacked.PoseidonPathProof).
func sparseProof(t *sparseTree, node uint64, shape stacked.TreeShape) (stacked.MerkleProof, error) {
	leaf, path, err := t.LeafProof(int(node))
	if err != nil {
		return stacked.MerkleProof{}, err
	}
	root := t.RootHash()
	return stacked.PoseidonPathProof(&root, &leaf, path, shape), nil
}
