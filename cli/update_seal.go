// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/ipfs/go-cid"
	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep/seal"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/update"
)

// updateSubcommands are the sub-commands of `cuseal update`, in help order. A file that
// adds some appends their constructors in its init function (files initialize in name
// order: update.go's prove|verify come before this file's encode|vanilla).
var updateSubcommands []func() *cli.Command

func init() {
	updateSubcommands = append(updateSubcommands, updateEncodeCommand, updateVanillaCommand)
}

// updateCommand is the `cuseal update` group (SnapDeals).
func updateCommand() *cli.Command {
	cmd := &cli.Command{
		Name:  "update",
		Usage: "SnapDeals (sector update): proofs and their test inputs",
	}
	for _, f := range updateSubcommands {
		cmd.Subcommands = append(cmd.Subcommands, f())
	}
	return cmd
}

func updateEncodeCommand() *cli.Command {
	return &cli.Command{
		Name:  "encode",
		Usage: "put new data into a sector sealed by `cuseal seal` (filecoin-ffi EncodeInto) and write the updated sector to DIR",
		Description: "The test sealer's SnapDeals encoding: comm_d_new over the new data, phi and rho from\n" +
			"comm_d_new and the sector key's comm_r, new replica = sector key + data*rho, its tree R and\n" +
			"comm_r_new. --sector-key is the --out directory of `cuseal seal`: a sealed sector (in practice\n" +
			"a CC sector; the encoding works on any, and neither this nor Rust's encode_into checks). Prints comm_r_new and\n" +
			"comm_d_new as CIDs. On an error nothing is left in --out.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "sector-size", Usage: "sector size (2KiB, 8MiB, ...)", Value: "2KiB"},
			&cli.StringFlag{Name: "sector-key", Usage: "sealed sector `DIR` (the output of cuseal seal)", Required: true},
			&cli.StringFlag{Name: "data", Usage: "new unpadded (or Fr32-padded) sector data `FILE`", Required: true},
			&cli.StringFlag{Name: "out", Usage: "output `DIR` for the updated sector (created; must be empty)", Required: true},
			&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON object"},
		},
		Action: updateEncodeAction,
	}
}

// updateEncodeOutput is what `cuseal update encode --json` prints.
type updateEncodeOutput struct {
	UpdateProof string  `json:"update_proof"`
	CommROld    string  `json:"comm_r_old"`
	CommRNew    string  `json:"comm_r_new"`
	CommDNew    string  `json:"comm_d_new"`
	Out         string  `json:"out"`
	Seconds     float64 `json:"seconds"`
}

func updateEncodeAction(c *cli.Context) (err error) {
	cfg, err := configForSize[*update.Config](circuitNamed(circuitUpdate), c.String("sector-size"))
	if err != nil {
		return err
	}
	if err := checkSealable(cfg.SectorSize); err != nil {
		return err
	}
	outDir := c.String("out")
	removeCreated, err := checkEmptyOutDir(outDir)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			removeCreated()
		}
	}()
	ctx, stop := interruptible(c)
	defer stop()
	start := time.Now()
	res, err := seal.EncodeInto(ctx, cfg.Proof, c.String("sector-key"), c.String("data"), outDir)
	if err != nil {
		if interruptedBySignal(c, ctx) {
			return internalError(fmt.Errorf("update encode: interrupted by a signal; nothing was written to %s", outDir))
		}
		return inputError(err)
	}
	oldR, err := commcid.ReplicaCommitmentV1ToCID(res.CommROldBytes[:])
	if err != nil {
		return internalError(err)
	}
	out := updateEncodeOutput{UpdateProof: cfg.Name, CommROld: oldR.String(), CommRNew: res.CommRNew.String(), CommDNew: res.CommDNew.String(), Out: outDir,
		Seconds: time.Since(start).Seconds()}
	if c.Bool("json") {
		return writeJSON(c, out)
	}
	printf(c, "updated %s sector into %s (%s)\n", stacked.SizeLabel(cfg.SectorSize), outDir, cfg.Name)
	printf(c, "  comm_r_old: %s\n  comm_r_new: %s\n  comm_d_new: %s\n", out.CommROld, out.CommRNew, out.CommDNew)
	return nil
}

func updateVanillaCommand() *cli.Command {
	return &cli.Command{
		Name:  "vanilla",
		Usage: "write the vanilla partition proofs of an updated sector (filecoin-ffi GenerateUpdateVanillaProofs) to DIR/partition-K.bin",
		Description: "One file per partition, in partition order: the bincode PartitionProof filecoin-ffi's\n" +
			"GenerateUpdateVanillaProofs returns and GenerateUpdateProofWithVanilla takes. The\n" +
			"commitments are 64 hex digits or CIDs and must match the two directories. On an error\n" +
			"nothing is left in --out.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "sector-size", Usage: "sector size (2KiB, 8MiB, ...)", Value: "2KiB"},
			&cli.StringFlag{Name: "sector-key", Usage: "sealed sector `DIR` (the output of cuseal seal)", Required: true},
			&cli.StringFlag{Name: "updated", Usage: "updated sector `DIR` (the output of cuseal update encode)", Required: true},
			&cli.StringFlag{Name: "comm-r-old", Usage: "the sector key's comm_r (sealed CID or 64 hex digits)", Required: true},
			&cli.StringFlag{Name: "comm-r-new", Usage: "the updated sector's comm_r (sealed CID or 64 hex digits)", Required: true},
			&cli.StringFlag{Name: "comm-d-new", Usage: "the new data's comm_d (unsealed CID or 64 hex digits)", Required: true},
			&cli.StringFlag{Name: "out", Usage: "output `DIR` (created; must be empty)", Required: true},
			&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON object"},
		},
		Action: updateVanillaAction,
	}
}

// updateVanillaOutput is what `cuseal update vanilla --json` prints.
type updateVanillaOutput struct {
	UpdateProof string   `json:"update_proof"`
	Files       []string `json:"files"`
	Seconds     float64  `json:"seconds"`
}

// partitionProofFile names partition k's vanilla proof in `cuseal update vanilla --out`
// (the reference vectors' vanilla/partition-K.bin).
func partitionProofFile(k int) string { return fmt.Sprintf("partition-%d.bin", k) }

func updateVanillaAction(c *cli.Context) (err error) {
	cfg, err := configForSize[*update.Config](circuitNamed(circuitUpdate), c.String("sector-size"))
	if err != nil {
		return err
	}
	var cids [3]cid.Cid
	for i, f := range []string{"comm-r-old", "comm-r-new", "comm-d-new"} {
		parse := sealedCID
		if i == 2 {
			parse = unsealedCID
		}
		if cids[i], err = parse(c.String(f)); err != nil {
			return usageErrorf("--%s %s: %v", f, c.String(f), err)
		}
	}
	outDir := c.String("out")
	removeCreated, err := checkEmptyOutDir(outDir)
	if err != nil {
		return err
	}
	var written []string
	defer func() {
		if err != nil {
			for _, p := range written {
				os.Remove(p)
			}
			removeCreated()
		}
	}()
	ctx, stop := interruptible(c)
	defer stop()
	start := time.Now()
	proofs, err := seal.GenerateUpdateVanillaProofs(ctx, cfg.Proof, cids[0], cids[1], cids[2], c.String("updated"), c.String("sector-key"))
	if err != nil {
		if interruptedBySignal(c, ctx) {
			return internalError(fmt.Errorf("update vanilla: interrupted by a signal; nothing was written to %s", outDir))
		}
		return inputError(err)
	}
	out := updateVanillaOutput{UpdateProof: cfg.Name, Seconds: time.Since(start).Seconds()}
	for k, p := range proofs {
		path := filepath.Join(outDir, partitionProofFile(k))
		if err := writeFileAtomic(path, p); err != nil {
			return internalError(err)
		}
		written = append(written, path)
		out.Files = append(out.Files, path)
	}
	if c.Bool("json") {
		return writeJSON(c, out)
	}
	printf(c, "wrote %d %s vanilla partition proof(s) to %s\n", len(proofs), cfg.Name, outDir)
	return nil
}
