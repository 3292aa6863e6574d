// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/update"
)

// benchUpdateFlags are bench synth's flags for --circuit update: the
// commitments the vanilla partition proofs were made for.
func benchUpdateFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "comm-r-old", Usage: "update: the sector key's comm_r (sealed CID or 64 hex digits)"},
		&cli.StringFlag{Name: "comm-r-new", Usage: "update: the updated sector's comm_r (sealed CID or 64 hex digits)"},
		&cli.StringFlag{Name: "comm-d-new", Usage: "update: the new data's comm_d (unsealed CID or 64 hex digits)"},
	}
}

// readUpdateVanillaDir reads DIR/partition-K.bin for K = 0, 1, ... and
// finds the update proof whose partition proofs have their size (checked
// against --sector-size when given).
func readUpdateVanillaDir(c *cli.Context, dir string) (*update.Config, [][]byte, error) {
	var vanilla [][]byte
	for k := 0; ; k++ {
		b, err := os.ReadFile(filepath.Join(dir, partitionProofFile(k)))
		if os.IsNotExist(err) && k > 0 {
			break
		}
		if err != nil {
			return nil, nil, inputError(fmt.Errorf("--vanilla: %w", fileError(err)))
		}
		vanilla = append(vanilla, b)
	}
	var cfg *update.Config
	for _, u := range update.Configs() {
		if update.PartitionProofSize(&u) == len(vanilla[0]) {
			cfg = &u
			break
		}
	}
	if cfg == nil {
		return nil, nil, usageErrorf("--vanilla %s: %s is %d bytes, the size of no update proof's partition proof", dir, partitionProofFile(0), len(vanilla[0]))
	}
	if c.IsSet("sector-size") {
		size, err := parseSectorSize(c.String("sector-size"))
		if err != nil {
			return nil, nil, inputError(err)
		}
		if size != cfg.SectorSize {
			return nil, nil, usageErrorf("--sector-size %s does not match --vanilla %s: it holds %s partition proofs (%s)",
				c.String("sector-size"), dir, stacked.SizeLabel(cfg.SectorSize), cfg.Name)
		}
	}
	return cfg, vanilla, nil
}

// updateSynthInput reads the update circuit's inputs for bench synth:
// --vanilla DIR (partition-K.bin, as `cuseal update vanilla` writes them)
// and the three commitments, checked as the prover checks them.
func updateSynthInput(c *cli.Context) (*synthJob, error) {
	for _, f := range []string{"c1", "challenges", "sectors"} {
		if c.IsSet(f) {
			return nil, usageErrorf("--%s: not with --circuit %s (it reads vanilla partition proofs: --vanilla DIR)", f, circuitUpdate)
		}
	}
	dir := c.String("vanilla")
	if c.Bool("synthetic") || dir == "" {
		return nil, usageErrorf("--circuit %s: give --vanilla DIR (partition-K.bin files, e.g. from cuseal update vanilla) and the commitments; there are no synthetic update inputs yet", circuitUpdate)
	}
	cfg, vanilla, err := readUpdateVanillaDir(c, dir)
	if err != nil {
		return nil, err
	}
	var comms [3]string
	for i, f := range []string{"comm-r-old", "comm-r-new", "comm-d-new"} {
		if comms[i] = c.String(f); comms[i] == "" {
			return nil, usageErrorf("--circuit %s needs --comm-r-old, --comm-r-new and --comm-d-new (the commitments of --vanilla %s)", circuitUpdate, dir)
		}
	}
	oldSealed, err := sealedCID(comms[0])
	if err != nil {
		return nil, usageErrorf("--comm-r-old %s: %v", comms[0], err)
	}
	newSealed, err := sealedCID(comms[1])
	if err != nil {
		return nil, usageErrorf("--comm-r-new %s: %v", comms[1], err)
	}
	unsealed, err := unsealedCID(comms[2])
	if err != nil {
		return nil, usageErrorf("--comm-d-new %s: %v", comms[2], err)
	}
	job, err := porep.PrepareUpdate(cfg.Proof, oldSealed, newSealed, unsealed, vanilla)
	if err != nil {
		return nil, classifyPorepError(fmt.Errorf("--vanilla %s: %w", dir, err))
	}
	return &synthJob{
		name: cfg.Name, sectorSize: cfg.SectorSize, source: dir, about: fmt.Sprintf("vanilla partition proofs from %s", dir),
		partitions: job.Partitions(), challenges: cfg.ChallengeCount, maxWorkers: cfg.ChallengeCount,
		synthesize: func(ctx context.Context, k int, pool *cs.BufferPool, workers int) (*cs.Assignment, error) {
			return job.SynthesizePartition(ctx, k, pool, workers)
		},
		record: func(k int, rec *cs.Recorder) error {
			circ, err := job.Circuit(k)
			if err != nil {
				return err
			}
			return circ.Synthesize(context.Background(), rec)
		},
	}, nil
}
