// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"cmp"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"
	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/seal"
	"github.com/cuseal/cuseal/porep/stacked"
)

// postVanillaCommand is `cuseal post vanilla`: the test sealer's
// GenerateSingleVanillaProof for sectors it sealed.
func postVanillaCommand() *cli.Command {
	return &cli.Command{
		Name:  "vanilla",
		Usage: "PoSt vanilla proofs (GenerateSingleVanillaProof bytes) of sectors sealed by cuseal seal",
		Description: "Derives the challenges from --randomness as the chain's prover does and answers them\n" +
			"from each sector's tree R (the --sector-dir that cuseal seal wrote). winning-post challenges\n" +
			"one of the sectors given (GenerateWinningPoStSectorChallenge over them, in the order given);\n" +
			"window-post proves them all, in ascending sector number. --out DIR receives sector-<n>.bin\n" +
			"per sector and vanilla.json (proof type, miner, randomness, sector numbers, comm_r), which\n" +
			"cuseal post winning|window|verify, cuseal client prove and bench synth|prove --vanilla DIR read.",
		Flags: []cli.Flag{
			circuitFlag(postCircuits...),
			&cli.StringSliceFlag{Name: "sector-dir", Usage: "sealed sector `DIR` (cuseal seal --out); repeat per sector", Required: true},
			randomnessFlag(true),
			&cli.StringFlag{Name: "out", Usage: "output `DIR` (created if missing)", Required: true},
			&cli.BoolFlag{Name: "force", Usage: "replace the vanilla proofs of an existing --out DIR"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object"},
		},
		Action: postVanillaAction,
	}
}

// postVanillaOutput is what `cuseal post vanilla --json` prints.
type postVanillaOutput struct {
	RegisteredProof string             `json:"registered_proof"`
	Randomness      string             `json:"randomness"`
	Miner           uint64             `json:"miner"`
	Sectors         []vanillaDirSector `json:"sectors"` // proven, in order
	Partitions      int                `json:"partitions"`
	Dir             string             `json:"dir"`
	Seconds         float64            `json:"seconds"`
}

func postVanillaAction(c *cli.Context) error {
	start := time.Now()
	spec, err := lookupCircuit("circuit", c.String("circuit"), postCircuits...)
	if err != nil {
		return err
	}
	rnd, err := postRandomness(c.String("randomness"))
	if err != nil {
		return err
	}
	type sealed struct {
		dir string
		s   *seal.SealedSector
	}
	var sectors []sealed
	for _, dir := range c.StringSlice("sector-dir") {
		s, err := seal.ReadSealedSector(dir)
		if err != nil {
			return inputError(fmt.Errorf("--sector-dir %s: %w", dir, fileError(err)))
		}
		if len(sectors) > 0 {
			first := sectors[0].s
			switch {
			case s.Config.SectorSize != first.Config.SectorSize:
				return usageErrorf("--sector-dir %s holds a %s sector, %s a %s one: a PoSt proves sectors of one size",
					dir, stacked.SizeLabel(s.Config.SectorSize), sectors[0].dir, stacked.SizeLabel(first.Config.SectorSize))
			case s.Miner != first.Miner:
				return usageErrorf("--sector-dir %s belongs to miner %d, %s to miner %d: a PoSt proves one miner's sectors", dir, s.Miner, sectors[0].dir, first.Miner)
			}
		}
		for _, o := range sectors {
			if o.s.Sector == s.Sector {
				return usageErrorf("--sector-dir %s and %s both hold sector %d", o.dir, dir, s.Sector)
			}
		}
		sectors = append(sectors, sealed{dir, s})
	}
	pc, err := spec.config(spec, sectors[0].s.Config.SectorSize)
	if err != nil {
		return err
	}
	cfg := pc.(*post.Config)
	miner := sectors[0].s.Miner
	if cfg.Kind == post.Winning {
		idx, err := porep.GenerateWinningPoStSectorChallenge(cfg.Proof, miner, rnd, uint64(len(sectors)))
		if err != nil {
			return classifyPorepError(err)
		}
		sectors = sectors[idx[0] : idx[0]+1]
	} else {
		// The verifier takes the sectors in ascending number (Rust's BTreeMap).
		slices.SortFunc(sectors, func(a, b sealed) int { return cmp.Compare(a.s.Sector, b.s.Sector) })
	}
	ids := make([]abi.SectorNumber, len(sectors))
	for i, s := range sectors {
		ids[i] = s.s.Sector
	}
	fc, err := porep.GeneratePoStFallbackSectorChallenges(cfg.Proof, miner, rnd, ids)
	if err != nil {
		return classifyPorepError(err)
	}
	set := &postVanillaSet{cfg: cfg, miner: miner, randomness: rnd}
	for _, s := range sectors {
		b, err := seal.PoStVanillaProof(cfg, s.dir, fc.Challenges[s.s.Sector])
		if err != nil {
			return inputError(fmt.Errorf("--sector-dir %s: %w", s.dir, err))
		}
		sealedCID, err := commcid.ReplicaCommitmentV1ToCID(s.s.CommR[:])
		if err != nil {
			return inputError(fmt.Errorf("--sector-dir %s: comm_r: %w", s.dir, err))
		}
		sealProof, _ := stacked.SealProofV1_1(cfg.SectorSize)
		set.sectors = append(set.sectors, proof.SectorInfo{SealProof: sealProof, SectorNumber: s.s.Sector, SealedCID: sealedCID})
		set.vanilla = append(set.vanilla, b)
	}
	dir := c.String("out")
	if err := writeVanillaDir(dir, set, c.Bool("force")); err != nil {
		return err
	}
	out := postVanillaOutput{RegisteredProof: cfg.Name, Randomness: hex.EncodeToString(rnd), Miner: uint64(miner),
		Partitions: cfg.Partitions(len(set.vanilla)), Dir: dir, Seconds: time.Since(start).Seconds()}
	for i, s := range set.sectors {
		out.Sectors = append(out.Sectors, vanillaDirSector{SectorNumber: uint64(s.SectorNumber), CommR: hex.EncodeToString(sectors[i].s.CommR[:]),
			SealedCID: s.SealedCID.String(), File: vanillaFileName(s.SectorNumber)})
	}
	if c.Bool("json") {
		return writeJSON(c, out)
	}
	for _, s := range out.Sectors {
		printf(c, "%s\n", filepath.Join(dir, s.File))
	}
	printf(c, "%s: %d vanilla proof(s), %d partition(s), in %s (%.3fs)\n", cfg.Name, len(out.Sectors), out.Partitions, dir, out.Seconds)
	return nil
}
