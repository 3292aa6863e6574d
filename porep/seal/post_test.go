// SPDX-License-Identifier: Apache-2.0 OR MIT

package seal

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
)

// TestPoStVanillaProof: WindowPoSt and WinningPoSt vanilla proofs of a
// sealed 2 KiB sector parse strictly and pass the checks Rust runs before
// proving (every path hashes to comm_r_last, comm_r = H(comm_c,
// comm_r_last)), with and without the stored tree nodes; a sector of
// another size, a replica changed after sealing and a challenge past the
// end are refused.
func TestPoStVanillaProof(t *testing.T) {
	cfg, _ := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	dir := t.TempDir()
	data := randomData(t, dir, UnpaddedSize(cfg.SectorSize), 5)
	out := filepath.Join(dir, "sector")
	res, err := Seal(context.Background(), cfg, data, out, 1000, 7, fixed32(3))
	if err != nil {
		t.Fatal(err)
	}
	s, err := ReadSealedSector(out)
	if err != nil || s.Sector != 7 || s.Miner != 1000 || s.CommR != res.CommRBytes || s.Config != cfg {
		t.Fatalf("ReadSealedSector: %+v, %v", s, err)
	}
	rnd := [32]byte{7, 7, 7}
	check := func(p abi.RegisteredPoStProof) {
		t.Helper()
		pc, err := post.ConfigFor(p)
		if err != nil {
			t.Fatal(err)
		}
		chs, err := post.SectorChallenges(&pc, rnd, []abi.SectorNumber{7})
		if err != nil {
			t.Fatal(err)
		}
		b, err := PoStVanillaProof(&pc, out, chs[7])
		if err != nil {
			t.Fatalf("%s: %v", pc.Name, err)
		}
		v, err := post.ParseVanillaProof(b, &pc)
		if err != nil {
			t.Fatalf("%s: %v", pc.Name, err)
		}
		if v.SectorID != 7 || v.CommR != res.CommRBytes {
			t.Fatalf("%s: sector %d, comm_r %x", pc.Name, v.SectorID, v.CommR)
		}
		if _, err := post.ProverSlots(&pc, rnd, []*post.VanillaProof{v}, 0); err != nil {
			t.Fatalf("%s: %v", pc.Name, err)
		}
	}
	check(abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1)
	check(abi.RegisteredPoStProof_StackedDrgWinning2KiBV1)
	if err := os.Remove(filepath.Join(out, FileTreeRNodes)); err != nil {
		t.Fatal(err)
	}
	check(abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1) // tree R_last rebuilt from the replica

	win, _ := post.ConfigFor(abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1)
	chs, _ := post.SectorChallenges(&win, rnd, []abi.SectorNumber{7})
	big, _ := post.ConfigFor(abi.RegisteredPoStProof_StackedDrgWindow8MiBV1_1)
	if _, err := PoStVanillaProof(&big, out, chs[7]); err == nil || !strings.Contains(err.Error(), "holds a 2KiB sector") {
		t.Errorf("8 MiB proof of a 2 KiB sector: %v", err)
	}
	bad := append([]uint64(nil), chs[7]...)
	bad[3] = 64
	if _, err := PoStVanillaProof(&win, out, bad); err == nil || !strings.Contains(err.Error(), "challenge 3 = 64") {
		t.Errorf("challenge past the end: %v", err)
	}
	replica := filepath.Join(out, FileSealed)
	b, err := os.ReadFile(replica)
	if err != nil {
		t.Fatal(err)
	}
	b[0] ^= 1
	if err := os.WriteFile(replica, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := PoStVanillaProof(&win, out, chs[7]); err == nil || !strings.Contains(err.Error(), "tree R_last hashes to") {
		t.Errorf("changed replica: %v", err)
	}
	if _, err := PoStVanillaProof(&win, dir, chs[7]); err == nil || !strings.Contains(err.Error(), FileMeta) {
		t.Errorf("not a sector directory: %v", err)
	}
}

// TestPoStVanillaProofFaultyReplica: a replica changed after sealing, its
// stored tree nodes kept (so the root still matches), is refused as Rust's
// prover refuses a faulty sector: a challenged leaf does not hash to
// comm_r_last.
func TestPoStVanillaProofFaultyReplica(t *testing.T) {
	cfg, _ := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_1)
	dir := t.TempDir()
	data := randomData(t, dir, UnpaddedSize(cfg.SectorSize), 6)
	out := filepath.Join(dir, "sector")
	if _, err := Seal(context.Background(), cfg, data, out, 1000, 8, fixed32(4)); err != nil {
		t.Fatal(err)
	}
	// Zero nodes are valid field elements; every challenged leaf changes.
	if err := os.WriteFile(filepath.Join(out, FileSealed), make([]byte, cfg.SectorSize), 0o644); err != nil {
		t.Fatal(err)
	}
	win, _ := post.ConfigFor(abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1)
	chs, err := post.SectorChallenges(&win, [32]byte{9}, []abi.SectorNumber{8})
	if err != nil {
		t.Fatal(err)
	}
	want := "challenge 0 (leaf " + strconv.FormatUint(chs[8][0], 10) + "): sealed.dat does not hash to comm_r_last"
	if _, err := PoStVanillaProof(&win, out, chs[8]); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("faulty replica: %v, want %q", err, want)
	}
}
