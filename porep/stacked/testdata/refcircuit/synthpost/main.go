// SPDX-License-Identifier: Apache-2.0 OR MIT

// Command synthpost writes porep/synthetic's PoSt vanilla proofs as files
// for cuseal-refproofs (testdata: not part of the go tool's ./...):
// OUT/vanilla/NNNNN.bin (GenerateSingleVanillaProof bytes, in sector order)
// and OUT/args (the cuseal-refproofs post arguments: kind, sector size,
// randomness, prover id, vanilla dir). Usage:
//
//	go run ./porep/stacked/testdata/refcircuit/synthpost -proof 3 -seed 1 -out DIR
package main

import (
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/filecoin-project/go-state-types/abi"

	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/synthetic"
)

func main() {
	p := flag.Int64("proof", 3, "registered PoSt proof (go-state-types number: 3 winning 32 GiB, 13 window 32 GiB)")
	seed := flag.Uint64("seed", 1, "synthetic.PoStOptions.Seed")
	sectors := flag.Int("sectors", 0, "synthetic.PoStOptions.Sectors (0: a full partition)")
	miner := flag.Uint64("miner", 1000, "prover actor id")
	out := flag.String("out", "", "output folder")
	flag.Parse()
	if err := run(abi.RegisteredPoStProof(*p), *seed, *sectors, abi.ActorID(*miner), *out); err != nil {
		fmt.Fprintln(os.Stderr, "synthpost:", err)
		os.Exit(2)
	}
}

func run(p abi.RegisteredPoStProof, seed uint64, sectors int, miner abi.ActorID, out string) error {
	if out == "" {
		return fmt.Errorf("-out is required")
	}
	set, err := synthetic.PoSt(p, synthetic.PoStOptions{Sectors: sectors, Seed: seed, Miner: miner})
	if err != nil {
		return err
	}
	dir := filepath.Join(out, "vanilla")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, v := range set.Vanilla {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%05d.bin", i)), v, 0o644); err != nil {
			return err
		}
	}
	// prover_id: the ID address payload (uvarint actor id), zero-padded.
	var prover [32]byte
	binary.PutUvarint(prover[:], uint64(miner))
	kind := "window"
	if set.Config.Kind == post.Winning {
		kind = "winning"
	}
	args := fmt.Sprintf("--kind %s --sector-size %d --randomness %s --prover-id %s --vanilla-dir %s\n",
		kind, set.Config.SectorSize, hex.EncodeToString(set.Randomness), hex.EncodeToString(prover[:]), dir)
	return os.WriteFile(filepath.Join(out, "args"), []byte(args), 0o644)
}
