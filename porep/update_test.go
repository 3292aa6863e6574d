// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

// The SnapDeals API against rust-fil-proofs' 2 KiB reference vector (in
// update/testdata, read through testupdate.Load): bad input, the proof with
// r, s from rs_seed byte-identical to bellperson's, verification.

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"
	"github.com/ipfs/go-cid"

	"github.com/cuseal/cuseal/internal/testupdate"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/update"
)

// TestUpdateBadInput: every defect is ErrBadInput (or ErrParamsNotFound)
// with a message naming it, before any parameter file is needed.
func TestUpdateBadInput(t *testing.T) {
	v := testupdate.Load(t)
	empty := t.TempDir()
	opts := []Option{WithParamsDir(empty), WithBackend(BackendCPU)}
	call := func(mod func(in *updateArgs)) error {
		in := updateArgs{Proof: v.Proof, OldSealed: v.OldSealed, NewSealed: v.NewSealed, NewUnsealed: v.NewUnseal, Vanilla: v.Vanilla}
		mod(&in)
		_, err := GenerateUpdateProofWithVanilla(in.Proof, in.OldSealed, in.NewSealed, in.NewUnsealed, in.Vanilla, opts...)
		return err
	}
	truncated := v.Vanilla[0][:len(v.Vanilla[0])-1]
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"unsealed CID as old sealed", call(func(in *updateArgs) { in.OldSealed = v.NewUnseal }), "comm_r_old (old sealed) CID " + v.NewUnseal.String()},
		{"sealed CID as unsealed", call(func(in *updateArgs) { in.NewUnsealed = v.NewSealed }), "comm_d_new (unsealed) CID " + v.NewSealed.String()},
		{"old and new swapped", call(func(in *updateArgs) { in.OldSealed, in.NewSealed = v.NewSealed, v.OldSealed }), "comm_r_old"},
		{"other comm_r_new", call(func(in *updateArgs) { in.NewSealed = v.OldSealed }), "comm_r_new"},
		{"other comm_d_new", call(func(in *updateArgs) { in.NewUnsealed = v.OldUnsealed }), "challenge 0 (node"},
		{"truncated", call(func(in *updateArgs) { in.Vanilla = [][]byte{truncated} }), "vanilla proof of partition 0 (15063 bytes, StackedDrg2KiBV1 wants 15064): update vanilla proof: "},
		{"two partitions", call(func(in *updateArgs) { in.Vanilla = [][]byte{v.Vanilla[0], v.Vanilla[0]} }), "StackedDrg2KiBV1: 2 vanilla partition proofs, want 1"},
		{"no partitions", call(func(in *updateArgs) { in.Vanilla = nil }), "0 vanilla partition proofs, want 1"},
		{"other size", call(func(in *updateArgs) { in.Proof = abi.RegisteredUpdateProof_StackedDrg8MiBV1 }), "StackedDrg8MiBV1: 1 vanilla partition proofs, want 4"},
		{"unknown proof", call(func(in *updateArgs) { in.Proof = 9 }), "unknown registered update proof 9"},
		{"missing params", call(func(in *updateArgs) {}), "parameter file not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
				t.Fatalf("%v; want %q", tc.err, tc.want)
			}
			if tc.name == "missing params" {
				if !errors.Is(tc.err, ErrParamsNotFound) {
					t.Fatalf("%v is not ErrParamsNotFound", tc.err)
				}
			} else if !errors.Is(tc.err, ErrBadInput) {
				t.Fatalf("%v is not ErrBadInput", tc.err)
			}
		})
	}
	info := proof.ReplicaUpdateInfo{UpdateProofType: v.Proof, OldSealedSectorCID: v.OldSealed, NewSealedSectorCID: v.NewSealed, NewUnsealedSectorCID: v.NewUnseal, Proof: v.Want}
	for _, tc := range []struct {
		name string
		mod  func(i *proof.ReplicaUpdateInfo)
		want string
	}{
		{"short proof", func(i *proof.ReplicaUpdateInfo) { i.Proof = i.Proof[:191] }, "proof is 191 bytes, want 192 (1 partitions × 192) for StackedDrg2KiBV1"},
		{"not points", func(i *proof.ReplicaUpdateInfo) { i.Proof = make([]byte, 192) }, "proof: "},
		{"unsealed CID as new sealed", func(i *proof.ReplicaUpdateInfo) { i.NewSealedSectorCID = v.NewUnseal }, "comm_r_new (new sealed) CID"},
		{"missing vk", func(i *proof.ReplicaUpdateInfo) {}, "parameter file not found"},
	} {
		i := info
		tc.mod(&i)
		ok, err := VerifyReplicaUpdate(i, WithParamsDir(empty))
		if ok || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("verify %s: %v, %v; want %q", tc.name, ok, err, tc.want)
		}
	}
}

// updateArgs are GenerateUpdateProofWithVanilla's arguments, for tables.
type updateArgs struct {
	Proof                             abi.RegisteredUpdateProof
	OldSealed, NewSealed, NewUnsealed cid.Cid
	Vanilla                           [][]byte
}

// TestUpdateGolden proves the reference vector from its vanilla bytes on
// the CPU: with r, s from rs_seed the proof must be proof.bin; it, and a
// fresh proof, verify with VerifyReplicaUpdate, and neither verifies for
// other commitments or a changed byte. -short skips it (update test
// parameters, 656 MB, generated on first use; two CPU proofs of a
// 1.7 M-constraint circuit).
func TestUpdateGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: update test parameters and CPU proofs")
	}
	v := testupdate.Load(t)
	dir := v.ParamsDir(t)
	got, err := GenerateUpdateProofWithVanilla(v.Proof, v.OldSealed, v.NewSealed, v.NewUnseal, v.Vanilla,
		WithParamsDir(dir), WithBackend(BackendCPU), WithDeterministicRandomness(v.RSSeed))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, v.Want) {
		t.Fatalf("proof %x\nbellperson %x", got, v.Want)
	}
	fresh, err := GenerateUpdateProofWithVanilla(v.Proof, v.OldSealed, v.NewSealed, v.NewUnseal, v.Vanilla,
		WithParamsDir(dir), WithBackend(BackendCPU))
	if err != nil {
		t.Fatal(err)
	}
	if len(fresh) != groth16.ProofSize || bytes.Equal(fresh, v.Want) {
		t.Fatalf("fresh proof %x: want 192 bytes other than bellperson's", fresh)
	}
	for name, p := range map[string][]byte{"proof.bin": v.Want, "fresh proof": fresh} {
		info := proof.ReplicaUpdateInfo{UpdateProofType: v.Proof, OldSealedSectorCID: v.OldSealed, NewSealedSectorCID: v.NewSealed, NewUnsealedSectorCID: v.NewUnseal, Proof: p}
		if ok, err := VerifyReplicaUpdate(info, WithParamsDir(dir)); !ok || err != nil {
			t.Errorf("%s: VerifyReplicaUpdate = %v, %v", name, ok, err)
		}
		swapped := info
		swapped.OldSealedSectorCID, swapped.NewSealedSectorCID = v.NewSealed, v.OldSealed
		if ok, err := VerifyReplicaUpdate(swapped, WithParamsDir(dir)); ok || err != nil {
			t.Errorf("%s with comm_r_old and comm_r_new swapped: %v, %v; want false, nil", name, ok, err)
		}
		changed := info
		changed.Proof = bytes.Clone(p)
		changed.Proof[0] ^= 0x01
		if ok, _ := VerifyReplicaUpdate(changed, WithParamsDir(dir)); ok {
			t.Errorf("%s with byte 0 changed verifies", name)
		}
	}
}

// TestUpdateOfficialParams: every registered update proof's parameter
// files are in rust-fil-proofs 19.1.0's parameters.json under the names
// update.Config gives, for its sector size, and the reference vector's
// test .vk under its official name is refused by the production check
// (naming the file, its digest and the official one) but accepted without
// it.
func TestUpdateOfficialParams(t *testing.T) {
	for _, cfg := range update.Configs() {
		pp, vp, _ := cfg.ParameterPaths("/p")
		for _, f := range []string{pp, vp} {
			e, ok := paramfile.LookupOfficialParam(filepath.Base(f))
			if !ok || e.SectorSize != cfg.SectorSize || len(e.Digest) != 32 {
				t.Errorf("%s: %s: %+v %v, want an official entry for %d-byte sectors", cfg.Name, filepath.Base(f), e, ok, cfg.SectorSize)
			}
		}
	}
	v := testupdate.Load(t)
	cfg, err := update.ConfigFor(v.Proof)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pp, vp, _ := cfg.ParameterPaths(dir)
	if err := os.WriteFile(pp, []byte("not the official params"), 0o644); err != nil {
		t.Fatal(err)
	}
	copyFile(t, v.VKFile, vp)
	official, _ := paramfile.LookupOfficialParam(filepath.Base(vp))
	info := proof.ReplicaUpdateInfo{UpdateProofType: v.Proof, OldSealedSectorCID: v.OldSealed, NewSealedSectorCID: v.NewSealed, NewUnsealedSectorCID: v.NewUnseal, Proof: v.Want}
	ok, err := VerifyReplicaUpdate(info, WithParamsDir(dir), WithRequireProductionParams())
	if ok || !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), vp) || !strings.Contains(err.Error(), official.Digest) {
		t.Errorf("VerifyReplicaUpdate with the production check: %v, %v; want ErrBadInput naming %s and %s", ok, err, vp, official.Digest)
	}
	_, err = GenerateUpdateProofWithVanilla(v.Proof, v.OldSealed, v.NewSealed, v.NewUnseal, v.Vanilla, WithParamsDir(dir), WithRequireProductionParams())
	if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), pp) {
		t.Errorf("GenerateUpdateProofWithVanilla with the production check: %v; want ErrBadInput naming %s", err, pp)
	}
	if ok, err := VerifyReplicaUpdate(info, WithParamsDir(dir)); !ok || err != nil {
		t.Errorf("VerifyReplicaUpdate without the production check: %v, %v", ok, err)
	}
}
