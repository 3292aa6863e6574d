// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

import (
	"context"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"
	"github.com/ipfs/go-cid"
	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/update"
)

// `cuseal update prove|verify`: SnapDeals proofs (ProveReplicaUpdate2) from
// the vanilla partition proofs filecoin-ffi's GenerateUpdateVanillaProofs
// returns, and their verification (porep.GenerateUpdateProofWithVanilla,
// porep.VerifyReplicaUpdate).

func init() {
	updateSubcommands = append(updateSubcommands, updateProveCommand, updateVerifyCommand)
}

// updateCommonFlags are the flags update prove and verify share: the proof
// type and the three commitments.
func updateCommonFlags(extra ...cli.Flag) []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "proof-type", Usage: "registered update proof: its go-state-types number (0-4) or name (StackedDrg32GiBV1); or give --sector-size"},
		&cli.StringFlag{Name: "sector-size", Usage: "sector size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB): its update proof StackedDrg<size>V1"},
		&cli.StringFlag{Name: "comm-r-old", Usage: "the sector key's comm_r: sealed CID (bagboea4b5abc…) or 64 hex digits", Required: true},
		&cli.StringFlag{Name: "comm-r-new", Usage: "the updated sector's comm_r: sealed CID or 64 hex digits", Required: true},
		&cli.StringFlag{Name: "comm-d-new", Usage: "the new data's comm_d: unsealed CID (baga6ea4seaq…) or 64 hex digits", Required: true},
		paramsDirFlag(),
		requireProductionFlag(),
		&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON object"},
	}, extra...)
}

func updateProveCommand() *cli.Command {
	return &cli.Command{
		Name: "prove",
		Usage: fmt.Sprintf("prove a sector update (ProveReplicaUpdate2) from its vanilla partition proofs (%d bytes per partition), verified before it is written",
			groth16.ProofSize),
		ArgsUsage: "[VANILLA_FILE...]",
		Description: "The vanilla partition proofs are what filecoin-ffi's GenerateUpdateVanillaProofs returns\n" +
			"(or `cuseal update vanilla` writes), one file per partition in partition order: --vanilla FILE\n" +
			"(repeated, or files as arguments), or --vanilla DIR holding partition-0.bin, partition-1.bin, ...\n" +
			"Each is parsed strictly and checked against the commitments before any proving; a defect\n" +
			"exits 2 naming the partition, field and byte offset, and nothing is written.",
		Flags: updateCommonFlags(
			&cli.StringSliceFlag{Name: "vanilla", Usage: "vanilla partition proof `FILE`, one per partition in order, or one `DIR` of partition-K.bin files"},
			&cli.StringFlag{Name: "out", Usage: "write the proof to `FILE` (default: hex on stdout)"},
			&cli.BoolFlag{Name: "hex", Usage: "write the proof file as hex instead of raw bytes"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing --out file"},
			&cli.StringFlag{Name: "backend", Usage: backendUsage(), Value: porep.BackendAuto},
			noGPUFlag(),
			synthWorkersFlag(),
		),
		Action: updateProveAction,
	}
}

func updateVerifyCommand() *cli.Command {
	return &cli.Command{
		Name:  "verify",
		Usage: "verify a sector update proof (VerifyReplicaUpdate): exit 0 valid, 1 invalid",
		Flags: updateCommonFlags(
			&cli.StringFlag{Name: "proof", Usage: fmt.Sprintf("proof `FILE`: raw bytes (%d per partition) or hex", groth16.ProofSize), Required: true},
		),
		Action: updateVerifyAction,
	}
}

// updateProofType reads --proof-type (number or name) or --sector-size.
func updateProofType(c *cli.Context) (*update.Config, error) {
	pt, size := c.String("proof-type"), c.String("sector-size")
	switch {
	case pt != "" && size != "":
		cfg, err := updateProofTypeFlag(pt)
		if err != nil {
			return nil, err
		}
		if want, err := updateConfigForSize(size); err != nil || want.Proof != cfg.Proof {
			return nil, usageErrorf("--sector-size %s does not match --proof-type %s (%s sectors)", size, pt, stacked.SizeLabel(cfg.SectorSize))
		}
		return cfg, nil
	case pt != "":
		return updateProofTypeFlag(pt)
	case size != "":
		cfg, err := updateConfigForSize(size)
		if err != nil {
			return nil, err
		}
		return &cfg, nil
	}
	return nil, usageErrorf("give --proof-type or --sector-size")
}

// updateProofTypeFlag parses --proof-type: a go-state-types number or name.
func updateProofTypeFlag(s string) (*update.Config, error) {
	var cfg update.Config
	var err error
	if n, perr := strconv.ParseInt(s, 10, 64); perr == nil {
		cfg, err = update.ConfigFor(abi.RegisteredUpdateProof(n))
	} else {
		err = fmt.Errorf("unknown registered update proof name")
		for _, c := range update.Configs() {
			if strings.EqualFold(c.Name, s) {
				cfg, err = c, nil
			}
		}
	}
	if err != nil {
		return nil, usageErrorf("--proof-type %q: %v (want 0-4 or StackedDrg<size>V1)", s, err)
	}
	return &cfg, nil
}

// updateInputs are the flags update prove and verify read.
type updateInputs struct {
	cfg                            *update.Config
	oldSealed, newSealed, unsealed cid.Cid
	dir                            string
}

func readUpdateInputs(c *cli.Context) (*updateInputs, error) {
	cfg, err := updateProofType(c)
	if err != nil {
		return nil, err
	}
	in := &updateInputs{cfg: cfg, dir: c.String("params-dir")}
	for _, f := range []struct {
		name  string
		dst   *cid.Cid
		parse func(string) (cid.Cid, error)
	}{{"comm-r-old", &in.oldSealed, sealedCID}, {"comm-r-new", &in.newSealed, sealedCID}, {"comm-d-new", &in.unsealed, unsealedCID}} {
		if *f.dst, err = f.parse(c.String(f.name)); err != nil {
			return nil, usageErrorf("--%s %s: %v", f.name, c.String(f.name), err)
		}
	}
	return in, nil
}

// readUpdateVanilla reads the vanilla partition proofs: --vanilla files and
// arguments in order, or one directory of partition-K.bin files
// (K = 0…Partitions−1).
func readUpdateVanilla(c *cli.Context, cfg *update.Config) ([]string, [][]byte, error) {
	paths := append(c.StringSlice("vanilla"), c.Args().Slice()...)
	if len(paths) == 1 {
		if fi, err := os.Stat(paths[0]); err == nil && fi.IsDir() {
			dir := paths[0]
			paths = paths[:0]
			for k := 0; k < cfg.Partitions; k++ {
				paths = append(paths, filepath.Join(dir, partitionProofFile(k)))
			}
		}
	}
	if len(paths) == 0 {
		return nil, nil, usageErrorf("--vanilla: no vanilla partition proofs (%s has %d partition(s): give one file per partition, or a directory)", cfg.Name, cfg.Partitions)
	}
	if len(paths) != cfg.Partitions {
		return nil, nil, usageErrorf("--vanilla: %s has %s; got %s (give one vanilla partition proof per partition, in order, or a directory)",
			cfg.Name, countOf(cfg.Partitions, "partition"), countOf(len(paths), "file"))
	}
	out := make([][]byte, len(paths))
	for i, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, inputError(fmt.Errorf("--vanilla: %w", fileError(err)))
		}
		out[i] = b
	}
	return paths, out, nil
}

// checkUpdateParams names a missing parameter file before any work.
func checkUpdateParams(cfg *update.Config, dir string, needParams bool) error {
	pp, vp, _ := cfg.ParameterPaths(dir)
	return checkCircuitParams(cfg.Name, circuitUpdate, cfg.SectorSize, dir, pp, vp, needParams)
}

// updateOptions are the porep options of --params-dir and
// --require-production-params.
func updateOptions(c *cli.Context, in *updateInputs) []porep.Option {
	opts := []porep.Option{porep.WithParamsDir(in.dir), porep.WithContext(c.Context), porep.WithLogger(slog.Default()), warningsOption(c)}
	if c.Bool("require-production-params") {
		opts = append(opts, porep.WithRequireProductionParams())
	}
	return opts
}

// updateOutput is what `cuseal update prove --json` prints.
type updateOutput struct {
	UpdateProof string  `json:"update_proof"`
	Partitions  int     `json:"partitions"`
	Proof       string  `json:"proof"` // hex
	ProofFile   string  `json:"proof_file,omitempty"`
	Seconds     float64 `json:"seconds"`
}

func updateProveAction(c *cli.Context) error {
	start := time.Now()
	in, err := readUpdateInputs(c)
	if err != nil {
		return err
	}
	_, vanilla, err := readUpdateVanilla(c, in.cfg)
	if err != nil {
		return err
	}
	pf, outPath, err := runProve(c, "update prove", func() error { return checkUpdateParams(in.cfg, in.dir, true) },
		func(ctx context.Context, opts ...porep.Option) ([]byte, error) {
			return porep.GenerateUpdateProofWithVanilla(in.cfg.Proof, in.oldSealed, in.newSealed, in.unsealed, vanilla, append(updateOptions(c, in), opts...)...)
		})
	if err != nil {
		return err
	}
	out := updateOutput{UpdateProof: in.cfg.Name, Partitions: in.cfg.Partitions, Proof: hex.EncodeToString(pf), ProofFile: outPath, Seconds: time.Since(start).Seconds()}
	if c.Bool("json") {
		return writeJSON(c, out)
	}
	if outPath == "" {
		printf(c, "%s\n", out.Proof)
		return nil
	}
	printf(c, "proof: %s (%d bytes, %s, %d partition(s), %.3fs)\n", outPath, len(pf), in.cfg.Name, out.Partitions, out.Seconds)
	return nil
}

// updateVerifyOutput is what `cuseal update verify --json` prints.
type updateVerifyOutput struct {
	UpdateProof string  `json:"update_proof"`
	Valid       bool    `json:"valid"`
	Partitions  int     `json:"partitions"`
	Seconds     float64 `json:"seconds"`
}

func updateVerifyAction(c *cli.Context) error {
	start := time.Now()
	in, err := readUpdateInputs(c)
	if err != nil {
		return err
	}
	pf, err := readProofFile(c.String("proof"), in.cfg.Partitions)
	if err != nil {
		return err
	}
	if err := checkUpdateParams(in.cfg, in.dir, false); err != nil {
		return err
	}
	ok, err := porep.VerifyReplicaUpdate(proof.ReplicaUpdateInfo{UpdateProofType: in.cfg.Proof, OldSealedSectorCID: in.oldSealed,
		NewSealedSectorCID: in.newSealed, NewUnsealedSectorCID: in.unsealed, Proof: pf}, updateOptions(c, in)...)
	if err != nil {
		return classifyPorepError(err)
	}
	out := updateVerifyOutput{UpdateProof: in.cfg.Name, Valid: ok, Partitions: in.cfg.Partitions, Seconds: time.Since(start).Seconds()}
	if c.Bool("json") {
		if err := writeJSON(c, out); err != nil {
			return internalError(err)
		}
	} else if ok {
		printf(c, "valid: %s proof, %d partition(s) (%.3fs)\n", out.UpdateProof, out.Partitions, out.Seconds)
	}
	if !ok {
		return errInvalidProof
	}
	return nil
}

// countOf is "1 file", "4 files".
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
