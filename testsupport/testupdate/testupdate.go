// SPDX-License-Identifier: Apache-2.0 OR MIT

package testupdate

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"
	"github.com/ipfs/go-cid"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/update"
	"github.com/cuseal/cuseal/testsupport/goldentest"
	"github.com/cuseal/cuseal/testsupport/testpost"
)

// Vector is the 2 KiB update reference vector: what a test of the prover
// needs.
type Vector struct {
	Dir   string // the vector's folder
	Proof abi.RegisteredUpdateProof
	// CommROld, CommRNew, CommDNew are the raw commitments; the CIDs are
	// meta.json's go-fil-commcid forms of them (OldUnsealed: the CC
	// sector's comm_d, not an input of the update proof).
	CommROld, CommRNew, CommDNew                 [32]byte
	OldSealed, NewSealed, NewUnseal, OldUnsealed cid.Cid
	VanillaFiles                                 []string // paths, partition order
	Vanilla                                      [][]byte // their bytes
	ToxicSeed                                    [32]byte
	RSSeed                                       [32]byte // r, s of proof.bin (groth16.RandomnessFromSeed)
	VKFile                                       string   // path of the .vk made from ToxicSeed
	Want                                         []byte   // proof.bin: bellperson's proof with r, s from RSSeed
	// Partitions are meta.json's partition records: counts, the four
	// digests and popcounts of each partition circuit.
	Partitions []goldentest.Partition
}

// Load reads porep/update/testdata/update-2KiB-s31 (found from this file's
// path, so any package's test can call it).
func Load(t testing.TB) *Vector {
	t.Helper()
	_, self, _, _ := runtime.Caller(0)
	v := &Vector{Dir: filepath.Join(filepath.Dir(self), "..", "..", "porep", "update", "testdata", "update-2KiB-s31")}
	var m struct {
		Proof    int64  `json:"registered_update_proof_number"`
		CommROld string `json:"comm_r_old"`
		CommRNew string `json:"comm_r_new"`
		CommDNew string `json:"comm_d_new"`
		CIDs     struct {
			CommROld string `json:"comm_r_old"`
			CommRNew string `json:"comm_r_new"`
			CommDNew string `json:"comm_d_new"`
			CommDOld string `json:"comm_d_old"`
		} `json:"cids"`
		Vanilla struct {
			Files []struct {
				File string `json:"file"`
			} `json:"files"`
		} `json:"vanilla"`
		VKFile    string                  `json:"vk_file"`
		ToxicSeed string                  `json:"toxic_seed"`
		RSSeed    string                  `json:"rs_seed"`
		ProofFile string                  `json:"proof_file"`
		Partition *[]goldentest.Partition `json:"partition"`
	}
	m.Partition = &v.Partitions
	goldentest.ReadMeta(t, v.Dir, &m)
	hex32 := func(what, s string) [32]byte { return goldentest.Hex32(t, "update vector", what, s) }
	parse := func(what, s string) cid.Cid {
		c, err := cid.Decode(s)
		if err != nil {
			t.Fatalf("update vector: %s CID %q: %v", what, s, err)
		}
		return c
	}
	v.Proof = abi.RegisteredUpdateProof(m.Proof)
	v.CommROld, v.CommRNew, v.CommDNew = hex32("comm_r_old", m.CommROld), hex32("comm_r_new", m.CommRNew), hex32("comm_d_new", m.CommDNew)
	v.OldSealed, v.NewSealed, v.NewUnseal = parse("comm_r_old", m.CIDs.CommROld), parse("comm_r_new", m.CIDs.CommRNew), parse("comm_d_new", m.CIDs.CommDNew)
	v.OldUnsealed = parse("comm_d_old", m.CIDs.CommDOld)
	v.ToxicSeed, v.RSSeed = hex32("toxic_seed", m.ToxicSeed), hex32("rs_seed", m.RSSeed)
	v.VKFile = filepath.Join(v.Dir, m.VKFile)
	for _, f := range m.Vanilla.Files {
		p := filepath.Join(v.Dir, f.File)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		v.VanillaFiles, v.Vanilla = append(v.VanillaFiles, p), append(v.Vanilla, b)
	}
	var err error
	if v.Want, err = os.ReadFile(filepath.Join(v.Dir, m.ProofFile)); err != nil {
		t.Fatal(err)
	}
	return v
}

// ParamsDir returns a new temporary directory holding the vector's test
// parameters under the official names: the .params generated from its
// toxic seed (cached under <test params dir>/update, linked here; the
// first run takes minutes) and a copy of its .vk.
func (v *Vector) ParamsDir(t testing.TB) string {
	t.Helper()
	cfg, err := update.ConfigFor(v.Proof)
	if err != nil {
		t.Fatal(err)
	}
	rec := cs.NewRecorder()
	if err := update.BlankCircuit(&cfg).Synthesize(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pp, vp, _ := cfg.ParameterPaths(dir)
	testpost.LinkParams(t, rec.R1CS(), v.ToxicSeed, "update", pp, vp, v.VKFile)
	return dir
}
