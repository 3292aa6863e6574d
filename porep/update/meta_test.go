// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/testsupport/goldentest"
)

// refDir is the 2 KiB reference vector (testdata/README.md).
const refDir = "testdata/update-2KiB-s31"

// refMeta is the part of meta.json the tests read.
type refMeta struct {
	SectorSize   uint64 `json:"sector_size"`
	TreeR        string `json:"tree_r"`
	UpdateProof  int64  `json:"registered_update_proof_number"`
	UpdateName   string `json:"registered_update_proof"`
	UpdateConfig struct {
		SectorNodes     uint64 `json:"sector_nodes"`
		Partitions      int    `json:"partitions"`
		Challenges      int    `json:"challenges_per_partition"`
		ChallengeBitLen int    `json:"challenge_bit_len"`
		PartitionBitLen int    `json:"partition_bit_len"`
		ApexLeafCount   int    `json:"apex_leaf_count"`
		ApexLeafBitLen  int    `json:"apex_leaf_bit_len"`
		HS              []int  `json:"hs"`
		H               int    `json:"h"`
		HSelect         uint64 `json:"h_select"`
	} `json:"update_config"`
	CommROld        string `json:"comm_r_old"`
	CommC           string `json:"comm_c"`
	CommDNew        string `json:"comm_d_new"`
	CommRNew        string `json:"comm_r_new"`
	Phi             string `json:"phi"`
	CacheIdentifier string `json:"cache_identifier"`
	ParamsFile      string `json:"params_file"`
	VKFile          string `json:"vk_file"`
	ToxicSeed       string `json:"toxic_seed"`
	ParamsBlake2b16 string `json:"params_blake2b16"`
	ParamsSize      int64  `json:"params_size"`
	VKBlake2b16     string `json:"vk_blake2b16"`
	RSSeed          string `json:"rs_seed"`
	ProofFile       string `json:"proof_file"`
	Vanilla         struct {
		Files []struct {
			K    int    `json:"k"`
			File string `json:"file"`
			Size int    `json:"size"`
		} `json:"files"`
	} `json:"vanilla"`
	Partition []struct {
		goldentest.Partition
		PublicInputs []string `json:"public_inputs"`
		KAndHSelect  uint64   `json:"k_and_h_select"`
		Challenges   []struct {
			C        uint64 `json:"c"`
			CHigh    uint64 `json:"c_high"`
			Rho      string `json:"rho"`
			LeafROld string `json:"leaf_r_old"`
			LeafDNew string `json:"leaf_d_new"`
			LeafRNew string `json:"leaf_r_new"`
		} `json:"challenges"`
		RootROld string `json:"root_r_old"`
		RootRNew string `json:"root_r_new"`
		ProofHex string `json:"proof_hex"`
	} `json:"partition"`
}

func loadMeta(t testing.TB) *refMeta {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(refDir, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	m := &refMeta{}
	if err := json.Unmarshal(b, m); err != nil {
		t.Fatalf("meta.json: %v", err)
	}
	return m
}

// hexFr decodes a 32-byte LE hex value into a field element.
func hexFr(t testing.TB, name, s string) fr.Element {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		t.Fatalf("%s: %q is not 32 bytes of hex", name, s)
	}
	e, err := stacked.FrFromBytes((*[32]byte)(b))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return e
}

func frHex(e *fr.Element) string {
	b := stacked.FrToBytes(e)
	return hex.EncodeToString(b[:])
}

// loadRef returns the reference meta, its config and partition 0's bytes.
func loadRef(t testing.TB) (*refMeta, *Config, []byte) {
	t.Helper()
	m := loadMeta(t)
	cfg, err := ConfigFor(0)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(refDir, m.Vanilla.Files[0].File))
	if err != nil {
		t.Fatal(err)
	}
	return m, &cfg, data
}
