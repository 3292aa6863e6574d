// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"
	"github.com/urfave/cli/v2"

	commcid "github.com/filecoin-project/go-fil-commcid"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
)

// postCommand is `cuseal post`: WinningPoSt and WindowPoSt proofs from the
// vanilla proofs filecoin-ffi's GenerateSingleVanillaProof returns, and
// their verification (porep's PoSt API).
func postCommand() *cli.Command {
	common := func(extra ...cli.Flag) []cli.Flag {
		return append([]cli.Flag{
			&cli.StringSliceFlag{Name: "vanilla", Usage: "vanilla proof `FILE` (GenerateSingleVanillaProof bytes), one per sector; repeat the flag or list more files as arguments after the last flag; or one DIR as cuseal post vanilla writes it (its vanilla.json gives --proof-type, --miner and --randomness)"},
			randomnessFlag(false),
			&cli.StringFlag{Name: "proof-type", Usage: "registered PoSt proof: its go-state-types number (0-4 winning, 10-14 window) or name (StackedDrgWindow32GiBV1_1); with --vanilla DIR, vanilla.json's"},
			postMinerFlag(),
			paramsDirFlag(),
			requireProductionFlag(),
		}, extra...)
	}
	prove := func(extra ...cli.Flag) []cli.Flag {
		return common(append(append(proofOutFlags(),
			backendFlag(),
			noGPUFlag(),
			synthWorkersFlag(),
			&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON object"},
		), extra...)...)
	}
	return &cli.Command{
		Name:  "post",
		Usage: "WinningPoSt / WindowPoSt proofs from vanilla proofs, and their verification",
		Subcommands: []*cli.Command{
			{
				Name:      "winning",
				Usage:     fmt.Sprintf("prove WinningPoSt from the challenged sector's vanilla proof (%d bytes), verified before it is written", groth16.ProofSize),
				ArgsUsage: "[VANILLA_FILE... | DIR]",
				Description: "GenerateWinningPoStWithVanilla: --vanilla is the one challenged sector's vanilla proof, the\n" +
					"bytes filecoin-ffi's GenerateSingleVanillaProof returns, or the directory `cuseal post vanilla`\n" +
					"writes (the sector GenerateWinningPoStSectorChallenge picks; its vanilla.json gives --proof-type,\n" +
					"--miner and --randomness, which must agree where given). It is parsed strictly and checked against\n" +
					"the randomness's challenges before any proving; the 192-byte proof is verified with the .vk\n" +
					"before it is written. Test parameters: cuseal params generate --circuit winning-post.\n" +
					"A defect exits 2 naming the field and byte offset; Ctrl-C exits 3; either way nothing is written.",
				Flags:  prove(),
				Action: func(c *cli.Context) error { return postProveAction(c, post.Winning) },
			},
			{
				Name: "window",
				Usage: fmt.Sprintf("prove WindowPoSt from the sectors' vanilla proofs (in ascending sector number): every partition, or --partition K from that partition's sectors (%d bytes per partition), verified before it is written",
					groth16.ProofSize),
				ArgsUsage: "[VANILLA_FILE... | DIR]",
				Description: "GenerateWindowPoStWithVanilla: --vanilla gives every challenged sector's vanilla proof (the\n" +
					"bytes GenerateSingleVanillaProof returns) in ascending sector number, as VerifyWindowPoSt lists\n" +
					"them; another order or a sector given twice exits 2. Or --vanilla DIR as `cuseal post vanilla`\n" +
					"writes it: its vanilla.json gives --proof-type, --miner and --randomness (which must agree where\n" +
					"given). They are split into partitions of the proof type's sectors per partition, the last\n" +
					"padded. With --partition K (GenerateSinglePartitionWindowPoStWithVanilla) give only partition\n" +
					"K's sectors, or a DIR of all of them.\n" +
					"Every proof is verified with the .vk before the proofs are written (192 bytes per partition).\n" +
					"Test parameters: cuseal params generate --circuit window-post. Ctrl-C: exit 3, nothing written.",
				Flags:  prove(&cli.IntFlag{Name: "partition", Usage: "prove only partition `K` from its sectors' vanilla proofs (GenerateSinglePartitionWindowPoStWithVanilla); -1: all", Value: -1}),
				Action: func(c *cli.Context) error { return postProveAction(c, post.Window) },
			},
			postVanillaCommand(),
			{
				Name:      "verify",
				Usage:     "verify a WinningPoSt or WindowPoSt proof: exit 0 valid, 1 invalid",
				ArgsUsage: "[VANILLA_FILE... | DIR]",
				Description: "The challenged sectors come from --sector NUMBER=COMM_R (comm_r as 64 hex digits or the\n" +
					"sealed CID), or from the vanilla proofs (--vanilla), which name their sector and comm_r: one\n" +
					"or the other. A `cuseal post vanilla` DIR also gives --proof-type, --miner and --randomness;\n" +
					"with --partition K the proof is partition K's (post window --partition K), checked against\n" +
					"the DIR's sectors of that partition. Given sectors one by one, give that partition's only.",
				Flags: common(
					&cli.StringFlag{Name: "proof", Usage: fmt.Sprintf("proof `FILE`: raw bytes (%d per partition) or hex", groth16.ProofSize), Required: true},
					&cli.StringSliceFlag{Name: "sector", Usage: "challenged sector `NUMBER=COMM_R` (repeat per sector)"},
					&cli.IntFlag{Name: "partition", Usage: "WindowPoSt: the proof is partition `K`'s alone; with --vanilla DIR, checked against that partition's sectors of it; -1: every partition", Value: -1},
					&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON object"},
				),
				Action: postVerifyAction,
			},
		},
	}
}

// postInputs are the flags every post subcommand (and client prove's PoSt
// kinds) reads.
type postInputs struct {
	cfg        *post.Config
	rnd        abi.PoStRandomness
	miner      abi.ActorID
	paths      []string
	vanilla    [][]byte
	dir        string // --params-dir
	vanillaDir string // the `post vanilla` directory read, if one was
}

// readPostInputs reads --vanilla FILE... with --proof-type, --randomness and
// --miner, or one --vanilla DIR (postVanillaDirInputs). kind < 0: either
// PoSt kind.
func readPostInputs(c *cli.Context, kind post.Kind) (*postInputs, error) {
	paths, dir := vanillaPaths(c)
	if dir != "" {
		in, err := postVanillaDirInputs(c, kind, dir)
		if err != nil {
			return nil, err
		}
		in.dir = c.String("params-dir")
		return in, nil
	}
	// The files first: a mistyped DIR is a missing file, not a missing --proof-type.
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return nil, usageErrorf("--vanilla %s: a directory (as cuseal post vanilla writes it) must be the only --vanilla argument", p)
		}
		if filepath.Base(p) == vanillaDirMeta {
			return nil, usageErrorf("--vanilla %s: give the directory, %s, not its %s", p, filepath.Dir(p), vanillaDirMeta)
		}
	}
	vanilla, err := readVanillaFiles(paths)
	if err != nil {
		return nil, err
	}
	for _, f := range []string{"proof-type", "randomness"} {
		if !c.IsSet(f) {
			return nil, usageErrorf("--%s: required (or --vanilla DIR from cuseal post vanilla, whose vanilla.json gives it)", f)
		}
	}
	cfg, err := postProofType(c.String("proof-type"), kind)
	if err != nil {
		return nil, err
	}
	rnd, err := postRandomness(c.String("randomness"))
	if err != nil {
		return nil, err
	}
	miner, err := parseMiner(c.String("miner"))
	if err != nil {
		return nil, inputError(err)
	}
	return &postInputs{cfg: cfg, rnd: rnd, miner: miner, paths: paths, vanilla: vanilla, dir: c.String("params-dir")}, nil
}

// postVanillaDirInputs reads a `cuseal post vanilla` directory; --proof-type,
// --miner and --randomness, where given, must agree with its vanilla.json.
// kind < 0: either PoSt kind.
func postVanillaDirInputs(c *cli.Context, kind post.Kind, dir string) (*postInputs, error) {
	set, err := readVanillaDir(dir)
	if err != nil {
		return nil, err
	}
	if kind >= 0 && set.cfg.Kind != kind {
		asked := c.Command.HelpName
		if c.IsSet("kind") {
			asked = "--kind " + c.String("kind")
		}
		return nil, usageErrorf("--vanilla %s holds %s (%sPoSt) vanilla proofs, %s wants %sPoSt", dir, set.cfg.Name, set.cfg.Kind, asked, kind)
	}
	if c.IsSet("proof-type") {
		cfg, err := postProofType(c.String("proof-type"), kind)
		if err != nil {
			return nil, err
		}
		if cfg.Proof != set.cfg.Proof {
			return nil, usageErrorf("--proof-type %s: --vanilla %s holds %s vanilla proofs", c.String("proof-type"), dir, set.cfg.Name)
		}
	}
	if c.IsSet("randomness") {
		rnd, err := postRandomness(c.String("randomness"))
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(rnd, set.randomness) {
			return nil, usageErrorf("--randomness %s: %s/%s has randomness %x", c.String("randomness"), dir, vanillaDirMeta, []byte(set.randomness))
		}
	}
	if c.IsSet("miner") {
		miner, err := parseMiner(c.String("miner"))
		if err != nil {
			return nil, inputError(err)
		}
		if miner != set.miner {
			return nil, usageErrorf("--miner %s: %s/%s is for miner %d", c.String("miner"), dir, vanillaDirMeta, set.miner)
		}
	}
	return &postInputs{cfg: set.cfg, rnd: set.randomness, miner: set.miner, paths: set.files, vanilla: set.vanilla, vanillaDir: dir}, nil
}

// fromDir says, of bad input found in vanilla proofs read from a directory,
// where the proof type, miner and randomness they were checked against came from.
func (in *postInputs) fromDir(err error) error {
	if err != nil && in.vanillaDir != "" && errors.Is(err, porep.ErrBadInput) {
		return fmt.Errorf("--vanilla %s (%s, miner %d and randomness %x from its %s): %w", in.vanillaDir, in.cfg.Name, in.miner, []byte(in.rnd), vanillaDirMeta, err)
	}
	return err
}

// onlyPartition narrows WindowPoSt inputs to partition k's sectors when they
// were read from a directory (which holds every sector); files given one
// by one are already one partition's and may not hold more than one
// partition's sectors.
func (in *postInputs) onlyPartition(k int) error {
	if in.vanillaDir == "" {
		if len(in.vanilla) > in.cfg.SectorCount {
			return usageErrorf("--vanilla: %d files for one partition; %s has at most %d sectors per partition (give the partition's files, or a directory and --partition)",
				len(in.vanilla), in.cfg.Name, in.cfg.SectorCount)
		}
		return nil
	}
	if n := in.cfg.Partitions(len(in.vanilla)); k >= n {
		return usageErrorf("--partition %d: --vanilla %s holds %d sector(s), %d partition(s) of %s", k, in.vanillaDir, len(in.vanilla), n, in.cfg.Name)
	}
	lo := k * in.cfg.SectorCount
	hi := min(lo+in.cfg.SectorCount, len(in.vanilla))
	in.vanilla, in.paths = in.vanilla[lo:hi], in.paths[lo:hi]
	return nil
}

// checkAscendingSectors refuses WindowPoSt vanilla proofs out of ascending sector order
// before any work, as porep does, naming the two files.
func checkAscendingSectors(in *postInputs) error {
	if i, err := porep.WindowPoStSectorOrder(in.vanilla); err != nil {
		return usageErrorf("--vanilla %s (after %s): %v", in.paths[i], in.paths[i-1], err)
	}
	return nil
}

// postOutput is what `cuseal post winning|window --json` prints.
type postOutput struct {
	RegisteredProof string  `json:"registered_proof"`
	Sectors         int     `json:"sectors"`
	Partitions      int     `json:"partitions"`
	Partition       *int    `json:"partition,omitempty"`
	Proof           string  `json:"proof"` // hex
	ProofFile       string  `json:"proof_file,omitempty"`
	Seconds         float64 `json:"seconds"`
}

func postProveAction(c *cli.Context, kind post.Kind) error {
	start := time.Now()
	in, err := readPostInputs(c, kind)
	if err != nil {
		return err
	}
	if len(in.vanilla) == 0 {
		return usageErrorf("--vanilla: no vanilla proof files (one per sector, or a directory from cuseal post vanilla)")
	}
	partition := -1
	if kind == post.Window {
		if partition = c.Int("partition"); partition < -1 {
			return usageErrorf("--partition %d: want a partition index ≥ 0 (or -1: all)", partition)
		}
		if err := checkAscendingSectors(in); err != nil {
			return err
		}
		if partition >= 0 && in.vanillaDir != "" {
			if err := in.onlyPartition(partition); err != nil {
				return err
			}
		}
	}
	partitions := 1
	pf, outPath, err := runProve(c, "post "+strings.ToLower(kind.String()), func() error { return checkParamsPresent(in.dir, postParams(in.cfg), true) },
		func(ctx context.Context, opts ...porep.Option) (pf []byte, err error) {
			opts = append(append(opts, porep.WithParamsDir(in.dir), porep.WithLogger(slog.Default())), productionOptions(c)...)
			defer func() { err = in.fromDir(err) }()
			switch {
			case kind == post.Winning:
				ps, err := porep.GenerateWinningPoStWithVanilla(in.cfg.Proof, in.miner, in.rnd, in.vanilla, opts...)
				if err != nil {
					return nil, err
				}
				return ps[0].ProofBytes, nil
			case partition >= 0:
				pp, err := porep.GenerateSinglePartitionWindowPoStWithVanilla(in.cfg.Proof, in.miner, in.rnd, in.vanilla, uint(partition), opts...)
				if err != nil {
					return nil, err
				}
				return pp.ProofBytes, nil
			default:
				ps, err := porep.GenerateWindowPoStWithVanilla(in.cfg.Proof, in.miner, in.rnd, in.vanilla, opts...)
				if err != nil {
					return nil, err
				}
				partitions = in.cfg.Partitions(len(in.vanilla))
				return ps[0].ProofBytes, nil
			}
		})
	if err != nil {
		return err
	}
	out := postOutput{RegisteredProof: in.cfg.Name, Sectors: len(in.vanilla), Partitions: partitions, Proof: hex.EncodeToString(pf),
		ProofFile: outPath, Seconds: time.Since(start).Seconds()}
	if partition >= 0 {
		out.Partition = &partition
	}
	return reportProof(c, out, outPath, out.Proof,
		fmt.Sprintf("proof: %s (%d bytes, %s, %d sector(s), %.3fs)", outPath, len(pf), in.cfg.Name, out.Sectors, out.Seconds))
}

// postSectors builds the challenged sectors from --sector NUMBER=COMM_R, or
// else from the vanilla proofs' sector numbers and comm_r.
func postSectors(c *cli.Context, in *postInputs) ([]proof.SectorInfo, error) {
	seal, ok := stacked.SealProofV1_1(in.cfg.SectorSize)
	if !ok {
		return nil, internalError(fmt.Errorf("no seal proof for %d-byte sectors", in.cfg.SectorSize))
	}
	specs := c.StringSlice("sector")
	if len(specs) > 0 && len(in.vanilla) > 0 {
		return nil, usageErrorf("--sector and --vanilla both name the challenged sectors: give one of them")
	}
	var out []proof.SectorInfo
	for _, s := range specs {
		num, comm, found := strings.Cut(s, "=")
		n, err := strconv.ParseUint(num, 10, 64)
		if !found || err != nil {
			return nil, usageErrorf("--sector %q: want NUMBER=COMM_R", s)
		}
		sealed, err := sealedCID(comm)
		if err != nil {
			return nil, usageErrorf("--sector %q: comm_r: %v", s, err)
		}
		out = append(out, proof.SectorInfo{SealProof: seal, SectorNumber: abi.SectorNumber(n), SealedCID: sealed})
	}
	for i, b := range in.vanilla {
		v, err := post.ParseVanillaProof(b, in.cfg)
		if err != nil {
			return nil, usageErrorf("--vanilla %s: %v", in.paths[i], err)
		}
		sealed, err := commcid.ReplicaCommitmentV1ToCID(v.CommR[:])
		if err != nil {
			return nil, usageErrorf("--vanilla %s: comm_r: %v", in.paths[i], err)
		}
		out = append(out, proof.SectorInfo{SealProof: seal, SectorNumber: v.SectorID, SealedCID: sealed})
	}
	if len(out) == 0 {
		return nil, usageErrorf("no challenged sectors: give --sector NUMBER=COMM_R or --vanilla FILE per sector")
	}
	return out, nil
}

// postVerifyOutput is what `cuseal post verify --json` prints.
type postVerifyOutput struct {
	RegisteredProof string  `json:"registered_proof"`
	Valid           bool    `json:"valid"`
	Sectors         int     `json:"sectors"`
	Partitions      int     `json:"partitions"`
	Seconds         float64 `json:"seconds"`
}

func postVerifyAction(c *cli.Context) error {
	start := time.Now()
	in, err := readPostInputs(c, -1)
	if err != nil {
		return err
	}
	k := c.Int("partition")
	if k != -1 {
		switch {
		case k < -1:
			return usageErrorf("--partition %d: want a partition index ≥ 0 (or -1: every partition)", k)
		case in.cfg.Kind != post.Window:
			return usageErrorf("--partition %d: %s is a WinningPoSt proof, which has no partitions", k, in.cfg.Name)
		case in.vanillaDir != "":
			// Partitions are cut from the sectors in ascending order, as post window cuts them.
			if err := checkAscendingSectors(in); err != nil {
				return err
			}
			if err := in.onlyPartition(k); err != nil {
				return err
			}
		}
	}
	sectors, err := postSectors(c, in)
	if err != nil {
		return err
	}
	partitions := in.cfg.Partitions(len(sectors))
	if k >= 0 && partitions > 1 {
		return usageErrorf("--partition %d: %d sectors given; a partition of %s has at most %d (give that partition's sectors, or --vanilla DIR)",
			k, len(sectors), in.cfg.Name, in.cfg.SectorCount)
	}
	pf, err := readProofFile(c.String("proof"), partitions)
	if err != nil {
		if _, one := readProofFile(c.String("proof"), 1); one == nil && partitions > 1 && in.cfg.Kind == post.Window {
			return usageErrorf("--proof %s: one partition's proof, but the %d sectors make %d partitions: give --partition K (with --vanilla DIR, or that partition's sectors)",
				c.String("proof"), len(sectors), partitions)
		}
		return err
	}
	if err := checkParamsPresent(in.dir, postParams(in.cfg), false); err != nil {
		return err
	}
	proofs := []proof.PoStProof{{PoStProof: in.cfg.Proof, ProofBytes: pf}}
	opts := append([]porep.Option{porep.WithParamsDir(in.dir), porep.WithLogger(slog.Default()), warningsOption(c)}, productionOptions(c)...)
	var ok bool
	if in.cfg.Kind == post.Winning {
		ok, err = porep.VerifyWinningPoSt(proof.WinningPoStVerifyInfo{Randomness: in.rnd, Proofs: proofs, ChallengedSectors: sectors, Prover: in.miner}, opts...)
	} else {
		ok, err = porep.VerifyWindowPoSt(proof.WindowPoStVerifyInfo{Randomness: in.rnd, Proofs: proofs, ChallengedSectors: sectors, Prover: in.miner}, opts...)
	}
	if err != nil {
		return classifyPorepError(in.fromDir(err))
	}
	out := postVerifyOutput{RegisteredProof: in.cfg.Name, Valid: ok, Sectors: len(sectors), Partitions: partitions, Seconds: time.Since(start).Seconds()}
	return reportVerdict(c, out, ok, fmt.Sprintf("valid: %s proof of %d sector(s), %d partition(s) (%.3fs)", out.RegisteredProof, out.Sectors, out.Partitions, out.Seconds))
}

// postMinerFlag is --miner of post winning|window|verify: vanilla.json's with --vanilla DIR.
func postMinerFlag() cli.Flag {
	f := minerFlag().(*cli.StringFlag)
	f.Usage += "; with --vanilla DIR, vanilla.json's"
	return f
}
