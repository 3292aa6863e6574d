// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"testing"

	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep/synthetic"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testupdate"
)

// TestSyntheticUpdateVerifies: a proof made from porep/synthetic's
// updated 2 KiB sector passes VerifyReplicaUpdate with the reference
// vector's test parameters; the same proof for another seed's commitments
// does not. Long tier (update test parameters and a CPU proof).
func TestSyntheticUpdateVerifies(t *testing.T) {
	testenv.Long(t, "update test parameters and a CPU proof")
	v := testupdate.Load(t)
	dir := v.ParamsDir(t)
	set, err := synthetic.Update(v.Proof, synthetic.UpdateOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	vanilla, err := set.Vanilla()
	if err != nil {
		t.Fatal(err)
	}
	p, err := GenerateUpdateProofWithVanilla(v.Proof, set.OldSealed, set.NewSealed, set.Unsealed, vanilla, WithParamsDir(dir), WithBackend(BackendCPU))
	if err != nil {
		t.Fatal(err)
	}
	info := proof.ReplicaUpdateInfo{UpdateProofType: v.Proof, OldSealedSectorCID: set.OldSealed, NewSealedSectorCID: set.NewSealed, NewUnsealedSectorCID: set.Unsealed, Proof: p}
	if ok, err := VerifyReplicaUpdate(info, WithParamsDir(dir)); !ok || err != nil {
		t.Fatalf("VerifyReplicaUpdate = %v, %v", ok, err)
	}
	other, err := synthetic.Update(v.Proof, synthetic.UpdateOptions{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	info.NewSealedSectorCID = other.NewSealed
	if ok, err := VerifyReplicaUpdate(info, WithParamsDir(dir)); ok || err != nil {
		t.Fatalf("with seed 2's comm_r_new: %v, %v; want false, nil", ok, err)
	}
}
