// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

import (
	"bytes"
	"context"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/poseidon"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/testsupport/testcs"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// testTrees encodes random data into a random sector key of cfg's size and
// returns the trees of the update and phi.
func testTrees(t testing.TB, cfg *Config) (*SectorTrees, fr.Element) {
	t.Helper()
	old, dataFr := randomNodes(cfg.Nodes, 3), randomNodes(cfg.Nodes, 4)
	data := make([]byte, 32*cfg.Nodes)
	for i := range dataFr {
		b := stacked.FrToBytes(&dataFr[i])
		copy(data[32*i:], b[:])
	}
	sh := cfg.Shape
	s := &SectorTrees{D: stacked.BuildTreeD(data), CommC: randomNodes(1, 5)[0]}
	var err error
	if s.ROld, err = poseidon.BuildTree(old, sh.Base, sh.Sub, sh.Top); err != nil {
		t.Fatal(err)
	}
	commROld := poseidon.Hash2(&s.CommC, &s.ROld.Root)
	dNew := s.D.Root()
	commDNew, _ := stacked.FrFromBytes((*[32]byte)(&dNew))
	phi := Phi(&commDNew, &commROld)
	replica := make([]fr.Element, cfg.Nodes)
	if err := Encode(cfg, &phi, old, dataFr, replica); err != nil {
		t.Fatal(err)
	}
	if s.RNew, err = poseidon.BuildTree(replica, sh.Base, sh.Sub, sh.Top); err != nil {
		t.Fatal(err)
	}
	return s, phi
}

// TestNewPartitionProof checks every partition proof of an update against
// what vanilla.rs verify requires: the exact encoded size and a strict
// parse that re-encodes identically, comm_c, the apex leaves (TreeD's row of
// Partitions·A nodes), path indexes equal to the challenges, all three
// paths reaching their roots, and leaf_r_new = leaf_r_old +
// leaf_d_new·rho(c_high). 8 MiB (4 partitions, 128 apex leaves, h = 10)
// runs in the long tier.
func TestNewPartitionProof(t *testing.T) {
	proofs := []abi.RegisteredUpdateProof{abi.RegisteredUpdateProof_StackedDrg2KiBV1}
	if testenv.Enabled(testenv.TierLong) {
		proofs = append(proofs, abi.RegisteredUpdateProof_StackedDrg8MiBV1)
	}
	for _, id := range proofs {
		cfg, err := ConfigFor(id)
		if err != nil {
			t.Fatal(err)
		}
		trees, phi := testTrees(t, &cfg)
		commRNew, commROld := trees.CommRNew(), poseidon.Hash2(&trees.CommC, &trees.ROld.Root)
		rRoot, dRoot := stacked.FrToBytes(&trees.RNew.Root), trees.D.Root()
		commDNew, _ := stacked.FrFromBytes((*[32]byte)(&dRoot))
		oRoot := stacked.FrToBytes(&trees.ROld.Root)
		sh := cfg.Shape
		for k := 0; k < cfg.Partitions; k++ {
			p, err := NewPartitionProof(&cfg, k, trees)
			if err != nil {
				t.Fatal(err)
			}
			b := p.Bytes()
			if len(b) != PartitionProofSize(&cfg) {
				t.Fatalf("%s k=%d: %d bytes, want %d", cfg.Name, k, len(b), PartitionProofSize(&cfg))
			}
			q, err := ParsePartitionProof(b, &cfg)
			if err != nil || !bytes.Equal(q.Bytes(), b) {
				t.Fatalf("%s k=%d: strict parse: %v", cfg.Name, k, err)
			}
			if err := CheckPartitionProof(&cfg, k, &commROld, &commDNew, &commRNew, p); err != nil {
				t.Fatalf("%s k=%d: CheckPartitionProof: %v", cfg.Name, k, err)
			}
			if p.CommC != stacked.FrToBytes(&trees.CommC) {
				t.Errorf("%s k=%d: comm_c differs", cfg.Name, k)
			}
			row := trees.D.Levels[cfg.ChallengeBitLen-cfg.PartitionBitLen-cfg.ApexLeafBitLen]
			if len(row) != cfg.Partitions*cfg.ApexLeafCount {
				t.Fatalf("%s: apex row has %d nodes", cfg.Name, len(row))
			}
			for i, l := range p.ApexLeafs {
				if l != row[k*cfg.ApexLeafCount+i] {
					t.Fatalf("%s k=%d: apex leaf %d differs", cfg.Name, k, i)
				}
			}
			chs, _ := Challenges(&cfg, &commRNew, k)
			for i, c := range chs {
				cp := &p.ChallengeProofs[i]
				ro, e1 := cp.ProofROld.RootPoseidon()
				rn, e2 := cp.ProofRNew.RootPoseidon()
				rd, e3 := cp.ProofDNew.RootSha256()
				if e1 != nil || e2 != nil || e3 != nil || ro != oRoot || rn != rRoot || rd != dRoot ||
					cp.ProofROld.Root != oRoot || cp.ProofRNew.Root != rRoot || cp.ProofDNew.Root != dRoot {
					t.Fatalf("%s k=%d challenge %d: a path does not reach its root", cfg.Name, k, i)
				}
				if cp.ProofROld.PathIndex(sh.Base, sh.Sub, sh.Top) != c || cp.ProofRNew.PathIndex(sh.Base, sh.Sub, sh.Top) != c || cp.ProofDNew.PathIndex(2, 0, 0) != c {
					t.Fatalf("%s k=%d challenge %d: path indexes differ from c = %d", cfg.Name, k, i, c)
				}
				if c>>(cfg.ChallengeBitLen-cfg.PartitionBitLen) != uint64(k) {
					t.Fatalf("%s k=%d: challenge %d = %d outside the partition", cfg.Name, k, i, c)
				}
				lo, _ := stacked.FrFromBytes((*[32]byte)(&cp.ProofROld.Leaf))
				ld, _ := stacked.FrFromBytes((*[32]byte)(&cp.ProofDNew.Leaf))
				ln, _ := stacked.FrFromBytes((*[32]byte)(&cp.ProofRNew.Leaf))
				rho := Rho(&phi, cfg.ChallengeHigh(c))
				var want fr.Element
				want.Mul(&ld, &rho).Add(&want, &lo)
				if ln != want {
					t.Fatalf("%s k=%d challenge %d: leaf_r_new is not leaf_r_old + leaf_d_new·rho", cfg.Name, k, i)
				}
			}
		}
	}
}

// TestNewPartitionProofBadInput: trees of another shape or size, a missing
// tree and a partition out of range are errors.
func TestNewPartitionProofBadInput(t *testing.T) {
	cfg, err := ConfigFor(abi.RegisteredUpdateProof_StackedDrg2KiBV1)
	if err != nil {
		t.Fatal(err)
	}
	trees, _ := testTrees(t, &cfg)
	binary, err := poseidon.BuildTree(randomNodes(cfg.Nodes, 6), 2, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	small, err := poseidon.BuildTree(randomNodes(cfg.Nodes/8, 7), 8, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	halfD := &stacked.TreeD{Levels: trees.D.Levels[1:]}
	for name, s := range map[string]SectorTrees{
		"binary TreeROld": {ROld: binary, RNew: trees.RNew, D: trees.D},
		"small TreeRNew":  {ROld: trees.ROld, RNew: small, D: trees.D},
		"no TreeRNew":     {ROld: trees.ROld, D: trees.D},
		"short TreeD":     {ROld: trees.ROld, RNew: trees.RNew, D: halfD},
		"no TreeD":        {ROld: trees.ROld, RNew: trees.RNew},
	} {
		if _, err := NewPartitionProof(&cfg, 0, &s); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	for _, k := range []int{-1, cfg.Partitions} {
		if _, err := NewPartitionProof(&cfg, k, trees); err == nil {
			t.Errorf("partition %d accepted", k)
		}
	}
}

// TestNewPartitionProofSatisfiesCircuit: the partition proof of a random
// 2 KiB update, made into the circuit's witness (NewCircuit), satisfies
// every constraint of EmptySectorUpdateCircuit. In the long tier
// (1.7 M constraints recorded).
func TestNewPartitionProofSatisfiesCircuit(t *testing.T) {
	testenv.Long(t, "records 1.7 M constraints")
	cfg, err := ConfigFor(abi.RegisteredUpdateProof_StackedDrg2KiBV1)
	if err != nil {
		t.Fatal(err)
	}
	trees, _ := testTrees(t, &cfg)
	p, err := NewPartitionProof(&cfg, 0, trees)
	if err != nil {
		t.Fatal(err)
	}
	commROld := poseidon.Hash2(&trees.CommC, &trees.ROld.Root)
	dRoot := trees.D.Root()
	commDNew, _ := stacked.FrFromBytes((*[32]byte)(&dRoot))
	commRNew := trees.CommRNew()
	c, err := NewCircuit(&cfg, 0, &commROld, &commDNew, &commRNew, p)
	if err != nil {
		t.Fatal(err)
	}
	tcs := testcs.New()
	if err := c.Synthesize(context.Background(), tcs); err != nil {
		t.Fatal(err)
	}
	if err := tcs.Validate(); err != nil {
		t.Fatal(err)
	}
}
