// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cgo

package main

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/ipfs/go-cid"

	"github.com/cuseal/cuseal/porep/aggregate"
	"github.com/cuseal/cuseal/testsupport/testpost"
	"github.com/cuseal/cuseal/testsupport/testupdate"
)

// The reference vectors of rust-fil-proofs 19.1.0 the version-2 calls are
// tested on: the PoSt ones (porep/post/testdata, testsupport/testpost), the
// SnapDeals one (porep/update/testdata, testsupport/testupdate) and the
// aggregate of 2KiB-s10 and 2KiB-s14 (testdata/golden/agg-2KiB-s10-s14).

const goldenDir = "../testdata/golden"

// The 2 KiB PoRep .vk of the golden sectors' test parameters.
const porep2KiBVK = "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.vk"

// aggSector is one sector of the aggregate vector: its inputs (raw, as
// the C ABI takes them) and its C2 proof.
type aggSector struct {
	Number                     abi.SectorNumber
	CommR, CommD, Ticket, Seed []byte
	Proof                      []byte
	ProofFile                  string
}

// aggVector is testdata/golden/agg-2KiB-s10-s14: filecoin-proofs'
// aggregate_seal_commit_proofs over 2KiB-s10 and 2KiB-s14 (miner 1000,
// StackedDrg2KiBV1_1, SnarkPack V2), with the test SRS.
type aggVector struct {
	Miner   abi.ActorID
	Proof   abi.RegisteredSealProof
	Sectors []aggSector
	Want    []byte
	File    string // aggregate.bin
}

func loadAggVector(t testing.TB) *aggVector {
	t.Helper()
	v := &aggVector{Miner: 1000, Proof: abi.RegisteredSealProof_StackedDrg2KiBV1_1,
		File: filepath.Join(goldenDir, "agg-2KiB-s10-s14", "aggregate.bin")}
	for _, dir := range []string{"2KiB-s10", "2KiB-s14"} {
		v.Sectors = append(v.Sectors, readAggSector(t, dir))
	}
	var err error
	if v.Want, err = os.ReadFile(v.File); err != nil {
		t.Fatal(err)
	}
	return v
}

// readAggSector reads a golden sector's inputs (testdata/golden/DIR/meta.json)
// and its C2 proof (proof.bin).
func readAggSector(t testing.TB, dir string) aggSector {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(goldenDir, dir, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		SectorID uint64 `json:"sector_id"`
		Ticket   string `json:"ticket"`
		Seed     string `json:"seed"`
		CommD    string `json:"comm_d"`
		CommR    string `json:"comm_r"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	s := aggSector{Number: abi.SectorNumber(m.SectorID), ProofFile: filepath.Join(goldenDir, dir, "proof.bin")}
	for _, f := range []struct {
		dst *[]byte
		hex string
	}{{&s.CommR, m.CommR}, {&s.CommD, m.CommD}, {&s.Ticket, m.Ticket}, {&s.Seed, m.Seed}} {
		if *f.dst, err = hex.DecodeString(f.hex); err != nil || len(*f.dst) != 32 {
			t.Fatalf("%s/meta.json: %q: not 32 hex bytes", dir, f.hex)
		}
	}
	if s.Proof, err = os.ReadFile(s.ProofFile); err != nil {
		t.Fatal(err)
	}
	return s
}

// vectors are the reference vectors the calls are tested on.
type vectors struct {
	window, winning *testpost.Vector
	update          *testupdate.Vector
	agg             *aggVector
}

func loadVectors(t testing.TB) *vectors {
	t.Helper()
	return &vectors{
		window:  testpost.Load(t, "post-window-2KiB-s21"),
		winning: testpost.Load(t, "post-winning-2KiB-s22"),
		update:  testupdate.Load(t),
		agg:     loadAggVector(t),
	}
}

// vkDir returns a new parameter directory holding the verifying keys of
// every vector (the window, winning, update and 2 KiB PoRep .vk under
// their official names) and the test SRS: enough to verify each vector's
// proof and to aggregate, but no .params, so a prover call with valid
// inputs ends in ErrParamsNotFound before any SNARK work.
func vkDir(t testing.TB, v *vectors) string {
	t.Helper()
	dir := t.TempDir()
	for _, src := range []string{v.window.VKFile, v.winning.VKFile, v.update.VKFile,
		filepath.Join(goldenDir, "2KiB-s10", porep2KiBVK), filepath.Join(goldenDir, "agg-srs", aggregate.SRSFileName)} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(src)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// aggCIDs are an aggregate sector's commitments as the Go API takes them.
func aggCIDs(t testing.TB, s aggSector) (sealed, unsealed cid.Cid) {
	t.Helper()
	sealed, err := commcid.ReplicaCommitmentV1ToCID(s.CommR)
	if err != nil {
		t.Fatal(err)
	}
	if unsealed, err = commcid.DataCommitmentV1ToCID(s.CommD); err != nil {
		t.Fatal(err)
	}
	return sealed, unsealed
}

// commR is a sector's comm_r as the C ABI takes it.
func commR(t testing.TB, v *testpost.Vector, i int) []byte {
	t.Helper()
	b, err := commcid.CIDToReplicaCommitmentV1(v.Sectors[i].SealedCID)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
