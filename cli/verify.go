package main

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
	"github.com/cuseal/cuseal/porep/groth16"
)

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:  "verify",
		Usage: "verify a seal proof against its C1 output: exit 0 valid, 1 invalid",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "c1", Usage: "C1 JSON or lotus-bench Commit2In `FILE` the proof was made from", Required: true},
			&cli.StringFlag{Name: "proof", Usage: "proof `FILE`: raw bytes (192 per partition) or hex", Required: true},
			paramsDirFlag(),
			minerFlag(),
			sectorFlag(),
			&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON object"},
		},
		Action: verifyAction,
	}
}

// verifyOutput is what `cuseal verify --json` prints.
type verifyOutput struct {
	RegisteredProof string  `json:"registered_proof"`
	Valid           bool    `json:"valid"`
	Partitions      int     `json:"partitions"`
	Seconds         float64 `json:"seconds"`
}

func verifyAction(c *cli.Context) error {
	start := time.Now()
	in, err := readC1Input(c, false)
	if err != nil {
		return err
	}
	dir := c.String("params-dir")
	if err := checkParamsPresent(dir, &in.cfg, false); err != nil {
		return err
	}
	pf, err := readProofFile(c.String("proof"), in.cfg.Partitions)
	if err != nil {
		return err
	}
	sealed, err := commcid.ReplicaCommitmentV1ToCID(in.c1.CommR[:])
	if err != nil {
		return inputError(fmt.Errorf("%s: comm_r: %w", in.path, err))
	}
	unsealed, err := commcid.DataCommitmentV1ToCID(in.c1.CommD[:])
	if err != nil {
		return inputError(fmt.Errorf("%s: comm_d: %w", in.path, err))
	}
	info := proof.SealVerifyInfo{
		SealProof:             in.cfg.Proof,
		SectorID:              abi.SectorID{Miner: in.miner, Number: in.sector},
		Randomness:            abi.SealRandomness(in.c1.Ticket[:]),
		InteractiveRandomness: abi.InteractiveSealRandomness(in.c1.Seed[:]),
		Proof:                 pf,
		SealedCID:             sealed,
		UnsealedCID:           unsealed,
	}
	ok, err := porep.VerifySeal(info, porep.WithParamsDir(dir), porep.WithContext(c.Context))
	if err != nil {
		return classifyPorepError(err)
	}
	out := verifyOutput{RegisteredProof: in.cfg.Name, Valid: ok, Partitions: len(pf) / groth16.ProofSize, Seconds: time.Since(start).Seconds()}
	if c.Bool("json") {
		if err := writeJSON(c, out); err != nil {
			return internalError(err)
		}
	} else if ok {
		printf(c, "valid: %s proof of %d partition(s) (%.3fs)\n", out.RegisteredProof, out.Partitions, out.Seconds)
	}
	if !ok {
		return errInvalidProof
	}
	return nil
}

// readProofFile reads a proof file of partitions × 192 bytes, raw or hex (whitespace
// around the hex ignored), and checks that every point decodes, so that a corrupt file is a
// usage error naming the file and offset while a well-formed proof that fails the pairing
// check is an invalid proof.
func readProofFile(path string, partitions int) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, inputError(fmt.Errorf("--proof: %w", fileError(err)))
	}
	want := partitions * groth16.ProofSize
	pf := data
	if len(data) != want {
		t := bytes.TrimSpace(data)
		b, herr := hex.DecodeString(string(bytes.TrimPrefix(t, []byte("0x"))))
		switch {
		case herr == nil && len(b) == want:
			pf = b
		case herr == nil:
			return nil, usageErrorf("--proof %s: %d bytes (hex), want %d (%d partition(s) × %d)", path, len(b), want, partitions, groth16.ProofSize)
		default:
			return nil, usageErrorf("--proof %s: %d bytes, want %d (%d partition(s) × %d) raw, or twice that in hex", path, len(data), want, partitions, groth16.ProofSize)
		}
	}
	if _, err := groth16.DecodeProofs(pf); err != nil {
		var fe *groth16.FormatError
		if errors.As(err, &fe) {
			return nil, usageErrorf("--proof %s: corrupt: %v", path, err)
		}
		return nil, inputError(fmt.Errorf("--proof %s: %w", path, err))
	}
	return pf, nil
}
