// SPDX-License-Identifier: Apache-2.0 OR MIT

package post

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/cuseal/cuseal/testsupport/goldentest"
)

// refMeta is the part of a testdata/post-* meta.json the tests read
// (testdata/README.md).
type refMeta struct {
	Kind            string `json:"kind"`
	SectorSize      uint64 `json:"sector_size"`
	Tree            string `json:"tree"`
	RegisteredProof struct {
		FFIID      int64  `json:"ffi_id"`
		FFIName    string `json:"ffi_name"`
		APIName    string `json:"api_name"`
		APIVersion string `json:"api_version"`
	} `json:"registered_proof"`
	PoStConfig struct {
		ChallengeCount int `json:"challenge_count"`
		SectorCount    int `json:"sector_count"`
	} `json:"post_config"`
	CircuitParams struct {
		SectorCount    int    `json:"sector_count"`
		ChallengeCount int    `json:"challenge_count"`
		Identifier     string `json:"identifier"`
	} `json:"circuit_params"`
	Partitions int    `json:"partitions"`
	ProverID   string `json:"prover_id"`
	Randomness string `json:"randomness"`
	Sectors    []struct {
		SectorNumber uint64 `json:"sector_number"`
		CommR        string `json:"comm_r"`
		CommC        string `json:"comm_c"`
		CommRLast    string `json:"comm_r_last"`
	} `json:"sectors"`
	WinningSectorChallenge *struct {
		SectorSetLen  uint64   `json:"sector_set_len"`
		Indices       []uint64 `json:"indices"`
		SectorNumbers []uint64 `json:"sector_numbers"`
	} `json:"winning_sector_challenge"`
	ChallengedSectors []uint64 `json:"challenged_sectors"`
	Challenges        []struct {
		SectorNumber uint64   `json:"sector_number"`
		Challenges   []uint64 `json:"challenges"`
	} `json:"challenges"`
	Vanilla []struct {
		File         string `json:"file"`
		SectorNumber uint64 `json:"sector_number"`
		Size         int    `json:"size"`
	} `json:"vanilla"`
	Partition []struct {
		goldentest.Partition
		Slots []struct {
			SectorNumber   uint64   `json:"sector_number"`
			Padding        bool     `json:"padding"`
			LeafChallenges []uint64 `json:"leaf_challenges"`
		} `json:"slots"`
		PublicInputs []string `json:"public_inputs"`
		ProofHex     string   `json:"proof_hex"`
	} `json:"partition"`
	CacheIdentifier string `json:"cache_identifier"`
	ParamsFile      string `json:"params_file"`
	VKFile          string `json:"vk_file"`
	ToxicSeed       string `json:"toxic_seed"`
	ParamsBlake2b   string `json:"params_blake2b16"`
	ParamsSize      int64  `json:"params_size"`
	VKBlake2b       string `json:"vk_blake2b16"`
	RSSeed          string `json:"rs_seed"`
	ProofFile       string `json:"proof_file"`
}

func loadMeta(t testing.TB, folder string) *refMeta {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", folder, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m refMeta
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s/meta.json: %v", folder, err)
	}
	if len(m.Partition) == 0 || len(m.Sectors) == 0 {
		t.Fatalf("%s/meta.json: no partitions or sectors", folder)
	}
	return &m
}

func hexs(b []byte) string { return hex.EncodeToString(b) }

func hex32(t testing.TB, what, s string) [32]byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		t.Fatalf("%s %q: not 32 hex bytes", what, s)
	}
	return [32]byte(b)
}
