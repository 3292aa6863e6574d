// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

import (
	"context"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"
	"github.com/ipfs/go-cid"
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
			&cli.StringSliceFlag{Name: "vanilla", Usage: "vanilla proof `FILE` (GenerateSingleVanillaProof bytes), one per sector; repeat the flag or list more files as arguments after the last flag"},
			&cli.StringFlag{Name: "randomness", Usage: "PoSt randomness: 64 hex digits (byte 31 ≤ 0x3f, as Lotus masks it)", Required: true},
			&cli.StringFlag{Name: "proof-type", Usage: "registered PoSt proof: its go-state-types number (0-4 winning, 10-14 window) or name (StackedDrgWindow32GiBV1_1)", Required: true},
			minerFlag(),
			paramsDirFlag(),
			requireProductionFlag(),
		}, extra...)
	}
	prove := func(extra ...cli.Flag) []cli.Flag {
		return common(append([]cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "write the proof to `FILE` (default: hex on stdout)"},
			&cli.BoolFlag{Name: "hex", Usage: "write the proof file as hex instead of raw bytes"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing --out file"},
			&cli.StringFlag{Name: "backend", Usage: backendUsage(), Value: porep.BackendAuto},
			noGPUFlag(),
			synthWorkersFlag(),
			&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON object"},
		}, extra...)...)
	}
	return &cli.Command{
		Name:  "post",
		Usage: "WinningPoSt / WindowPoSt proofs from vanilla proofs, and their verification",
		Subcommands: []*cli.Command{
			{
				Name:      "winning",
				Usage:     fmt.Sprintf("prove WinningPoSt from the challenged sector's vanilla proof (%d bytes), verified before it is written", groth16.ProofSize),
				ArgsUsage: "[VANILLA_FILE...]",
				Description: "GenerateWinningPoStWithVanilla: --vanilla is the one challenged sector's vanilla proof, the\n" +
					"bytes filecoin-ffi's GenerateSingleVanillaProof returns (or `cuseal post vanilla` writes, with\n" +
					"the sector GenerateWinningPoStSectorChallenge picks). It is parsed strictly and checked against\n" +
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
				ArgsUsage: "[VANILLA_FILE...]",
				Description: "GenerateWindowPoStWithVanilla: --vanilla gives every challenged sector's vanilla proof (the\n" +
					"bytes GenerateSingleVanillaProof returns, or `cuseal post vanilla` writes) in ascending sector\n" +
					"number, as VerifyWindowPoSt lists them; another order or a sector given twice exits 2. They are\n" +
					"split into partitions of the proof type's sectors per partition, the last padded. With\n" +
					"--partition K (GenerateSinglePartitionWindowPoStWithVanilla) give only partition K's sectors.\n" +
					"Every proof is verified with the .vk before the proofs are written (192 bytes per partition).\n" +
					"Test parameters: cuseal params generate --circuit window-post. Ctrl-C: exit 3, nothing written.",
				Flags:  prove(&cli.IntFlag{Name: "partition", Usage: "prove only partition `K` from its sectors' vanilla proofs (GenerateSinglePartitionWindowPoStWithVanilla); -1: all", Value: -1}),
				Action: func(c *cli.Context) error { return postProveAction(c, post.Window) },
			},
			postVanillaCommand(),
			{
				Name:      "verify",
				Usage:     "verify a WinningPoSt or WindowPoSt proof: exit 0 valid, 1 invalid",
				ArgsUsage: "[VANILLA_FILE...]",
				Description: "The challenged sectors come from --sector NUMBER=COMM_R (comm_r as 64 hex digits or the\n" +
					"sealed CID), or from the vanilla proofs (--vanilla), which name their sector and comm_r.",
				Flags: common(
					&cli.StringFlag{Name: "proof", Usage: fmt.Sprintf("proof `FILE`: raw bytes (%d per partition) or hex", groth16.ProofSize), Required: true},
					&cli.StringSliceFlag{Name: "sector", Usage: "challenged sector `NUMBER=COMM_R` (repeat per sector)"},
					&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON object"},
				),
				Action: postVerifyAction,
			},
		},
	}
}

// postProofType parses --proof-type (number or name) and checks its kind.
func postProofType(s string, kind post.Kind) (*post.Config, error) {
	var cfg post.Config
	var err error
	if n, perr := strconv.ParseInt(s, 10, 64); perr == nil {
		cfg, err = post.ConfigFor(abi.RegisteredPoStProof(n))
	} else {
		err = fmt.Errorf("unknown registered PoSt proof name")
		for _, c := range post.Configs() {
			if strings.EqualFold(c.Name, s) || strings.EqualFold(c.APIName, s) {
				cfg, err = c, nil
			}
		}
	}
	if err != nil {
		return nil, usageErrorf("--proof-type %q: %v (want 0-4: StackedDrgWinning<size>V1, or 10-14: StackedDrgWindow<size>V1_1)", s, err)
	}
	if kind >= 0 && cfg.Kind != kind {
		return nil, usageErrorf("--proof-type %q: %s is a %sPoSt proof, this command proves %sPoSt", s, cfg.Name, cfg.Kind, kind)
	}
	return &cfg, nil
}

// postRandomnessFlag reads --randomness: 64 hex digits.
func postRandomnessFlag(s string) (abi.PoStRandomness, error) {
	b, err := hex.DecodeString(strings.TrimPrefix(strings.TrimSpace(s), "0x"))
	if err != nil || len(b) != 32 {
		return nil, usageErrorf("--randomness %q: want 64 hex digits (32 bytes)", s)
	}
	return b, nil
}

// readVanillaFiles reads the --vanilla files and the arguments, in order.
func readVanillaFiles(c *cli.Context) ([]string, [][]byte, error) {
	paths := append(c.StringSlice("vanilla"), c.Args().Slice()...)
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

// postInputs are the flags every post subcommand reads.
type postInputs struct {
	cfg     *post.Config
	rnd     abi.PoStRandomness
	miner   abi.ActorID
	paths   []string
	vanilla [][]byte
	dir     string
}

func readPostInputs(c *cli.Context, kind post.Kind) (*postInputs, error) {
	cfg, err := postProofType(c.String("proof-type"), kind)
	if err != nil {
		return nil, err
	}
	rnd, err := postRandomnessFlag(c.String("randomness"))
	if err != nil {
		return nil, err
	}
	miner, err := parseMiner(c.String("miner"))
	if err != nil {
		return nil, inputError(err)
	}
	paths, vanilla, err := readVanillaFiles(c)
	if err != nil {
		return nil, err
	}
	return &postInputs{cfg: cfg, rnd: rnd, miner: miner, paths: paths, vanilla: vanilla, dir: c.String("params-dir")}, nil
}

// checkAscendingSectors refuses WindowPoSt vanilla proofs out of ascending sector order
// before any work, as porep does, naming the two files.
func checkAscendingSectors(in *postInputs) error {
	if i, err := porep.WindowPoStSectorOrder(in.vanilla); err != nil {
		return usageErrorf("--vanilla %s (after %s): %v", in.paths[i], in.paths[i-1], err)
	}
	return nil
}

// runProve is the shared body of the proving commands (post winning|window,
// update prove) around their Go API call: it checks --synth-workers,
// --backend and --out, then the parameter files (checkParams), runs prove
// under Ctrl-C handling with the backend, workers, context and warning
// options, and writes the proof to --out (hex on stdout when outPath is "").
// cmd names the command in the interrupted message.
func runProve(c *cli.Context, cmd string, checkParams func() error, prove func(context.Context, ...porep.Option) ([]byte, error)) (pf []byte, outPath string, err error) {
	if w := c.Int("synth-workers"); w < 0 {
		return nil, "", usageErrorf("--synth-workers %d: must be at least 0", w)
	}
	backend, err := backendName(c)
	if err != nil {
		return nil, "", err
	}
	if outPath, err = checkOutFlag(c); err != nil {
		return nil, "", err
	}
	if err := checkParams(); err != nil {
		return nil, "", err
	}
	ctx, stop := interruptible(c)
	defer stop()
	pf, err = prove(ctx, porep.WithBackend(backend), porep.WithSynthesisWorkers(c.Int("synth-workers")), porep.WithContext(ctx), warningsOption(c))
	if err != nil {
		if interruptedBySignal(c, ctx) {
			return nil, "", interruptedProof(ctx, cmd, outPath)
		}
		return nil, "", classifyPorepError(err)
	}
	return pf, outPath, writeProofOut(outPath, pf, c.Bool("hex"))
}

// checkPoStParams names a missing parameter file before any work.
func checkPoStParams(cfg *post.Config, dir string, needParams bool) error {
	pp, vp, _ := cfg.ParameterPaths(dir)
	return checkCircuitParams(cfg.Name, strings.ToLower(cfg.Kind.String())+"-post", cfg.SectorSize, dir, pp, vp, needParams)
}

// checkCircuitParams names a missing parameter file of the proof name (its
// .vk, and its .params when needParams) before any work, with the params
// generate command that writes test parameters for it.
func checkCircuitParams(name, circuit string, sectorSize uint64, dir, paramsPath, vkPath string, needParams bool) error {
	need := []string{vkPath}
	if needParams {
		need = append(need, paramsPath)
	}
	for _, p := range need {
		if _, err := os.Stat(p); err != nil {
			if os.IsNotExist(err) {
				return usageErrorf("--params-dir: no parameters for %s: %s missing; generate test parameters with: cuseal params generate --circuit %s --sector-size %s --out %s",
					name, p, circuit, stacked.SizeLabel(sectorSize), dir)
			}
			return inputError(fmt.Errorf("--params-dir: %w", fileError(err)))
		}
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
		return usageErrorf("--vanilla: no vanilla proof files (one per sector)")
	}
	partition := -1
	if kind == post.Window {
		if partition = c.Int("partition"); partition < -1 {
			return usageErrorf("--partition %d: want a partition index ≥ 0 (or -1: all)", partition)
		}
		if err := checkAscendingSectors(in); err != nil {
			return err
		}
	}
	partitions := 1
	pf, outPath, err := runProve(c, "post "+strings.ToLower(kind.String()), func() error { return checkPoStParams(in.cfg, in.dir, true) },
		func(ctx context.Context, opts ...porep.Option) ([]byte, error) {
			opts = append(append(opts, porep.WithParamsDir(in.dir), porep.WithLogger(slog.Default())), productionOptions(c)...)
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
	if c.Bool("json") {
		return writeJSON(c, out)
	}
	if outPath == "" {
		printf(c, "%s\n", out.Proof)
		return nil
	}
	printf(c, "proof: %s (%d bytes, %s, %d sector(s), %.3fs)\n", outPath, len(pf), in.cfg.Name, out.Sectors, out.Seconds)
	return nil
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

// sealedCID reads a comm_r given as 64 hex digits or as its sealed CID.
func sealedCID(s string) (cid.Cid, error) {
	return commitmentCID(s, commcid.ReplicaCommitmentV1ToCID, commcid.CIDToReplicaCommitmentV1, "a sealed CID (bagboea4b5abc…)")
}

// unsealedCID reads a comm_d given as 64 hex digits or as its unsealed CID.
func unsealedCID(s string) (cid.Cid, error) {
	return commitmentCID(s, commcid.DataCommitmentV1ToCID, commcid.CIDToDataCommitmentV1, "an unsealed CID (baga6ea4seaq…)")
}

// commitmentCID reads a commitment given as 64 hex digits (made a CID by toCID) or as a
// CID (checked by fromCID: codec and hash; a CID of another kind is named against want).
func commitmentCID(s string, toCID func([]byte) (cid.Cid, error), fromCID func(cid.Cid) ([]byte, error), want string) (cid.Cid, error) {
	if b, err := hex.DecodeString(strings.TrimPrefix(s, "0x")); err == nil {
		if len(b) != 32 {
			return cid.Undef, fmt.Errorf("%d bytes, want 32", len(b))
		}
		return toCID(b)
	}
	k, err := cid.Decode(s)
	if err != nil {
		return cid.Undef, fmt.Errorf("neither 64 hex digits nor a CID: %v", err)
	}
	if _, err := fromCID(k); err != nil {
		return cid.Undef, fmt.Errorf("%v: %s, want %s", err, cidKind(k), want)
	}
	return k, nil
}

// cidKind names what a commitment CID is: sealed (comm_r), unsealed (comm_d) or its codec.
func cidKind(k cid.Cid) string {
	if _, err := commcid.CIDToReplicaCommitmentV1(k); err == nil {
		return "a sealed CID (comm_r)"
	}
	if _, err := commcid.CIDToDataCommitmentV1(k); err == nil {
		return "an unsealed CID (comm_d)"
	}
	p := k.Prefix()
	return fmt.Sprintf("a CID of codec 0x%x, multihash 0x%x", p.Codec, p.MhType)
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
	sectors, err := postSectors(c, in)
	if err != nil {
		return err
	}
	partitions := in.cfg.Partitions(len(sectors))
	pf, err := readProofFile(c.String("proof"), partitions)
	if err != nil {
		return err
	}
	if err := checkPoStParams(in.cfg, in.dir, false); err != nil {
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
		return classifyPorepError(err)
	}
	out := postVerifyOutput{RegisteredProof: in.cfg.Name, Valid: ok, Sectors: len(sectors), Partitions: partitions, Seconds: time.Since(start).Seconds()}
	if c.Bool("json") {
		if err := writeJSON(c, out); err != nil {
			return internalError(err)
		}
	} else if ok {
		printf(c, "valid: %s proof of %d sector(s), %d partition(s) (%.3fs)\n", out.RegisteredProof, out.Sectors, out.Partitions, out.Seconds)
	}
	if !ok {
		return errInvalidProof
	}
	return nil
}
