// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"testing"

	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/internal/synthetic"
	"github.com/cuseal/cuseal/internal/testpost"
)

// TestSyntheticPoStVerifies: proofs made from internal/synthetic's vanilla
// proofs pass VerifyWindowPoSt (three sectors: two partitions, the second
// padded) and VerifyWinningPoSt, with the reference vectors' 2 KiB test
// parameters; a proof for other randomness does not.
func TestSyntheticPoStVerifies(t *testing.T) {
	t.Run("window", func(t *testing.T) {
		v := testpost.Load(t, "post-window-2KiB-s21")
		dir := v.ParamsDir(t)
		set, err := synthetic.PoSt(v.Proof, synthetic.PoStOptions{Sectors: 3, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		ps, err := GenerateWindowPoStWithVanilla(set.Config.Proof, set.Miner, set.Randomness, set.Vanilla, WithParamsDir(dir), WithBackend(BackendCPU))
		if err != nil {
			t.Fatal(err)
		}
		info := proof.WindowPoStVerifyInfo{Randomness: set.Randomness, Proofs: ps, ChallengedSectors: set.Sectors, Prover: set.Miner}
		if ok, err := VerifyWindowPoSt(info, WithParamsDir(dir)); !ok || err != nil {
			t.Fatalf("VerifyWindowPoSt: %v, %v", ok, err)
		}
		other, err := synthetic.PoSt(set.Config.Proof, synthetic.PoStOptions{Sectors: 3, Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		info.Randomness = other.Randomness
		if ok, err := VerifyWindowPoSt(info, WithParamsDir(dir)); ok || err != nil {
			t.Fatalf("VerifyWindowPoSt with other randomness: %v, %v", ok, err)
		}
	})
	t.Run("winning", func(t *testing.T) {
		v := testpost.Load(t, "post-winning-2KiB-s22")
		dir := v.ParamsDir(t)
		set, err := synthetic.PoSt(v.Proof, synthetic.PoStOptions{Seed: 3, Miner: 1234})
		if err != nil {
			t.Fatal(err)
		}
		ps, err := GenerateWinningPoStWithVanilla(set.Config.Proof, set.Miner, set.Randomness, set.Vanilla, WithParamsDir(dir), WithBackend(BackendCPU))
		if err != nil {
			t.Fatal(err)
		}
		info := proof.WinningPoStVerifyInfo{Randomness: set.Randomness, Proofs: ps, ChallengedSectors: set.Sectors, Prover: set.Miner}
		if ok, err := VerifyWinningPoSt(info, WithParamsDir(dir)); !ok || err != nil {
			t.Fatalf("VerifyWinningPoSt: %v, %v", ok, err)
		}
	})
}
