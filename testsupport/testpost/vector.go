// SPDX-License-Identifier: Apache-2.0 OR MIT

package testpost

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/testsupport/goldentest"
	"github.com/cuseal/cuseal/testsupport/testparams"
)

// Vector is one PoSt reference vector of porep/post/testdata (made by
// rust-fil-proofs 19.1.0; see its README): what a test of the prover needs.
type Vector struct {
	Dir          string // the vector's folder
	Proof        abi.RegisteredPoStProof
	Miner        abi.ActorID
	Randomness   []byte   // 32 bytes
	VanillaFiles []string // paths, in the vector's order (ascending sector number)
	Vanilla      [][]byte // their bytes
	Sectors      []proof.SectorInfo
	ToxicSeed    [32]byte
	RSSeed       [32]byte // r, s of proof.bin (groth16.RandomnessFromSeed)
	VKFile       string   // path of the .vk made from ToxicSeed
	Want         []byte   // proof.bin: bellperson's proof with r, s from RSSeed
	// Partitions are meta.json's partition records: counts, the four
	// digests and popcounts of each partition circuit.
	Partitions []goldentest.Partition
}

// Load reads porep/post/testdata/<folder> (found from this file's path, so
// any package's test can call it).
func Load(t testing.TB, folder string) *Vector {
	t.Helper()
	_, self, _, _ := runtime.Caller(0)
	v := &Vector{Dir: filepath.Join(filepath.Dir(self), "..", "..", "porep", "post", "testdata", folder)}
	var m struct {
		RegisteredProof struct {
			FFIID int64 `json:"ffi_id"`
		} `json:"registered_proof"`
		Miner      abi.ActorID `json:"miner"`
		Randomness string      `json:"randomness"`
		Sectors    []struct {
			SectorNumber abi.SectorNumber `json:"sector_number"`
			CommR        string           `json:"comm_r"`
		} `json:"sectors"`
		Vanilla []struct {
			File string `json:"file"`
		} `json:"vanilla"`
		VKFile    string                  `json:"vk_file"`
		ToxicSeed string                  `json:"toxic_seed"`
		RSSeed    string                  `json:"rs_seed"`
		ProofFile string                  `json:"proof_file"`
		Partition *[]goldentest.Partition `json:"partition"`
	}
	m.Partition = &v.Partitions
	goldentest.ReadMeta(t, v.Dir, &m)
	hex32 := func(what, s string) [32]byte { return goldentest.Hex32(t, folder, what, s) }
	v.Proof, v.Miner = abi.RegisteredPoStProof(m.RegisteredProof.FFIID), m.Miner
	r := hex32("randomness", m.Randomness)
	v.Randomness = r[:]
	v.ToxicSeed, v.RSSeed = hex32("toxic_seed", m.ToxicSeed), hex32("rs_seed", m.RSSeed)
	v.VKFile = filepath.Join(v.Dir, m.VKFile)
	for _, f := range m.Vanilla {
		p := filepath.Join(v.Dir, f.File)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		v.VanillaFiles, v.Vanilla = append(v.VanillaFiles, p), append(v.Vanilla, b)
	}
	cfg, err := post.ConfigFor(v.Proof)
	if err != nil {
		t.Fatal(err)
	}
	seal, ok := stacked.SealProofV1_1(cfg.SectorSize)
	if !ok {
		t.Fatalf("%s: no seal proof for %d-byte sectors", folder, cfg.SectorSize)
	}
	for _, s := range m.Sectors {
		c := hex32("comm_r", s.CommR)
		sealed, err := commcid.ReplicaCommitmentV1ToCID(c[:])
		if err != nil {
			t.Fatal(err)
		}
		v.Sectors = append(v.Sectors, proof.SectorInfo{SealProof: seal, SectorNumber: s.SectorNumber, SealedCID: sealed})
	}
	if v.Want, err = os.ReadFile(filepath.Join(v.Dir, m.ProofFile)); err != nil {
		t.Fatal(err)
	}
	return v
}

// ParamsDir is ParamsDir for the vector: its toxic seed and .vk.
func (v *Vector) ParamsDir(t testing.TB) string {
	t.Helper()
	return ParamsDir(t, v.Proof, v.ToxicSeed, v.VKFile)
}

// OwnParamsDir is ParamsDir with a private copy of the .params (not a link
// into the shared test parameters), for a test that changes the file on
// disk: it returns the directory, the .params path and testparams.OwnCopy's
// restore.
func (v *Vector) OwnParamsDir(t testing.TB) (dir, params string, restore func()) {
	t.Helper()
	dir = v.ParamsDir(t)
	cfg, err := post.ConfigFor(v.Proof)
	if err != nil {
		t.Fatal(err)
	}
	params, _, _ = cfg.ParameterPaths(dir)
	return dir, params, testparams.OwnCopy(t, params)
}
