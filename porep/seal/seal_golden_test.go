// SPDX-License-Identifier: Apache-2.0 OR MIT

package seal

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/stacked"
)

// devnetRecord is testdata/devnet-2KiB-t01002-s1.json: a real 2 KiB CC
// sector sealed by lotus/rust-fil-proofs (see testdata/SOURCES.md).
type devnetRecord struct {
	SealProof int64  `json:"seal_proof"`
	Miner     uint64 `json:"miner"`
	Sector    uint64 `json:"sector"`
	Ticket    string `json:"ticket_hex"`
	Seed      string `json:"seed_hex"`
	CommD     string `json:"comm_d_cid"`
	CommR     string `json:"comm_r_cid"`
	Proof     string `json:"proof_hex"`
}

// TestSealGolden2KiBDevnet reseals that sector (SealProof 5 =
// StackedDrg2KiBV1_1, miner t01002, sector 1, zero data) and requires the
// same comm_d and comm_r; then it runs C1 with the real seed and verifies it.
// The record's 192-byte proof can check public inputs end to end once the
// official 2 KiB verifying key is available.
func TestSealGolden2KiBDevnet(t *testing.T) {
	b, err := os.ReadFile("testdata/devnet-2KiB-t01002-s1.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec devnetRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	cfg, err := stacked.ConfigFor(abi.RegisteredSealProof(rec.SealProof))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "zero.dat")
	if err := os.WriteFile(data, make([]byte, UnpaddedSize(cfg.SectorSize)), 0o644); err != nil {
		t.Fatal(err)
	}
	ticket, _ := hex.DecodeString(rec.Ticket)
	seed, _ := hex.DecodeString(rec.Seed)
	out := filepath.Join(dir, "out")
	ctx := context.Background()
	res, err := Seal(ctx, cfg, data, out, abi.ActorID(rec.Miner), abi.SectorNumber(rec.Sector), ticket)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.CommD.String(); got != rec.CommD {
		t.Errorf("comm_d %s want %s", got, rec.CommD)
	}
	if got := res.CommR.String(); got != rec.CommR {
		t.Errorf("comm_r %s want %s", got, rec.CommR)
	}
	c1, err := CommitPhase1(ctx, cfg, res.CommR, res.CommD, out, abi.SectorNumber(rec.Sector), abi.ActorID(rec.Miner), ticket, seed)
	if err != nil {
		t.Fatal(err)
	}
	parsed, _, err := stacked.ParseC1(c1)
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifyC1(parsed, &cfg); err != nil {
		t.Fatal(err)
	}
}
