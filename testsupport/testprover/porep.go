// SPDX-License-Identifier: Apache-2.0 OR MIT

package testprover

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/ipfs/go-cid"

	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/testsupport/goldentest"
	"github.com/cuseal/cuseal/testsupport/testparams"
)

// PoRepVector is one interactive PoRep reference vector of testdata/golden
// (2KiB-s10, 2KiB-s14): what a test of a prove path needs.
type PoRepVector struct {
	Dir        string // the vector's folder
	Config     stacked.SectorConfig
	C1         []byte // c1.json: filecoin-ffi's SealCommitPhase1 output
	Miner      abi.ActorID
	Sector     abi.SectorNumber
	Ticket     []byte // 32 bytes
	Seed       []byte // 32 bytes (interactive randomness)
	CommR      cid.Cid
	CommD      cid.Cid
	ToxicSeed  [32]byte // testparams.Seed
	RSSeed     [32]byte // r, s of proof.bin (groth16.RandomnessFromSeed)
	Want       []byte   // proof.bin: bellperson's proof, 192 bytes per partition
	Partitions []goldentest.Partition
}

// PoRep reads testdata/golden/<folder> (found from this file's path, so any
// package's test can call it).
func PoRep(t testing.TB, folder string) *PoRepVector {
	t.Helper()
	_, self, _, _ := runtime.Caller(0)
	v := &PoRepVector{Dir: filepath.Join(filepath.Dir(self), "..", "..", "testdata", "golden", folder)}
	var m struct {
		RegisteredProof string                 `json:"registered_proof"`
		ProverID        string                 `json:"prover_id"`
		SectorID        uint64                 `json:"sector_id"`
		Ticket          string                 `json:"ticket"`
		Seed            string                 `json:"seed"`
		CommD           string                 `json:"comm_d"`
		CommR           string                 `json:"comm_r"`
		C1File          string                 `json:"c1_file"`
		ToxicSeed       string                 `json:"toxic_seed"`
		RSSeed          string                 `json:"rs_seed"`
		ProofFile       string                 `json:"proof_file"`
		Partition       []goldentest.Partition `json:"partition"`
	}
	goldentest.ReadMeta(t, v.Dir, &m)
	hex32 := func(what, s string) []byte {
		b := goldentest.Hex32(t, folder, what, s)
		return b[:]
	}
	var err error
	if v.Config, err = stacked.ConfigByName(m.RegisteredProof); err != nil {
		t.Fatalf("%s: %v", folder, err)
	}
	prover := hex32("prover_id", m.ProverID)
	// An ID address payload: the actor ID as a little-endian varint (e807 = 1000).
	var id uint64
	for i, shift := 0, uint(0); i < len(prover); i, shift = i+1, shift+7 {
		id |= uint64(prover[i]&0x7f) << shift
		if prover[i] < 0x80 {
			break
		}
	}
	v.Miner, v.Sector = abi.ActorID(id), abi.SectorNumber(m.SectorID)
	v.Ticket, v.Seed = hex32("ticket", m.Ticket), hex32("seed", m.Seed)
	if v.CommR, err = commcid.ReplicaCommitmentV1ToCID(hex32("comm_r", m.CommR)); err != nil {
		t.Fatal(err)
	}
	if v.CommD, err = commcid.DataCommitmentV1ToCID(hex32("comm_d", m.CommD)); err != nil {
		t.Fatal(err)
	}
	v.ToxicSeed, v.RSSeed = [32]byte(hex32("toxic_seed", m.ToxicSeed)), [32]byte(hex32("rs_seed", m.RSSeed))
	if v.ToxicSeed != testparams.Seed {
		t.Fatalf("%s: toxic_seed %x is not the shared test parameters' %x", folder, v.ToxicSeed, testparams.Seed)
	}
	if v.C1, err = os.ReadFile(filepath.Join(v.Dir, m.C1File)); err != nil {
		t.Fatal(err)
	}
	if v.Want, err = os.ReadFile(filepath.Join(v.Dir, m.ProofFile)); err != nil {
		t.Fatal(err)
	}
	v.Partitions = m.Partition
	return v
}
