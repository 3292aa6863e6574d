// SPDX-License-Identifier: Apache-2.0 OR MIT

package synthetic

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/seal"
	"github.com/cuseal/cuseal/porep/stacked"
)

// C1Options tune C1. Zero values take the configuration's.
type C1Options struct {
	// Partitions and ChallengesPerPartition override cfg's counts (the
	// output is then only parseable with ParseC1ForConfig of a config with
	// the same overrides).
	Partitions, ChallengesPerPartition int
	// Seed makes the output reproducible.
	Seed uint64
}

// C1 builds a C1 output of exactly the shape a real sector of cfg
// would have (partitions, challenges, path lengths and variants, column
// heights, 37 parents per labeling proof), cheaply and for any size (32 and
// 64 GiB included), for synthesis benchmarks. Its challenges are derived as
// usual from a random replica_id and seed, its parent indices come from the
// real graph, and comm_r = Poseidon2(comm_c, comm_r_last), so it passes
// C1Output.Validate and ValidateChallenges; but all hashes, labels and leaves
// are random, so it is cryptographically invalid: no proof made from it
// verifies. It is marked with SyntheticInvalid (JSON field
// "cuseal_synthetic_invalid": true), which every prover entry refuses
// (stacked.ErrSyntheticC1) and seal.VerifyC1 rejects.
func C1(cfg stacked.SectorConfig, opt C1Options) (*stacked.C1Output, error) {
	if opt.Partitions > 0 {
		cfg.Partitions = opt.Partitions
	}
	if opt.ChallengesPerPartition > 0 {
		cfg.ChallengesPerPartition = opt.ChallengesPerPartition
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("synthetic c1: %w", err)
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x5eed))
	dom := func() stacked.Domain { return randomDomain(rng) }
	doms := func(n int) []stacked.Domain {
		out := make([]stacked.Domain, n)
		for i := range out {
			out[i] = dom()
		}
		return out
	}
	out := &stacked.C1Output{
		RegisteredProof:  cfg.Name,
		VanillaTag:       cfg.VanillaTag(),
		CommD:            dom(),
		ReplicaID:        dom(),
		Seed:             dom(),
		Ticket:           dom(),
		SyntheticInvalid: true,
	}
	commC, commRLast := dom(), dom()
	a, _ := stacked.FrFromBytes((*[32]byte)(&commC))
	b, _ := stacked.FrFromBytes((*[32]byte)(&commRLast))
	h := poseidon.Hash2(&a, &b)
	out.CommR = stacked.FrToBytes(&h)

	g, err := stacked.GraphFor(&cfg)
	if err != nil {
		return nil, err
	}
	shape := cfg.Shape
	pathFor := func(node uint64, arities []int) []stacked.PathElement {
		elems := make([]stacked.PathElement, len(arities))
		for j, a := range arities {
			elems[j] = stacked.PathElement{Hashes: doms(a - 1), Index: node % uint64(a)}
			node /= uint64(a)
		}
		return elems
	}
	var treeArities []int
	for j := 0; j < cfg.BasePathLen(); j++ {
		treeArities = append(treeArities, shape.Base)
	}
	if shape.Sub > 0 {
		treeArities = append(treeArities, shape.Sub)
	}
	if shape.Top > 0 {
		treeArities = append(treeArities, shape.Top)
	}
	dArities := make([]int, cfg.CommDDepth())
	for j := range dArities {
		dArities[j] = 2
	}
	treeProof := func(node uint64, root stacked.Domain) stacked.MerkleProof {
		elems := pathFor(node, treeArities)
		p := stacked.MerkleProof{Root: root, Leaf: dom()}
		n := len(elems)
		switch {
		case shape.Sub == 0:
			p.Kind, p.Base = stacked.ProofSingle, elems
		case shape.Top == 0:
			p.Kind, p.Base, p.Sub = stacked.ProofSub, elems[:n-1], elems[n-1:]
		default:
			p.Kind, p.Base, p.Sub, p.Top = stacked.ProofTop, elems[:n-2], elems[n-2:n-1], elems[n-1:]
		}
		return p
	}
	column := func(node uint64) stacked.ColumnProof {
		return stacked.ColumnProof{
			Column:         stacked.Column{Index: uint32(node), Rows: doms(cfg.Layers)},
			InclusionProof: treeProof(node, commC),
		}
	}
	for k := 0; k < cfg.Partitions; k++ {
		chs, err := stacked.PartitionChallenges(&cfg, out.ReplicaID, out.CommR, out.Seed, k)
		if err != nil {
			return nil, err
		}
		part := make([]stacked.VanillaProof, len(chs))
		for i, c := range chs {
			v := &part[i]
			v.CommDProofs = stacked.MerkleProof{Kind: stacked.ProofSingle, Root: out.CommD, Leaf: dom(), Base: pathFor(c, dArities)}
			v.CommRLastProof = treeProof(c, commRLast)
			rc := &v.ReplicaColumnProofs
			rc.CX = column(c)
			var par [stacked.Degree]uint32
			g.Parents(uint32(c), &par)
			for j, p := range par {
				if j < stacked.BaseDegree {
					rc.DRGParents = append(rc.DRGParents, column(uint64(p)))
				} else {
					rc.ExpParents = append(rc.ExpParents, column(uint64(p)))
				}
			}
			v.LabelingProofs, v.EncodingProof = seal.LabelingProofs(cfg.Layers, c, rc.DRGParents, rc.ExpParents)
		}
		out.VanillaProofs = append(out.VanillaProofs, part)
	}
	return out, nil
}

// randomDomain is 32 random bytes below 2^254: a canonical field element.
func randomDomain(rng *rand.Rand) stacked.Domain {
	var d stacked.Domain
	for i := 0; i < 32; i += 8 {
		binary.LittleEndian.PutUint64(d[i:], rng.Uint64())
	}
	d[31] &= 0x3f
	return d
}
