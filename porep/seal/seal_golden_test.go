package seal

import (
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/stacked"
)

// TestSealGolden2KiBDevnet reproduces a real 2 KiB CC sector sealed by
// lotus/rust-fil-proofs on a devnet (testdata/SOURCES.md): SealProof 5
// (StackedDrg2KiBV1_1), miner t01002, sector 1, zero data.
func TestSealGolden2KiBDevnet(t *testing.T) {
	cfg, err := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "zero.dat")
	if err := os.WriteFile(data, make([]byte, UnpaddedSize(2048)), 0o644); err != nil {
		t.Fatal(err)
	}
	ticket, _ := hex.DecodeString("c3a1ca12b981a8a59f9a4764edf3398edd239b2afa8ca2bbd57e0091ec193aa0")
	res, err := Seal(context.Background(), cfg, data, filepath.Join(dir, "out"), 1002, 1, ticket)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.CommD.String(), "baga6ea4seaqpy7usqklokfx2vxuynmupslkeutzexe2uqurdg5vhtebhxqmpqmy"; got != want {
		t.Errorf("comm_d %s want %s", got, want)
	}
	if got, want := res.CommR.String(), "bagboea4b5abcbnym7z3pgc64fk5wwsk3nsmz62jamgaa3pekzelmm3fv5q6g6zji"; got != want {
		t.Errorf("comm_r %s want %s", got, want)
	}
}
