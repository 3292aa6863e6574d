// SPDX-License-Identifier: Apache-2.0 OR MIT

package engine

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"

	"github.com/cuseal/cuseal/internal/testpost"
	"github.com/cuseal/cuseal/porep"
)

// postVector is what these tests read of a PoSt reference vector
// (porep/post/testdata, made by rust-fil-proofs 19.1.0).
type postVector struct {
	dir  string
	meta struct {
		RegisteredProof struct {
			FFIID int64 `json:"ffi_id"`
		} `json:"registered_proof"`
		Miner      uint64 `json:"miner"`
		Randomness string `json:"randomness"`
		Sectors    []struct {
			SectorNumber abi.SectorNumber `json:"sector_number"`
			CommR        string           `json:"comm_r"`
		} `json:"sectors"`
		Vanilla []struct {
			File string `json:"file"`
		} `json:"vanilla"`
		VKFile    string `json:"vk_file"`
		ToxicSeed string `json:"toxic_seed"`
		RSSeed    string `json:"rs_seed"`
		ProofFile string `json:"proof_file"`
	}
	vanilla [][]byte
}

func hex32(t *testing.T, what, s string) [32]byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		t.Fatalf("%s %q: not 32 hex bytes", what, s)
	}
	return [32]byte(b)
}

func loadPostVector(t *testing.T, folder string) *postVector {
	t.Helper()
	v := &postVector{dir: filepath.Join("..", "post", "testdata", folder)}
	raw, err := os.ReadFile(filepath.Join(v.dir, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &v.meta); err != nil {
		t.Fatal(err)
	}
	for _, f := range v.meta.Vanilla {
		b, err := os.ReadFile(filepath.Join(v.dir, f.File))
		if err != nil {
			t.Fatal(err)
		}
		v.vanilla = append(v.vanilla, b)
	}
	return v
}

func (v *postVector) proofType() abi.RegisteredPoStProof {
	return abi.RegisteredPoStProof(v.meta.RegisteredProof.FFIID)
}

func (v *postVector) randomness(t *testing.T) []byte {
	r := hex32(t, "randomness", v.meta.Randomness)
	return r[:]
}

func (v *postVector) request(t *testing.T, kind Kind) *Request {
	return &Request{Kind: kind, RegisteredProof: uint64(v.proofType()), MinerID: v.meta.Miner,
		VanillaProofs: v.vanilla, Randomness: v.randomness(t)}
}

func (v *postVector) sectors(t *testing.T) []proof.SectorInfo {
	var out []proof.SectorInfo
	for _, s := range v.meta.Sectors {
		c := hex32(t, "comm_r", s.CommR)
		sealed, err := commcid.ReplicaCommitmentV1ToCID(c[:])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, proof.SectorInfo{SealProof: abi.RegisteredSealProof_StackedDrg2KiBV1_1, SectorNumber: s.SectorNumber, SealedCID: sealed})
	}
	return out
}

// TestPoStGolden proves the two 2 KiB PoSt reference vectors through the
// engine on the CPU backend with r, s from their rs_seed: the bytes are
// bellperson's proof.bin (which porep's PoSt API also gives) and pass
// porep.VerifyWinningPoSt / VerifyWindowPoSt. A WindowPoSt partition with
// partition_index 1 is blinded as porep blinds partition 1. Default
// priorities are Curio's.
func TestPoStGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: PoSt test parameters and CPU proofs")
	}
	cpu, err := NewBackendProver(porep.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		folder string
		kind   Kind
		prio   Priority
		id     string
	}{
		{"post-winning-2KiB-s22", KindWinningPoSt, PriorityCritical, "winning-2k"},
		{"post-window-2KiB-s21", KindWindowPoStPartition, PriorityHigh, "wpost-2k"},
	} {
		t.Run(tc.kind.String(), func(t *testing.T) {
			v := loadPostVector(t, tc.folder)
			dir := testpost.ParamsDir(t, v.proofType(), hex32(t, "toxic_seed", v.meta.ToxicSeed), filepath.Join(v.dir, v.meta.VKFile))
			seed := hex32(t, "rs_seed", v.meta.RSSeed)
			e, err := New(Config{ParamsDir: dir, Provers: []Prover{cpu}, DeterministicSeed: &seed, BudgetBytes: 4 << 30})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			tk, err := e.Submit(ctx, v.request(t, tc.kind))
			if err != nil {
				t.Fatal(err)
			}
			if st := e.Status(); len(st.Jobs) != 1 || st.Jobs[0].Priority != tc.prio {
				t.Errorf("jobs %+v, want one of priority %s", st.Jobs, tc.prio)
			}
			r, err := e.Await(ctx, tk.JobID)
			if err != nil || r.State != StateCompleted {
				t.Fatalf("%+v, %v", r, err)
			}
			want, err := os.ReadFile(filepath.Join(v.dir, v.meta.ProofFile))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(r.Proof, want) {
				t.Fatalf("engine proof %x, bellperson %x", r.Proof, want)
			}
			pp := []proof.PoStProof{{PoStProof: v.proofType(), ProofBytes: r.Proof}}
			var ok bool
			if tc.kind == KindWinningPoSt {
				ok, err = porep.VerifyWinningPoSt(proof.WinningPoStVerifyInfo{Randomness: v.randomness(t), Proofs: pp, ChallengedSectors: v.sectors(t)}, porep.WithParamsDir(dir))
			} else {
				ok, err = porep.VerifyWindowPoSt(proof.WindowPoStVerifyInfo{Randomness: v.randomness(t), Proofs: pp, ChallengedSectors: v.sectors(t)}, porep.WithParamsDir(dir))
			}
			if !ok || err != nil {
				t.Fatalf("verify: %v, %v", ok, err)
			}
			if st := e.Status(); len(st.Params) != 1 || st.Params[0].CircuitID != tc.id {
				t.Errorf("params %+v, want %s", st.Params, tc.id)
			}
			if was, _, err := e.Evict(tc.id); !was || err != nil {
				t.Errorf("evict %s: %v, %v", tc.id, was, err)
			}
			if tc.kind != KindWindowPoStPartition {
				return
			}
			req := v.request(t, tc.kind)
			req.PartitionIndex = 1
			r1, err := e.Prove(ctx, req)
			if err != nil || r1.State != StateCompleted {
				t.Fatalf("partition 1: %+v, %v", r1, err)
			}
			p1, err := porep.GenerateSinglePartitionWindowPoStWithVanilla(v.proofType(), abi.ActorID(v.meta.Miner), v.randomness(t), v.vanilla, 1,
				porep.WithParamsDir(dir), porep.WithBackend(porep.BackendCPU), porep.WithDeterministicRandomness(seed))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(r1.Proof, p1.ProofBytes) || bytes.Equal(r1.Proof, want) {
				t.Fatalf("partition_index 1: engine %x, porep %x", r1.Proof, p1.ProofBytes)
			}
		})
	}
}

// TestPoStBadInput: PoSt requests that do not parse or do not match their
// kind are refused naming the field, before anything is queued (no
// parameters needed).
func TestPoStBadInput(t *testing.T) {
	win := loadPostVector(t, "post-winning-2KiB-s22")
	w := loadPostVector(t, "post-window-2KiB-s21")
	e, err := New(Config{ParamsDir: t.TempDir(), Provers: []Prover{&DoubleProver{}}, BudgetBytes: 4 << 30})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, tc := range []struct {
		name string
		req  *Request
		edit func(*Request)
		want string
	}{
		{"no vanilla", win.request(t, KindWinningPoSt), func(r *Request) { r.VanillaProofs = nil }, "vanilla_proofs is empty"},
		{"short randomness", win.request(t, KindWinningPoSt), func(r *Request) { r.Randomness = r.Randomness[:16] }, "randomness is 16 bytes"},
		{"non-canonical randomness", win.request(t, KindWinningPoSt), func(r *Request) { r.Randomness = bytes.Repeat([]byte{0xff}, 32) }, "randomness"},
		{"window proof for winning", win.request(t, KindWinningPoSt), func(r *Request) { r.RegisteredProof = uint64(abi.RegisteredPoStProof_StackedDrgWindow2KiBV1_1) }, "is a WindowPoSt proof"},
		{"unknown proof", w.request(t, KindWindowPoStPartition), func(r *Request) { r.RegisteredProof = 99 }, "registered_proof"},
		{"sector size", w.request(t, KindWindowPoStPartition), func(r *Request) { r.SectorSize = 32 << 30 }, "sector_size = 34359738368"},
		{"winning partition", win.request(t, KindWinningPoSt), func(r *Request) { r.PartitionIndex = 2 }, "partition_index = 2"},
		{"two winning sectors", win.request(t, KindWinningPoSt), func(r *Request) { r.VanillaProofs = append(r.VanillaProofs, r.VanillaProofs[0]) }, "2 vanilla proofs, want 1"},
		{"truncated vanilla", w.request(t, KindWindowPoStPartition), func(r *Request) { r.VanillaProofs = [][]byte{r.VanillaProofs[0][:100]} }, "vanilla proof 0"},
		{"too many sectors", w.request(t, KindWindowPoStPartition), func(r *Request) { r.VanillaProofs = append(r.VanillaProofs, r.VanillaProofs[0]) }, "3 vanilla proofs for one partition"},
		{"other randomness", w.request(t, KindWindowPoStPartition), func(r *Request) { r.Randomness[0] ^= 1 }, "vanilla_proofs"},
	} {
		tc.edit(tc.req)
		_, err := e.Submit(context.Background(), tc.req)
		if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: want a bad-input error naming %q, got %v", tc.name, tc.want, err)
		}
	}
	if n := len(e.Status().Jobs); n != 0 {
		t.Fatalf("%d jobs queued by refused requests", n)
	}
	// Without parameter files the job fails naming the missing file.
	r, err := e.Prove(context.Background(), w.request(t, KindWindowPoStPartition))
	if err != nil || r.State != StateFailed || !errors.Is(r.Err, porep.ErrParamsNotFound) {
		t.Fatalf("job without parameters: %+v, %v", r, err)
	}
}
