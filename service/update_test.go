// SPDX-License-Identifier: Apache-2.0 OR MIT

package service_test

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/filecoin-project/go-state-types/proof"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/engine"
	"github.com/cuseal/cuseal/service"
	"github.com/cuseal/cuseal/service/client"
	pb "github.com/cuseal/cuseal/service/cuzkv1"
	"github.com/cuseal/cuseal/testsupport/testprover"
	"github.com/cuseal/cuseal/testsupport/testupdate"
)

// TestUpdateEndToEnd: Curio's SNAP_DEALS_UPDATE request (raw 32-byte
// commitments, the partition proofs, request id snap-<miner>-<sector>, no
// sector_size as on the snark-market path) for the 2 KiB reference vector,
// through the server and the real engine (r, s from its rs_seed;
// testprover.Backend: the reference double in the unit tier, the CPU in
// the long tier): the proof is bellperson's proof.bin and passes
// porep.VerifyReplicaUpdate, and commitments that do not match the vanilla
// proofs are refused as InvalidArgument naming them.
func TestUpdateEndToEnd(t *testing.T) {
	v := testupdate.Load(t)
	dir := v.ParamsDir(t)
	seed := v.RSSeed
	eng, err := engine.New(engine.Config{ParamsDir: dir, Backend: testprover.Backend(t), DeterministicSeed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	srv := service.New(eng, service.Options{})
	sock := "unix://" + filepath.Join(t.TempDir(), "s.sock")
	l, _, err := service.Listen(service.ListenConfig{Address: sock})
	if err != nil {
		t.Fatal(err)
	}
	go srv.GRPC().Serve(l)
	defer srv.GRPC().Stop()
	c, err := client.Dial(sock, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	req := &pb.SubmitProofRequest{RequestId: "snap-1000-31", ProofKind: pb.ProofKind_SNAP_DEALS_UPDATE, RegisteredProof: uint64(v.Proof),
		MinerId: 1000, SectorNumber: 31, VanillaProofs: v.Vanilla,
		CommROld: slices.Clone(v.CommROld[:]), CommRNew: slices.Clone(v.CommRNew[:]), CommDNew: slices.Clone(v.CommDNew[:])}
	res, err := c.Prove(ctx, req)
	if err != nil || res.Status != pb.AwaitProofResponse_COMPLETED {
		t.Fatalf("snap: %v, %v", res, err)
	}
	if !bytes.Equal(res.Proof, v.Want) {
		t.Fatalf("snap proof %x, bellperson %x", res.Proof, v.Want)
	}
	ok, err := porep.VerifyReplicaUpdate(proof.ReplicaUpdateInfo{UpdateProofType: v.Proof, OldSealedSectorCID: v.OldSealed,
		NewSealedSectorCID: v.NewSealed, NewUnsealedSectorCID: v.NewUnseal, Proof: res.Proof}, porep.WithParamsDir(dir))
	if !ok || err != nil {
		t.Fatalf("VerifyReplicaUpdate: %v, %v", ok, err)
	}
	bad := &pb.SubmitProofRequest{ProofKind: pb.ProofKind_SNAP_DEALS_UPDATE, RegisteredProof: uint64(v.Proof), VanillaProofs: v.Vanilla,
		CommROld: slices.Clone(v.CommRNew[:]), CommRNew: slices.Clone(v.CommROld[:]), CommDNew: slices.Clone(v.CommDNew[:])}
	_, err = c.Prove(ctx, bad)
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "comm_r_old") {
		t.Fatalf("comm_r_old and comm_r_new swapped: %v", err)
	}
}
