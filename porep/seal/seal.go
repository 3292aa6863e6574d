// SPDX-License-Identifier: Apache-2.0 OR MIT

package seal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/ipfs/go-cid"

	"github.com/cuseal/cuseal/internal/parallel"
	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
)

// Files Seal writes into its output directory.
const (
	FileMeta       = "seal.json"         // sealMeta (JSON)
	FileDataPadded = "data-padded.dat"   // Fr32-padded data, SectorSize bytes (tree D leaves)
	FileSealed     = "sealed.dat"        // replica: label_L + data per node, 32 B LE each (tree R leaves)
	FileTreeCLeaf  = "tree-c-leaves.dat" // column hashes, 32 B LE each (tree C leaves)
	// Non-leaf nodes of tree C and tree R_last (32 B LE each): levels 1.. of
	// every base tree, then the sub-tree roots (top shapes), then the root
	// (sub/top shapes). C1 rebuilds the trees by hashing when they are absent.
	FileTreeCNodes = "tree-c-nodes.dat"
	FileTreeRNodes = "tree-r-last-nodes.dat"
)

// FileLayer returns the name of the label file of layer l (1-based).
func FileLayer(l int) string { return fmt.Sprintf("layer-%d.dat", l) }

// MaxSealSize is the largest sector Seal accepts (1 GiB): the test sealer
// keeps the data, two layers, the parent cache and the trees in memory.
const MaxSealSize = 1 << 30

// memLayersLimit: up to this many label bytes (all layers) are kept in memory
// between PC1 and PC2; larger sectors re-read the layer files.
var memLayersLimit uint64 = 1 << 30

// SealResult is what Seal returns: the commitments as CIDs (go-fil-commcid)
// and bytes, the replica_id, and timings.
type SealResult struct {
	CommR, CommD cid.Cid
	// 32-byte little-endian values.
	CommRBytes, CommDBytes, CommC, CommRLast, ReplicaID [32]byte
	OutDir                                              string
	// PC1 covers the parent cache and all layers; PC2 the column hashes, tree
	// C, the replica and tree R_last. Total includes reading input and tree D.
	PC1, PC2, Total time.Duration
}

// sealMeta is the content of seal.json.
type sealMeta struct {
	Config    stacked.SectorConfig `json:"config"`
	Miner     uint64               `json:"miner"`
	Sector    uint64               `json:"sector"`
	Ticket    stacked.Domain       `json:"ticket"`
	ReplicaID stacked.Domain       `json:"replica_id"`
	CommD     stacked.Domain       `json:"comm_d"`
	CommR     stacked.Domain       `json:"comm_r"`
	CommC     stacked.Domain       `json:"comm_c"`
	CommRLast stacked.Domain       `json:"comm_r_last"`
}

// ErrOutDirNotEmpty is returned (wrapped) when Seal's output directory has
// content: Seal never overwrites anything.
var ErrOutDirNotEmpty = errors.New("output directory is not empty")

// StagingPrefix starts the name of the hidden directory Seal stages its
// files in, inside the output directory (os.MkdirTemp adds digits).
const StagingPrefix = ".staging-"

// IsStagingDir reports whether name is a staging directory name Seal makes:
// StagingPrefix followed by digits only.
func IsStagingDir(name string) bool {
	rest, ok := strings.CutPrefix(name, StagingPrefix)
	if !ok || rest == "" {
		return false
	}
	for _, c := range rest {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// RemoveStaleStaging removes the staging directories (IsStagingDir) a killed
// Seal left in dir, so they do not block a rerun. It removes nothing else.
func RemoveStaleStaging(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() && IsStagingDir(e.Name()) {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return fmt.Errorf("seal: remove stale %s: %w", e.Name(), err)
			}
		}
	}
	return nil
}

// OutputFiles lists the files Seal moves into its output directory for cfg.
func OutputFiles(cfg *stacked.SectorConfig) []string {
	names := []string{FileDataPadded, FileSealed, FileTreeCLeaf, FileTreeCNodes, FileTreeRNodes, FileMeta}
	for l := 1; l <= cfg.Layers; l++ {
		names = append(names, FileLayer(l))
	}
	return names
}

// prepareOutDir creates outDir if needed and fails when it has any entry
// other than stale staging directories, which it removes.
func prepareOutDir(outDir string) error {
	if err := RemoveStaleStaging(outDir); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("seal: output directory %s: %w", outDir, err)
	}
	entries, err := os.ReadDir(outDir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(outDir, 0o755); err != nil {
			return fmt.Errorf("seal: create output directory: %w", err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("seal: output directory %s: %w", outDir, err)
	case len(entries) > 0:
		return fmt.Errorf("seal: %s: %w (contains %q); nothing was written", outDir, ErrOutDirNotEmpty, entries[0].Name())
	}
	return nil
}

// stage reads the sector's data (readData), prepares outDir
// (prepareOutDir) and makes a staging directory in it, where the outputs
// are written before moveInto; the caller removes it. op names the call
// in the staging directory's error ("seal", "encode").
func stage(cfg *stacked.SectorConfig, dataPath, outDir, op string) (data []byte, staging string, err error) {
	if data, err = readData(cfg, dataPath); err != nil {
		return nil, "", err
	}
	if err := prepareOutDir(outDir); err != nil {
		return nil, "", err
	}
	if staging, err = os.MkdirTemp(outDir, StagingPrefix); err != nil {
		return nil, "", fmt.Errorf("%s: %w", op, err)
	}
	return data, staging, nil
}

// moveInto renames the named files from staging into outDir; on a failure
// it removes those already moved, leaving no partial output behind.
func moveInto(staging, outDir string, names []string) error {
	for _, n := range names {
		if err := os.Rename(filepath.Join(staging, n), filepath.Join(outDir, n)); err != nil {
			for _, m := range names {
				os.Remove(filepath.Join(outDir, m))
			}
			return err
		}
	}
	return nil
}

// readData reads dataPath: either unpadded data of exactly
// SectorSize·127/128 bytes (Fr32-padded here) or already padded data of
// exactly SectorSize bytes whose every node has its two top bits clear.
func readData(cfg *stacked.SectorConfig, dataPath string) ([]byte, error) {
	f, err := os.Open(dataPath)
	if err != nil {
		return nil, fmt.Errorf("seal: data file: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("seal: data file %s: %w", dataPath, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("seal: data file %s is not a regular file", dataPath)
	}
	unpadded := UnpaddedSize(cfg.SectorSize)
	switch uint64(st.Size()) {
	case unpadded:
		raw := make([]byte, unpadded)
		if _, err := io.ReadFull(f, raw); err != nil {
			return nil, fmt.Errorf("seal: read %s: %w", dataPath, err)
		}
		out := make([]byte, cfg.SectorSize)
		if err := Fr32Pad(out, raw); err != nil {
			return nil, err
		}
		return out, nil
	case cfg.SectorSize:
		out := make([]byte, cfg.SectorSize)
		if _, err := io.ReadFull(f, out); err != nil {
			return nil, fmt.Errorf("seal: read %s: %w", dataPath, err)
		}
		for i := 31; i < len(out); i += 32 {
			if out[i]&0xc0 != 0 {
				return nil, fmt.Errorf("seal: data file %s has padded size %d but byte %d (node %d) has its top two bits set: not Fr32-padded", dataPath, cfg.SectorSize, i, i/32)
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("seal: data file %s is %d bytes; %s needs %d (unpadded) or %d (Fr32-padded) bytes",
		dataPath, st.Size(), cfg.Name, unpadded, cfg.SectorSize)
}

// Seal seals the data at dataPath for cfg into outDir (created if missing;
// it must be empty): PC1 (SDR labels of every layer) and PC2 (tree C over
// Poseidon column hashes, replica = label_L + data, tree R_last, comm_r =
// Poseidon2(comm_c, comm_r_last)). ticket must be 32 bytes. Files written:
// FileMeta, FileDataPadded, FileSealed, FileTreeCLeaf, FileTreeCNodes,
// FileTreeRNodes and FileLayer(1..L);
// they are staged in a hidden subdirectory (StagingPrefix) and moved in only
// on success; on an error or ctx cancellation the staging directory is
// removed, and one a killed run left behind is removed before sealing.
// Labels are computed on one core (each node depends on its predecessor);
// parent cache, tree D, column hashes and trees use every core.
func Seal(ctx context.Context, cfg stacked.SectorConfig, dataPath, outDir string, minerID abi.ActorID, sectorNum abi.SectorNumber, ticket abi.SealRandomness) (SealResult, error) {
	start := time.Now()
	var res SealResult
	if err := cfg.Validate(); err != nil {
		return res, fmt.Errorf("seal: %w", err)
	}
	if cfg.SectorSize > MaxSealSize {
		return res, fmt.Errorf("seal: %s: sector size %d exceeds the test sealer's limit of %d bytes (it holds ~8× the sector in memory); use porep/synthetic.C1 for 32/64 GiB shapes", cfg.Name, cfg.SectorSize, uint64(MaxSealSize))
	}
	tk, err := stacked.To32(ticket, "ticket")
	if err != nil {
		return res, fmt.Errorf("seal: %w", err)
	}
	data, staging, err := stage(&cfg, dataPath, outDir, "seal")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(staging)

	treeD := stacked.BuildTreeD(data)
	commD := treeD.Root()
	treeD = nil
	replicaID := stacked.ReplicaID(stacked.ProverID(minerID), sectorNum, tk, commD, cfg.PoRepID)

	t0 := time.Now()
	layers, last, err := precommit1(ctx, &cfg, staging, &replicaID)
	if err != nil {
		return res, err
	}
	res.PC1 = time.Since(t0)
	t1 := time.Now()
	commC, commRLast, err := precommit2(ctx, &cfg, staging, layers, last, data)
	if err != nil {
		return res, err
	}
	layers, last = nil, nil
	cc, cr := mustFr(commC), mustFr(commRLast)
	commRFr := poseidon.Hash2(&cc, &cr)
	commR := stacked.FrToBytes(&commRFr)
	res.PC2 = time.Since(t1)

	if err := os.WriteFile(filepath.Join(staging, FileDataPadded), data, 0o644); err != nil {
		return res, fmt.Errorf("seal: %w", err)
	}
	meta := sealMeta{Config: cfg, Miner: uint64(minerID), Sector: uint64(sectorNum), Ticket: tk,
		ReplicaID: replicaID, CommD: commD, CommR: commR, CommC: commC, CommRLast: commRLast}
	mb, _ := json.MarshalIndent(&meta, "", "  ")
	if err := os.WriteFile(filepath.Join(staging, FileMeta), mb, 0o644); err != nil {
		return res, fmt.Errorf("seal: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	if err := moveInto(staging, outDir, OutputFiles(&cfg)); err != nil {
		return res, fmt.Errorf("seal: %w", err)
	}

	res.CommRBytes, res.CommDBytes, res.CommC, res.CommRLast, res.ReplicaID = commR, commD, commC, commRLast, replicaID
	if res.CommR, err = commcid.ReplicaCommitmentV1ToCID(commR[:]); err != nil {
		return res, fmt.Errorf("seal: comm_r CID: %w", err)
	}
	if res.CommD, err = commcid.DataCommitmentV1ToCID(commD[:]); err != nil {
		return res, fmt.Errorf("seal: comm_d CID: %w", err)
	}
	res.OutDir = outDir
	res.Total = time.Since(start)
	return res, nil
}

// precommit1 computes the SDR labels of every layer (parent cache first),
// writes them to dir and returns them (all layers when they fit in
// memLayersLimit, else nil) and the last layer's labels.
func precommit1(ctx context.Context, cfg *stacked.SectorConfig, dir string, replicaID *[32]byte) (layers [][]byte, last []byte, err error) {
	g, err := stacked.GraphFor(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("seal: %w", err)
	}
	parents := g.ParentCache()
	keep := cfg.SectorSize*uint64(cfg.Layers) <= memLayersLimit
	for l := 1; l <= cfg.Layers; l++ {
		cur := make([]byte, cfg.SectorSize)
		if err := labelLayer(ctx, parents, replicaID, uint32(l), last, cur); err != nil {
			return nil, nil, fmt.Errorf("seal: layer %d: %w", l, err)
		}
		if err := os.WriteFile(filepath.Join(dir, FileLayer(l)), cur, 0o644); err != nil {
			return nil, nil, fmt.Errorf("seal: %w", err)
		}
		if keep {
			layers = append(layers, cur)
		}
		last = cur
	}
	return layers, last, nil
}

// precommit2 builds tree C over the column hashes and tree R_last over the
// replica (last-layer label + data node, in the field), writes their leaves
// and inner nodes to dir, and returns comm_c and comm_r_last.
func precommit2(ctx context.Context, cfg *stacked.SectorConfig, dir string, layers [][]byte, last, data []byte) (commC, commRLast [32]byte, err error) {
	nodes := int(cfg.Nodes)
	sh := cfg.Shape
	leavesC := make([]fr.Element, nodes)
	if err = columnHashes(ctx, cfg, dir, layers, leavesC); err != nil {
		return
	}
	treeC, err := poseidon.BuildTree(leavesC, sh.Base, sh.Sub, sh.Top)
	if err != nil {
		return commC, commRLast, fmt.Errorf("seal: tree C: %w", err)
	}
	if err = writeFr(filepath.Join(dir, FileTreeCLeaf), leavesC); err != nil {
		return
	}
	if err = writeFr(filepath.Join(dir, FileTreeCNodes), treeInner(treeC)); err != nil {
		return
	}
	commC = stacked.FrToBytes(&treeC.Root)
	treeC, leavesC = nil, nil

	replica := make([]fr.Element, nodes)
	if err = bytesToFr(replica, last); err != nil {
		return commC, commRLast, fmt.Errorf("seal: layer %d label: %w", cfg.Layers, err)
	}
	dataFr := make([]fr.Element, nodes)
	if err = bytesToFr(dataFr, data); err != nil {
		return commC, commRLast, fmt.Errorf("seal: data: %w", err) // unreachable: padded nodes are < 2^254
	}
	parallel.For(nodes, 8192, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			replica[i].Add(&replica[i], &dataFr[i])
		}
	})
	dataFr = nil
	if err = writeFr(filepath.Join(dir, FileSealed), replica); err != nil {
		return
	}
	treeR, err := poseidon.BuildTree(replica, sh.Base, sh.Sub, sh.Top)
	if err != nil {
		return commC, commRLast, fmt.Errorf("seal: tree R_last: %w", err)
	}
	if err = writeFr(filepath.Join(dir, FileTreeRNodes), treeInner(treeR)); err != nil {
		return
	}
	return commC, stacked.FrToBytes(&treeR.Root), nil
}

// columnHashes computes tree C's leaves: Poseidon (arity = layers) over each
// node's labels of layers 1..L (hash_single_column). layers holds the labels
// when they were kept in memory; otherwise the layer files in dir are read
// in chunks.
func columnHashes(ctx context.Context, cfg *stacked.SectorConfig, dir string, layers [][]byte, out []fr.Element) error {
	L := cfg.Layers
	nodes := len(out)
	const chunk = 1 << 16 // nodes per read
	var files []*os.File
	if layers == nil {
		for l := 1; l <= L; l++ {
			f, err := os.Open(filepath.Join(dir, FileLayer(l)))
			if err != nil {
				return fmt.Errorf("seal: %w", err)
			}
			defer f.Close()
			files = append(files, f)
		}
	}
	bufs := make([][]byte, L)
	for lo := 0; lo < nodes; lo += chunk {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(lo+chunk, nodes)
		for l := 0; l < L; l++ {
			if layers != nil {
				bufs[l] = layers[l][32*lo : 32*hi]
				continue
			}
			if bufs[l] == nil {
				bufs[l] = make([]byte, 32*chunk)
			}
			if _, err := files[l].ReadAt(bufs[l][:32*(hi-lo)], int64(32*lo)); err != nil {
				return fmt.Errorf("seal: read %s: %w", FileLayer(l+1), err)
			}
		}
		var mu = make(chan error, 1)
		parallel.For(hi-lo, 1024, func(a, b int) {
			col := make([]fr.Element, L)
			for i := a; i < b; i++ {
				for l := 0; l < L; l++ {
					var d [32]byte
					copy(d[:], bufs[l][32*i:])
					e, err := stacked.FrFromBytes(&d)
					if err != nil {
						select {
						case mu <- fmt.Errorf("seal: layer %d node %d: %w", l+1, lo+i, err):
						default:
						}
						return
					}
					col[l] = e
				}
				poseidon.HashInto(&out[lo+i], col)
			}
		})
		select {
		case err := <-mu:
			return err
		default:
		}
	}
	return nil
}

// writeFr writes elements as 32-byte little-endian canonical values.
func writeFr(path string, v []fr.Element) error {
	buf := make([]byte, 32*len(v))
	parallel.For(len(v), 8192, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			b := stacked.FrToBytes(&v[i])
			copy(buf[32*i:], b[:])
		}
	})
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		return fmt.Errorf("seal: %w", err)
	}
	return nil
}
