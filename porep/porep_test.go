// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"
	"github.com/ipfs/go-cid"

	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/synthetic"
	"github.com/cuseal/cuseal/testsupport/testenv"
	"github.com/cuseal/cuseal/testsupport/testparams"
	"github.com/cuseal/cuseal/testsupport/testsector"
)

const (
	testMiner  = testsector.Miner
	testSector = testsector.Sector
)

var (
	testTicket = testsector.Ticket
	testSeed   = testsector.Seed
	testRSSeed = [32]byte{'r', 's'}
)

// sealed2K is a sealed 2 KiB sector's C1 output and commitments.
type sealed2K struct {
	c1           []byte
	commR, commD cid.Cid
}

var (
	sealOnce sync.Once
	sealRes  *sealed2K
	sealErr  error
)

// config2K is the 2 KiB configuration of the shared test parameters.
var config2K = testparams.Config2K

// seal2K seals one random 2 KiB sector with porep/seal (once per test run).
func seal2K(t testing.TB) *sealed2K {
	t.Helper()
	sealOnce.Do(func() {
		var ts *testsector.Sealed
		if ts, sealErr = testsector.Seal(config2K(t), 1); sealErr == nil {
			sealRes = &sealed2K{c1: ts.C1, commR: ts.CommR, commD: ts.CommD}
		}
	})
	if sealErr != nil {
		t.Fatal(sealErr)
	}
	return sealRes
}

func verifyInfo(t testing.TB, s *sealed2K, proofBytes []byte) proof.SealVerifyInfo {
	return proof.SealVerifyInfo{
		SealProof:             abi.RegisteredSealProof_StackedDrg2KiBV1_1,
		SectorID:              abi.SectorID{Miner: testMiner, Number: testSector},
		Randomness:            abi.SealRandomness(testTicket),
		InteractiveRandomness: abi.InteractiveSealRandomness(testSeed),
		Proof:                 proofBytes,
		SealedCID:             s.commR,
		UnsealedCID:           s.commD,
	}
}

// TestSealCommitPhase2EndToEnd proves a sealed 2 KiB sector on the CPU
// backend with test parameters and checks VerifySeal: the proof verifies,
// and flipping any byte, or changing comm_r, the seed or the sector number,
// makes it fail. A second run from lotus-bench's Commit2In wrapper with the
// same deterministic randomness (and preloaded parameters, backend "auto")
// must give the same bytes.
func TestSealCommitPhase2EndToEnd(t *testing.T) {
	testenv.Long(t, "Groth16 setup and proving of a 2.7M-constraint circuit")
	s := seal2K(t)
	dir := testparams.Get2K(t)
	start := time.Now()
	pf, err := SealCommitPhase2(s.c1, testSector, testMiner, WithParamsDir(dir), WithBackend(BackendCPU),
		WithDeterministicRandomness(testRSSeed), WithLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("2 KiB SealCommitPhase2 (CPU) in %v", time.Since(start))
	if len(pf) != groth16.ProofSize {
		t.Fatalf("proof is %d bytes, want %d", len(pf), groth16.ProofSize)
	}
	ok, err := VerifySeal(verifyInfo(t, s, pf), WithParamsDir(dir))
	if err != nil || !ok {
		t.Fatalf("VerifySeal = %v, %v; want true", ok, err)
	}

	t.Run("flipped bytes", func(t *testing.T) {
		for i := range pf {
			bad := bytes.Clone(pf)
			bad[i] ^= 0x01 << (i % 8)
			ok, err := VerifySeal(verifyInfo(t, s, bad), WithParamsDir(dir))
			// Bytes that no longer decode are an input error (as in
			// rust-fil-proofs verify_seal); the rest must fail the pairing.
			_, derr := groth16.DecodeProofs(bad)
			if (err != nil) != (derr != nil) || (err != nil && !errors.Is(err, ErrBadInput)) {
				t.Fatalf("byte %d: VerifySeal error %v, decode error %v", i, err, derr)
			}
			if ok {
				t.Fatalf("proof with byte %d flipped verified", i)
			}
		}
		// Flipping the sign flag of A, B or C negates the point: it still
		// decodes, so the pairing check itself must reject it.
		for _, off := range []int{0, 48, 144} {
			bad := bytes.Clone(pf)
			bad[off] ^= 0x20
			if _, err := groth16.DecodeProofs(bad); err != nil {
				t.Fatalf("negated point at %d does not decode: %v", off, err)
			}
			ok, err := VerifySeal(verifyInfo(t, s, bad), WithParamsDir(dir))
			if err != nil || ok {
				t.Fatalf("negated point at %d: VerifySeal = %v, %v", off, ok, err)
			}
		}
	})
	t.Run("changed public data", func(t *testing.T) {
		info := verifyInfo(t, s, pf)
		// Another valid replica commitment: comm_r + 1 (little-endian).
		commR, err := commRPlusOne(s.commR)
		if err != nil {
			t.Fatal(err)
		}
		info.SealedCID = commR
		if ok, err := VerifySeal(info, WithParamsDir(dir)); err != nil || ok {
			t.Fatalf("changed comm_r: %v, %v", ok, err)
		}
		info = verifyInfo(t, s, pf)
		info.InteractiveRandomness = bytes.Repeat([]byte{8}, 32)
		if ok, err := VerifySeal(info, WithParamsDir(dir)); err != nil || ok {
			t.Fatalf("changed seed: %v, %v", ok, err)
		}
		info = verifyInfo(t, s, pf)
		info.Number++
		if ok, err := VerifySeal(info, WithParamsDir(dir)); err != nil || ok {
			t.Fatalf("changed sector number: %v, %v", ok, err)
		}
		info = verifyInfo(t, s, pf)
		info.Miner++
		if ok, err := VerifySeal(info, WithParamsDir(dir)); err != nil || ok {
			t.Fatalf("changed miner: %v, %v", ok, err)
		}
	})
	t.Run("Commit2In deterministic", func(t *testing.T) {
		wrapped := stacked.MarshalCommit2In(int64(testSector), 2048, s.c1)
		pf2, err := SealCommitPhase2(wrapped, testSector, testMiner, WithParamsDir(dir), WithBackend(BackendAuto),
			WithDeterministicRandomness(testRSSeed), WithMaxPartitionsInFlight(2), WithPreloadParams())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(pf, pf2) {
			t.Fatal("same C1 and randomness seed gave different proofs")
		}
	})
}

// commRPlusOne returns the sealed CID of comm_r + 1 (still canonical).
func commRPlusOne(c cid.Cid) (cid.Cid, error) {
	b, err := commcid.CIDToReplicaCommitmentV1(c)
	if err != nil {
		return cid.Undef, err
	}
	b[0]++
	return commcid.ReplicaCommitmentV1ToCID(b)
}

// TestSealCommitPhase2BadInput checks that malformed or mismatched inputs
// give clear errors before any proving.
func TestSealCommitPhase2BadInput(t *testing.T) {
	s := seal2K(t)
	emptyDir := t.TempDir()
	cases := []struct {
		name   string
		input  []byte
		sector abi.SectorNumber
		miner  abi.ActorID
		opts   []Option
		want   string
	}{
		{"truncated JSON", s.c1[:len(s.c1)/2], testSector, testMiner, nil, "C1"},
		{"empty", nil, testSector, testMiner, nil, "C1"},
		{"wrong variant tag", bytes.Replace(s.c1, []byte(`"StackedDrg2KiBV1"`), []byte(`"StackedDrg8MiBV1"`), 1), testSector, testMiner, nil, "StackedDrg8MiBV1"},
		{"unknown registered proof", bytes.Replace(s.c1, []byte(`"StackedDrg2KiBV1_1"`), []byte(`"StackedDrg3KiBV1_1"`), 1), testSector, testMiner, nil, "StackedDrg3KiBV1_1"},
		{"wrong miner", s.c1, testSector, testMiner + 1, nil, "replica"},
		{"wrong sector", s.c1, testSector + 1, testMiner, nil, "replica"},
		{"Commit2In sector mismatch", stacked.MarshalCommit2In(int64(testSector)+1, 2048, s.c1), testSector, testMiner, nil, "SectorNum"},
		{"Commit2In size mismatch", stacked.MarshalCommit2In(int64(testSector), 4096, s.c1), testSector, testMiner, nil, "SectorSize"},
		{"missing params", s.c1, testSector, testMiner, []Option{WithParamsDir(emptyDir)}, "not found"},
		{"unknown backend", s.c1, testSector, testMiner, []Option{WithParamsDir(emptyDir), WithBackend("tpu")}, "unknown backend"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := SealCommitPhase2(c.input, c.sector, c.miner, c.opts...)
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not mention %q", err, c.want)
			}
			t.Log(err)
		})
	}
	// Structural damage detected by the C1 validation, with the JSON path.
	c1, _, err := stacked.ParseC1(s.c1)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("challenge count", func(t *testing.T) {
		bad := *c1
		bad.VanillaProofs = [][]stacked.VanillaProof{c1.VanillaProofs[0][:1]}
		_, err := SealCommitPhase2(bad.Marshal(), testSector, testMiner)
		if err == nil || !strings.Contains(err.Error(), "vanilla_proofs") {
			t.Fatalf("one challenge: %v", err)
		}
	})
	t.Run("non-canonical Fr", func(t *testing.T) {
		bad := *c1
		bad.CommR = stacked.Domain(bytes.Repeat([]byte{0xff}, 32))
		_, err := SealCommitPhase2(bad.Marshal(), testSector, testMiner)
		if err == nil || !strings.Contains(err.Error(), "comm_r") {
			t.Fatalf("non-canonical comm_r: %v", err)
		}
	})
	t.Run("synthetic C1", func(t *testing.T) {
		syn, err := synthetic.C1(config2K(t), synthetic.C1Options{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		_, err = SealCommitPhase2(syn.Marshal(), testSector, testMiner)
		if err == nil {
			t.Fatal("synthetic C1 accepted")
		}
		// Its replica id is random, so either check may fire first.
		if !errors.Is(err, stacked.ErrSyntheticC1) && !strings.Contains(err.Error(), "replica") {
			t.Fatalf("synthetic C1: %v", err)
		}
	})
}

// TestSealCommitPhase2ErrBadInput: every C1/argument mistake is reported before
// parameters are opened or anything is synthesized, wrapping ErrBadInput and
// naming what is wrong (the params directory is empty: reaching it would
// give ErrParamsNotFound instead).
func TestSealCommitPhase2ErrBadInput(t *testing.T) {
	s := seal2K(t)
	c1, _, err := stacked.ParseC1(s.c1)
	if err != nil {
		t.Fatal(err)
	}
	flipSeed := *c1
	flipSeed.Seed[0] ^= 1
	flipLeaf, _, err := stacked.ParseC1(s.c1)
	if err != nil {
		t.Fatal(err)
	}
	flipLeaf.VanillaProofs[0][1].CommRLastProof.Leaf[0] ^= 1
	syn, err := synthetic.C1(config2K(t), synthetic.C1Options{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		input  []byte
		sector abi.SectorNumber
		miner  abi.ActorID
		want   string
	}{
		{"truncated JSON", s.c1[:len(s.c1)/2], testSector, testMiner, "C1"},
		{"flipped seed", flipSeed.Marshal(), testSector, testMiner, "vanilla_proofs.StackedDrg2KiBV1[0][0].labeling_proofs[0].node"},
		{"corrupted Merkle leaf", flipLeaf.Marshal(), testSector, testMiner, "vanilla_proofs.StackedDrg2KiBV1[0][1].comm_r_last_proof.data.Single.leaf"},
		{"Commit2In size mismatch", stacked.MarshalCommit2In(int64(testSector), 4096, s.c1), testSector, testMiner, "Commit2In.SectorSize = 4096"},
		{"Commit2In sector mismatch", stacked.MarshalCommit2In(int64(testSector)+1, 2048, s.c1), testSector, testMiner, "SectorNum"},
		{"wrong miner", s.c1, testSector, testMiner + 1, "ticket, comm_d"},
		{"synthetic", syn.Marshal(), testSector, testMiner, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := SealCommitPhase2(c.input, c.sector, c.miner, WithParamsDir(t.TempDir()))
			if !errors.Is(err, ErrBadInput) {
				t.Fatalf("error %v does not wrap ErrBadInput", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not mention %q", err, c.want)
			}
		})
	}
}

// TestVerifySealBadInput checks VerifySeal's errors for inputs that cannot
// be checked at all.
func TestVerifySealBadInput(t *testing.T) {
	s := seal2K(t)
	dir := t.TempDir()
	pf := make([]byte, groth16.ProofSize)
	for name, mutate := range map[string]func(*proof.SealVerifyInfo){
		"proof length":   func(i *proof.SealVerifyInfo) { i.Proof = i.Proof[:191] },
		"ticket length":  func(i *proof.SealVerifyInfo) { i.Randomness = i.Randomness[:31] },
		"seed length":    func(i *proof.SealVerifyInfo) { i.InteractiveRandomness = nil },
		"sealed CID":     func(i *proof.SealVerifyInfo) { i.SealedCID = s.commD },
		"unsealed CID":   func(i *proof.SealVerifyInfo) { i.UnsealedCID = s.commR },
		"unknown proof":  func(i *proof.SealVerifyInfo) { i.SealProof = 99 },
		"NI-PoRep":       func(i *proof.SealVerifyInfo) { i.SealProof = abi.RegisteredSealProof_StackedDrg2KiBV1_2_Feat_NiPoRep },
		"missing vk":     func(i *proof.SealVerifyInfo) {},
		"undefined CIDs": func(i *proof.SealVerifyInfo) { i.SealedCID = cid.Undef },
	} {
		t.Run(name, func(t *testing.T) {
			info := verifyInfo(t, s, pf)
			mutate(&info)
			ok, err := VerifySeal(info, WithParamsDir(dir))
			if err == nil || ok {
				t.Fatalf("VerifySeal = %v, %v; want an error", ok, err)
			}
			t.Log(err)
		})
	}
	// With a verifying key of the right shape (generator points: nothing
	// verifies against it), each input mistake wraps ErrBadInput.
	cfg := config2K(t)
	vkDir := t.TempDir()
	_, vkPath, _ := cfg.ParameterPaths(vkDir)
	_, _, g1, g2 := bls.Generators()
	vk := groth16.VerifyingKey{Alpha1: g1, Beta1: g1, Beta2: g2, Gamma2: g2, Delta1: g1, Delta2: g2,
		IC: make([]bls.G1Affine, cfg.NumPublicInputs())}
	for i := range vk.IC {
		vk.IC[i] = g1
	}
	if err := os.WriteFile(vkPath, vk.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	good := (&groth16.Proof{A: g1, B: g2, C: g1}).Bytes()
	for _, c := range []struct {
		name   string
		mutate func(*proof.SealVerifyInfo)
		want   string
	}{
		{"undecodable proof (all zero)", func(i *proof.SealVerifyInfo) { i.Proof = make([]byte, groth16.ProofSize) }, "porep: proof: "},
		{"undecodable proof (bad flag)", func(i *proof.SealVerifyInfo) { i.Proof[0] &^= 0x80 }, "porep: proof: byte offset 0 (partition 0)"},
		{"proof length", func(i *proof.SealVerifyInfo) { i.Proof = i.Proof[:191] }, "191 bytes"},
		{"ticket length", func(i *proof.SealVerifyInfo) { i.Randomness = i.Randomness[:31] }, "ticket"},
		{"sealed CID", func(i *proof.SealVerifyInfo) { i.SealedCID = s.commD }, "sealed CID"},
	} {
		t.Run(c.name, func(t *testing.T) {
			info := verifyInfo(t, s, bytes.Clone(good[:]))
			c.mutate(&info)
			ok, err := VerifySeal(info, WithParamsDir(vkDir))
			if ok || !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "<memory>") {
				t.Fatalf("VerifySeal = %v, %v; want an ErrBadInput error naming %q", ok, err, c.want)
			}
		})
	}
	// The well-formed proof itself is simply invalid.
	if ok, err := VerifySeal(verifyInfo(t, s, good[:]), WithParamsDir(vkDir)); ok || err != nil {
		t.Fatalf("generator proof: VerifySeal = %v, %v; want false, nil", ok, err)
	}
}

// TestBackendRegistry checks registration rules and name resolution.
func TestBackendRegistry(t *testing.T) {
	if _, name, err := NewBackend(BackendCPU); err != nil || name != BackendCPU {
		t.Fatalf("cpu: %v %v", name, err)
	}
	if _, name, err := NewBackend(BackendAuto); err != nil || name == "" {
		t.Fatalf("auto: %v %v", name, err)
	}
	if _, _, err := NewBackend("nope"); !errors.Is(err, ErrUnknownBackend) {
		t.Fatalf("unknown: %v", err)
	}
	if err := RegisterBackend(BackendCPU, func() (groth16.Backend, error) { return nil, nil }); err == nil {
		t.Fatal("duplicate registration accepted")
	}
	if err := RegisterBackend(BackendAuto, func() (groth16.Backend, error) { return nil, nil }); err == nil {
		t.Fatal("registration of \"auto\" accepted")
	}
	failing := errors.New("no device")
	if err := RegisterBackend("test-failing", func() (groth16.Backend, error) { return nil, failing }); err != nil {
		t.Fatal(err)
	}
	if _, _, err := NewBackend("test-failing"); !errors.Is(err, failing) {
		t.Fatalf("failing factory: %v", err)
	}
}

// BenchmarkSealCommitPhase2_2KiB measures one full 2 KiB C2 on the CPU
// backend (parse, synthesis, proving, verification) with cached test
// parameters (generated on first use, see testparams.Get2K).
func BenchmarkSealCommitPhase2_2KiB(b *testing.B) {
	s := seal2K(b)
	dir := testparams.Get2K(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pf, err := SealCommitPhase2(s.c1, testSector, testMiner, WithParamsDir(dir), WithBackend(BackendCPU))
		if err != nil {
			b.Fatal(err)
		}
		if len(pf) != groth16.ProofSize {
			b.Fatalf("proof is %d bytes", len(pf))
		}
	}
}

// writeFakeParams writes a .params file in bellperson's layout under cfg's
// name in dir: vk (with ic IC points), then h, l, a, b_g1, b_g2 with the given
// counts, every point a generator. It is shaped like real parameters for
// another circuit; nothing can be proven with it.
func writeFakeParams(t *testing.T, dir string, cfg *stacked.SectorConfig, ic, h, l int) {
	t.Helper()
	_, _, g1, g2 := bls.Generators()
	vk := groth16.VerifyingKey{Alpha1: g1, Beta1: g1, Beta2: g2, Gamma2: g2, Delta1: g1, Delta2: g2, IC: make([]bls.G1Affine, ic)}
	for i := range vk.IC {
		vk.IC[i] = g1
	}
	out := vk.Bytes()
	g1b, g2b := g1.RawBytes(), g2.RawBytes()
	for q, n := range []int{h, l, 1, 1, 1} {
		out = append(out, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
		for i := 0; i < n; i++ {
			if q == 4 {
				out = append(out, g2b[:]...)
			} else {
				out = append(out, g1b[:]...)
			}
		}
	}
	pp, vkPath, _ := cfg.ParameterPaths(dir)
	if err := os.WriteFile(pp, out, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(vkPath, vk.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestParamsShapeChecked: parameters that do not fit the sector's circuit
// (a .meta for another sector size, too few L points, a wrong domain, a
// wrong IC count) are rejected before synthesis by SealCommitPhase2 and by
// VerifySeal, wrapping ErrBadInput and naming the file.
func TestParamsShapeChecked(t *testing.T) {
	s := seal2K(t)
	cfg := config2K(t)
	hint, err := stacked.SizeHintFor(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	domain := 1
	for domain < hint.Constraints+hint.Inputs {
		domain <<= 1
	}
	ic := cfg.NumPublicInputs()
	_, _, g1, g2 := bls.Generators()
	pf := (&groth16.Proof{A: g1, B: g2, C: g1}).Bytes()
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  string
	}{
		{"meta for 8MiB", func(t *testing.T, dir string) {
			writeFakeParams(t, dir, &cfg, ic, 3, 1)
			_, _, meta := cfg.ParameterPaths(dir)
			if err := os.WriteFile(meta, []byte(`{"sector_size":8388608}`), 0o644); err != nil {
				t.Fatal(err)
			}
		}, ".meta: sector_size 8388608"},
		{"malformed meta", func(t *testing.T, dir string) {
			writeFakeParams(t, dir, &cfg, ic, 3, 1)
			_, _, meta := cfg.ParameterPaths(dir)
			if err := os.WriteFile(meta, []byte(`sector_size=2048`), 0o644); err != nil {
				t.Fatal(err)
			}
		}, ".meta: not a parameter metadata file"},
		// A smaller circuit's counts (a real file of the right shape would be
		// hundreds of MB: the end-to-end tests cover that it passes).
		{"L and domain", func(t *testing.T, dir string) { writeFakeParams(t, dir, &cfg, ic, 3, 5) },
			fmt.Sprintf(".params: parameters for 5 auxiliary variables and a domain of 4, the StackedDrg2KiBV1_1 circuit has %d and %d", hint.Aux, domain)},
		{"IC count", func(t *testing.T, dir string) { writeFakeParams(t, dir, &cfg, ic+18, 3, 1) }, "IC points"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			c.setup(t, dir)
			_, err := SealCommitPhase2(s.c1, testSector, testMiner, WithParamsDir(dir))
			if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), dir) {
				t.Fatalf("SealCommitPhase2: %v; want ErrBadInput naming %q in %s", err, c.want, dir)
			}
			ok, err := VerifySeal(verifyInfo(t, s, pf[:]), WithParamsDir(dir))
			if ok || !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("VerifySeal = %v, %v; want ErrBadInput naming %q", ok, err, c.want)
			}
		})
	}
}
