// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/synthetic"
	"github.com/cuseal/cuseal/porep/update"
)

// benchUpdateFlags are bench synth's and bench prove's flags for --circuit update: the
// commitments the vanilla partition proofs were made for.
func benchUpdateFlags() []cli.Flag {
	return commitmentFlags(false, "update: ")
}

// readUpdateVanillaDir reads DIR/partition-K.bin for K = 0, 1, ... and
// finds the update proof whose partition proofs have their size (checked
// against --sector-size when given).
func readUpdateVanillaDir(c *cli.Context, dir string) (*update.Config, [][]byte, error) {
	vanilla, err := readVanillaFiles(partitionFiles(dir, -1))
	if err != nil {
		return nil, nil, err
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

// benchUpdateSet is the update circuit's bench input: the vanilla
// partition proofs of --vanilla DIR and the three commitments.
type benchUpdateSet struct {
	cfg     *update.Config
	dir     string
	vanilla [][]byte
	updateCommitments
}

// benchUpdateInput reads --vanilla DIR (partition-K.bin, as `cuseal update
// vanilla` writes them) and --comm-r-old, --comm-r-new, --comm-d-new.
func benchUpdateInput(c *cli.Context) (*benchUpdateSet, error) {
	for _, f := range []string{"c1", "challenges", "sectors"} {
		if c.IsSet(f) {
			return nil, usageErrorf("--%s: not with --circuit %s (it reads vanilla partition proofs: --vanilla DIR)", f, circuitUpdate)
		}
	}
	dir := c.String("vanilla")
	if c.Bool("synthetic") == (dir != "") {
		return nil, usageErrorf("--circuit %s: give exactly one of --synthetic (with --sector-size) and --vanilla DIR (partition-K.bin files, e.g. from cuseal update vanilla, with the commitments)", circuitUpdate)
	}
	if c.Bool("synthetic") {
		return syntheticUpdateInput(c)
	}
	cfg, vanilla, err := readUpdateVanillaDir(c, dir)
	if err != nil {
		return nil, err
	}
	comms, err := readUpdateCommitments(c, func(string) error {
		return usageErrorf("--circuit %s needs --comm-r-old, --comm-r-new and --comm-d-new (the commitments of --vanilla %s)", circuitUpdate, dir)
	})
	if err != nil {
		return nil, err
	}
	return &benchUpdateSet{cfg: cfg, dir: dir, vanilla: vanilla, updateCommitments: comms}, nil
}

// syntheticUpdateInput is --synthetic: porep/synthetic.Update's sector
// of --sector-size from seed 1, every partition proof in memory.
func syntheticUpdateInput(c *cli.Context) (*benchUpdateSet, error) {
	for _, f := range []string{"comm-r-old", "comm-r-new", "comm-d-new"} {
		if c.IsSet(f) {
			return nil, usageErrorf("--%s: not with --synthetic (it makes its own commitments)", f)
		}
	}
	if !c.IsSet("sector-size") {
		return nil, usageErrorf("--synthetic needs --sector-size")
	}
	cfg, err := configForSize[*update.Config](circuitNamed(circuitUpdate), c.String("sector-size"))
	if err != nil {
		return nil, err
	}
	set, err := synthetic.Update(cfg.Proof, synthetic.UpdateOptions{Seed: 1})
	if err != nil {
		return nil, internalError(err)
	}
	vanilla, err := set.Vanilla()
	if err != nil {
		return nil, internalError(err)
	}
	return &benchUpdateSet{cfg: &set.Config, dir: "synthetic", vanilla: vanilla,
		updateCommitments: updateCommitments{oldSealed: set.OldSealed, newSealed: set.NewSealed, unsealed: set.Unsealed}}, nil
}

// updateSynthInput is bench synth's update job: every partition, checked
// as the prover checks it.
func updateSynthInput(c *cli.Context, _ *circuitSpec) (*synthJob, error) {
	set, err := benchUpdateInput(c)
	if err != nil {
		return nil, err
	}
	cfg := set.cfg
	job, err := porep.PrepareUpdate(cfg.Proof, set.oldSealed, set.newSealed, set.unsealed, set.vanilla)
	if err != nil {
		return nil, classifyPorepError(fmt.Errorf("--vanilla %s: %w", set.dir, err))
	}
	return &synthJob{
		name: cfg.Name, sectorSize: cfg.SectorSize, source: set.dir, about: set.about(),
		partitions: job.Partitions(), challenges: cfg.ChallengeCount, maxWorkers: cfg.ChallengeCount,
		synthesize: func(ctx context.Context, k int, pool *cs.BufferPool, workers int) (*cs.Assignment, error) {
			return job.SynthesizePartition(ctx, k, pool, workers)
		},
		record: func(k int, rec *cs.Recorder) error {
			circ, err := job.PartitionCircuit(k)
			if err != nil {
				return err
			}
			return circ.Synthesize(context.Background(), rec)
		},
	}, nil
}

// updateProveInput is bench prove's update job: the whole update proof as
// update prove makes it, after the parameter and memory checks.
func updateProveInput(c *cli.Context, _ *circuitSpec, backends []string) (*proveJob, error) {
	for _, f := range []string{"sector", "partition", "preload-params"} {
		if c.IsSet(f) {
			return nil, usageErrorf("--%s: only with --circuit %s", f, circuitPoRep)
		}
	}
	if w := c.Int("synth-workers"); w < 0 {
		return nil, usageErrorf("--synth-workers %d: must be at least 0", w)
	}
	set, err := benchUpdateInput(c)
	if err != nil {
		return nil, err
	}
	cfg := set.cfg
	if err := benchReady(c, backends, updateParams(cfg), cfg); err != nil {
		return nil, err
	}
	return &proveJob{circuit: circuitUpdate, name: cfg.Name, label: stacked.SizeLabel(cfg.SectorSize), partitions: cfg.Partitions, cfg: cfg,
		prove: func(opts []porep.Option) ([]byte, error) {
			return porep.GenerateUpdateProofWithVanilla(cfg.Proof, set.oldSealed, set.newSealed, set.unsealed, set.vanilla, opts...)
		}}, nil
}

// about is the input in bench synth's report.
func (s *benchUpdateSet) about() string {
	if s.dir == "synthetic" {
		return "synthetic vanilla partition proofs (sparse trees, seed 1)"
	}
	return "vanilla partition proofs from " + s.dir
}
