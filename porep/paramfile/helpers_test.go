// SPDX-License-Identifier: Apache-2.0 OR MIT

package paramfile

import (
	"testing"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/stacked"
)

// testParamsSeed is the toxic-waste seed of the shared test parameters
// (testsupport/testparams.Seed, which this package's tests cannot import: it
// imports paramfile).
var testParamsSeed = [32]byte{'c', 'u', 's', 'e', 'a', 'l', '-', 'p', 'o', 'r', 'e', 'p', '-', 't', 'e', 's', 't'}

func config2K(t testing.TB) stacked.SectorConfig {
	t.Helper()
	cfg, err := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
