// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/porep/seal"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testpost"
)

// sealSecond seals a second 2 KiB sector (sector 8, other data) next to
// sealedSample's sector 7.
func sealSecond(t *testing.T) string {
	t.Helper()
	data := filepath.Join(t.TempDir(), "data")
	b := make([]byte, seal.UnpaddedSize(2048))
	for i := range b {
		b[i] = byte(i * 7)
	}
	if err := os.WriteFile(data, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "sector8")
	if code, _, stderr := runCLI(t, "--log-level", "warn", "seal", "--sector-size", "2KiB", "--data", data,
		"--out", out, "--miner", "t01000", "--sector", "8", "--ticket", testTicket, "--seed", testSeed); code != exitOK {
		t.Fatalf("seal: %s", stderr)
	}
	return out
}

// postVanillaJSON runs `cuseal post vanilla --json` and decodes it.
func postVanillaJSON(t *testing.T, args ...string) postVanillaOutput {
	t.Helper()
	code, out, stderr := runCLI(t, append([]string{"post", "vanilla", "--json"}, args...)...)
	if code != exitOK {
		t.Fatalf("post vanilla: exit %d: %s", code, stderr)
	}
	var res postVanillaOutput
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return res
}

// TestPostVanillaEndToEnd: two sectors sealed by cuseal seal, their
// WinningPoSt and WindowPoSt vanilla proofs from post vanilla, proofs from
// post winning|window on the CPU backend, and post verify accepts them —
// with the challenged sectors named by --sector NUMBER=COMM_R from the
// sealer's own record, not from the vanilla proofs.
func TestPostVanillaEndToEnd(t *testing.T) {
	testenv.Long(t, "PoSt test parameters and two CPU proofs")
	dirs := []string{sealedSample(t), sealSecond(t)}
	rnd := "5a" + strings.Repeat("00", 30) + "17"
	for _, tc := range []struct{ circuit, sub, folder, proofType string }{
		{circuitWinningPoSt, "winning", "post-winning-2KiB-s22", "0"},
		{circuitWindowPoSt, "window", "post-window-2KiB-s21", "10"},
	} {
		out := filepath.Join(t.TempDir(), "vanilla")
		res := postVanillaJSON(t, "--circuit", tc.circuit, "--sector-dir", dirs[0], "--sector-dir", dirs[1], "--randomness", rnd, "--out", out)
		want := map[string]int{circuitWinningPoSt: 1, circuitWindowPoSt: 2}[tc.circuit]
		if len(res.Sectors) != want || res.Partitions != 1 || res.Randomness != rnd || res.Miner != 1000 {
			t.Fatalf("%s: %+v", tc.circuit, res)
		}
		var files, sectors []string
		for _, s := range res.Sectors {
			files = append(files, filepath.Join(out, s.File))
			for _, d := range dirs {
				ss, err := seal.ReadSealedSector(d)
				if err != nil {
					t.Fatal(err)
				}
				if uint64(ss.Sector) == s.SectorNumber {
					sectors = append(sectors, "--sector", fmt.Sprintf("%d=%s", ss.Sector, hex.EncodeToString(ss.CommR[:])))
				}
			}
		}
		v := testpost.Load(t, tc.folder)
		params := v.ParamsDir(t)
		pf := filepath.Join(t.TempDir(), "proof.bin")
		args := append([]string{"--log-level", "warn", "post", tc.sub, "--backend", "cpu", "--params-dir", params, "--proof-type", tc.proofType,
			"--randomness", rnd, "--out", pf}, files...)
		if code, _, stderr := runCLI(t, args...); code != exitOK {
			t.Fatalf("post %s: exit %d: %s", tc.sub, code, stderr)
		}
		verify := func(r string) []string {
			return append([]string{"post", "verify", "--params-dir", params, "--proof-type", tc.proofType, "--randomness", r, "--proof", pf}, sectors...)
		}
		if code, stdout, stderr := runCLI(t, verify(rnd)...); code != exitOK || !strings.HasPrefix(stdout, "valid: ") {
			t.Fatalf("post verify %s: exit %d: %s%s", tc.sub, code, stdout, stderr)
		}
		if code, _, stderr := runCLI(t, verify("5b"+rnd[2:])...); code != exitInvalidProof {
			t.Errorf("post verify %s with other randomness: exit %d, want %d: %s", tc.sub, code, exitInvalidProof, stderr)
		}
	}
}

func TestPostVanillaBadInput(t *testing.T) {
	sector := sealedSample(t)
	tmp := t.TempDir()
	rnd := strings.Repeat("00", 32)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"porep circuit", []string{"--circuit", "porep", "--sector-dir", sector, "--randomness", rnd, "--out", tmp}, "want winning-post or window-post"},
		{"no sector dir", []string{"--circuit", circuitWindowPoSt, "--sector-dir", tmp, "--randomness", rnd, "--out", tmp}, "--sector-dir " + tmp},
		{"same sector twice", []string{"--circuit", circuitWindowPoSt, "--sector-dir", sector, "--sector-dir", sector, "--randomness", rnd, "--out", tmp}, "both hold sector 7"},
		{"short randomness", []string{"--circuit", circuitWindowPoSt, "--sector-dir", sector, "--randomness", "0102", "--out", tmp}, "--randomness"},
		{"non-canonical randomness", []string{"--circuit", circuitWindowPoSt, "--sector-dir", sector, "--randomness", strings.Repeat("ff", 32), "--out", tmp}, "not a canonical field element"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, append([]string{"post", "vanilla"}, tc.args...)...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d: %s", code, exitUsage, stderr)
			}
			wantOneLineError(t, stderr, tc.want)
		})
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("refused runs wrote %d entries into --out", len(entries))
	}
}
