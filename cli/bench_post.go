// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/synthetic"
)

// postInputFlags are the PoSt input flags bench synth and bench prove
// share (with --synthetic and --sector-size, which PoRep uses too).
func postInputFlags(sectorsDefault string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "vanilla", Usage: "PoSt: vanilla-proof `DIR` (vanilla.json and sector-<n>.bin files); update: partition-K.bin files"},
		&cli.IntFlag{Name: "sectors", Usage: "PoSt --synthetic: sectors (default: " + sectorsDefault + "; WinningPoSt 1)"},
	}
}

// postBenchInput reads the PoSt inputs of bench synth and bench prove:
// --vanilla DIR, or --synthetic with --sector-size and --sectors (default:
// partitions full partitions; WinningPoSt 1), for the circuit spec.
func postBenchInput(c *cli.Context, spec *circuitSpec, partitions int) (*postVanillaSet, error) {
	dir, useSynthetic := c.String("vanilla"), c.Bool("synthetic")
	if (dir == "") == !useSynthetic {
		return nil, usageErrorf("--circuit %s: give exactly one of --vanilla DIR and --synthetic", spec.name)
	}
	if !useSynthetic {
		if c.IsSet("sectors") {
			return nil, usageErrorf("--sectors: only with --synthetic (--vanilla %s fixes the sectors)", dir)
		}
		set, err := readVanillaDir(dir)
		if err != nil {
			return nil, err
		}
		if set.cfg.Kind != spec.postKind {
			return nil, usageErrorf("--vanilla %s holds %s (%sPoSt) vanilla proofs, --circuit %s wants %sPoSt", dir, set.cfg.Name, set.cfg.Kind, spec.name, spec.postKind)
		}
		if c.IsSet("sector-size") {
			size, err := parseSectorSize(c.String("sector-size"))
			if err != nil {
				return nil, inputError(err)
			}
			if size != set.cfg.SectorSize {
				return nil, usageErrorf("--sector-size %s does not match --vanilla %s: it holds %s sectors (%s)",
					c.String("sector-size"), dir, stacked.SizeLabel(set.cfg.SectorSize), set.cfg.Name)
			}
		}
		set.source = dir
		return set, nil
	}
	if !c.IsSet("sector-size") {
		return nil, usageErrorf("--synthetic needs --sector-size")
	}
	cfg, err := configForSize[*post.Config](spec, c.String("sector-size"))
	if err != nil {
		return nil, err
	}
	n := max(partitions, 1) * cfg.SectorCount
	if c.IsSet("sectors") {
		n = c.Int("sectors")
		if cfg.Kind == post.Winning && n != post.WinningSectorCount {
			return nil, usageErrorf("--sectors %d: %s proves exactly %d sector", n, cfg.Name, post.WinningSectorCount)
		}
		if n < 1 {
			return nil, usageErrorf("--sectors %d: must be at least 1", n)
		}
	}
	if cfg.Kind == post.Winning {
		n = post.WinningSectorCount
	}
	set, err := synthetic.PoSt(cfg.Proof, synthetic.PoStOptions{Sectors: n, Seed: 1})
	if err != nil {
		return nil, internalError(err)
	}
	return &postVanillaSet{cfg: &set.Config, miner: set.Miner, randomness: set.Randomness, sectors: set.Sectors,
		vanilla: set.Vanilla, synthetic: true, source: "synthetic"}, nil
}

// about describes the set for a table heading.
func (s *postVanillaSet) about() string {
	if s.source == "synthetic" {
		return fmt.Sprintf("synthetic vanilla proofs of %d sector(s)", len(s.vanilla))
	}
	return fmt.Sprintf("vanilla proofs of %d sector(s) from %s", len(s.vanilla), s.source)
}

// partitionVanilla is partition k's vanilla proofs: WindowPoSt's k-th chunk
// of SectorCount, WinningPoSt's one.
func (s *postVanillaSet) partitionVanilla(k int) [][]byte {
	if s.cfg.Kind == post.Winning {
		return s.vanilla
	}
	lo := k * s.cfg.SectorCount
	return s.vanilla[lo:min(lo+s.cfg.SectorCount, len(s.vanilla))]
}

// preparePoStPartition checks partition k's vanilla proofs as the prover
// does and returns its job (porep.PrepareWinningPoSt /
// PrepareWindowPoStPartition).
func preparePoStPartition(s *postVanillaSet, k int, opts ...porep.Option) (*porep.Job, error) {
	var job *porep.Job
	var err error
	if s.cfg.Kind == post.Winning {
		job, err = porep.PrepareWinningPoSt(s.cfg.Proof, s.miner, s.randomness, s.vanilla, opts...)
	} else {
		job, err = porep.PrepareWindowPoStPartition(s.cfg.Proof, s.miner, s.randomness, s.partitionVanilla(k), uint(k), opts...)
	}
	if err != nil {
		return nil, classifyPorepError(fmt.Errorf("%s: %w", s.source, err))
	}
	return job, nil
}
