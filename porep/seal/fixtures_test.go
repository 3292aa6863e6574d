// SPDX-License-Identifier: Apache-2.0 OR MIT

package seal

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/stacked"
)

// C1 fixtures committed in porep/stacked/testdata (used by the parser and
// circuit tests there). They are this sealer's output for fixed inputs;
// TestC1Fixtures re-seals and requires byte equality, and
// CUSEAL_REGEN_FIXTURES=1 rewrites them.
var c1Fixtures = []struct {
	file string
	cfg  func() stacked.SectorConfig
	seed uint64
}{
	{"c1-2KiB-V1_1.json", func() stacked.SectorConfig {
		c, _ := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
		return c
	}, 11},
	{"c1-32KiB-test-8-8-2.json", func() stacked.SectorConfig {
		c, _ := stacked.NewTestConfig(32<<10, stacked.Shape882, [32]byte{44}, stacked.APIVersion1_1_0)
		return c
	}, 12},
}

func TestC1Fixtures(t *testing.T) {
	for _, f := range c1Fixtures {
		cfg := f.cfg()
		c1, _ := sealAndCommit(t, cfg, f.seed)
		path := filepath.Join("..", "stacked", "testdata", f.file)
		if os.Getenv("CUSEAL_REGEN_FIXTURES") == "1" {
			if err := os.WriteFile(path, c1, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(c1, want) {
			t.Fatalf("%s: sealer output differs from the committed fixture", f.file)
		}
	}
}
