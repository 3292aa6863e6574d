// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine_test

import (
	"bytes"
	"context"
	"errors"
	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/porep/engine/enginetest"
	"slices"
	"strings"
	"testing"

	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/testsupport/testprover"
	"github.com/cuseal/cuseal/testsupport/testupdate"
)

// updateRequest is Curio's SNAP_DEALS_UPDATE request for the 2 KiB
// reference vector: raw 32-byte commitments, one partition proof per
// partition.
func updateRequest(v *testupdate.Vector) *engine.Request {
	return &engine.Request{Kind: engine.KindSnapDealsUpdate, RequestID: "snap-1000-31", RegisteredProof: uint64(v.Proof), MinerID: 1000, SectorNumber: 31,
		VanillaProofs: slices.Clone(v.Vanilla), CommROld: bytes.Clone(v.CommROld[:]), CommRNew: bytes.Clone(v.CommRNew[:]), CommDNew: bytes.Clone(v.CommDNew[:])}
}

// TestUpdateGolden proves the 2 KiB SnapDeals reference vector through the
// engine with r, s from its rs_seed: the bytes are bellperson's proof.bin
// and pass porep.VerifyReplicaUpdate; the priority is Curio's NORMAL and
// the circuit id snap-2k. It proves with testprover.Backend (the reference
// double in the unit tier, the CPU in the long tier).
func TestUpdateGolden(t *testing.T) {
	cpu, err := engine.NewBackendProver(testprover.Backend(t))
	if err != nil {
		t.Fatal(err)
	}
	v := testupdate.Load(t)
	dir := v.ParamsDir(t)
	seed := v.RSSeed
	e, err := engine.New(engine.Config{ParamsDir: dir, Provers: []engine.Prover{cpu}, DeterministicSeed: &seed, BudgetBytes: 8 << 30})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	tk, err := e.Submit(ctx, updateRequest(v))
	if err != nil {
		t.Fatal(err)
	}
	if st := e.Status(); len(st.Jobs) != 1 || st.Jobs[0].Priority != engine.PriorityNormal {
		t.Errorf("jobs %+v, want one of priority NORMAL", st.Jobs)
	}
	r, err := e.Await(ctx, tk.JobID)
	if err != nil || r.State != engine.StateCompleted {
		t.Fatalf("%+v, %v", r, err)
	}
	if !bytes.Equal(r.Proof, v.Want) {
		t.Fatalf("engine proof %x, bellperson %x", r.Proof, v.Want)
	}
	ok, err := porep.VerifyReplicaUpdate(proof.ReplicaUpdateInfo{UpdateProofType: v.Proof, OldSealedSectorCID: v.OldSealed,
		NewSealedSectorCID: v.NewSealed, NewUnsealedSectorCID: v.NewUnseal, Proof: r.Proof}, porep.WithParamsDir(dir))
	if !ok || err != nil {
		t.Fatalf("verify: %v, %v", ok, err)
	}
	if st := e.Status(); len(st.Params) != 1 || st.Params[0].CircuitID != "snap-2k" {
		t.Errorf("params %+v, want snap-2k", st.Params)
	}
	if was, _, err := e.Evict("snap-2k"); !was || err != nil {
		t.Errorf("evict snap-2k: %v, %v", was, err)
	}
}

// TestUpdateBadInput: SnapDeals requests that do not parse or do not match
// their commitments are refused naming the field, before anything is
// queued (no parameters needed).
func TestUpdateBadInput(t *testing.T) {
	v := testupdate.Load(t)
	e, err := engine.New(engine.Config{ParamsDir: t.TempDir(), Provers: []engine.Prover{&enginetest.Prover{}}, BudgetBytes: 4 << 30})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, tc := range []struct {
		name string
		edit func(*engine.Request)
		want string
	}{
		{"no vanilla", func(r *engine.Request) { r.VanillaProofs = nil }, "vanilla_proofs: porep: StackedDrg2KiBV1: 0 vanilla partition proofs"},
		{"short comm_r_old", func(r *engine.Request) { r.CommROld = r.CommROld[:31] }, "comm_r_old: 31 bytes"},
		{"no comm_d_new", func(r *engine.Request) { r.CommDNew = nil }, "comm_d_new: 0 bytes"},
		{"non-canonical comm_r_new", func(r *engine.Request) { r.CommRNew = bytes.Repeat([]byte{0xff}, 32) }, "SNAP_DEALS_UPDATE: comm_r_new: ffff"},
		{"unknown proof", func(r *engine.Request) { r.RegisteredProof = 99 }, "registered_proof"},
		{"sector size", func(r *engine.Request) { r.SectorSize = 32 << 30 }, "sector_size: 34359738368"},
		{"two partitions", func(r *engine.Request) { r.VanillaProofs = append(r.VanillaProofs, r.VanillaProofs[0]) }, "vanilla_proofs: porep: StackedDrg2KiBV1: 2 vanilla partition proofs, want 1"},
		{"truncated vanilla", func(r *engine.Request) { r.VanillaProofs = [][]byte{r.VanillaProofs[0][:100]} }, "vanilla_proofs: porep: vanilla proof of partition 0 (100 bytes"},
		{"old and new swapped", func(r *engine.Request) { r.CommROld, r.CommRNew = r.CommRNew, r.CommROld }, "vanilla_proofs: porep: vanilla proof: partition 0: comm_r_old"},
	} {
		req := updateRequest(v)
		tc.edit(req)
		_, err := e.Submit(context.Background(), req)
		if !errors.Is(err, engine.ErrBadInput) || !strings.Contains(err.Error(), "SNAP_DEALS_UPDATE") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: want a bad-input error naming %q, got %v", tc.name, tc.want, err)
		}
	}
	if n := len(e.Status().Jobs); n != 0 {
		t.Fatalf("%d jobs queued by refused requests", n)
	}
	// Without parameter files the job fails naming the missing file.
	r, err := e.Prove(context.Background(), updateRequest(v))
	if err != nil || r.State != engine.StateFailed || !errors.Is(r.Err, porep.ErrParamsNotFound) {
		t.Fatalf("job without parameters: %+v, %v", r, err)
	}
}
