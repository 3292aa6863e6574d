// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/filecoin-project/go-state-types/abi"
	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep/seal"
	"github.com/cuseal/cuseal/porep/stacked"
)

// FileC1 is the name of the C1 output `cuseal seal` writes into its output directory.
const FileC1 = "c1.json"

func sealCommand() *cli.Command {
	return &cli.Command{
		Name:  "seal",
		Usage: "seal a sector with the test sealer (PC1, PC2, C1) and write DIR/c1.json",
		Description: "A test sealer: labels on one core, trees in memory. It exists to make C1 inputs for\n" +
			"commit2; seal 2KiB or 8MiB sectors with it, not production ones. Sectors above 1GiB are\n" +
			"refused (it holds ~8x the sector in memory). --random first writes the random data to a\n" +
			"temporary file in $TMPDIR (removed afterwards). On an error or Ctrl-C nothing is left in\n" +
			"--out.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "sector-size", Usage: "sector size (2KiB, 8MiB, ...)", Value: "2KiB"},
			&cli.StringFlag{Name: "data", Usage: "unpadded (or Fr32-padded) sector data `FILE`"},
			&cli.BoolFlag{Name: "random", Usage: "seal random data instead of --data"},
			&cli.StringFlag{Name: "out", Usage: "output `DIR` (created; must be empty)", Required: true},
			&cli.StringFlag{Name: "miner", Usage: "miner actor address", Value: "t01000"},
			&cli.Uint64Flag{Name: "sector", Usage: "sector number", Value: 1},
			&cli.StringFlag{Name: "ticket", Usage: "ticket randomness, 64 hex digits", Required: true},
			&cli.StringFlag{Name: "seed", Usage: "interactive seed randomness, 64 hex digits", Required: true},
			&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON object"},
		},
		Action: sealAction,
	}
}

// sealOutput is what `cuseal seal --json` prints.
type sealOutput struct {
	RegisteredProof string  `json:"registered_proof"`
	SectorSize      string  `json:"sector_size"`
	C1              string  `json:"c1"`
	CommR           string  `json:"comm_r"`
	CommD           string  `json:"comm_d"`
	PC1Seconds      float64 `json:"pc1_seconds"`
	PC2Seconds      float64 `json:"pc2_seconds"`
	C1Seconds       float64 `json:"c1_seconds"`
}

// checkSealable refuses (a usage error naming --sector-size) a sector
// larger than the test sealer's seal.MaxSealSize, before any I/O.
func checkSealable(size uint64) error {
	if size <= seal.MaxSealSize {
		return nil
	}
	var ok []string
	for _, sz := range stacked.SectorSizes() {
		if sz <= seal.MaxSealSize {
			ok = append(ok, stacked.SizeLabel(sz))
		}
	}
	return usageErrorf("--sector-size %s: the test sealer seals sectors up to %s (it holds ~8x the sector in memory); use %s",
		stacked.SizeLabel(size), formatSize(seal.MaxSealSize), strings.Join(ok, ", "))
}

func sealAction(c *cli.Context) (err error) {
	sc, err := configForSize[*stacked.SectorConfig](circuitNamed(circuitPoRep), c.String("sector-size"))
	if err != nil {
		return err
	}
	cfg := *sc
	// Before any I/O: --random would otherwise write the whole sector to $TMPDIR first.
	if err := checkSealable(cfg.SectorSize); err != nil {
		return err
	}
	miner, err := parseMiner(c.String("miner"))
	if err != nil {
		return inputError(err)
	}
	ticket, err := parseHex32("ticket", c.String("ticket"))
	if err != nil {
		return inputError(err)
	}
	seed, err := parseHex32("seed", c.String("seed"))
	if err != nil {
		return inputError(err)
	}
	data, random := c.String("data"), c.Bool("random")
	if (data == "") == !random {
		return usageErrorf("seal: give exactly one of --data FILE and --random")
	}
	if !random {
		if err := checkDataFile(data, &cfg); err != nil {
			return err
		}
	}
	outDir := c.String("out")
	removeCreated, err := checkEmptyOutDir(outDir)
	if err != nil {
		return err
	}
	// On an error or a signal, leave nothing behind: the sealed files (once Seal has moved
	// them in), c1.json and the directories this run created (the staging directory and the
	// random data file are removed by Seal and the defer below).
	sealed := false
	defer func() {
		if err != nil && sealed {
			for _, n := range append(seal.OutputFiles(&cfg), FileC1) {
				os.Remove(filepath.Join(outDir, n))
			}
		}
		if err != nil {
			removeCreated()
		}
	}()
	ctx, stop := interruptible(c)
	defer stop()
	defer func() {
		if err != nil && interruptedBySignal(c, ctx) {
			err = internalError(fmt.Errorf("seal: interrupted by a signal; removed the partial output in %s", outDir))
		}
	}()
	if random {
		path, err := writeRandomData(ctx, seal.UnpaddedSize(cfg.SectorSize))
		if err != nil {
			return internalError(err)
		}
		defer os.Remove(path)
		data = path
	}

	jsonOut := c.Bool("json")
	bar := newPhaseProgress(c.App.ErrWriter, -1, fmt.Sprintf("seal %s", stacked.SizeLabel(cfg.SectorSize)))
	bar.Phase("PC1, PC2")
	slog.Info("seal: PC1+PC2", "sector_size", stacked.SizeLabel(cfg.SectorSize), "proof", cfg.Name, "out", outDir)
	res, err := seal.Seal(ctx, cfg, data, outDir, miner, abi.SectorNumber(c.Uint64("sector")), ticket[:])
	if err != nil {
		bar.Done()
		if errors.Is(err, seal.ErrOutDirNotEmpty) {
			return inputError(err)
		}
		return internalError(err)
	}
	sealed = true
	bar.Phase("commit phase 1")
	start := time.Now()
	c1, err := seal.CommitPhase1(ctx, cfg, res.CommR, res.CommD, outDir, abi.SectorNumber(c.Uint64("sector")), miner, ticket[:], seed[:])
	bar.Done()
	if err != nil {
		return internalError(err)
	}
	c1Time := time.Since(start)
	c1Path := filepath.Join(outDir, FileC1)
	if err := writeFileAtomic(c1Path, c1); err != nil {
		return internalError(err)
	}
	out := sealOutput{
		RegisteredProof: cfg.Name,
		SectorSize:      stacked.SizeLabel(cfg.SectorSize),
		C1:              c1Path,
		CommR:           res.CommR.String(),
		CommD:           res.CommD.String(),
		PC1Seconds:      res.PC1.Seconds(),
		PC2Seconds:      res.PC2.Seconds(),
		C1Seconds:       c1Time.Seconds(),
	}
	if jsonOut {
		return writeJSON(c, out)
	}
	printf(c, "sealed %s sector %d of %s (%s)\n", out.SectorSize, c.Uint64("sector"), c.String("miner"), cfg.Name)
	printf(c, "  comm_r: %s\n  comm_d: %s\n", out.CommR, out.CommD)
	printf(c, "  c1:     %s\n", c1Path)
	printf(c, "  PC1 %.3fs, PC2 %.3fs, C1 %.3fs\n", out.PC1Seconds, out.PC2Seconds, out.C1Seconds)
	return nil
}

// checkEmptyOutDir creates dir if missing and checks that it is empty (after removing the
// staging directories a killed seal left, seal.RemoveStaleStaging) and writable, so a bad
// --out fails before any work. It returns a function that removes the directories it
// created (when empty again); on an error it has already done so.
func checkEmptyOutDir(dir string) (func(), error) {
	removeCreated, err := mkdirAllTracked(dir)
	if err != nil {
		return nil, inputError(fmt.Errorf("--out: %w", fileError(err)))
	}
	if err := seal.RemoveStaleStaging(dir); err != nil {
		removeCreated()
		return nil, inputError(fmt.Errorf("--out: %w", fileError(err)))
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		removeCreated()
		return nil, inputError(fmt.Errorf("--out: %w", fileError(err)))
	}
	if len(entries) > 0 {
		return nil, usageErrorf("--out %s: directory is not empty (contains %q); refusing to overwrite", dir, entries[0].Name())
	}
	if err := checkWritableDir(dir); err != nil {
		removeCreated()
		return nil, err
	}
	return removeCreated, nil
}

// checkDataFile checks that path is a readable regular file of the unpadded or padded sector
// size, so the sealer's input errors come out as usage errors naming the file.
func checkDataFile(path string, cfg *stacked.SectorConfig) error {
	st, err := os.Stat(path)
	if err != nil {
		return inputError(fmt.Errorf("--data: %w", fileError(err)))
	}
	if !st.Mode().IsRegular() {
		return usageErrorf("--data %s: not a regular file", path)
	}
	unpadded := seal.UnpaddedSize(cfg.SectorSize)
	if n := uint64(st.Size()); n != unpadded && n != cfg.SectorSize {
		return usageErrorf("--data %s: %d bytes; a %s sector takes %d bytes (unpadded) or %d (Fr32-padded)",
			path, n, stacked.SizeLabel(cfg.SectorSize), unpadded, cfg.SectorSize)
	}
	f, err := os.Open(path)
	if err != nil {
		return inputError(fmt.Errorf("--data: %w", fileError(err)))
	}
	return f.Close()
}

// writeRandomData writes n random bytes to a temporary file in $TMPDIR and returns its path.
// It stops at ctx's cancellation; on any error the file is removed.
func writeRandomData(ctx context.Context, n uint64) (string, error) {
	f, err := os.CreateTemp("", "cuseal-random-*.dat")
	if err != nil {
		return "", err
	}
	const chunk = 4 << 20
	for left := int64(n); left > 0 && err == nil; left -= chunk {
		if err = ctx.Err(); err == nil {
			_, err = io.CopyN(f, rand.Reader, min(left, chunk))
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}
