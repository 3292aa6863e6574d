// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/synthetic"
)

// What bench vanilla --circuit porep writes into --out DIR.
const (
	porepC1File   = "c1.json"        // the C1 output (SealCommitPhase1Output JSON)
	porepInfoFile = "c1-sector.json" // porepInfoJSON
)

// porepInfoJSON is porepInfoFile: who the synthetic C1 was made for (the
// replica_id derives from miner and sector: commit2's --miner and --sector)
// and its commitments, raw (64 hex digits) and as CIDs.
type porepInfoJSON struct {
	RegisteredProof string `json:"registered_proof"`
	ProofType       int64  `json:"proof_type"`
	Seed            uint64 `json:"seed"`
	Miner           string `json:"miner"` // t0<id>
	Sector          uint64 `json:"sector"`
	Partitions      int    `json:"partitions"`
	CommR           string `json:"comm_r"`
	CommD           string `json:"comm_d"`
	SealedCID       string `json:"sealed_cid"`
	UnsealedCID     string `json:"unsealed_cid"`
	C1              string `json:"c1"` // the C1 file's name in the directory
	Synthetic       bool   `json:"synthetic"`
}

// benchVanillaPoRep is bench vanilla --circuit porep: porep/synthetic.ValidC1's C1 of a
// synthetic CC sector of --sector-size (the V1_1 proof) for --miner and --sector.
func benchVanillaPoRep(c *cli.Context, spec *circuitSpec, start time.Time) error {
	for _, f := range []string{"sectors", "partition"} {
		if c.IsSet(f) {
			return usageErrorf("--%s: not with --circuit %s", f, circuitPoRep)
		}
	}
	cfg, err := configForSize[*stacked.SectorConfig](spec, c.String("sector-size"))
	if err != nil {
		return err
	}
	miner, err := parseMiner(c.String("miner"))
	if err != nil {
		return usageErrorf("%v", err)
	}
	sector := c.Uint64("sector")
	if sector == 0 {
		return usageErrorf("--sector 0: sector numbers of this command start at 1")
	}
	dir := c.String("out")
	stop, err := benchVanillaStart(c, porepInfoFile)
	if err != nil {
		return err
	}
	seed := c.Uint64("seed")
	set, err := synthetic.ValidC1(context.Background(), *cfg, synthetic.ValidC1Options{Miner: miner, Sector: abi.SectorNumber(sector), Seed: seed})
	if serr := stop(); err == nil && serr != nil {
		return serr
	}
	if err != nil {
		return internalError(err)
	}
	js := set.C1.Marshal()
	info := porepInfoJSON{RegisteredProof: cfg.Name, ProofType: int64(cfg.Proof), Seed: seed, Miner: fmt.Sprintf("t0%d", set.Miner),
		Sector: uint64(set.Sector), Partitions: len(set.C1.VanillaProofs), CommR: hex.EncodeToString(set.C1.CommR[:]),
		CommD: hex.EncodeToString(set.C1.CommD[:]), C1: porepC1File, Synthetic: true}
	sealed, err := commcid.ReplicaCommitmentV1ToCID(set.C1.CommR[:])
	if err != nil {
		return internalError(err)
	}
	unsealed, err := commcid.DataCommitmentV1ToCID(set.C1.CommD[:])
	if err != nil {
		return internalError(err)
	}
	info.SealedCID, info.UnsealedCID = sealed.String(), unsealed.String()
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return internalError(err)
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{porepC1File, js}, {porepInfoFile, append(b, '\n')}} {
		if err := writeFileAtomic(filepath.Join(dir, f.name), f.data); err != nil {
			return inputError(fmt.Errorf("--out: %w", fileError(err)))
		}
	}
	out := benchVanillaOutput{RegisteredProof: cfg.Name, Sectors: 1, Partitions: info.Partitions, Bytes: len(js), Dir: dir,
		Seconds: time.Since(start).Seconds(), PeakRSSBytes: peakRSS()}
	if c.Bool("json") {
		return writeJSON(c, out)
	}
	printf(c, "%s (%s): a valid synthetic C1 of %d partition(s), %s, for miner %s sector %d in %s (%.3fs, peak RSS %s)\n",
		cfg.Name, stacked.SizeLabel(cfg.SectorSize), out.Partitions, humanBytes(uint64(out.Bytes)), info.Miner, info.Sector,
		filepath.Join(dir, porepC1File), out.Seconds, humanBytes(out.PeakRSSBytes))
	return nil
}
