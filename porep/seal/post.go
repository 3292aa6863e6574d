// SPDX-License-Identifier: Apache-2.0 OR MIT

package seal

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
)

// SealedSector is what Seal recorded of a sector in its output directory
// (seal.json): what a PoSt prover needs to name it.
type SealedSector struct {
	Config                  stacked.SectorConfig
	Miner                   abi.ActorID
	Sector                  abi.SectorNumber
	CommR, CommC, CommRLast stacked.Domain
}

// ReadSealedSector reads seal.json from a directory Seal wrote. Errors name
// the file.
func ReadSealedSector(dir string) (*SealedSector, error) {
	path := filepath.Join(dir, FileMeta)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sealed sector: %w", err)
	}
	var m sealMeta
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("sealed sector: %s: %w", path, err)
	}
	if err := m.Config.Validate(); err != nil {
		return nil, fmt.Errorf("sealed sector: %s: %w", path, err)
	}
	return &SealedSector{Config: m.Config, Miner: abi.ActorID(m.Miner), Sector: abi.SectorNumber(m.Sector),
		CommR: m.CommR, CommC: m.CommC, CommRLast: m.CommRLast}, nil
}

// PoStVanillaProof is filecoin-ffi's GenerateSingleVanillaProof for the
// sector Seal wrote into dir: its inclusion proofs of the challenged
// leaves of tree R_last (the replica, sealed.dat, and the stored inner
// nodes), made by post.NewVanillaProof. challenges are the sector's
// GeneratePoStFallbackSectorChallenges. Errors: a sector of another size
// than cfg's, tree files that do not hash to the recorded comm_r_last,
// challenges as post.NewVanillaProof, a challenged leaf of the replica
// that does not hash to comm_r_last (a faulty sector).
func PoStVanillaProof(cfg *post.Config, dir string, challenges []uint64) ([]byte, error) {
	s, err := ReadSealedSector(dir)
	if err != nil {
		return nil, fmt.Errorf("post vanilla: %w", err)
	}
	if s.Config.SectorSize != cfg.SectorSize {
		return nil, fmt.Errorf("post vanilla: %s holds a %s sector (%s), %s proves %s sectors", dir,
			stacked.SizeLabel(s.Config.SectorSize), s.Config.Name, cfg.Name, stacked.SizeLabel(cfg.SectorSize))
	}
	replica, err := readFrFile(filepath.Join(dir, FileSealed), int(s.Config.Nodes))
	if err != nil {
		return nil, fmt.Errorf("post vanilla: %w", err)
	}
	sh := s.Config.Shape
	tree, err := loadTree(dir, FileTreeRNodes, replica, sh)
	if err != nil {
		return nil, fmt.Errorf("post vanilla: tree R_last: %w", err)
	}
	if root := stacked.FrToBytes(&tree.Root); root != s.CommRLast {
		return nil, fmt.Errorf("post vanilla: %s: tree R_last hashes to %x, %s records comm_r_last %x", dir, root[:], FileMeta, s.CommRLast[:])
	}
	commC, err := stacked.FrFromBytes((*[32]byte)(&s.CommC))
	if err != nil {
		return nil, fmt.Errorf("post vanilla: %s comm_c: %w", FileMeta, err)
	}
	v, err := post.NewVanillaProof(cfg, s.Sector, tree, commC, challenges)
	if err != nil {
		return nil, err
	}
	// The root comes from the stored inner nodes, so a replica changed since sealing
	// shows only in the challenged paths: Rust's prover calls such a sector faulty.
	j := 0
	for i := range v.Sectors {
		for k := range v.Sectors[i].InclusionProofs {
			p := &v.Sectors[i].InclusionProofs[k]
			if root, err := p.RootPoseidon(); err != nil || root != p.Root {
				return nil, fmt.Errorf("post vanilla: %s: challenge %d (leaf %d): %s does not hash to comm_r_last %x with the stored tree nodes (faulty sector: replica changed since sealing?)",
					dir, j, challenges[j], FileSealed, s.CommRLast[:])
			}
			j++
		}
	}
	if v.CommR != s.CommR {
		return nil, fmt.Errorf("post vanilla: %s: H(comm_c, comm_r_last) = %x, %s records comm_r %x", dir, v.CommR[:], FileMeta, s.CommR[:])
	}
	return v.Bytes(), nil
}
