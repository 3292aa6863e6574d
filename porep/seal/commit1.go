// SPDX-License-Identifier: Apache-2.0 OR MIT

package seal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/ipfs/go-cid"

	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
)

// CommitPhase1 produces the C1 output (filecoin-ffi's serde_json
// SealCommitPhase1Output bytes) for a sector that Seal wrote to outDir. The
// arguments mirror filecoin-ffi SealCommitPhase1 (cache and sealed paths are
// the one output directory; no pieces): the CIDs, sector number, miner and
// ticket must match what Seal recorded. seed is the interactive randomness
// (32 bytes); synthetic configurations use it to select challenges and NI
// ones ignore it (it is still copied into the output).
func CommitPhase1(ctx context.Context, cfg stacked.SectorConfig, sealedCID, unsealedCID cid.Cid, outDir string,
	sectorNum abi.SectorNumber, minerID abi.ActorID, ticket abi.SealRandomness, seed abi.InteractiveSealRandomness) ([]byte, error) {
	out, err := CommitPhase1Output(ctx, cfg, sealedCID, unsealedCID, outDir, sectorNum, minerID, ticket, seed)
	if err != nil {
		return nil, err
	}
	return out.Marshal(), nil
}

// loadMeta reads and checks seal.json against the caller's view of the sector.
func loadMeta(cfg *stacked.SectorConfig, outDir string) (*sealMeta, error) {
	b, err := os.ReadFile(filepath.Join(outDir, FileMeta))
	if err != nil {
		return nil, fmt.Errorf("c1: sealed sector directory: %w", err)
	}
	var m sealMeta
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("c1: %s: %w", filepath.Join(outDir, FileMeta), err)
	}
	if m.Config != *cfg {
		return nil, fmt.Errorf("c1: %s was sealed as %s, not %s (or with other parameters)", outDir, m.Config.Name, cfg.Name)
	}
	return &m, nil
}

// CommitPhase1Output is CommitPhase1 returning the decoded output.
func CommitPhase1Output(ctx context.Context, cfg stacked.SectorConfig, sealedCID, unsealedCID cid.Cid, outDir string,
	sectorNum abi.SectorNumber, minerID abi.ActorID, ticket abi.SealRandomness, seed abi.InteractiveSealRandomness) (*stacked.C1Output, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("c1: %w", err)
	}
	tk, err := stacked.To32(ticket, "ticket")
	if err != nil {
		return nil, fmt.Errorf("c1: %w", err)
	}
	sd, err := stacked.To32(seed, "seed")
	if err != nil {
		return nil, fmt.Errorf("c1: %w", err)
	}
	commR, err := commcid.CIDToReplicaCommitmentV1(sealedCID)
	if err != nil {
		return nil, fmt.Errorf("c1: sealed CID: %w", err)
	}
	commD, err := commcid.CIDToDataCommitmentV1(unsealedCID)
	if err != nil {
		return nil, fmt.Errorf("c1: unsealed CID: %w", err)
	}
	m, err := loadMeta(&cfg, outDir)
	if err != nil {
		return nil, err
	}
	switch {
	case string(commR) != string(m.CommR[:]):
		return nil, fmt.Errorf("c1: sealed CID %s does not match the sealed sector's comm_r %x", sealedCID, m.CommR)
	case string(commD) != string(m.CommD[:]):
		return nil, fmt.Errorf("c1: unsealed CID %s does not match the sealed sector's comm_d %x", unsealedCID, m.CommD)
	case m.Miner != uint64(minerID) || m.Sector != uint64(sectorNum):
		return nil, fmt.Errorf("c1: sector %d of miner %d requested, %s holds sector %d of miner %d", sectorNum, minerID, outDir, m.Sector, m.Miner)
	case m.Ticket != tk:
		return nil, fmt.Errorf("c1: ticket %x differs from the sealing ticket %x", tk, m.Ticket)
	}
	s, err := openSector(&cfg, outDir)
	if err != nil {
		return nil, err
	}
	defer s.close()
	if s.treeC.Root != mustFr(m.CommC) || s.treeR.Root != mustFr(m.CommRLast) || s.treeD.Root() != m.CommD {
		return nil, fmt.Errorf("c1: files in %s do not match %s (trees rebuilt to other roots)", outDir, FileMeta)
	}
	out := &stacked.C1Output{
		RegisteredProof: cfg.Name,
		VanillaTag:      cfg.VanillaTag(),
		CommR:           m.CommR,
		CommD:           m.CommD,
		ReplicaID:       m.ReplicaID,
		Seed:            sd,
		Ticket:          tk,
	}
	if err := FillVanillaProofs(ctx, &cfg, s, out); err != nil {
		return nil, fmt.Errorf("c1: sector files in %s: %w", outDir, err)
	}
	return out, nil
}

// VanillaSource is what a C1 output's vanilla proofs are read from: a sealed
// sector's files (CommitPhase1) or porep/synthetic's sparse trees.
type VanillaSource interface {
	// CommDProof is node's path in tree D (SHA-256, to comm_d).
	CommDProof(node uint64) (stacked.MerkleProof, error)
	// CommRLastProof is node's path in tree R_last (to comm_r_last).
	CommRLastProof(node uint64) (stacked.MerkleProof, error)
	// ColumnProof is node's column (its labels in layers 1..L) and the
	// column hash's path in tree C.
	ColumnProof(node uint64) (stacked.ColumnProof, error)
}

// FillVanillaProofs sets out.VanillaProofs: for every partition, the vanilla
// proof of each challenge derived from out's replica_id, comm_r and seed
// (stacked.PartitionChallenges), read from src (the challenge's tree D and
// R_last paths, its column and its 14 parents' columns, the labeling and
// encoding proofs built from them: vanilla prove_layers). Like
// rust-fil-proofs' seal_commit_phase1 it then checks what it hands out
// (VerifyC1). Errors name the partition, challenge and node.
func FillVanillaProofs(ctx context.Context, cfg *stacked.SectorConfig, src VanillaSource, out *stacked.C1Output) error {
	g, err := stacked.GraphFor(cfg)
	if err != nil {
		return err
	}
	out.VanillaProofs = nil
	for k := 0; k < cfg.Partitions; k++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		chs, err := stacked.PartitionChallenges(cfg, out.ReplicaID, out.CommR, out.Seed, k)
		if err != nil {
			return err
		}
		part := make([]stacked.VanillaProof, len(chs))
		for i, c := range chs {
			if err := vanillaProof(cfg, g, src, c, &part[i]); err != nil {
				return fmt.Errorf("partition %d challenge %d (node %d): %w", k, i, c, err)
			}
		}
		out.VanillaProofs = append(out.VanillaProofs, part)
	}
	if err := VerifyC1(out, cfg); err != nil {
		return fmt.Errorf("self-check of the generated vanilla proofs failed: %w", err)
	}
	return nil
}

func mustFr(d stacked.Domain) fr.Element {
	e, _ := stacked.FrFromBytes((*[32]byte)(&d))
	return e
}

// sector gives C1 access to a sealed sector's files.
type sector struct {
	cfg    *stacked.SectorConfig
	layers []*os.File
	treeD  *stacked.TreeD
	treeC  *poseidon.Tree
	treeR  *poseidon.Tree
}

func readFrFile(path string, n int) ([]fr.Element, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) != 32*n {
		return nil, fmt.Errorf("%s is %d bytes, want %d", path, len(b), 32*n)
	}
	out := make([]fr.Element, n)
	if err := bytesToFr(out, b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// openSector rebuilds trees D, C and R_last from the stored leaves and opens
// the layer files.
func openSector(cfg *stacked.SectorConfig, dir string) (*sector, error) {
	s := &sector{cfg: cfg}
	data, err := os.ReadFile(filepath.Join(dir, FileDataPadded))
	if err != nil {
		return nil, fmt.Errorf("c1: %w", err)
	}
	if uint64(len(data)) != cfg.SectorSize {
		return nil, fmt.Errorf("c1: %s is %d bytes, want %d", FileDataPadded, len(data), cfg.SectorSize)
	}
	s.treeD = stacked.BuildTreeD(data)
	n := int(cfg.Nodes)
	sh := cfg.Shape
	leavesC, err := readFrFile(filepath.Join(dir, FileTreeCLeaf), n)
	if err != nil {
		return nil, fmt.Errorf("c1: %w", err)
	}
	if s.treeC, err = loadTree(dir, FileTreeCNodes, leavesC, sh); err != nil {
		return nil, fmt.Errorf("c1: tree C: %w", err)
	}
	replica, err := readFrFile(filepath.Join(dir, FileSealed), n)
	if err != nil {
		return nil, fmt.Errorf("c1: %w", err)
	}
	if s.treeR, err = loadTree(dir, FileTreeRNodes, replica, sh); err != nil {
		return nil, fmt.Errorf("c1: tree R_last: %w", err)
	}
	for l := 1; l <= cfg.Layers; l++ {
		f, err := os.Open(filepath.Join(dir, FileLayer(l)))
		if err != nil {
			s.close()
			return nil, fmt.Errorf("c1: %w", err)
		}
		s.layers = append(s.layers, f)
	}
	return s, nil
}

// loadTree reads a tree's inner nodes from file, or rebuilds the tree by
// hashing when the file is absent.
func loadTree(dir, file string, leaves []fr.Element, sh stacked.TreeShape) (*poseidon.Tree, error) {
	b, err := os.ReadFile(filepath.Join(dir, file))
	if errors.Is(err, os.ErrNotExist) {
		return poseidon.BuildTree(leaves, sh.Base, sh.Sub, sh.Top)
	}
	if err != nil {
		return nil, err
	}
	if len(b)%32 != 0 {
		return nil, fmt.Errorf("%s: size %d is not a multiple of 32", file, len(b))
	}
	inner := make([]fr.Element, len(b)/32)
	if err := bytesToFr(inner, b); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	t, err := treeFromInner(leaves, inner, sh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return t, nil
}

func (s *sector) close() {
	for _, f := range s.layers {
		f.Close()
	}
}

// column returns the labels of node in layers 1..L.
func (s *sector) column(node uint64) ([]stacked.Domain, error) {
	rows := make([]stacked.Domain, len(s.layers))
	for l, f := range s.layers {
		if _, err := f.ReadAt(rows[l][:], int64(32*node)); err != nil {
			return nil, fmt.Errorf("read %s node %d: %w", FileLayer(l+1), node, err)
		}
	}
	return rows, nil
}

func (s *sector) CommDProof(node uint64) (stacked.MerkleProof, error) {
	return s.treeD.Proof(node), nil
}

func (s *sector) CommRLastProof(node uint64) (stacked.MerkleProof, error) {
	return stacked.PoseidonProof(s.treeR, s.cfg.Shape, node)
}

func (s *sector) ColumnProof(node uint64) (stacked.ColumnProof, error) {
	rows, err := s.column(node)
	if err != nil {
		return stacked.ColumnProof{}, err
	}
	p, err := stacked.PoseidonProof(s.treeC, s.cfg.Shape, node)
	if err != nil {
		return stacked.ColumnProof{}, err
	}
	return stacked.ColumnProof{Column: stacked.Column{Index: uint32(node), Rows: rows}, InclusionProof: p}, nil
}

// LabelingProofs builds the labeling proofs of all layers and the encoding
// proof of challenge from its parent columns (drg: the base parents, exp:
// the expander parents; Rows[l] is layer l+1), as params.rs
// Proof::from_parts does.
func LabelingProofs(layers int, challenge uint64, drg, exp []stacked.ColumnProof) ([]stacked.LabelingProof, stacked.EncodingProof) {
	lps := make([]stacked.LabelingProof, layers)
	for li := range lps {
		lps[li] = stacked.LabelingProof{Parents: LayerParents(li+1, drg, exp), LayerIndex: uint32(li + 1), Node: challenge}
	}
	last := lps[layers-1]
	enc := stacked.EncodingProof{Parents: append([]stacked.Domain(nil), last.Parents...), LayerIndex: last.LayerIndex, Node: last.Node}
	return lps, enc
}

// LayerParents are the 37 parent labels hashed into a node's label in layer
// (1-based), from its parent columns as LabelingProofs takes them: layer 1
// cycles the base parents' layer-1 labels, later layers the base parents'
// labels of the layer and the expander parents' of the layer before
// (create_label / create_label_exp).
func LayerParents(layer int, drg, exp []stacked.ColumnProof) []stacked.Domain {
	var base []stacked.Domain
	for _, cp := range drg {
		base = append(base, cp.Column.Rows[layer-1])
	}
	if layer > 1 {
		for _, cp := range exp {
			base = append(base, cp.Column.Rows[layer-2])
		}
	}
	parents := make([]stacked.Domain, stacked.TotalParents)
	for k := range parents {
		parents[k] = base[k%len(base)]
	}
	return parents
}

func vanillaProof(cfg *stacked.SectorConfig, g *stacked.Graph, src VanillaSource, c uint64, v *stacked.VanillaProof) error {
	var err error
	if v.CommDProofs, err = src.CommDProof(c); err != nil {
		return err
	}
	if v.CommRLastProof, err = src.CommRLastProof(c); err != nil {
		return err
	}
	rc := &v.ReplicaColumnProofs
	if rc.CX, err = src.ColumnProof(c); err != nil {
		return err
	}
	var par [stacked.Degree]uint32
	g.Parents(uint32(c), &par)
	for j, p := range par {
		cp, err := src.ColumnProof(uint64(p))
		if err != nil {
			return err
		}
		if j < stacked.BaseDegree {
			rc.DRGParents = append(rc.DRGParents, cp)
		} else {
			rc.ExpParents = append(rc.ExpParents, cp)
		}
	}
	v.LabelingProofs, v.EncodingProof = LabelingProofs(cfg.Layers, c, rc.DRGParents, rc.ExpParents)
	return nil
}
