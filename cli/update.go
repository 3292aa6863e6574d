// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"context"
	"encoding/hex"
	"fmt"
	"log/slog"
	"time"

	"github.com/filecoin-project/go-state-types/proof"
	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/groth16"
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
	flags := append([]cli.Flag{
		&cli.StringFlag{Name: "proof-type", Usage: "registered update proof: its go-state-types number (0-4) or name (StackedDrg32GiBV1); or give --sector-size"},
		&cli.StringFlag{Name: "sector-size", Usage: "sector size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB): its update proof StackedDrg<size>V1"},
	}, commitmentFlags(true, "")...)
	return append(append(flags,
		paramsDirFlag(),
		requireProductionFlag(),
		&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON object"},
	), extra...)
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
		Flags: updateCommonFlags(append(proofOutFlags(),
			&cli.StringSliceFlag{Name: "vanilla", Usage: "vanilla partition proof `FILE`, one per partition in order, or one `DIR` of partition-K.bin files"},
			backendFlag(),
			noGPUFlag(),
			synthWorkersFlag(),
		)...),
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

// updateInputs are the flags update prove and verify read.
type updateInputs struct {
	cfg *update.Config
	updateCommitments
	dir string
}

func readUpdateInputs(c *cli.Context) (*updateInputs, error) {
	cfg, err := updateProofType(c)
	if err != nil {
		return nil, err
	}
	comms, err := readUpdateCommitments(c, nil)
	if err != nil {
		return nil, err
	}
	return &updateInputs{cfg: cfg, updateCommitments: comms, dir: c.String("params-dir")}, nil
}

// readUpdateVanilla reads the vanilla partition proofs: --vanilla files and
// arguments in order, or one directory of partition-K.bin files
// (K = 0…Partitions−1).
func readUpdateVanilla(c *cli.Context, cfg *update.Config) ([][]byte, error) {
	paths, dir := vanillaPaths(c)
	if dir != "" {
		paths = partitionFiles(dir, cfg.Partitions)
	}
	if len(paths) == 0 {
		return nil, usageErrorf("--vanilla: no vanilla partition proofs (%s has %d partition(s): give one file per partition, or a directory)", cfg.Name, cfg.Partitions)
	}
	if len(paths) != cfg.Partitions {
		return nil, usageErrorf("--vanilla: %s has %s; got %s (give one vanilla partition proof per partition, in order, or a directory)",
			cfg.Name, countOf(cfg.Partitions, "partition"), countOf(len(paths), "file"))
	}
	return readVanillaFiles(paths)
}

// updateOptions are the porep options of --params-dir and
// --require-production-params.
func updateOptions(c *cli.Context, in *updateInputs) []porep.Option {
	opts := []porep.Option{porep.WithParamsDir(in.dir), porep.WithContext(c.Context), porep.WithLogger(slog.Default()), warningsOption(c)}
	return append(opts, productionOptions(c)...)
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
	vanilla, err := readUpdateVanilla(c, in.cfg)
	if err != nil {
		return err
	}
	pf, outPath, err := runProve(c, "update prove", func() error { return checkParamsPresent(in.dir, updateParams(in.cfg), true) },
		func(ctx context.Context, opts ...porep.Option) ([]byte, error) {
			return porep.GenerateUpdateProofWithVanilla(in.cfg.Proof, in.oldSealed, in.newSealed, in.unsealed, vanilla, append(updateOptions(c, in), opts...)...)
		})
	if err != nil {
		return err
	}
	out := updateOutput{UpdateProof: in.cfg.Name, Partitions: in.cfg.Partitions, Proof: hex.EncodeToString(pf), ProofFile: outPath, Seconds: time.Since(start).Seconds()}
	return reportProof(c, out, outPath, out.Proof,
		fmt.Sprintf("proof: %s (%d bytes, %s, %d partition(s), %.3fs)", outPath, len(pf), in.cfg.Name, out.Partitions, out.Seconds))
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
	if err := checkParamsPresent(in.dir, updateParams(in.cfg), false); err != nil {
		return err
	}
	ok, err := porep.VerifyReplicaUpdate(proof.ReplicaUpdateInfo{UpdateProofType: in.cfg.Proof, OldSealedSectorCID: in.oldSealed,
		NewSealedSectorCID: in.newSealed, NewUnsealedSectorCID: in.unsealed, Proof: pf}, updateOptions(c, in)...)
	if err != nil {
		return classifyPorepError(err)
	}
	out := updateVerifyOutput{UpdateProof: in.cfg.Name, Valid: ok, Partitions: in.cfg.Partitions, Seconds: time.Since(start).Seconds()}
	return reportVerdict(c, out, ok, fmt.Sprintf("valid: %s proof, %d partition(s) (%.3fs)", out.UpdateProof, out.Partitions, out.Seconds))
}
