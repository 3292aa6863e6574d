// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

// Byte-identity with rust-fil-proofs 19.1.0 / bellperson 0.27.0 end to end:
// test parameters generated from the reference toxic seed must be the very
// files bellperson generated (BLAKE2b digests of .params and .vk), and a C2
// of the reference C1 with r, s from the reference rs_seed must be the very
// proof bytes bellperson produced (testdata/golden/README.md).

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testparams"
)

var goldenDir = filepath.Join("..", "testdata", "golden")

// goldenSectorMeta is the part of a golden sector's meta.json read here.
type goldenSectorMeta struct {
	RegisteredProof string `json:"registered_proof"`
	SectorID        uint64 `json:"sector_id"`
	ProverID        string `json:"prover_id"`
	ToxicSeed       string `json:"toxic_seed"`
	ParamsBlake2b   string `json:"params_blake2b16"`
	VKBlake2b       string `json:"vk_blake2b16"`
	ParamsFile      string `json:"params_file"`
	VKFile          string `json:"vk_file"`
	RSSeed          string `json:"rs_seed"`
	ProofFile       string `json:"proof_file"`
}

func seed32(t testing.TB, what, s string) [32]byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		t.Fatalf("%s %q: not 32 hex bytes", what, s)
	}
	return [32]byte(b)
}

// TestReferenceParamsAndProofs generates (or reuses, see testparams.ForSeed) the
// 2 KiB test parameters from 2KiB-s10's toxic_seed and checks their BLAKE2b
// digests against
// bellperson's (params_blake2b16, vk_blake2b16; the .vk also byte for byte
// against the shipped one), then proves 2KiB-s10 and 2KiB-s14 with
// WithDeterministicRandomness(rs_seed) on the CPU backend and checks the
// proof bytes equal bellperson's proof.bin: the unit tier's one CPU proof
// of a PoRep circuit against bellperson's bytes (2KiB-s10; 2KiB-s14 in the
// long tier). The parameters are the shared test parameters
// (testparams.Seed is this toxic_seed).
func TestReferenceParamsAndProofs(t *testing.T) {
	cfg := config2K(t)
	var m10 goldenSectorMeta
	raw, err := os.ReadFile(filepath.Join(goldenDir, "2KiB-s10", "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &m10); err != nil {
		t.Fatal(err)
	}
	if m10.RegisteredProof != cfg.Name {
		t.Fatalf("2KiB-s10 is %s, want %s", m10.RegisteredProof, cfg.Name)
	}
	dir := testparams.ForSeed(t, &cfg, seed32(t, "toxic_seed", m10.ToxicSeed))
	paramsPath, vkPath := filepath.Join(dir, m10.ParamsFile), filepath.Join(dir, m10.VKFile)
	// Generated now or earlier by cuseal from this seed (the stamp says so):
	// the files must be bellperson's.
	for _, f := range []struct{ path, want string }{{paramsPath, m10.ParamsBlake2b}, {vkPath, m10.VKBlake2b}} {
		got, err := groth16.FileDigest(f.path)
		if err != nil {
			t.Fatal(err)
		}
		if got != f.want {
			t.Errorf("%s: BLAKE2b-512[:16] %s, bellperson %s", filepath.Base(f.path), got, f.want)
		}
	}
	vk, err := os.ReadFile(vkPath)
	if err != nil {
		t.Fatal(err)
	}
	refVK, err := os.ReadFile(filepath.Join(goldenDir, "2KiB-s10", m10.VKFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(vk, refVK) {
		t.Errorf("%s differs from testdata/golden/2KiB-s10's", m10.VKFile)
	}
	if t.Failed() {
		t.FailNow()
	}

	for _, folder := range []string{"2KiB-s10", "2KiB-s14"} {
		t.Run(folder, func(t *testing.T) {
			if folder != "2KiB-s10" && !testenv.Enabled(testenv.TierLong) {
				t.Skip("long tier: a second 2 KiB CPU proof")
			}
			var m goldenSectorMeta
			raw, err := os.ReadFile(filepath.Join(goldenDir, folder, "meta.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			if m.ToxicSeed != m10.ToxicSeed {
				t.Fatalf("%s uses toxic_seed %s, 2KiB-s10 %s", folder, m.ToxicSeed, m10.ToxicSeed)
			}
			c1, err := os.ReadFile(filepath.Join(goldenDir, folder, "c1.json"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(goldenDir, folder, m.ProofFile))
			if err != nil {
				t.Fatal(err)
			}
			// prover_id is the ID address payload of miner 1000 (e807…).
			if m.ProverID[:4] != "e807" {
				t.Fatalf("prover_id %s is not miner 1000's", m.ProverID)
			}
			start := time.Now()
			got, err := SealCommitPhase2(c1, abi.SectorNumber(m.SectorID), 1000, WithParamsDir(dir),
				WithBackend(BackendCPU), WithDeterministicRandomness(seed32(t, "rs_seed", m.RSSeed)))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s proven in %v", folder, time.Since(start))
			if !bytes.Equal(got, want) {
				t.Errorf("proof %x\nbellperson %x", got, want)
			}
		})
	}
}
