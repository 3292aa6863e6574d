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

	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/update"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testupdate"
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
		{"unsealed CID as old sealed", call(func(in *updateArgs) { in.OldSealed = v.NewUnseal }), "comm_r_old: old sealed CID " + v.NewUnseal.String()},
		{"sealed CID as unsealed", call(func(in *updateArgs) { in.NewUnsealed = v.NewSealed }), "comm_d_new: unsealed CID " + v.NewSealed.String()},
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
		{"unsealed CID as new sealed", func(i *proof.ReplicaUpdateInfo) { i.NewSealedSectorCID = v.NewUnseal }, "comm_r_new: new sealed CID"},
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
// other commitments or a changed byte. The long tier runs it (update test
// parameters, 656 MB, generated on first use; two CPU proofs of a
// 1.7 M-constraint circuit).
func TestUpdateGolden(t *testing.T) {
	testenv.Long(t, "update test parameters and CPU proofs")
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
// files (update.Config.ParameterPaths: the circuit identifier's hash and
// the tree shape) are entries of rust-fil-proofs 19.1.0's parameters.json
// with the CID, digest and sector size listed there (the rows below), and
// every empty-sector-update entry of the table belongs to exactly one
// proof (the "empty-sector-update-poseidon" entries are
// EmptySectorUpdatePoseidon's, which no registered update proof uses).
// The reference vector's test .vk under its official name is refused by
// the production check (naming the file, its digest and the official one)
// and accepted without it.
func TestUpdateOfficialParams(t *testing.T) {
	rows := []struct {
		proof                   abi.RegisteredUpdateProof
		file                    string // after v28-empty-sector-update-merkletree-poseidon_hasher-
		paramsCID, paramsDigest string
		vkCID, vkDigest         string
	}{
		{abi.RegisteredUpdateProof_StackedDrg2KiBV1, "8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194", "QmYM6Hg7mjmvA3ZHTsqkss1fkdyDju5dDmLiBZGJ5pz9y9", "311f92a3e75036ced01b1c0025f1fa0c", "QmaQsTLL3nc5dw6wAvaioJSBfd1jhQrA2o6ucFf7XeV74P", "eadad9784969890d30f2749708c79771"},
		{abi.RegisteredUpdateProof_StackedDrg8MiBV1, "8-0-0-92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63", "QmQiT4qBGodrVNEgVTDXxBNDdPbaD8Ag7Sx3ZTq1zHX79S", "5aedd2cf3e5c0a15623d56a1b43110ad", "QmdcpKUQvHM8RFRVKbk1yHfEqMcBzhtFWKRp9SNEmWq37i", "abd80269054d391a734febdac0d2e687"},
		{abi.RegisteredUpdateProof_StackedDrg512MiBV1, "8-0-0-61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c", "Qma5WL6abSqYg9uUQAZ3EHS286bsNsha7oAGsJBD48Bq2q", "c3ad7bb549470b82ad52ed070aebb4f4", "QmUa7f9JtJMsqJJ3s3ZXk6WyF4xJLE8FiqYskZGgk8GCDv", "994c5b7d450ca9da348c910689f2dc7f"},
		{abi.RegisteredUpdateProof_StackedDrg32GiBV1, "8-8-0-3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18", "QmNPc75iEfcahCwNKdqnWLtxnjspUGGR4iscjiz3wP3RtS", "1b3cfd761a961543f9eb273e435a06a2", "QmdFFUe1gcz9MMHc6YW8aoV48w4ckvcERjt7PkydQAMfCN", "3a6941983754737fde880d29c7094905"},
		{abi.RegisteredUpdateProof_StackedDrg64GiBV1, "8-8-2-102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7", "QmUB6xTVjzBQGuDNeyJMrrJ1byk58vhPm8eY2Lv9pgwanp", "1a392e7b759fb18e036c7559b5ece816", "Qmd794Jty7k26XJ8Eg4NDEks65Qk8G4GVfGkwqvymv8HAg", "80e366df2f1011953c2d01c7b7c9ee8e"},
	}
	const prefix = "v28-empty-sector-update-merkletree-poseidon_hasher-"
	claimed := map[string]bool{}
	for _, r := range rows {
		cfg, err := update.ConfigFor(r.proof)
		if err != nil {
			t.Fatal(err)
		}
		pp, vp, _ := cfg.ParameterPaths(t.TempDir())
		for _, f := range []struct{ path, cid, digest string }{{pp, r.paramsCID, r.paramsDigest}, {vp, r.vkCID, r.vkDigest}} {
			base := filepath.Base(f.path)
			if want := prefix + r.file; strings.TrimSuffix(strings.TrimSuffix(base, ".params"), ".vk") != want {
				t.Errorf("%s: file %s, want %s.*", cfg.Name, base, want)
			}
			e, ok := paramfile.LookupOfficialParam(f.path)
			if !ok {
				t.Errorf("%s: %s is not in parameters.json", cfg.Name, base)
				continue
			}
			if e.CID != f.cid || e.Digest != f.digest || e.SectorSize != cfg.SectorSize {
				t.Errorf("%s: %s is cid %s, digest %s, sector size %d; want %s, %s, %d", cfg.Name, base, e.CID, e.Digest, e.SectorSize, f.cid, f.digest, cfg.SectorSize)
			}
			claimed[base] = true
		}
	}
	if len(rows) != len(update.Configs()) {
		t.Errorf("%d rows for %d registered update proofs", len(rows), len(update.Configs()))
	}
	for name := range paramfile.OfficialParams() {
		if strings.HasPrefix(name, prefix) && !claimed[name] {
			t.Errorf("parameters.json's %s belongs to no registered update proof", name)
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
