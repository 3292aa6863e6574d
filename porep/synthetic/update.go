// SPDX-License-Identifier: Apache-2.0 OR MIT

package synthetic

import (
	"fmt"
	"math/rand/v2"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/ipfs/go-cid"

	commcid "github.com/filecoin-project/go-fil-commcid"

	"github.com/cuseal/cuseal/internal/parallel"
	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/update"
)

// DefaultUpdatePositions is UpdateOptions.Positions' default.
const DefaultUpdatePositions = 1024

// UpdateOptions tune Update. Zero values take the defaults named.
type UpdateOptions struct {
	// Positions is how many nodes hold a random sector-key label and
	// random new data (at most half the sector's nodes);
	// 0: DefaultUpdatePositions.
	Positions int
	// Seed makes the output reproducible: comm_c, the fill label, the
	// positions and their labels and data derive from it.
	Seed uint64
}

// UpdateSet is a synthetic updated sector: its commitments (raw and as the
// CIDs filecoin-ffi takes) and its sparse trees, from which PartitionProof
// reads any partition's vanilla proof.
type UpdateSet struct {
	Config                       update.Config
	CommROld, CommDNew, CommRNew stacked.Domain
	// OldSealed and NewSealed are comm_r_old and comm_r_new as sealed CIDs,
	// Unsealed comm_d_new as an unsealed CID.
	OldSealed, NewSealed, Unsealed cid.Cid
	src                            *updateSource
}

// updateSource is update.PathSource over sparse trees.
type updateSource struct {
	rOld, rNew *sparseTree
	d          *sparseTreeD
	commC      fr.Element
}

func (s *updateSource) CommCAndRNew() (fr.Element, fr.Element) {
	root := s.rNew.RootHash()
	return s.commC, poseidon.Hash2(&s.commC, &root)
}

func (s *updateSource) ApexRow(cfg *update.Config) []stacked.Domain {
	l := cfg.ApexDepth()
	row := make([]stacked.Domain, cfg.Nodes>>uint(l))
	for i := range row {
		row[i] = s.d.node(l, uint64(i))
	}
	return row
}

func (s *updateSource) NodeProofs(cfg *update.Config, c uint64) (update.ChallengeProof, error) {
	var cp update.ChallengeProof
	for _, t := range []struct {
		tree *sparseTree
		out  *stacked.MerkleProof
	}{{s.rOld, &cp.ProofROld}, {s.rNew, &cp.ProofRNew}} {
		p, err := sparseProof(t.tree, c, cfg.Shape)
		if err != nil {
			return cp, err
		}
		*t.out = p
	}
	cp.ProofDNew = s.d.proof(c)
	return cp, nil
}

// Update builds a valid updated sector of the registered update proof p
// for any size (32 and 64 GiB included), cheaply: every node but
// opt.Positions seed-chosen ones holds one fill label in the sector key and
// zero data (so the same label in the new replica), which makes TreeROld,
// TreeRNew and TreeD sparse (an untouched subtree is a precomputed hash per
// level). At the chosen nodes the key label and data are random and the
// new label is update.Encode's (old + data·rho). The trees and commitments
// come first; the challenges then follow from comm_r_new as for a real
// sector, so PartitionProof's proofs pass update.CheckPartitionProof and a
// proof made from them verifies with VerifyReplicaUpdate. Errors: an
// unsupported proof, Positions < 0 or over half the nodes.
func Update(p abi.RegisteredUpdateProof, opt UpdateOptions) (*UpdateSet, error) {
	cfg, err := update.ConfigFor(p)
	if err != nil {
		return nil, fmt.Errorf("synthetic update: %w", err)
	}
	n := opt.Positions
	if n == 0 {
		n = min(DefaultUpdatePositions, int(cfg.Nodes/2))
	}
	if n < 0 || uint64(n) > cfg.Nodes/2 {
		return nil, fmt.Errorf("synthetic update: %s: %d positions, want 0 to %d", cfg.Name, opt.Positions, cfg.Nodes/2)
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x5bda))
	commC := randomFr(rng)
	fill := randomFr(rng)
	defaults, err := newSparseDefaults(cfg.Nodes, cfg.Shape.Base, cfg.Shape.Sub, cfg.Shape.Top, fill)
	if err != nil {
		return nil, fmt.Errorf("synthetic update: %s: %w", cfg.Name, err)
	}
	old := make(map[uint64]fr.Element, n)
	data := make(map[uint64]stacked.Domain, n)
	for len(old) < n {
		i := rng.Uint64N(cfg.Nodes)
		if _, dup := old[i]; dup {
			continue
		}
		old[i] = randomFr(rng)
		data[i] = randomDomain(rng)
	}
	src := &updateSource{commC: commC, d: newSparseTreeD(cfg.Nodes, data)}
	if src.rOld, err = newSparseTree(defaults, old); err != nil {
		return nil, fmt.Errorf("synthetic update: %w", err)
	}
	rootOld := src.rOld.RootHash()
	commROld := poseidon.Hash2(&commC, &rootOld)
	commDNew := src.d.node(cfg.ChallengeBitLen, 0)
	dNew, _ := stacked.FrFromBytes((*[32]byte)(&commDNew))
	phi := update.Phi(&dNew, &commROld)
	rhos := update.Rhos(&cfg, &phi)
	replica := make(map[uint64]fr.Element, n)
	for i, o := range old {
		d := data[i]
		df, _ := stacked.FrFromBytes((*[32]byte)(&d))
		var v fr.Element
		v.Mul(&df, &rhos[cfg.ChallengeHigh(i)]).Add(&v, &o)
		replica[i] = v
	}
	if src.rNew, err = newSparseTree(defaults, replica); err != nil {
		return nil, fmt.Errorf("synthetic update: %w", err)
	}
	_, commRNew := src.CommCAndRNew()
	out := &UpdateSet{Config: cfg, CommROld: stacked.FrToBytes(&commROld), CommDNew: commDNew, CommRNew: stacked.FrToBytes(&commRNew), src: src}
	if out.OldSealed, err = commcid.ReplicaCommitmentV1ToCID(out.CommROld[:]); err == nil {
		if out.NewSealed, err = commcid.ReplicaCommitmentV1ToCID(out.CommRNew[:]); err == nil {
			out.Unsealed, err = commcid.DataCommitmentV1ToCID(out.CommDNew[:])
		}
	}
	if err != nil {
		return nil, fmt.Errorf("synthetic update: %w", err)
	}
	return out, nil
}

// PartitionProof is partition k's vanilla proof (update.PartitionProofFrom
// over the sparse trees). Errors: k out of range.
func (s *UpdateSet) PartitionProof(k int) (*update.PartitionProof, error) {
	p, err := update.PartitionProofFrom(&s.Config, k, s.src)
	if err != nil {
		return nil, fmt.Errorf("synthetic update: %w", err)
	}
	return p, nil
}

// Vanilla is every partition's proof as GenerateUpdateVanillaProofs
// returns them (update.PartitionProof.Bytes), partition k at index k.
func (s *UpdateSet) Vanilla() ([][]byte, error) {
	out := make([][]byte, s.Config.Partitions)
	err := parallel.Each(len(out), func(k int) error {
		p, err := s.PartitionProof(k)
		if err != nil {
			return err
		}
		out[k] = p.Bytes()
		return nil
	})
	return out, err
}

func randomFr(rng *rand.Rand) fr.Element {
	d := randomDomain(rng)
	v, _ := stacked.FrFromBytes((*[32]byte)(&d))
	return v
}

// sparseTreeD is a TreeD (binary SHA-256) whose leaves are zero but at
// the keys of its leaf map: it keeps the nodes on those leaves' paths.
type sparseTreeD struct {
	defaults []stacked.Domain            // defaults[l]: every untouched node of level l
	nodes    []map[uint64]stacked.Domain // nodes[l]: the others
}

func newSparseTreeD(leaves uint64, data map[uint64]stacked.Domain) *sparseTreeD {
	t := &sparseTreeD{defaults: []stacked.Domain{{}}, nodes: []map[uint64]stacked.Domain{data}}
	for n := leaves; n > 1; n /= 2 {
		l := len(t.defaults) - 1
		t.defaults = append(t.defaults, stacked.Sha256Node(&t.defaults[l], &t.defaults[l]))
		next := make(map[uint64]stacked.Domain, len(t.nodes[l]))
		for i := range t.nodes[l] {
			if _, done := next[i/2]; !done {
				left, right := t.node(l, i&^1), t.node(l, i|1)
				next[i/2] = stacked.Sha256Node(&left, &right)
			}
		}
		t.nodes = append(t.nodes, next)
	}
	return t
}

func (t *sparseTreeD) node(l int, i uint64) stacked.Domain {
	if v, ok := t.nodes[l][i]; ok {
		return v
	}
	return t.defaults[l]
}

// proof is stacked.TreeD.Proof's.
func (t *sparseTreeD) proof(i uint64) stacked.MerkleProof {
	top := len(t.nodes) - 1
	p := stacked.MerkleProof{Kind: stacked.ProofSingle, Root: t.node(top, 0), Leaf: t.node(0, i)}
	for l := 0; l < top; l++ {
		p.Base = append(p.Base, stacked.PathElement{Hashes: []stacked.Domain{t.node(l, i^1)}, Index: i & 1})
		i >>= 1
	}
	return p
}
