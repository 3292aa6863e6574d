// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/ipfs/go-cid"

	"github.com/cuseal/cuseal/testsupport/testpost"
	"github.com/cuseal/cuseal/testsupport/testupdate"
)

// mutations are variants of b: empty, shortened, lengthened, and with one
// byte changed (a low bit flipped, or set to 0xff) at 12 offsets spread
// over its length.
func mutations(b []byte) map[string][]byte {
	out := map[string][]byte{"empty": nil}
	if len(b) == 0 {
		return out
	}
	out["one byte short"] = slices.Clone(b[:len(b)-1])
	out["half"] = slices.Clone(b[:len(b)/2])
	out["one byte more"] = append(slices.Clone(b), 0)
	for i := range 12 {
		at := i * (len(b) - 1) / 11
		flip, ff := slices.Clone(b), slices.Clone(b)
		flip[at] ^= 1
		ff[at] = 0xff
		out[fmt.Sprintf("bit 0 of byte %d flipped", at)] = flip
		out[fmt.Sprintf("byte %d set to ff", at)] = ff
	}
	return out
}

// eachProof yields proofs with proofs[i] replaced by each of its
// mutations, and with one proof dropped or repeated.
func eachProof(proofs [][]byte, yield func(name string, ps [][]byte)) {
	for i, p := range proofs {
		for name, m := range mutations(p) {
			ps := slices.Clone(proofs)
			ps[i] = m
			yield(fmt.Sprintf("proof %d: %s", i, name), ps)
		}
	}
	yield("one proof dropped", proofs[:len(proofs)-1])
	yield("first proof repeated", append(slices.Clone(proofs), proofs[0]))
}

// afterPrepare runs what a scheduler runs once Prepare accepted the input,
// short of proving: per partition its circuit, synthesis and the check of
// its public inputs, then the keys from an empty directory. None of it may
// blame the caller's input: only a missing parameter file is an error.
func afterPrepare(t *testing.T, what string, j *Job, err error) {
	t.Helper()
	if err != nil {
		if !errors.Is(err, ErrBadInput) {
			t.Errorf("%s: Prepare: %v; want nil or an error wrapping ErrBadInput", what, err)
		}
		return
	}
	for k := range j.Partitions() {
		a, err := j.SynthesizePartition(context.Background(), k, nil, 1)
		if err != nil {
			t.Errorf("%s: accepted by Prepare, partition %d: %v", what, k, err)
			continue
		}
		_, err = j.PublicInputs(k, a)
		synthPool.Release(a)
		if err != nil {
			t.Errorf("%s: accepted by Prepare, partition %d: %v", what, k, err)
		}
	}
	if _, _, err := j.Keys().Load(); !errors.Is(err, ErrParamsNotFound) {
		t.Errorf("%s: keys from an empty directory: %v; want ErrParamsNotFound", what, err)
	}
}

// TestPrepareFindsBadInput: the contract every family's Prepare keeps —
// whatever is wrong with the caller's input it finds (ErrBadInput), and
// after it only cuseal's own or a parameter file's faults can occur.
// Every input of each family is varied: proof type, miner, sector number,
// randomness, commitments, partition index, and the bytes of the C1
// output and of every vanilla proof.
func TestPrepareFindsBadInput(t *testing.T) {
	empty := []Option{WithParamsDir(t.TempDir())}
	post := func(t *testing.T, v *testpost.Vector, prepare func(p abi.RegisteredPoStProof, m abi.ActorID, r abi.PoStRandomness, ps [][]byte) (*Job, error)) {
		asGiven(t, func() (*Job, error) { return prepare(v.Proof, v.Miner, v.Randomness, v.Vanilla) })
		for _, p := range []abi.RegisteredPoStProof{-1, 0, abi.RegisteredPoStProof_StackedDrgWinning2KiBV1, abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1,
			abi.RegisteredPoStProof_StackedDrgWindow8MiBV1_1, abi.RegisteredPoStProof_StackedDrgWinning32GiBV1, 1 << 20} {
			j, err := prepare(p, v.Miner, v.Randomness, v.Vanilla)
			afterPrepare(t, fmt.Sprintf("proof type %d", p), j, err)
		}
		for _, m := range []abi.ActorID{0, v.Miner + 1} {
			j, err := prepare(v.Proof, m, v.Randomness, v.Vanilla)
			afterPrepare(t, fmt.Sprintf("miner %d", m), j, err)
		}
		for name, r := range mutations(v.Randomness) {
			j, err := prepare(v.Proof, v.Miner, r, v.Vanilla)
			afterPrepare(t, "randomness: "+name, j, err)
		}
		eachProof(v.Vanilla, func(name string, ps [][]byte) {
			j, err := prepare(v.Proof, v.Miner, v.Randomness, ps)
			afterPrepare(t, "vanilla "+name, j, err)
		})
	}
	t.Run("WinningPoSt", func(t *testing.T) {
		post(t, testpost.Load(t, "post-winning-2KiB-s22"), func(p abi.RegisteredPoStProof, m abi.ActorID, r abi.PoStRandomness, ps [][]byte) (*Job, error) {
			return PrepareWinningPoSt(p, m, r, ps, empty...)
		})
	})
	t.Run("WindowPoSt partition", func(t *testing.T) {
		v := testpost.Load(t, "post-window-2KiB-s21")
		for _, index := range []uint{0, 1, 1 << 30} {
			post(t, v, func(p abi.RegisteredPoStProof, m abi.ActorID, r abi.PoStRandomness, ps [][]byte) (*Job, error) {
				return PrepareWindowPoStPartition(p, m, r, ps, index, empty...)
			})
		}
	})
	t.Run("SnapDeals", func(t *testing.T) {
		v := testupdate.Load(t)
		prepare := func(p abi.RegisteredUpdateProof, old, new, unsealed cid.Cid, ps [][]byte) (*Job, error) {
			return PrepareUpdate(p, old, new, unsealed, ps, empty...)
		}
		asGiven(t, func() (*Job, error) { return prepare(v.Proof, v.OldSealed, v.NewSealed, v.NewUnseal, v.Vanilla) })
		for _, p := range []abi.RegisteredUpdateProof{-1, abi.RegisteredUpdateProof_StackedDrg8MiBV1, abi.RegisteredUpdateProof_StackedDrg32GiBV1, 1 << 20} {
			j, err := prepare(p, v.OldSealed, v.NewSealed, v.NewUnseal, v.Vanilla)
			afterPrepare(t, fmt.Sprintf("proof type %d", p), j, err)
		}
		sealed := func(b []byte) cid.Cid { c, _ := commcid.ReplicaCommitmentV1ToCID(b); return c }
		unsealed := func(b []byte) cid.Cid { c, _ := commcid.DataCommitmentV1ToCID(b); return c }
		for name, b := range mutations(v.CommROld[:]) {
			j, err := prepare(v.Proof, sealed(b), v.NewSealed, v.NewUnseal, v.Vanilla)
			afterPrepare(t, "comm_r_old: "+name, j, err)
		}
		for name, b := range mutations(v.CommRNew[:]) {
			j, err := prepare(v.Proof, v.OldSealed, sealed(b), v.NewUnseal, v.Vanilla)
			afterPrepare(t, "comm_r_new: "+name, j, err)
		}
		for name, b := range mutations(v.CommDNew[:]) {
			j, err := prepare(v.Proof, v.OldSealed, v.NewSealed, unsealed(b), v.Vanilla)
			afterPrepare(t, "comm_d_new: "+name, j, err)
		}
		for name, cids := range map[string][3]cid.Cid{
			"old and new swapped": {v.NewSealed, v.OldSealed, v.NewUnseal},
			"unsealed as sealed":  {v.NewUnseal, v.NewSealed, v.NewUnseal},
			"sealed as unsealed":  {v.OldSealed, v.NewSealed, v.NewSealed},
			"no CIDs":             {cid.Undef, cid.Undef, cid.Undef},
		} {
			j, err := prepare(v.Proof, cids[0], cids[1], cids[2], v.Vanilla)
			afterPrepare(t, name, j, err)
		}
		eachProof(v.Vanilla, func(name string, ps [][]byte) {
			j, err := prepare(v.Proof, v.OldSealed, v.NewSealed, v.NewUnseal, ps)
			afterPrepare(t, "vanilla "+name, j, err)
		})
	})
	t.Run("PoRep C2", func(t *testing.T) {
		s := seal2K(t)
		asGiven(t, func() (*Job, error) { return PrepareCommit2(s.c1, testSector, testMiner, empty...) })
		for _, n := range []abi.SectorNumber{0, testSector + 1} {
			j, err := PrepareCommit2(s.c1, n, testMiner, empty...)
			afterPrepare(t, fmt.Sprintf("sector number %d", n), j, err)
		}
		j, err := PrepareCommit2(s.c1, testSector, testMiner+1, empty...)
		afterPrepare(t, "another miner", j, err)
		for name, c1 := range mutations(s.c1) {
			j, err := PrepareCommit2(c1, testSector, testMiner, empty...)
			afterPrepare(t, "C1 output: "+name, j, err)
		}
	})
}

// asGiven checks the unchanged input: Prepare accepts it, and the rest
// runs without an error but the missing parameter files.
func asGiven(t *testing.T, prepare func() (*Job, error)) {
	t.Helper()
	j, err := prepare()
	if err != nil {
		t.Fatalf("the unchanged input is refused: %v", err)
	}
	afterPrepare(t, "as given", j, nil)
}
