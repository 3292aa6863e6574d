// SPDX-License-Identifier: Apache-2.0 OR MIT

package seal

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"
	"github.com/ipfs/go-cid"

	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/testsupport/goldentest"
)

// updateRefDir is porep/update's copy of the SnapDeals reference vector
// (made by rust-fil-proofs 19.1.0; see its README).
const updateRefDir = "../update/testdata/update-2KiB-s31"

// updateRef is what the sealer tests read of its meta.json.
type updateRef struct {
	UpdateProof  int64  `json:"registered_update_proof_number"`
	DataSeed     uint64 `json:"data_seed"`
	Miner        uint64 `json:"miner"`
	Sector       uint64 `json:"sector_number"`
	Ticket       string `json:"ticket"`
	CommDOld     string `json:"comm_d_old"`
	CommROld     string `json:"comm_r_old"`
	CommC        string `json:"comm_c"`
	CommRLastOld string `json:"comm_r_last_old"`
	CommDNew     string `json:"comm_d_new"`
	CommRNew     string `json:"comm_r_new"`
	CommRLastNew string `json:"comm_r_last_new"`
	Phi          string `json:"phi"`
	CIDs         struct {
		CommRNew string `json:"comm_r_new"`
		CommDNew string `json:"comm_d_new"`
	} `json:"cids"`
	Vanilla struct {
		Files []struct {
			File string `json:"file"`
		} `json:"files"`
	} `json:"vanilla"`
}

// updatedRefSector seals the reference vector's CC sector (zero piece,
// StackedDrg2KiBV1_1, its miner, sector and ticket) and encodes its new
// data (goldentest.NewSectorInputs of data_seed) into it, in a temporary
// directory. It returns the reference, the sector key's Seal result, the
// update result and the directories.
func updatedRefSector(t *testing.T) (*updateRef, SealResult, UpdateResult, string, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(updateRefDir, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	ref := &updateRef{}
	if err := json.Unmarshal(b, ref); err != nil {
		t.Fatal(err)
	}
	cfg, err := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	zero, newData := filepath.Join(dir, "zero.dat"), filepath.Join(dir, "new.dat")
	unpadded := UnpaddedSize(cfg.SectorSize)
	if err := os.WriteFile(zero, make([]byte, unpadded), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(newData, goldentest.NewSectorInputs(ref.DataSeed, int(unpadded)).Data, 0o644); err != nil {
		t.Fatal(err)
	}
	ticket, err := hex.DecodeString(ref.Ticket)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	keyDir, updDir := filepath.Join(dir, "key"), filepath.Join(dir, "updated")
	key, err := Seal(ctx, cfg, zero, keyDir, abi.ActorID(ref.Miner), abi.SectorNumber(ref.Sector), ticket)
	if err != nil {
		t.Fatal(err)
	}
	upd, err := EncodeInto(ctx, abi.RegisteredUpdateProof(ref.UpdateProof), keyDir, newData, updDir)
	if err != nil {
		t.Fatal(err)
	}
	return ref, key, upd, keyDir, updDir
}

// TestEncodeIntoGolden2KiB: the CC sector resealed here has the reference's
// comm_d, comm_c, comm_r_last and comm_r; encoding the reference's new data
// gives its comm_d_new, phi, comm_r_last_new and comm_r_new (also as CIDs),
// and the partition vanilla proof is byte-identical to partition-0.bin.
func TestEncodeIntoGolden2KiB(t *testing.T) {
	ref, key, upd, keyDir, updDir := updatedRefSector(t)
	for _, c := range []struct {
		name string
		got  [32]byte
		want string
	}{
		{"comm_d_old", key.CommDBytes, ref.CommDOld},
		{"comm_c", key.CommC, ref.CommC},
		{"comm_r_last_old", key.CommRLast, ref.CommRLastOld},
		{"comm_r_old", key.CommRBytes, ref.CommROld},
		{"comm_r_old (update)", upd.CommROldBytes, ref.CommROld},
		{"comm_d_new", upd.CommDNewBytes, ref.CommDNew},
		{"phi", upd.Phi, ref.Phi},
		{"comm_r_last_new", upd.CommRLastNew, ref.CommRLastNew},
		{"comm_r_new", upd.CommRNewBytes, ref.CommRNew},
	} {
		if got := hex.EncodeToString(c.got[:]); got != c.want {
			t.Errorf("%s = %s, reference %s", c.name, got, c.want)
		}
	}
	if upd.CommRNew.String() != ref.CIDs.CommRNew || upd.CommDNew.String() != ref.CIDs.CommDNew {
		t.Errorf("CIDs %s, %s; reference %s, %s", upd.CommRNew, upd.CommDNew, ref.CIDs.CommRNew, ref.CIDs.CommDNew)
	}
	proofs, err := GenerateUpdateVanillaProofs(context.Background(), abi.RegisteredUpdateProof(ref.UpdateProof), key.CommR, upd.CommRNew, upd.CommDNew, updDir, keyDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(proofs) != len(ref.Vanilla.Files) {
		t.Fatalf("%d partition proofs, reference %d", len(proofs), len(ref.Vanilla.Files))
	}
	for k, f := range ref.Vanilla.Files {
		want, err := os.ReadFile(filepath.Join(updateRefDir, f.File))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(proofs[k], want) {
			n := 0
			for n < min(len(proofs[k]), len(want)) && proofs[k][n] == want[n] {
				n++
			}
			t.Errorf("partition %d: %d bytes, reference %d; first difference at byte %d", k, len(proofs[k]), len(want), n)
		}
	}
}

// TestUpdateBadInput: each defect is an error and EncodeInto writes nothing.
func TestUpdateBadInput(t *testing.T) {
	ref, key, upd, keyDir, updDir := updatedRefSector(t)
	ctx := context.Background()
	proof := abi.RegisteredUpdateProof(ref.UpdateProof)
	dir := t.TempDir()
	good := filepath.Join(dir, "data")
	if err := os.WriteFile(good, make([]byte, 2032), 0o644); err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "short")
	if err := os.WriteFile(short, make([]byte, 2031), 0o644); err != nil {
		t.Fatal(err)
	}
	badKey := filepath.Join(dir, "badkey")
	if err := os.CopyFS(badKey, os.DirFS(keyDir)); err != nil {
		t.Fatal(err)
	}
	sealed, err := os.ReadFile(filepath.Join(badKey, FileSealed))
	if err != nil {
		t.Fatal(err)
	}
	sealed[32*9] ^= 1
	if err := os.WriteFile(filepath.Join(badKey, FileSealed), sealed, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		proof     abi.RegisteredUpdateProof
		key, data string
	}{
		"unknown update proof":     {5, keyDir, good},
		"8 MiB proof, 2 KiB key":   {abi.RegisteredUpdateProof_StackedDrg8MiBV1, keyDir, good},
		"data one byte short":      {proof, keyDir, short},
		"no data":                  {proof, keyDir, filepath.Join(dir, "missing")},
		"replica node changed":     {proof, badKey, good},
		"sealed sector dir absent": {proof, filepath.Join(dir, "nokey"), good},
	} {
		out := filepath.Join(dir, "out-"+name)
		if _, err := EncodeInto(ctx, c.proof, c.key, c.data, out); err == nil {
			t.Errorf("%s: accepted", name)
		} else if entries, _ := os.ReadDir(out); len(entries) != 0 {
			t.Errorf("%s: %v, but %d entries written", name, err, len(entries))
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	if _, err := EncodeInto(ctx, proof, keyDir, good, updDir); !errors.Is(err, ErrOutDirNotEmpty) {
		t.Errorf("existing output directory: %v", err)
	}

	for name, c := range map[string]struct {
		oldR, newR, d cid.Cid
		upd, key      string
	}{
		"comm_r_old swapped with comm_r_new": {upd.CommRNew, key.CommR, upd.CommDNew, updDir, keyDir},
		"unsealed CID as sealed CID":         {upd.CommDNew, upd.CommRNew, upd.CommDNew, updDir, keyDir},
		"old comm_d as comm_d_new":           {key.CommR, upd.CommRNew, key.CommD, updDir, keyDir},
		"updated dir as sector key":          {key.CommR, upd.CommRNew, upd.CommDNew, updDir, updDir},
		"sector key as updated dir":          {key.CommR, upd.CommRNew, upd.CommDNew, keyDir, keyDir},
		"tampered sector key":                {key.CommR, upd.CommRNew, upd.CommDNew, updDir, badKey},
	} {
		if _, err := GenerateUpdateVanillaProofs(ctx, proof, c.oldR, c.newR, c.d, c.upd, c.key); err == nil {
			t.Errorf("vanilla: %s: accepted", name)
		} else {
			t.Logf("vanilla: %s: %v", name, err)
		}
	}
}
