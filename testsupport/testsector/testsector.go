// SPDX-License-Identifier: Apache-2.0 OR MIT

package testsector

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/filecoin-project/go-state-types/abi"
	"github.com/ipfs/go-cid"

	"github.com/cuseal/cuseal/porep/seal"
	"github.com/cuseal/cuseal/porep/stacked"
)

// The test sector's identity.
const (
	Miner  = abi.ActorID(1000)
	Sector = abi.SectorNumber(7)
)

// Ticket and Seed are the sector's ticket and interactive seed (32 bytes of
// 3 and of 9); callers must not modify them.
var (
	Ticket = bytes.Repeat([]byte{3}, 32)
	Seed   = bytes.Repeat([]byte{9}, 32)
)

// Sealed is a sealed test sector: its C1 output (filecoin-ffi JSON) and
// commitments.
type Sealed struct {
	C1           []byte
	CommR, CommD cid.Cid
}

// Seal seals one sector of cfg's size holding bytes of the PCG stream
// (2048, stream) with porep/seal in a temporary directory (removed
// afterwards) and runs commit phase 1 for Miner, Sector, Ticket and Seed.
// A 2 KiB sector takes milliseconds.
func Seal(cfg stacked.SectorConfig, stream uint64) (*Sealed, error) {
	dir, err := os.MkdirTemp("", "cuseal-testsector-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	dataPath, err := writeData(dir, "data", &cfg, stream)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	out := filepath.Join(dir, "sector")
	res, err := seal.Seal(ctx, cfg, dataPath, out, Miner, Sector, Ticket)
	if err != nil {
		return nil, err
	}
	c1, err := seal.CommitPhase1(ctx, cfg, res.CommR, res.CommD, out, Sector, Miner, Ticket, Seed)
	if err != nil {
		return nil, err
	}
	return &Sealed{C1: c1, CommR: res.CommR, CommD: res.CommD}, nil
}

// writeData writes the unpadded sector data of cfg's size holding bytes of
// the PCG stream (2048, stream) to dir/name.
func writeData(dir, name string, cfg *stacked.SectorConfig, stream uint64) (string, error) {
	r := rand.New(rand.NewPCG(2048, stream))
	data := make([]byte, seal.UnpaddedSize(cfg.SectorSize))
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	path := filepath.Join(dir, name)
	return path, os.WriteFile(path, data, 0o644)
}

// Updated is a test sector updated with SnapDeals: the commitments a
// ProveReplicaUpdate2 proof is made for and the vanilla partition proofs
// (the [][]byte of filecoin-ffi's GenerateUpdateVanillaProofs).
type Updated struct {
	Proof                        abi.RegisteredUpdateProof
	CommROld, CommRNew, CommDNew cid.Cid
	Vanilla                      [][]byte
}

// SealUpdated seals a CC sector (zero data) of cfg's size with porep/seal
// for Miner, Sector and Ticket, encodes bytes of the PCG stream (2048,
// stream) into it for the update proof proof (seal.EncodeInto; cfg's size)
// and generates its vanilla partition proofs, in a temporary directory
// (removed afterwards). A 2 KiB sector takes milliseconds.
func SealUpdated(cfg stacked.SectorConfig, proof abi.RegisteredUpdateProof, stream uint64) (*Updated, error) {
	dir, err := os.MkdirTemp("", "cuseal-testsector-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	zero := filepath.Join(dir, "zero")
	if err := os.WriteFile(zero, make([]byte, seal.UnpaddedSize(cfg.SectorSize)), 0o644); err != nil {
		return nil, err
	}
	dataPath, err := writeData(dir, "data", &cfg, stream)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	key, upd := filepath.Join(dir, "key"), filepath.Join(dir, "updated")
	sealed, err := seal.Seal(ctx, cfg, zero, key, Miner, Sector, Ticket)
	if err != nil {
		return nil, err
	}
	res, err := seal.EncodeInto(ctx, proof, key, dataPath, upd)
	if err != nil {
		return nil, err
	}
	u := &Updated{Proof: proof, CommROld: sealed.CommR, CommRNew: res.CommRNew, CommDNew: res.CommDNew}
	if u.Vanilla, err = seal.GenerateUpdateVanillaProofs(ctx, proof, u.CommROld, u.CommRNew, u.CommDNew, upd, key); err != nil {
		return nil, err
	}
	return u, nil
}
