// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"time"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"
	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/aggregate"
	"github.com/cuseal/cuseal/porep/stacked"
)

func sectorsFlag() cli.Flag {
	return &cli.Uint64SliceFlag{Name: "sector", Usage: "sector number of each --c1, in order (default: Commit2In.SectorNum, else 1)"}
}

func aggregateCommand() *cli.Command {
	return &cli.Command{
		Name:  "aggregate",
		Usage: "aggregate the C2 proofs of several sectors with SnarkPack V2 (ProveCommitAggregate)",
		Description: "Each --c1 gives a sector's C1 output and the --proof at the same position its\n" +
			"commit2 proof. All partition proofs, in order, padded to a power of two with the last,\n" +
			"are aggregated over v28-fil-inner-product-v1.srs in --params-dir, as filecoin-ffi's\n" +
			"AggregateSealProofs does. The aggregate is verified before it is written.",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "c1", Usage: "C1 JSON or Commit2In `FILE` of a sector (repeat, in order)", Required: true},
			&cli.StringSliceFlag{Name: "proof", Usage: "commit2 proof `FILE` of the --c1 at the same position (raw or hex)", Required: true},
			sectorsFlag(),
			minerFlag(),
			paramsDirFlag(),
			&cli.StringFlag{Name: "out", Usage: "write the aggregate to `FILE` (default: hex on stdout)"},
			&cli.BoolFlag{Name: "hex", Usage: "write --out as hex"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite an existing --out"},
			&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON object"},
		},
		Action: aggregateAction,
	}
}

func verifyAggregateCommand() *cli.Command {
	return &cli.Command{
		Name:  "verify-aggregate",
		Usage: "verify a SnarkPack aggregate against its sectors' C1 outputs: exit 0 valid, 1 invalid",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "c1", Usage: "C1 JSON or Commit2In `FILE` of a sector (repeat, in aggregation order)", Required: true},
			&cli.StringFlag{Name: "proof", Usage: "aggregate `FILE` (raw or hex)", Required: true},
			sectorsFlag(),
			minerFlag(),
			paramsDirFlag(),
			&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON object"},
		},
		Action: verifyAggregateAction,
	}
}

// aggSector is one --c1 read and checked.
type aggSector struct {
	path   string
	c1     *stacked.C1Output
	cfg    stacked.SectorConfig
	sector abi.SectorNumber
}

// readAggSectors reads every --c1 with its --sector, checks that they share
// one registered proof and that each replica_id belongs to --miner and the
// sector number, and returns the go-state-types infos.
func readAggSectors(c *cli.Context) (abi.ActorID, []aggSector, []proof.AggregateSealVerifyInfo, error) {
	miner, err := parseMiner(c.String("miner"))
	if err != nil {
		return 0, nil, nil, inputError(err)
	}
	paths := c.StringSlice("c1")
	sectors := c.Uint64Slice("sector")
	if len(sectors) != 0 && len(sectors) != len(paths) {
		return 0, nil, nil, usageErrorf("--sector given %d times for %d --c1 files", len(sectors), len(paths))
	}
	var out []aggSector
	var infos []proof.AggregateSealVerifyInfo
	for i, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			return 0, nil, nil, inputError(fmt.Errorf("--c1: %w", fileError(err)))
		}
		raw, wrapper, err := stacked.UnwrapC1Input(data)
		if err != nil {
			return 0, nil, nil, inputError(fmt.Errorf("%s: %w", path, err))
		}
		s := aggSector{path: path, sector: 1}
		if s.c1, s.cfg, err = stacked.ParseC1(raw); err != nil {
			return 0, nil, nil, inputError(fmt.Errorf("%s: %w", path, err))
		}
		switch {
		case len(sectors) > 0:
			s.sector = abi.SectorNumber(sectors[i])
		case wrapper != nil:
			s.sector = abi.SectorNumber(wrapper.SectorNum)
		}
		if i > 0 && s.cfg.Proof != out[0].cfg.Proof {
			return 0, nil, nil, usageErrorf("%s: registered proof %s, but %s has %s: one aggregate holds one proof type", path, s.cfg.Name, out[0].path, out[0].cfg.Name)
		}
		want := stacked.ReplicaID(stacked.ProverID(miner), s.sector, s.c1.Ticket, s.c1.CommD, s.cfg.PoRepID)
		if stacked.Domain(want) != s.c1.ReplicaID {
			return 0, nil, nil, usageErrorf("%s: replica_id is not the one of miner %s, sector %d: wrong --miner or --sector", path, c.String("miner"), s.sector)
		}
		sealed, err := commcid.ReplicaCommitmentV1ToCID(s.c1.CommR[:])
		if err != nil {
			return 0, nil, nil, inputError(fmt.Errorf("%s: comm_r: %w", path, err))
		}
		unsealed, err := commcid.DataCommitmentV1ToCID(s.c1.CommD[:])
		if err != nil {
			return 0, nil, nil, inputError(fmt.Errorf("%s: comm_d: %w", path, err))
		}
		out = append(out, s)
		infos = append(infos, proof.AggregateSealVerifyInfo{
			Number:                s.sector,
			Randomness:            abi.SealRandomness(s.c1.Ticket[:]),
			InteractiveRandomness: abi.InteractiveSealRandomness(s.c1.Seed[:]),
			SealedCID:             sealed,
			UnsealedCID:           unsealed,
		})
	}
	return miner, out, infos, nil
}

// checkAggregateParams names a missing .vk of cfg's circuit or a missing SnarkPack SRS in
// dir before any work.
func checkAggregateParams(dir string, cfg *stacked.SectorConfig) error {
	if err := checkParamsPresent(dir, porepParams(cfg), false); err != nil {
		return err
	}
	return checkSRSPresent(dir)
}

// readAggregateFile reads an aggregate, raw or hex, and checks that it
// decodes (a usage error naming the field and byte offset otherwise).
func readAggregateFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, inputError(fmt.Errorf("--proof: %w", fileError(err)))
	}
	pf := data
	if _, err := aggregate.ParseAggregateProof(data); err != nil {
		t := bytes.TrimPrefix(bytes.TrimSpace(data), []byte("0x"))
		if b, herr := hex.DecodeString(string(t)); herr == nil && len(b) > 0 {
			if _, err2 := aggregate.ParseAggregateProof(b); err2 != nil {
				return nil, usageErrorf("--proof %s (hex-decoded): %v", path, err2)
			}
			return b, nil
		}
		return nil, usageErrorf("--proof %s: %v", path, err)
	}
	return pf, nil
}

type aggregateOutput struct {
	RegisteredProof string  `json:"registered_proof"`
	Sectors         int     `json:"sectors"`
	Proofs          int     `json:"proofs"`
	Aggregated      int     `json:"aggregated"` // padded to a power of two
	Bytes           int     `json:"bytes"`
	Aggregate       string  `json:"aggregate,omitempty"`
	File            string  `json:"file,omitempty"`
	Seconds         float64 `json:"seconds"`
	VerifySeconds   float64 `json:"verify_seconds"`
}

func aggregateAction(c *cli.Context) error {
	miner, secs, infos, err := readAggSectors(c)
	if err != nil {
		return err
	}
	proofPaths := c.StringSlice("proof")
	if len(proofPaths) != len(secs) {
		return usageErrorf("--proof given %d times for %d --c1 files", len(proofPaths), len(secs))
	}
	outPath, err := checkOutFlag(c)
	if err != nil {
		return err
	}
	cfg := &secs[0].cfg
	dir := c.String("params-dir")
	if err := checkAggregateParams(dir, cfg); err != nil {
		return err
	}
	proofs := make([][]byte, len(secs))
	for i, p := range proofPaths {
		if proofs[i], err = readProofFile(p, cfg.Partitions); err != nil {
			return err
		}
	}
	info := proof.AggregateSealVerifyProofAndInfos{
		Miner: miner, SealProof: cfg.Proof, AggregateProof: abi.RegisteredAggregationProof_SnarkPackV2, Infos: infos,
	}
	start := time.Now()
	rec := newCommandRecorder(c, "aggregate")
	defer rec.bar.Done()
	agg, err := porep.AggregateSealProofs(info, proofs, porep.WithParamsDir(dir), porep.WithProgress(rec.record))
	if err != nil {
		return classifyPorepError(err)
	}
	took := time.Since(start)
	info.Proof = agg
	t0 := time.Now()
	rec.bar.Phase("verify")
	ok, err := porep.VerifyAggregateSeals(info, porep.WithParamsDir(dir))
	rec.bar.Done()
	if err != nil {
		return classifyPorepError(err)
	}
	if !ok {
		return &exitError{code: exitInvalidProof, err: errors.New("the aggregate does not verify: an input proof is invalid for its sector")}
	}
	vtook := time.Since(t0)
	if err := writeProofOut(c.App.ErrWriter, outPath, agg, c.Bool("hex")); err != nil {
		return err
	}
	n := len(secs) * cfg.Partitions
	pad := 2
	for pad < n {
		pad <<= 1
	}
	out := aggregateOutput{RegisteredProof: cfg.Name, Sectors: len(secs), Proofs: n, Aggregated: pad, Bytes: len(agg),
		File: outPath, Seconds: took.Seconds(), VerifySeconds: vtook.Seconds()}
	if outPath == "" || c.Bool("json") {
		out.Aggregate = hex.EncodeToString(agg)
	}
	if c.Bool("json") {
		return proofToStdout(c, out.Aggregate, func() error { return writeJSON(c, out) })
	}
	if outPath == "" {
		return printProofHex(c, out.Aggregate)
	}
	printf(c, "aggregate: %s (%d bytes, %d proofs of %d sector(s) padded to %d; %.3fs, verified in %.3fs)\n",
		outPath, len(agg), n, len(secs), pad, out.Seconds, out.VerifySeconds)
	return nil
}

type verifyAggregateOutput struct {
	RegisteredProof string  `json:"registered_proof"`
	Valid           bool    `json:"valid"`
	Sectors         int     `json:"sectors"`
	Seconds         float64 `json:"seconds"`
}

func verifyAggregateAction(c *cli.Context) error {
	start := time.Now()
	miner, secs, infos, err := readAggSectors(c)
	if err != nil {
		return err
	}
	cfg := &secs[0].cfg
	dir := c.String("params-dir")
	if err := checkAggregateParams(dir, cfg); err != nil {
		return err
	}
	agg, err := readAggregateFile(c.String("proof"))
	if err != nil {
		return err
	}
	info := proof.AggregateSealVerifyProofAndInfos{
		Miner: miner, SealProof: cfg.Proof, AggregateProof: abi.RegisteredAggregationProof_SnarkPackV2, Infos: infos, Proof: agg,
	}
	ok, err := porep.VerifyAggregateSeals(info, porep.WithParamsDir(dir))
	if err != nil {
		return classifyPorepError(err)
	}
	out := verifyAggregateOutput{RegisteredProof: cfg.Name, Valid: ok, Sectors: len(secs), Seconds: time.Since(start).Seconds()}
	return reportVerdict(c, out, ok, fmt.Sprintf("valid: SnarkPack aggregate of %d %s sector(s) (%.3fs)", out.Sectors, out.RegisteredProof, out.Seconds))
}
