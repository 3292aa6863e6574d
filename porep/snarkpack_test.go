// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/porep/aggregate"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testparams"
)

const aggGolden = "../testdata/golden"

type aggMeta struct {
	SectorID uint64 `json:"sector_id"`
	Ticket   string `json:"ticket"`
	Seed     string `json:"seed"`
	CommD    string `json:"comm_d"`
	CommR    string `json:"comm_r"`
}

func aggReadMeta(t *testing.T, dir string) aggMeta {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(aggGolden, dir, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m aggMeta
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func aggHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func aggInfo(t *testing.T, dir string) proof.AggregateSealVerifyInfo {
	m := aggReadMeta(t, dir)
	sealed, err := commcid.ReplicaCommitmentV1ToCID(aggHex(t, m.CommR))
	if err != nil {
		t.Fatal(err)
	}
	unsealed, err := commcid.DataCommitmentV1ToCID(aggHex(t, m.CommD))
	if err != nil {
		t.Fatal(err)
	}
	return proof.AggregateSealVerifyInfo{
		Number:                abi.SectorNumber(m.SectorID),
		Randomness:            aggHex(t, m.Ticket),
		InteractiveRandomness: aggHex(t, m.Seed),
		SealedCID:             sealed,
		UnsealedCID:           unsealed,
	}
}

// aggParamsDir is a parameter directory with the golden 2 KiB .vk (the
// same circuit for V1_1 and NI-PoRep) and the golden test SRS.
func aggParamsDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, src := range []string{
		filepath.Join(aggGolden, "2KiB-s10", "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.vk"),
		filepath.Join(aggGolden, "agg-srs", aggregate.SRSFileName),
	} {
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

func readGoldenFile(t *testing.T, parts ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(append([]string{aggGolden}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAggregateSealProofsGolden: AggregateSealProofs over the C2 outputs
// of 2KiB-s10 and 2KiB-s14 gives filecoin-proofs' aggregate byte for byte,
// VerifyAggregateSeals accepts it and rejects it for other sectors, seeds,
// order or aggregation version.
func TestAggregateSealProofsGolden(t *testing.T) {
	dir := aggParamsDir(t)
	info := proof.AggregateSealVerifyProofAndInfos{
		Miner:          1000,
		SealProof:      abi.RegisteredSealProof_StackedDrg2KiBV1_1,
		AggregateProof: abi.RegisteredAggregationProof_SnarkPackV2,
		Infos:          []proof.AggregateSealVerifyInfo{aggInfo(t, "2KiB-s10"), aggInfo(t, "2KiB-s14")},
	}
	proofs := [][]byte{readGoldenFile(t, "2KiB-s10", "proof.bin"), readGoldenFile(t, "2KiB-s14", "proof.bin")}
	got, err := AggregateSealProofs(info, proofs, WithParamsDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	want := readGoldenFile(t, "agg-2KiB-s10-s14", "aggregate.bin")
	if !bytes.Equal(got, want) {
		t.Fatal("AggregateSealProofs differs from agg-2KiB-s10-s14/aggregate.bin")
	}
	info.Proof = want
	if ok, err := VerifyAggregateSeals(info, WithParamsDir(dir)); !ok || err != nil {
		t.Fatalf("VerifyAggregateSeals(golden) = %v, %v", ok, err)
	}
	// Its .vk goes through Keys, as every verifier's: test parameters are
	// refused under the production policy.
	if ok, err := VerifyAggregateSeals(info, WithParamsDir(dir), WithRequireProductionParams()); ok || !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), ".vk") {
		t.Errorf("VerifyAggregateSeals under WithRequireProductionParams: %v, %v; want the test .vk refused", ok, err)
	}
	bad := info
	bad.Infos = []proof.AggregateSealVerifyInfo{info.Infos[1], info.Infos[0]}
	if ok, err := VerifyAggregateSeals(bad, WithParamsDir(dir)); ok || err != nil {
		t.Errorf("swapped sectors: %v, %v; want false, nil", ok, err)
	}
	bad = info
	bad.Infos = append([]proof.AggregateSealVerifyInfo(nil), info.Infos...)
	bad.Infos[0].InteractiveRandomness = bytes.Repeat([]byte{7}, 32)
	if ok, err := VerifyAggregateSeals(bad, WithParamsDir(dir)); ok || err != nil {
		t.Errorf("other seed: %v, %v; want false, nil", ok, err)
	}
	bad = info
	bad.AggregateProof = abi.RegisteredAggregationProof_SnarkPackV1
	if _, err := VerifyAggregateSeals(bad, WithParamsDir(dir)); !errors.Is(err, ErrUnsupportedProof) {
		t.Errorf("SnarkPackV1: err = %v", err)
	}
	bad = info
	bad.Proof = want[:100]
	if _, err := VerifyAggregateSeals(bad, WithParamsDir(dir)); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "byte offset") {
		t.Errorf("truncated aggregate: err = %v", err)
	}
	bad = info
	bad.Infos = info.Infos[:1] // padded to two like filecoin-proofs: a valid shape, a false result
	if ok, err := VerifyAggregateSeals(bad, WithParamsDir(dir)); ok || err != nil {
		t.Errorf("one info for a 2-proof aggregate: %v, %v; want false, nil", ok, err)
	}
	bad.Infos = append(append([]proof.AggregateSealVerifyInfo(nil), info.Infos...), info.Infos[0])
	if _, err := VerifyAggregateSeals(bad, WithParamsDir(dir)); !errors.Is(err, ErrBadInput) {
		t.Errorf("three infos for a 2-proof aggregate: err = %v", err)
	}
	// Three sectors (the last padded to four) aggregate and verify.
	info3 := info
	info3.Proof = nil
	info3.Infos = append(append([]proof.AggregateSealVerifyInfo(nil), info.Infos...), info.Infos[0])
	agg3, err := AggregateSealProofs(info3, append(proofs, proofs[0]), WithParamsDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if n := aggregate.ProofSize(4); len(agg3) != n {
		t.Fatalf("3 proofs: %d bytes, want %d (padded to 4)", len(agg3), n)
	}
	info3.Proof = agg3
	if ok, err := VerifyAggregateSeals(info3, WithParamsDir(dir)); !ok || err != nil {
		t.Fatalf("3 padded: %v, %v", ok, err)
	}
	// Without the SRS: ErrParamsNotFound.
	os.Remove(filepath.Join(dir, aggregate.SRSFileName))
	if _, err := VerifyAggregateSeals(info, WithParamsDir(dir)); !errors.Is(err, ErrParamsNotFound) {
		t.Errorf("no SRS: err = %v", err)
	}
}

// TestVerifySealNIGolden: VerifySeal accepts filecoin-proofs' NI-PoRep C2
// output (the aggregate of 13 partition proofs) and rejects it for another
// sector number or a flipped byte; AggregateSealProofs over the 13 circuit
// proofs gives the same bytes.
func TestVerifySealNIGolden(t *testing.T) {
	dir := aggParamsDir(t)
	in := aggInfo(t, "2KiB-ni-s12")
	want := readGoldenFile(t, "agg-2KiB-ni-s12", "aggregate.bin")
	vi := proof.SealVerifyInfo{
		SealProof:             abi.RegisteredSealProof_StackedDrg2KiBV1_2_Feat_NiPoRep,
		SectorID:              abi.SectorID{Miner: 1000, Number: in.Number},
		Randomness:            in.Randomness,
		InteractiveRandomness: in.InteractiveRandomness,
		Proof:                 want,
		SealedCID:             in.SealedCID,
		UnsealedCID:           in.UnsealedCID,
	}
	if ok, err := VerifySeal(vi, WithParamsDir(dir)); !ok || err != nil {
		t.Fatalf("VerifySeal(NI golden) = %v, %v", ok, err)
	}
	bad := vi
	bad.Number++
	if ok, err := VerifySeal(bad, WithParamsDir(dir)); ok || err != nil {
		t.Errorf("other sector number: %v, %v; want false, nil", ok, err)
	}
	bad = vi
	bad.Proof = bytes.Clone(want)
	bad.Proof[len(want)-1] ^= 1
	if ok, err := VerifySeal(bad, WithParamsDir(dir)); ok {
		t.Errorf("flipped last byte: %v, %v; want false or an error", ok, err)
	}
	info := proof.AggregateSealVerifyProofAndInfos{
		Miner: 1000, SealProof: vi.SealProof, AggregateProof: abi.RegisteredAggregationProof_SnarkPackV2,
		Infos: []proof.AggregateSealVerifyInfo{in},
	}
	got, err := AggregateSealProofs(info, [][]byte{readGoldenFile(t, "2KiB-ni-s12", "proof.bin")}, WithParamsDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("AggregateSealProofs(NI) differs from agg-2KiB-ni-s12/aggregate.bin")
	}
}

// TestSealCommitPhase2NIGolden is the NI-PoRep end to end on the CPU:
// the C1 output of 2KiB-ni-s12 → SealCommitPhase2 (13 partitions proven
// with test parameters from the sector's toxic_seed and r,s from its
// rs_seed, then aggregated) must give filecoin-proofs' C2 output
// agg-2KiB-ni-s12/aggregate.bin byte for byte, and VerifySeal accepts it.
// Long: a 1.1 GB parameter setup (kept in $TMPDIR/cuseal-golden-params for
// later runs) and 13 proofs.
func TestSealCommitPhase2NIGolden(t *testing.T) {
	testenv.Long(t, "Groth16 setup and 13 partition proofs of a 2 KiB NI-PoRep sector")
	var meta struct {
		ToxicSeed string `json:"toxic_seed"`
		RSSeed    string `json:"rs_seed"`
	}
	if err := json.Unmarshal(readGoldenFile(t, "2KiB-ni-s12", "meta.json"), &meta); err != nil {
		t.Fatal(err)
	}
	var toxic, rs [32]byte
	copy(toxic[:], aggHex(t, meta.ToxicSeed))
	copy(rs[:], aggHex(t, meta.RSSeed))
	cfg, err := stacked.ConfigFor(abi.RegisteredSealProof_StackedDrg2KiBV1_2_Feat_NiPoRep)
	if err != nil {
		t.Fatal(err)
	}
	dir := testparams.ForSeed(t, &cfg, toxic)
	srs := filepath.Join(dir, aggregate.SRSFileName)
	if _, err := os.Stat(srs); err != nil {
		if err := os.WriteFile(srs, readGoldenFile(t, "agg-srs", aggregate.SRSFileName), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := aggInfo(t, "2KiB-ni-s12")
	start := time.Now()
	got, err := SealCommitPhase2(readGoldenFile(t, "2KiB-ni-s12", "c1.json"), in.Number, 1000,
		WithParamsDir(dir), WithBackend(BackendCPU), WithDeterministicRandomness(rs))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("2 KiB NI-PoRep SealCommitPhase2 (13 partitions + aggregation, CPU) in %v", time.Since(start))
	if want := readGoldenFile(t, "agg-2KiB-ni-s12", "aggregate.bin"); !bytes.Equal(got, want) {
		t.Fatalf("NI-PoRep C2 output (%d bytes) differs from agg-2KiB-ni-s12/aggregate.bin (%d bytes)", len(got), len(want))
	}
	vi := proof.SealVerifyInfo{
		SealProof: abi.RegisteredSealProof_StackedDrg2KiBV1_2_Feat_NiPoRep, SectorID: abi.SectorID{Miner: 1000, Number: in.Number},
		Randomness: in.Randomness, InteractiveRandomness: in.InteractiveRandomness,
		Proof: got, SealedCID: in.SealedCID, UnsealedCID: in.UnsealedCID,
	}
	if ok, err := VerifySeal(vi, WithParamsDir(dir)); !ok || err != nil {
		t.Fatalf("VerifySeal = %v, %v", ok, err)
	}
}
