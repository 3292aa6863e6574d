// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"errors"
	"strings"
	"testing"

	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/synthetic"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testpost"
)

// TestSyntheticPoStVerifies: proofs made from porep/synthetic's vanilla
// proofs pass VerifyWindowPoSt (three sectors: two partitions, the second
// padded) and VerifyWinningPoSt, with the reference vectors' 2 KiB test
// parameters; the same proof for other randomness does not.
func TestSyntheticPoStVerifies(t *testing.T) {
	testenv.Long(t, "three CPU PoSt proofs of porep/synthetic's vanilla proofs (the vectors' byte identity is porep/post's)")
	for _, tc := range []struct {
		folder  string
		sectors int
	}{{"post-window-2KiB-s21", 3}, {"post-winning-2KiB-s22", 0}} {
		v := testpost.Load(t, tc.folder)
		dir := v.ParamsDir(t)
		set, err := synthetic.PoSt(v.Proof, synthetic.PoStOptions{Sectors: tc.sectors, Seed: 1, Miner: 1234})
		if err != nil {
			t.Fatal(err)
		}
		prove, verify := GenerateWindowPoStWithVanilla, func(i proof.WindowPoStVerifyInfo) (bool, error) { return VerifyWindowPoSt(i, WithParamsDir(dir)) }
		if set.Config.Kind == post.Winning {
			prove = GenerateWinningPoStWithVanilla
			verify = func(i proof.WindowPoStVerifyInfo) (bool, error) {
				return VerifyWinningPoSt(proof.WinningPoStVerifyInfo(i), WithParamsDir(dir))
			}
		}
		ps, err := prove(set.Config.Proof, set.Miner, set.Randomness, set.Vanilla, WithParamsDir(dir), WithBackend(BackendCPU))
		if err != nil {
			t.Fatalf("%s: %v", set.Config.Name, err)
		}
		info := proof.WindowPoStVerifyInfo{Randomness: set.Randomness, Proofs: ps, ChallengedSectors: set.Sectors, Prover: set.Miner}
		if ok, err := verify(info); !ok || err != nil {
			t.Fatalf("%s: verify: %v, %v", set.Config.Name, ok, err)
		}
		other, err := synthetic.PoSt(set.Config.Proof, synthetic.PoStOptions{Sectors: tc.sectors, Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		info.Randomness = other.Randomness
		if ok, err := verify(info); ok || err != nil {
			t.Fatalf("%s: verify with other randomness: %v, %v", set.Config.Name, ok, err)
		}
	}
}

// TestPoStProductionParams: with WithRequireProductionParams the PoSt calls
// refuse parameter files under the official names whose digests are not
// parameters.json's (here the reference vector's test keys), before any
// proving, naming the file and both digests; without it they prove.
func TestPoStProductionParams(t *testing.T) {
	v := testpost.Load(t, "post-window-2KiB-s21")
	dir := v.ParamsDir(t)
	opts := []Option{WithParamsDir(dir), WithRequireProductionParams()}
	_, err := GenerateWindowPoStWithVanilla(v.Proof, v.Miner, v.Randomness, v.Vanilla, opts...)
	if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "production parameters required") || !strings.Contains(err.Error(), "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f") {
		t.Errorf("GenerateWindowPoStWithVanilla: %v", err)
	}
	job, err := PrepareWindowPoStPartition(v.Proof, v.Miner, v.Randomness, v.Vanilla, 0, opts...)
	if err != nil {
		t.Fatal(err) // preparing reads no parameters
	}
	if _, _, err := job.LoadKeys(); !errors.Is(err, ErrBadInput) {
		t.Errorf("PoStJob.LoadKeys: %v", err)
	}
	info := proof.WindowPoStVerifyInfo{Randomness: v.Randomness, Proofs: []proof.PoStProof{{PoStProof: v.Proof, ProofBytes: v.Want}}, ChallengedSectors: v.Sectors, Prover: v.Miner}
	if _, err := VerifyWindowPoSt(info, opts...); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), ".vk") {
		t.Errorf("VerifyWindowPoSt: %v", err)
	}
	if ok, err := VerifyWindowPoSt(info, WithParamsDir(dir)); !ok || err != nil {
		t.Errorf("VerifyWindowPoSt without the requirement: %v, %v", ok, err)
	}
}
