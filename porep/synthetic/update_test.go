// SPDX-License-Identifier: Apache-2.0 OR MIT

package synthetic

import (
	"bytes"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/update"
)

// TestUpdateValid: every partition proof of every registered update proof
// (32 and 64 GiB included, which costs only the challenged paths) parses
// strictly and passes update.CheckPartitionProof with the set's
// commitments; the set is reproducible from the seed and differs across
// seeds. That a proof made from them verifies is porep's
// TestSyntheticUpdateVerifies.
func TestUpdateValid(t *testing.T) {
	for p := abi.RegisteredUpdateProof_StackedDrg2KiBV1; p <= abi.RegisteredUpdateProof_StackedDrg64GiBV1; p++ {
		s, err := Update(p, UpdateOptions{Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		cfg := &s.Config
		vanilla, err := s.Vanilla()
		if err != nil {
			t.Fatal(err)
		}
		if len(vanilla) != cfg.Partitions {
			t.Fatalf("%s: %d partition proofs, want %d", cfg.Name, len(vanilla), cfg.Partitions)
		}
		rOld, _ := stacked.FrFromBytes((*[32]byte)(&s.CommROld))
		dNew, _ := stacked.FrFromBytes((*[32]byte)(&s.CommDNew))
		rNew, _ := stacked.FrFromBytes((*[32]byte)(&s.CommRNew))
		for k, b := range vanilla {
			pp, err := update.ParsePartitionProof(b, cfg)
			if err != nil {
				t.Fatalf("%s partition %d: %v", cfg.Name, k, err)
			}
			if err := update.CheckPartitionProof(cfg, k, &rOld, &dNew, &rNew, pp); err != nil {
				t.Fatalf("%s: %v", cfg.Name, err)
			}
		}
		again, err := Update(p, UpdateOptions{Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		last, err := again.PartitionProof(cfg.Partitions - 1)
		if err != nil {
			t.Fatal(err)
		}
		if again.CommRNew != s.CommRNew || !bytes.Equal(last.Bytes(), vanilla[cfg.Partitions-1]) {
			t.Fatalf("%s: seed 7 twice gives different sets", cfg.Name)
		}
		other, err := Update(p, UpdateOptions{Seed: 8})
		if err != nil {
			t.Fatal(err)
		}
		if other.CommROld == s.CommROld || other.CommDNew == s.CommDNew || other.CommRNew == s.CommRNew {
			t.Fatalf("%s: seeds 7 and 8 share a commitment", cfg.Name)
		}
	}
}

// TestUpdateSparseEqualsDense: at 2 KiB and 8 MiB the sparse trees give
// byte for byte the partition proofs update.NewPartitionProof reads from
// whole trees over the same nodes (poseidon.BuildTree, stacked.BuildTreeD,
// update.Encode).
func TestUpdateSparseEqualsDense(t *testing.T) {
	for _, tc := range []struct {
		p         abi.RegisteredUpdateProof
		positions int
	}{{abi.RegisteredUpdateProof_StackedDrg2KiBV1, 20}, {abi.RegisteredUpdateProof_StackedDrg8MiBV1, 0}} {
		s, err := Update(tc.p, UpdateOptions{Seed: 3, Positions: tc.positions})
		if err != nil {
			t.Fatal(err)
		}
		cfg := &s.Config
		n := cfg.Nodes
		old := make([]fr.Element, n)
		data := make([]fr.Element, n)
		raw := make([]byte, 32*n)
		for i := range old {
			old[i] = s.src.rOld.node(0, uint64(i))
			d := s.src.d.node(0, uint64(i))
			copy(raw[32*i:], d[:])
			data[i], _ = stacked.FrFromBytes((*[32]byte)(&d))
		}
		dense := &update.SectorTrees{D: stacked.BuildTreeD(raw), CommC: s.src.commC}
		sh := cfg.Shape
		if dense.ROld, err = poseidon.BuildTree(old, sh.Base, sh.Sub, sh.Top); err != nil {
			t.Fatal(err)
		}
		rOld, _ := stacked.FrFromBytes((*[32]byte)(&s.CommROld))
		dNew, _ := stacked.FrFromBytes((*[32]byte)(&s.CommDNew))
		phi := update.Phi(&dNew, &rOld)
		replica := make([]fr.Element, n)
		if err := update.Encode(cfg, &phi, old, data, replica); err != nil {
			t.Fatal(err)
		}
		if dense.RNew, err = poseidon.BuildTree(replica, sh.Base, sh.Sub, sh.Top); err != nil {
			t.Fatal(err)
		}
		if commRNew := dense.CommRNew(); stacked.FrToBytes(&commRNew) != s.CommRNew || dense.D.Root() != s.CommDNew {
			t.Fatalf("%s: whole trees give other commitments", cfg.Name)
		}
		for k := range cfg.Partitions {
			want, err := update.NewPartitionProof(cfg, k, dense)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.PartitionProof(k)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("%s partition %d: sparse and whole trees give different proofs", cfg.Name, k)
			}
		}
	}
}

// TestUpdateBadOptions: a position count past half the nodes, or negative,
// and an unknown proof are errors.
func TestUpdateBadOptions(t *testing.T) {
	for _, tc := range []struct {
		p   abi.RegisteredUpdateProof
		opt UpdateOptions
	}{
		{abi.RegisteredUpdateProof_StackedDrg2KiBV1, UpdateOptions{Positions: 33}},
		{abi.RegisteredUpdateProof_StackedDrg2KiBV1, UpdateOptions{Positions: -1}},
		{abi.RegisteredUpdateProof(9), UpdateOptions{}},
	} {
		if _, err := Update(tc.p, tc.opt); err == nil {
			t.Errorf("Update(%d, %+v): no error", tc.p, tc.opt)
		}
	}
}
