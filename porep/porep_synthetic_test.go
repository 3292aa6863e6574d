// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/synthetic"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testparams"
)

// TestSyntheticC1Verifies: a C2 proof of porep/synthetic.ValidC1's 2 KiB
// C1 (CPU, the shared 2 KiB test parameters) passes VerifySeal with the
// .vk for its miner, sector, ticket, seed and commitments, and fails for
// another sector number (WithOnlyPartition(1) is refused); the same C1 with one label of a challenged node
// changed is refused before a proof comes out.
func TestSyntheticC1Verifies(t *testing.T) {
	testenv.Long(t, "a 2 KiB CPU C2 proof of a synthetic C1 (~1 min; the family's golden proof is the unit tier's)")
	dir := testparams.Get2K(t)
	set, err := synthetic.ValidC1(context.Background(), config2K(t), synthetic.ValidC1Options{Seed: 3, Miner: 1234, Sector: 9})
	if err != nil {
		t.Fatal(err)
	}
	c1 := set.C1.Marshal()
	start := time.Now()
	// Its one partition through WithOnlyPartition: the whole proof of a
	// one-partition sector, so VerifySeal checks that path too.
	pf, err := SealCommitPhase2(c1, set.Sector, set.Miner, WithParamsDir(dir), WithBackend(BackendCPU), WithOnlyPartition(0))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("2 KiB SealCommitPhase2 of a synthetic C1 (CPU) in %v", time.Since(start))
	sealed, err := commcid.ReplicaCommitmentV1ToCID(set.C1.CommR[:])
	if err != nil {
		t.Fatal(err)
	}
	unsealed, err := commcid.DataCommitmentV1ToCID(set.C1.CommD[:])
	if err != nil {
		t.Fatal(err)
	}
	info := proof.SealVerifyInfo{
		SealProof:             set.Config.Proof,
		SectorID:              abi.SectorID{Miner: set.Miner, Number: set.Sector},
		Randomness:            abi.SealRandomness(set.C1.Ticket[:]),
		InteractiveRandomness: abi.InteractiveSealRandomness(set.C1.Seed[:]),
		Proof:                 pf,
		SealedCID:             sealed,
		UnsealedCID:           unsealed,
	}
	if ok, err := VerifySeal(info, WithParamsDir(dir)); !ok || err != nil {
		t.Fatalf("VerifySeal = %v, %v; want true", ok, err)
	}
	info.SectorID.Number++
	if ok, err := VerifySeal(info, WithParamsDir(dir)); ok || err != nil {
		t.Fatalf("VerifySeal for sector %d = %v, %v; want false, nil", info.SectorID.Number, ok, err)
	}

	if _, err := SealCommitPhase2(c1, set.Sector, set.Miner, WithParamsDir(dir), WithOnlyPartition(1)); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "partition 1 of 1") {
		t.Fatalf("WithOnlyPartition(1) of a one-partition sector: %v, want ErrBadInput", err)
	}

	bad := *set.C1
	bad.VanillaProofs = [][]stacked.VanillaProof{append([]stacked.VanillaProof(nil), set.C1.VanillaProofs[0]...)}
	v := &bad.VanillaProofs[0][1]
	rows := append(v.ReplicaColumnProofs.CX.Column.Rows[:0:0], v.ReplicaColumnProofs.CX.Column.Rows...)
	rows[0][7] ^= 1
	v.ReplicaColumnProofs.CX.Column.Rows = rows
	_, err = SealCommitPhase2(bad.Marshal(), set.Sector, set.Miner, WithParamsDir(dir), WithBackend(BackendCPU))
	if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "c_x") {
		t.Fatalf("SealCommitPhase2 of a C1 with one label changed: %v, want ErrBadInput naming c_x", err)
	}
}
