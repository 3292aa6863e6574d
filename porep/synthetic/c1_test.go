// SPDX-License-Identifier: Apache-2.0 OR MIT

package synthetic

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/seal"
	"github.com/cuseal/cuseal/porep/stacked"
)

func TestC1Shapes(t *testing.T) {
	proofs := []abi.RegisteredSealProof{
		abi.RegisteredSealProof_StackedDrg2KiBV1_1,
		abi.RegisteredSealProof_StackedDrg512MiBV1_2_Feat_NiPoRep,
		abi.RegisteredSealProof_StackedDrg32GiBV1_1,
		abi.RegisteredSealProof_StackedDrg64GiBV1_1_Feat_SyntheticPoRep,
	}
	for _, p := range proofs {
		cfg, _ := stacked.ConfigFor(p)
		t.Run(cfg.Name, func(t *testing.T) {
			start := time.Now()
			c1, err := C1(cfg, C1Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			js := c1.Marshal()
			parsed, got, err := stacked.ParseC1(js)
			if err != nil {
				t.Fatal(err)
			}
			if got != cfg || !parsed.SyntheticInvalid {
				t.Fatalf("config %s, marker %v", got.Name, parsed.SyntheticInvalid)
			}
			if err := parsed.ValidateChallenges(&cfg); err != nil {
				t.Fatal(err)
			}
			if err := seal.VerifyC1(parsed, &cfg); err == nil || !strings.Contains(err.Error(), stacked.SyntheticMarkerField) {
				t.Fatalf("VerifyC1 accepted synthetic data: %v", err)
			}
			if !bytes.Contains(js, []byte(`"cuseal_synthetic_invalid":true}`)) {
				t.Fatal("marker missing in JSON")
			}
			t.Logf("%s: %d bytes of C1 JSON in %v", cfg.Name, len(js), time.Since(start))
		})
	}
	// Overridden counts.
	cfg, _ := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg32GiBV1_1)
	c1, err := C1(cfg, C1Options{Partitions: 1, ChallengesPerPartition: 3, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(c1.VanillaProofs) != 1 || len(c1.VanillaProofs[0]) != 3 {
		t.Fatal("override ignored")
	}
	if _, _, err := stacked.ParseC1(c1.Marshal()); err == nil {
		t.Fatal("overridden counts parsed as the registered config")
	}
}
