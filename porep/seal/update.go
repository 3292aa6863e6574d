// SPDX-License-Identifier: Apache-2.0 OR MIT

package seal

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/ipfs/go-cid"

	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/update"
)

// FileUpdateMeta is the metadata file of an updated sector directory
// (updateMeta, JSON). Next to it EncodeInto writes FileDataPadded (the new
// data, TreeD's leaves), FileSealed (the new replica, TreeRNew's leaves)
// and FileTreeRNodes (TreeRNew's inner nodes), in the layouts Seal uses.
const FileUpdateMeta = "update.json"

// UpdateOutputFiles lists the files EncodeInto moves into its output
// directory.
func UpdateOutputFiles() []string {
	return []string{FileDataPadded, FileSealed, FileTreeRNodes, FileUpdateMeta}
}

// updateMeta is the content of update.json.
type updateMeta struct {
	UpdateProof  abi.RegisteredUpdateProof `json:"update_proof"`
	Miner        uint64                    `json:"miner"`
	Sector       uint64                    `json:"sector"`
	CommC        stacked.Domain            `json:"comm_c"`
	CommROld     stacked.Domain            `json:"comm_r_old"`
	CommRLastOld stacked.Domain            `json:"comm_r_last_old"`
	CommDNew     stacked.Domain            `json:"comm_d_new"`
	CommRNew     stacked.Domain            `json:"comm_r_new"`
	CommRLastNew stacked.Domain            `json:"comm_r_last_new"`
	Phi          stacked.Domain            `json:"phi"`
}

// UpdateResult is what EncodeInto returns: the new commitments as CIDs
// (what filecoin-ffi's SectorUpdate.EncodeInto returns) and as 32-byte
// little-endian values, with phi and the sector key's comm_r.
type UpdateResult struct {
	CommRNew, CommDNew cid.Cid // sealed (comm_r_new), unsealed (comm_d_new)
	CommROldBytes, CommRNewBytes, CommDNewBytes,
	CommRLastNew, CommC, Phi [32]byte
	OutDir string
}

// sectorKey is a sealed sector directory (Seal's output) opened as the
// sector key of an update: its metadata, replica and TreeR.
type sectorKey struct {
	meta    sealMeta
	replica []fr.Element // TreeR's leaves
	treeR   *poseidon.Tree
}

// openSectorKey reads Seal's directory dir for an update of cfg: seal.json
// (same sector size and tree shape) and the replica; its TreeR (rebuilt)
// must have seal.json's comm_r_last and comm_r.
func openSectorKey(cfg *update.Config, dir string) (*sectorKey, error) {
	b, err := os.ReadFile(filepath.Join(dir, FileMeta))
	if err != nil {
		return nil, fmt.Errorf("sector key: %w", err)
	}
	s := &sectorKey{}
	if err := json.Unmarshal(b, &s.meta); err != nil {
		return nil, fmt.Errorf("sector key: %s: %w", filepath.Join(dir, FileMeta), err)
	}
	sc := &s.meta.Config
	if sc.SectorSize != cfg.SectorSize || sc.Shape != cfg.Shape {
		return nil, fmt.Errorf("sector key: %s holds a %s sector (%d bytes, tree %s); %s needs %d bytes, tree %s",
			dir, sc.Name, sc.SectorSize, sc.Shape, cfg.Name, cfg.SectorSize, cfg.Shape)
	}
	if s.replica, err = readFrFile(filepath.Join(dir, FileSealed), int(cfg.Nodes)); err != nil {
		return nil, fmt.Errorf("sector key: %w", err)
	}
	// Rebuilt by hashing, not read from FileTreeRNodes, so that a damaged
	// replica node cannot pass as the sector key.
	if s.treeR, err = poseidon.BuildTree(s.replica, cfg.Shape.Base, cfg.Shape.Sub, cfg.Shape.Top); err != nil {
		return nil, fmt.Errorf("sector key: tree R_last: %w", err)
	}
	commC, commRLast := mustFr(s.meta.CommC), mustFr(s.meta.CommRLast)
	commR := poseidon.Hash2(&commC, &commRLast)
	if s.treeR.Root != commRLast || stacked.FrToBytes(&commR) != s.meta.CommR {
		return nil, fmt.Errorf("sector key: files in %s do not match %s (tree R_last or comm_r differ)", dir, FileMeta)
	}
	return s, nil
}

// EncodeInto is filecoin-ffi's SectorUpdate.EncodeInto (filecoin-proofs
// api/update.rs encode_into, storage-proofs-update vanilla.rs
// EmptySectorUpdate::encode_into) for the test sealer: it puts the data at
// dataPath (unpadded, SectorSize·127/128 bytes, or Fr32-padded, SectorSize
// bytes, as Seal reads it) into the sealed sector in sectorKeyDir (Seal's
// output, the sector key) and writes the updated sector into outDir
// (created if missing; it must be empty): comm_d_new = TreeD root of the
// data, phi = PoseidonG(comm_d_new, comm_r_old), new replica node i = old +
// data·rho(i >> (cbl − h)), comm_r_last_new = its TreeR root, comm_r_new =
// Poseidon2(comm_c, comm_r_last_new). Files (UpdateOutputFiles) are staged
// and moved in only on success, as Seal does. Errors: an unknown update
// proof, a sector key of another size or shape or with inconsistent files,
// data of the wrong size or not Fr32-padded, a non-empty outDir, ctx
// cancellation.
func EncodeInto(ctx context.Context, proof abi.RegisteredUpdateProof, sectorKeyDir, dataPath, outDir string) (UpdateResult, error) {
	var res UpdateResult
	cfg, err := update.ConfigFor(proof)
	if err != nil {
		return res, err
	}
	if cfg.SectorSize > MaxSealSize {
		return res, fmt.Errorf("encode: %s: sector size %d exceeds the test sealer's limit of %d bytes", cfg.Name, cfg.SectorSize, uint64(MaxSealSize))
	}
	key, err := openSectorKey(&cfg, sectorKeyDir)
	if err != nil {
		return res, fmt.Errorf("encode: %w", err)
	}
	data, staging, err := stage(&key.meta.Config, dataPath, outDir, "encode")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(staging)

	commDNew := stacked.BuildTreeD(data).Root()
	commC, commRLastOld := mustFr(key.meta.CommC), mustFr(key.meta.CommRLast)
	commROld := poseidon.Hash2(&commC, &commRLastOld)
	dNew := mustFr(commDNew)
	phi := update.Phi(&dNew, &commROld)
	dataFr := make([]fr.Element, cfg.Nodes)
	if err := bytesToFr(dataFr, data); err != nil {
		return res, fmt.Errorf("encode: data: %w", err) // unreachable: padded nodes are < 2^254
	}
	replica := make([]fr.Element, cfg.Nodes)
	if err := update.Encode(&cfg, &phi, key.replica, dataFr, replica); err != nil {
		return res, err
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	treeR, err := poseidon.BuildTree(replica, cfg.Shape.Base, cfg.Shape.Sub, cfg.Shape.Top)
	if err != nil {
		return res, fmt.Errorf("encode: tree R_last: %w", err)
	}
	commRNew := poseidon.Hash2(&commC, &treeR.Root)

	if err := os.WriteFile(filepath.Join(staging, FileDataPadded), data, 0o644); err != nil {
		return res, fmt.Errorf("encode: %w", err)
	}
	if err := writeFr(filepath.Join(staging, FileSealed), replica); err != nil {
		return res, err
	}
	if err := writeFr(filepath.Join(staging, FileTreeRNodes), treeInner(treeR)); err != nil {
		return res, err
	}
	meta := updateMeta{UpdateProof: proof, Miner: key.meta.Miner, Sector: key.meta.Sector,
		CommC: key.meta.CommC, CommROld: key.meta.CommR, CommRLastOld: key.meta.CommRLast,
		CommDNew: commDNew, CommRNew: stacked.FrToBytes(&commRNew), CommRLastNew: stacked.FrToBytes(&treeR.Root),
		Phi: stacked.FrToBytes(&phi)}
	mb, _ := json.MarshalIndent(&meta, "", "  ")
	if err := os.WriteFile(filepath.Join(staging, FileUpdateMeta), mb, 0o644); err != nil {
		return res, fmt.Errorf("encode: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	if err := moveInto(staging, outDir, UpdateOutputFiles()); err != nil {
		return res, fmt.Errorf("encode: %w", err)
	}

	res.CommROldBytes, res.CommRNewBytes, res.CommDNewBytes = meta.CommROld, meta.CommRNew, meta.CommDNew
	res.CommRLastNew, res.CommC, res.Phi = meta.CommRLastNew, meta.CommC, meta.Phi
	if res.CommRNew, err = commcid.ReplicaCommitmentV1ToCID(res.CommRNewBytes[:]); err != nil {
		return res, fmt.Errorf("encode: comm_r_new CID: %w", err)
	}
	if res.CommDNew, err = commcid.DataCommitmentV1ToCID(res.CommDNewBytes[:]); err != nil {
		return res, fmt.Errorf("encode: comm_d_new CID: %w", err)
	}
	res.OutDir = outDir
	return res, nil
}

// GenerateUpdateVanillaProofs is filecoin-ffi's GenerateUpdateVanillaProofs
// (filecoin-proofs generate_partition_proofs, storage-proofs-update
// prove_all_partitions) for the test sealer: the vanilla partition proofs
// of the update EncodeInto wrote to updatedDir from the sector key in
// sectorKeyDir, one bincode PartitionProof per partition in partition
// order — the [][]byte GenerateUpdateProofWithVanilla takes. The CIDs
// (comm_r_old, comm_r_new, comm_d_new) must match the two directories.
// Errors: an unknown update proof, a CID of the wrong codec or not matching,
// directories of another proof or sector, files that do not rebuild to the
// recorded roots.
func GenerateUpdateVanillaProofs(ctx context.Context, proof abi.RegisteredUpdateProof, oldSealedCID, newSealedCID, unsealedCID cid.Cid, updatedDir, sectorKeyDir string) ([][]byte, error) {
	cfg, err := update.ConfigFor(proof)
	if err != nil {
		return nil, err
	}
	var want [3][]byte
	for i, c := range []struct {
		name string
		cid  cid.Cid
		conv func(cid.Cid) ([]byte, error)
	}{{"old sealed CID", oldSealedCID, commcid.CIDToReplicaCommitmentV1},
		{"new sealed CID", newSealedCID, commcid.CIDToReplicaCommitmentV1},
		{"unsealed CID", unsealedCID, commcid.CIDToDataCommitmentV1}} {
		if want[i], err = c.conv(c.cid); err != nil {
			return nil, fmt.Errorf("update vanilla: %s %s: %w", c.name, c.cid, err)
		}
	}
	key, err := openSectorKey(&cfg, sectorKeyDir)
	if err != nil {
		return nil, fmt.Errorf("update vanilla: %w", err)
	}
	var m updateMeta
	b, err := os.ReadFile(filepath.Join(updatedDir, FileUpdateMeta))
	if err != nil {
		return nil, fmt.Errorf("update vanilla: updated sector: %w", err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("update vanilla: %s: %w", filepath.Join(updatedDir, FileUpdateMeta), err)
	}
	switch {
	case m.UpdateProof != proof:
		return nil, fmt.Errorf("update vanilla: %s was encoded for update proof %d, not %d (%s)", updatedDir, m.UpdateProof, proof, cfg.Name)
	case m.Miner != key.meta.Miner || m.Sector != key.meta.Sector || m.CommROld != key.meta.CommR:
		return nil, fmt.Errorf("update vanilla: %s is an update of sector %d of miner %d (comm_r_old %x), %s holds sector %d of miner %d (comm_r %x)",
			updatedDir, m.Sector, m.Miner, m.CommROld, sectorKeyDir, key.meta.Sector, key.meta.Miner, key.meta.CommR)
	case string(want[0]) != string(m.CommROld[:]):
		return nil, fmt.Errorf("update vanilla: old sealed CID %s does not match the sector key's comm_r %x", oldSealedCID, m.CommROld)
	case string(want[1]) != string(m.CommRNew[:]):
		return nil, fmt.Errorf("update vanilla: new sealed CID %s does not match the updated sector's comm_r_new %x", newSealedCID, m.CommRNew)
	case string(want[2]) != string(m.CommDNew[:]):
		return nil, fmt.Errorf("update vanilla: unsealed CID %s does not match the updated sector's comm_d_new %x", unsealedCID, m.CommDNew)
	}
	data, err := os.ReadFile(filepath.Join(updatedDir, FileDataPadded))
	if err != nil {
		return nil, fmt.Errorf("update vanilla: %w", err)
	}
	if uint64(len(data)) != cfg.SectorSize {
		return nil, fmt.Errorf("update vanilla: %s is %d bytes, want %d", filepath.Join(updatedDir, FileDataPadded), len(data), cfg.SectorSize)
	}
	replica, err := readFrFile(filepath.Join(updatedDir, FileSealed), int(cfg.Nodes))
	if err != nil {
		return nil, fmt.Errorf("update vanilla: %w", err)
	}
	trees := &update.SectorTrees{ROld: key.treeR, D: stacked.BuildTreeD(data), CommC: mustFr(key.meta.CommC)}
	if trees.RNew, err = poseidon.BuildTree(replica, cfg.Shape.Base, cfg.Shape.Sub, cfg.Shape.Top); err != nil {
		return nil, fmt.Errorf("update vanilla: new tree R_last: %w", err)
	}
	commRNew, commROld, commDNew := trees.CommRNew(), mustFr(m.CommROld), mustFr(m.CommDNew)
	if trees.D.Root() != m.CommDNew || trees.RNew.Root != mustFr(m.CommRLastNew) || stacked.FrToBytes(&commRNew) != m.CommRNew {
		return nil, fmt.Errorf("update vanilla: files in %s do not match %s (TreeD or TreeRNew rebuilt to other roots)", updatedDir, FileUpdateMeta)
	}
	out := make([][]byte, cfg.Partitions)
	for k := range out {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p, err := update.NewPartitionProof(&cfg, k, trees)
		if err != nil {
			return nil, err
		}
		// Like prove_inner, check what we hand out.
		if err := update.CheckPartitionProof(&cfg, k, &commROld, &commDNew, &commRNew, p); err != nil {
			return nil, fmt.Errorf("update vanilla: self-check of partition %d failed: %w", k, err)
		}
		out[k] = p.Bytes()
	}
	return out, nil
}
