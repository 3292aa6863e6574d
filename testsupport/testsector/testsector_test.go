// SPDX-License-Identifier: Apache-2.0 OR MIT

package testsector

import (
	"bytes"
	"testing"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/ipfs/go-cid"

	"github.com/cuseal/cuseal/porep/stacked"
)

// TestSealUpdated: a 2 KiB update has one partition proof of the size
// update-circuit.md §3.2 gives (15,064 bytes), commitments of the right
// codecs, the sector key's comm_r unchanged by the data, and other data
// gives another comm_r_new and other proofs.
func TestSealUpdated(t *testing.T) {
	cfg, err := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	if err != nil {
		t.Fatal(err)
	}
	a, err := SealUpdated(cfg, abi.RegisteredUpdateProof_StackedDrg2KiBV1, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := SealUpdated(cfg, abi.RegisteredUpdateProof_StackedDrg2KiBV1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Vanilla) != 1 || len(a.Vanilla[0]) != 15064 {
		t.Fatalf("%d partition proofs (first %d bytes), want 1 of 15064", len(a.Vanilla), len(a.Vanilla[0]))
	}
	for _, c := range []struct {
		name string
		conv func(cid.Cid) ([]byte, error)
		v    cid.Cid
	}{{"comm_r_old", commcid.CIDToReplicaCommitmentV1, a.CommROld}, {"comm_r_new", commcid.CIDToReplicaCommitmentV1, a.CommRNew}, {"comm_d_new", commcid.CIDToDataCommitmentV1, a.CommDNew}} {
		if _, err := c.conv(c.v); err != nil {
			t.Errorf("%s %s: %v", c.name, c.v, err)
		}
	}
	if a.CommROld != b.CommROld || a.CommRNew == b.CommRNew || a.CommDNew == b.CommDNew || bytes.Equal(a.Vanilla[0], b.Vanilla[0]) {
		t.Fatal("two updates of the same CC sector with other data: want the same comm_r_old, all else different")
	}
}
