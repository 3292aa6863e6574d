// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/synthetic"
)

func benchVanillaCommand() *cli.Command {
	return &cli.Command{
		Name:  "vanilla",
		Usage: "write valid synthetic PoSt or SnapDeals vanilla proofs, or a PoRep C1 (any sector size), to a directory",
		Description: "Makes one vanilla proof per synthetic sector, as filecoin-ffi's GenerateSingleVanillaProof\n" +
			"returns them, deterministic from --seed: each sector's tree R is sparse (one fill value\n" +
			"everywhere but the challenged leaves), so 32GiB sectors cost only their challenged paths,\n" +
			"and the proofs are valid: a PoSt proof made from them verifies. --out DIR receives\n" +
			"sector-<n>.bin per sector and vanilla.json (proof type, miner, randomness, sector numbers,\n" +
			"comm_r and sealed CIDs), which bench synth|prove --vanilla DIR read. --circuit update\n" +
			"writes partition-K.bin (GenerateUpdateVanillaProofs bytes; every partition, or only\n" +
			"--partition K) and commitments.json (comm_r_old, comm_d_new, comm_r_new, raw and as CIDs)\n" +
			"of a synthetic updated sector whose trees are sparse (porep/synthetic.Update). --circuit porep\n" +
			"writes c1.json, the C1 output (SealCommitPhase1Output JSON) of a synthetic CC sector whose\n" +
			"trees C and R_last are sparse (only the challenged nodes labeled: porep/synthetic.ValidC1),\n" +
			"which commit2 and bench prove --c1 prove with --miner and --sector, and c1-sector.json\n" +
			"(miner, sector, seed, comm_r, comm_d, CIDs).",
		Flags: append([]cli.Flag{
			circuitFlag(vanillaCircuits...),
			&cli.StringFlag{Name: "sector-size", Usage: "sector size (2KiB ... 64GiB)", Required: true},
			&cli.IntFlag{Name: "sectors", Usage: "number of sectors (default: one full partition; WinningPoSt takes 1)"},
			&cli.IntFlag{Name: "partition", Usage: "update: write only partition `K` (default: every partition)"},
			&cli.Uint64Flag{Name: "seed", Usage: "seed of the randomness, sector numbers, comm_c and leaves", Value: 1},
			&cli.StringFlag{Name: "miner", Usage: "miner actor address (its id is the prover id)", Value: "t01000"},
			&cli.Uint64Flag{Name: "sector", Usage: "porep: the sector `NUMBER` (the replica_id derives from it)", Value: 1},
			&cli.StringFlag{Name: "out", Usage: "output `DIR` (created if missing)", Required: true},
			&cli.BoolFlag{Name: "force", Usage: "replace the vanilla proofs of an existing --out DIR"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object"},
		}, profileFlags()...),
		Action: benchVanillaAction,
	}
}

// benchVanillaOutput is what `cuseal bench vanilla --json` prints.
type benchVanillaOutput struct {
	RegisteredProof string  `json:"registered_proof"`
	Sectors         int     `json:"sectors"`
	Partitions      int     `json:"partitions"`
	Bytes           int     `json:"bytes"` // of all vanilla proofs
	Dir             string  `json:"dir"`
	Seconds         float64 `json:"seconds"`
	PeakRSSBytes    uint64  `json:"peak_rss_bytes"` // of the process (getrusage)
}

func benchVanillaAction(c *cli.Context) error {
	start := time.Now()
	spec, err := lookupCircuit("circuit", c.String("circuit"), vanillaCircuits...)
	if err != nil {
		return err
	}
	return spec.benchVanilla(c, spec, start)
}

// benchVanillaPoSt is bench vanilla of a PoSt circuit: --sectors synthetic sectors' vanilla
// proofs.
func benchVanillaPoSt(c *cli.Context, spec *circuitSpec, start time.Time) error {
	if c.IsSet("partition") {
		return usageErrorf("--partition: only with --circuit %s", circuitUpdate)
	}
	if c.IsSet("sector") {
		return usageErrorf("--sector: only with --circuit %s", circuitPoRep)
	}
	cfg, err := configForSize[*post.Config](spec, c.String("sector-size"))
	if err != nil {
		return err
	}
	miner, err := parseMiner(c.String("miner"))
	if err != nil {
		return usageErrorf("%v", err)
	}
	n := c.Int("sectors")
	if c.IsSet("sectors") {
		if cfg.Kind == post.Winning && n != post.WinningSectorCount {
			return usageErrorf("--sectors %d: %s proves exactly %d sector", n, cfg.Name, post.WinningSectorCount)
		}
		if n < 1 {
			return usageErrorf("--sectors %d: must be at least 1", n)
		}
	}
	if err := checkProfilePaths(c); err != nil {
		return err
	}
	stop, err := startProfiling(c)
	if err != nil {
		return err
	}
	set, err := synthetic.PoSt(cfg.Proof, synthetic.PoStOptions{Sectors: n, Miner: miner, Seed: c.Uint64("seed")})
	if serr := stop(); err == nil && serr != nil {
		return serr
	}
	if err != nil {
		return internalError(err)
	}
	vs := &postVanillaSet{cfg: &set.Config, miner: set.Miner, randomness: set.Randomness, sectors: set.Sectors, vanilla: set.Vanilla, synthetic: true}
	if err := writeVanillaDir(c.String("out"), vs, c.Bool("force")); err != nil {
		return err
	}
	out := benchVanillaOutput{RegisteredProof: cfg.Name, Sectors: len(set.Vanilla), Partitions: cfg.Partitions(len(set.Vanilla)),
		Dir: c.String("out"), Seconds: time.Since(start).Seconds(), PeakRSSBytes: peakRSS()}
	for _, b := range set.Vanilla {
		out.Bytes += len(b)
	}
	if c.Bool("json") {
		return writeJSON(c, out)
	}
	printf(c, "%s (%s): %d sector(s), %d partition(s), %s of vanilla proofs in %s (%.3fs)\n", out.RegisteredProof,
		stacked.SizeLabel(cfg.SectorSize), out.Sectors, out.Partitions, humanBytes(uint64(out.Bytes)), out.Dir, out.Seconds)
	return nil
}

// benchVanillaStart readies --out for meta (prepareVanillaOut) and starts the profiles
// (stop ends them).
func benchVanillaStart(c *cli.Context, meta string) (stop func() error, err error) {
	if err := prepareVanillaOut(c.String("out"), meta, c.Bool("force")); err != nil {
		return nil, err
	}
	if err := checkProfilePaths(c); err != nil {
		return nil, err
	}
	return startProfiling(c)
}

// prepareVanillaOut readies bench vanilla's --out DIR: it refuses a DIR that holds meta
// already (unless force), creates DIR and checks that it is writable.
func prepareVanillaOut(dir, meta string, force bool) error {
	if _, err := os.Lstat(filepath.Join(dir, meta)); err == nil && !force {
		return usageErrorf("--out %s: holds %s already; refusing to overwrite it (pass --force to replace it)", dir, meta)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return inputError(fmt.Errorf("--out: %w", fileError(err)))
	}
	return checkWritableDir(dir)
}
