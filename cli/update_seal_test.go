// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/cuseal/cuseal/porep/seal"
	"github.com/cuseal/cuseal/testsupport/goldentest"
)

// updateRefDir is porep/update's copy of the SnapDeals reference vector (rust-fil-proofs
// 19.1.0, see its README).
const updateRefDir = "../porep/update/testdata/update-2KiB-s31"

// TestUpdateEncodeVanillaGolden drives `seal`, `update encode` and `update vanilla` on the
// reference vector's inputs (CC sector of miner 1000, sector 31, its ticket; new data from
// its data seed): the printed commitments are the reference's and partition-0.bin is
// byte-identical to its vanilla proof. Then defective inputs exit 2 and write nothing.
func TestUpdateEncodeVanillaGolden(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(updateRefDir, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		DataSeed uint64 `json:"data_seed"`
		Ticket   string `json:"ticket"`
		CIDs     struct {
			CommROld string `json:"comm_r_old"`
			CommRNew string `json:"comm_r_new"`
			CommDNew string `json:"comm_d_new"`
		} `json:"cids"`
	}
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	zero, data := filepath.Join(dir, "zero.dat"), filepath.Join(dir, "new.dat")
	if err := os.WriteFile(zero, make([]byte, 2032), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(data, goldentest.NewSectorInputs(ref.DataSeed, 2032).Data, 0o644); err != nil {
		t.Fatal(err)
	}
	key, upd, van := filepath.Join(dir, "key"), filepath.Join(dir, "updated"), filepath.Join(dir, "vanilla")
	if code, _, stderr := runCLI(t, "seal", "--data", zero, "--out", key, "--miner", "t01000", "--sector", "31",
		"--ticket", ref.Ticket, "--seed", testSeed); code != exitOK {
		t.Fatalf("seal: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := runCLI(t, "update", "encode", "--sector-key", key, "--data", data, "--out", upd, "--json")
	if code != exitOK {
		t.Fatalf("update encode: exit %d: %s", code, stderr)
	}
	var enc updateEncodeOutput
	if err := json.Unmarshal([]byte(stdout), &enc); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if enc.UpdateProof != "StackedDrg2KiBV1" || enc.CommROld != ref.CIDs.CommROld || enc.CommRNew != ref.CIDs.CommRNew || enc.CommDNew != ref.CIDs.CommDNew {
		t.Fatalf("update encode printed %+v; reference %+v", enc, ref.CIDs)
	}
	vanillaArgs := func(out, commRNew string) []string {
		return []string{"update", "vanilla", "--sector-key", key, "--updated", upd, "--comm-r-old", enc.CommROld,
			"--comm-r-new", commRNew, "--comm-d-new", enc.CommDNew, "--out", out}
	}
	if code, _, stderr := runCLI(t, vanillaArgs(van, enc.CommRNew)...); code != exitOK {
		t.Fatalf("update vanilla: exit %d: %s", code, stderr)
	}
	got, err := os.ReadFile(filepath.Join(van, "partition-0.bin"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(updateRefDir, "vanilla", "partition-0.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("partition-0.bin: %d bytes differ from the reference's %d", len(got), len(want))
	}

	bad := filepath.Join(dir, "bad")
	for name, args := range map[string][]string{
		"comm_r_new of another sector": vanillaArgs(bad, enc.CommROld),
		"unsealed CID as comm_r_new":   vanillaArgs(bad, enc.CommDNew),
		"8 MiB update of a 2 KiB key":  {"update", "encode", "--sector-size", "8MiB", "--sector-key", key, "--data", data, "--out", bad},
		"missing data":                 {"update", "encode", "--sector-key", key, "--data", sampleData + "-missing", "--out", bad},
		"occupied output directory":    {"update", "encode", "--sector-key", key, "--data", data, "--out", upd},
	} {
		code, _, stderr := runCLI(t, args...)
		if code != exitUsage {
			t.Errorf("%s: exit %d: %s", name, code, stderr)
			continue
		}
		wantOneLineError(t, stderr, "")
		if entries, _ := os.ReadDir(bad); len(entries) != 0 {
			t.Errorf("%s: %d entries left in --out", name, len(entries))
		}
	}
	if names, _ := os.ReadDir(upd); len(names) != len(seal.UpdateOutputFiles()) {
		t.Errorf("the refused encode changed %s: %d entries", upd, len(names))
	}
}
