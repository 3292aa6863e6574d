// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/stacked"
)

// Flags several commands share, and what they mean. A command's own flags stay in its file.

// paramsDirFlag is lotus' parameter directory, read from FIL_PROOFS_PARAMETER_CACHE.
func paramsDirFlag() cli.Flag {
	return &cli.StringFlag{
		Name:    "params-dir",
		Usage:   "`DIR` holding the Groth16 parameter files",
		EnvVars: []string{"FIL_PROOFS_PARAMETER_CACHE"},
		Value:   stacked.DefaultParameterDir,
	}
}

// requireProductionFlag makes commit2, bench prove and verify hash the parameter files
// against rust-fil-proofs' official table first (porep.WithRequireProductionParams).
func requireProductionFlag() cli.Flag {
	return &cli.BoolFlag{
		Name:    "require-production-params",
		Usage:   "refuse (exit 2) parameter files whose digest is not the official one (rust-fil-proofs 19.1.0 parameters.json); hashes each file once per process",
		EnvVars: []string{"FIL_PROOFS_VERIFY_PRODUCTION_PARAMS"},
	}
}

// productionOptions turns --require-production-params into porep options, with the
// digest cache file that spares later processes re-hashing unchanged files.
func productionOptions(c *cli.Context) []porep.Option {
	var opts []porep.Option
	if f := digestCacheFile(); f != "" {
		opts = append(opts, porep.WithDigestCacheFile(f))
	}
	if c.Bool("require-production-params") {
		opts = append(opts, porep.WithRequireProductionParams())
	}
	return opts
}

// digestCacheFile names the digest cache file (porep.WithDigestCacheFile,
// paramfile.WithDigestCacheFile): $CUSEAL_DIGEST_CACHE ("off" disables it: ""), else
// cuseal/param-digests.json in the user's cache directory ($XDG_CACHE_HOME or ~/.cache).
func digestCacheFile() string {
	path := os.Getenv("CUSEAL_DIGEST_CACHE")
	switch path {
	case "off":
		return ""
	case "":
		dir, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		path = filepath.Join(dir, "cuseal", "param-digests.json")
	}
	return path
}

func minerFlag() cli.Flag {
	return &cli.StringFlag{Name: "miner", Usage: "miner actor address the sector belongs to", Value: "t01000"}
}

func sectorFlag() cli.Flag {
	return &cli.Uint64Flag{Name: "sector", Usage: "sector number", DefaultText: "Commit2In.SectorNum, else 1"}
}

// proverFlags tune how SealCommitPhase2 runs (commit2 and bench prove).
func proverFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "partitions-in-flight", Usage: "partitions whose assignments may be alive at once (2 overlaps synthesis with proving; a 32GiB partition takes ~16GiB)", Value: 1},
		&cli.BoolFlag{Name: "preload-params", Usage: "decode the whole .params file once up front (memory: its size; helps the CPU backend with several partitions or runs)"},
		synthWorkersFlag(),
	}
}

// synthWorkersFlag limits the goroutines synthesizing one partition.
func synthWorkersFlag() cli.Flag {
	return &cli.IntFlag{Name: "synth-workers", Usage: "goroutines synthesizing one partition's challenges concurrently (0: GOMAXPROCS; 1: sequential); the result is the same", Value: 0}
}

// proofOutFlags are --out, --hex and --force of the commands that write one proof
// (post winning|window, update prove, client prove).
func proofOutFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "out", Usage: "write the proof to `FILE` (default: hex on stdout)"},
		&cli.BoolFlag{Name: "hex", Usage: "write the proof file as hex instead of raw bytes"},
		&cli.BoolFlag{Name: "force", Usage: "replace an existing --out file"},
	}
}

// randomnessFlag is the PoSt randomness of post winning|window|verify and post vanilla
// (read by postRandomness). post winning|window|verify take it from vanilla.json with
// --vanilla DIR, so there it is required by readPostInputs, not by the flag.
func randomnessFlag(required bool) cli.Flag {
	usage := "PoSt randomness: 64 hex digits (byte 31 ≤ 0x3f, as Lotus masks it)"
	if !required {
		usage += "; with --vanilla DIR, vanilla.json's"
	}
	return &cli.StringFlag{Name: "randomness", Usage: usage, Required: required}
}

// commitmentFlags are a SnapDeals update's three commitments (read by
// readUpdateCommitments), each a CID or 64 hex digits; prefix starts each usage ("snap: ").
func commitmentFlags(required bool, prefix string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "comm-r-old", Usage: prefix + "the sector key's comm_r: sealed `CID` (bagboea4b5abc…) or 64 hex digits", Required: required},
		&cli.StringFlag{Name: "comm-r-new", Usage: prefix + "the updated sector's comm_r: sealed `CID` or 64 hex digits", Required: required},
		&cli.StringFlag{Name: "comm-d-new", Usage: prefix + "the new data's comm_d: unsealed `CID` (baga6ea4seaq…) or 64 hex digits", Required: required},
	}
}
