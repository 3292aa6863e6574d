// SPDX-License-Identifier: Apache-2.0 OR MIT

package service_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/service"
	pb "github.com/cuseal/cuseal/service/cuzkv1"
	"github.com/cuseal/cuseal/testsupport/testparams"
	"github.com/cuseal/cuseal/testsupport/testpost"
)

// TestServeParamsChanged: the server and the real engine on the CPU prove
// a 2 KiB WinningPoSt while its .params is truncated between two chunks
// of the l query, with a WindowPoSt submitted beside it. The WinningPoSt
// fails naming the file, the WindowPoSt completes, the server goes on;
// once the file is copied back, the next WinningPoSt (the engine reloads
// the file) is bellperson's proof and verifies. Then the same with the
// file replaced by rename.
func TestServeParamsChanged(t *testing.T) {
	win := testpost.Load(t, "post-winning-2KiB-s22")
	w := testpost.Load(t, "post-window-2KiB-s21")
	winDir, own, restore := win.OwnParamsDir(t)
	dir := testpost.JoinParamsDirs(t, winDir, w.ParamsDir(t))
	path := filepath.Join(dir, filepath.Base(own)) // a link to own: the path the engine opens
	seed := win.RSSeed
	eng, err := engine.New(engine.Config{ParamsDir: dir, Backend: porep.BackendCPU, DeterministicSeed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	_, c := serve(t, eng, service.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	req := func(v *testpost.Vector, kind pb.ProofKind) *pb.SubmitProofRequest {
		return &pb.SubmitProofRequest{ProofKind: kind, RegisteredProof: uint64(v.Proof), MinerId: uint64(v.Miner),
			Randomness: slices.Clone(v.Randomness), VanillaProofs: v.Vanilla}
	}
	proveWinning := func() {
		t.Helper()
		res, err := c.Prove(ctx, req(win, pb.ProofKind_WINNING_POST))
		if err != nil || !bytes.Equal(res.Proof, win.Want) {
			t.Fatalf("winning after the file was restored: %v, %v", res, err)
		}
		ok, err := porep.VerifyWinningPoSt(proof.WinningPoStVerifyInfo{Randomness: win.Randomness, ChallengedSectors: win.Sectors,
			Proofs: []proof.PoStProof{{PoStProof: win.Proof, ProofBytes: res.Proof}}}, porep.WithParamsDir(dir))
		if !ok || err != nil {
			t.Fatalf("VerifyWinningPoSt: %v, %v", ok, err)
		}
	}
	wantChanged := func(res *pb.AwaitProofResponse, err error, fired func() bool) {
		t.Helper()
		if !fired() {
			t.Fatal("the l query was not read in chunks: the change never happened")
		}
		if err == nil || res.GetStatus() != pb.AwaitProofResponse_FAILED ||
			!strings.Contains(res.GetErrorMessage(), path) || !strings.Contains(res.GetErrorMessage(), "changed while in use") {
			t.Fatalf("winning while its file changed: %v, %v", res, err)
		}
	}

	t.Run("truncated", func(t *testing.T) {
		fired := testparams.ChangeBetweenChunks(t, path, groth16.SectionL, 1, func() { testparams.Truncate(t, path, 100000) })
		windowDone := make(chan error, 1)
		go func() {
			res, err := c.Prove(ctx, req(w, pb.ProofKind_WINDOW_POST_PARTITION))
			if err == nil && !bytes.Equal(res.Proof, w.Want) {
				err = fmt.Errorf("window proof %x, bellperson %x", res.Proof, w.Want)
			}
			windowDone <- err
		}()
		res, err := c.Prove(ctx, req(win, pb.ProofKind_WINNING_POST))
		wantChanged(res, err, fired)
		if err := <-windowDone; err != nil {
			t.Fatalf("the WindowPoSt beside it: %v", err)
		}
		restore()
		proveWinning()
	})
	t.Run("replaced by rename", func(t *testing.T) {
		fired := testparams.ChangeBetweenChunks(t, path, groth16.SectionL, 1, func() { testparams.ReplaceByRename(t, path) })
		res, err := c.Prove(ctx, req(win, pb.ProofKind_WINNING_POST))
		wantChanged(res, err, fired)
		proveWinning()
	})
	st, err := c.Status(ctx)
	if err != nil || st.TotalProofsFailed != 2 {
		t.Fatalf("status after: %v, %v (want 2 failed jobs)", st, err)
	}
}
