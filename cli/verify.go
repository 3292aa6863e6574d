// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	commcid "github.com/filecoin-project/go-fil-commcid"
	"github.com/filecoin-project/go-state-types/abi"
	"github.com/filecoin-project/go-state-types/proof"
	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/stacked"
)

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:  "verify",
		Usage: "verify a seal proof against its C1 output: exit 0 valid, 1 invalid",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "c1", Usage: "C1 JSON or lotus-bench Commit2In `FILE` the proof was made from", Required: true},
			&cli.StringFlag{Name: "proof", Usage: fmt.Sprintf("proof `FILE`: raw bytes (%d per partition) or hex", groth16.ProofSize), Required: true},
			paramsDirFlag(),
			requireProductionFlag(),
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
	// Warnings are porep's warnings (test parameters), printed on stderr without --json.
	Warnings []string `json:"warnings,omitempty"`
}

func verifyAction(c *cli.Context) error {
	start := time.Now()
	in, err := readC1Input(c, false)
	if err != nil {
		return err
	}
	dir := c.String("params-dir")
	if err := checkParamsPresent(dir, porepParams(&in.cfg), false); err != nil {
		return err
	}
	readProof := readProofFile
	if in.cfg.Challenges == stacked.ChallengesNonInteractive {
		// An NI-PoRep seal proof is the SnarkPack aggregate of its partition proofs.
		readProof = func(path string, _ int) ([]byte, error) { return readAggregateFile(path) }
	}
	pf, err := readProof(c.String("proof"), in.cfg.Partitions)
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
	jsonOut := c.Bool("json")
	rec := newPhaseRecorder(nil, c.App.ErrWriter, in.cfg.Partitions)
	rec.quietWarnings = rec.quietWarnings || jsonOut
	opts := append([]porep.Option{porep.WithParamsDir(dir), porep.WithContext(c.Context), porep.WithProgress(rec.record),
		porep.WithLogger(slog.Default())}, productionOptions(c)...)
	ok, err := porep.VerifySeal(info, opts...)
	if err != nil {
		return classifyPorepError(err)
	}
	out := verifyOutput{RegisteredProof: in.cfg.Name, Valid: ok, Partitions: in.cfg.Partitions, Seconds: time.Since(start).Seconds(),
		Warnings: rec.warnings}
	return reportVerdict(c, out, ok, fmt.Sprintf("valid: %s proof of %d partition(s) (%.3fs)", out.RegisteredProof, out.Partitions, out.Seconds))
}

// readProofFile reads a proof file of partitions × 192 bytes, raw or hex (whitespace
// around the hex and a 0x prefix ignored), and checks that every point decodes, so that a
// corrupt file is a usage error naming the file and the offset of the first bad character
// or point (in file order) while a well-formed proof that fails the pairing check is an
// invalid proof.
func readProofFile(path string, partitions int) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, inputError(fmt.Errorf("--proof: %w", fileError(err)))
	}
	want := partitions * groth16.ProofSize
	pf := data
	hexStart := -1 // file offset of the first hex digit when the file is hex
	if len(data) != want {
		t := bytes.TrimSpace(data)
		lead := bytes.Index(data, t)
		if bytes.HasPrefix(t, []byte("0x")) || bytes.HasPrefix(t, []byte("0X")) {
			t, lead = t[2:], lead+2
		}
		b, herr := hex.DecodeString(string(t))
		switch {
		case len(t) == 0:
			return nil, usageErrorf("--proof %s: empty file, want %d bytes (%d partition(s) × %d) raw, or twice that in hex", path, want, partitions, groth16.ProofSize)
		case herr == nil && len(b) == want:
			pf, hexStart = b, lead
		case herr == nil:
			return nil, usageErrorf("--proof %s: %d bytes (hex), want %d (%d partition(s) × %d)", path, len(b), want, partitions, groth16.ProofSize)
		case len(t) == 2*want && hexDigits(t)*2 > len(t): // mostly hex: a hex proof with a typo
			off := lead + firstNonHex(t)
			return nil, usageErrorf("--proof %s: offset %d: %q is not a hex digit (a hex proof is %d digits)", path, off, data[off], 2*want)
		default:
			return nil, usageErrorf("--proof %s: %d bytes, want %d (%d partition(s) × %d) raw, or twice that in hex", path, len(data), want, partitions, groth16.ProofSize)
		}
	}
	if _, err := groth16.DecodeProofs(pf); err != nil {
		off, name, cause := firstBadPoint(pf)
		if cause == nil {
			return nil, inputError(fmt.Errorf("--proof %s: %w", path, err))
		}
		where := fmt.Sprintf("offset %d", off)
		if hexStart >= 0 {
			where = fmt.Sprintf("offset %d (byte %d of the hex-decoded proof)", hexStart+2*off, off)
		}
		return nil, usageErrorf("--proof %s: corrupt: %s, proof[%d].%s: %v", path, where, off/groth16.ProofSize, name, cause)
	}
	return pf, nil
}

// firstNonHex returns the index of the first byte of t that is not a hex digit (len(t) if
// none).
// hexDigits counts t's hex digits (a raw proof has about 22 in 256).
func hexDigits(t []byte) int {
	n := 0
	for _, c := range t {
		if '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' {
			n++
		}
	}
	return n
}

func firstNonHex(t []byte) int {
	for i, c := range t {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return i
		}
	}
	return len(t)
}

// firstBadPoint finds the first point of pf, in byte order (A, B, C of each proof), that
// does not decode: it decodes each point in a proof whose other two points are known good
// (generators), so the order in which groth16 checks points does not matter. It returns the
// point's byte offset, its name and the decoding error (nil if every point decodes).
func firstBadPoint(pf []byte) (int, string, error) {
	_, _, g1, g2 := bls.Generators()
	good := (&groth16.Proof{A: g1, B: g2, C: g1}).Bytes()
	slots := []struct {
		name     string
		from, to int
	}{{"a", 0, 48}, {"b", 48, 144}, {"c", 144, groth16.ProofSize}}
	for base := 0; base+groth16.ProofSize <= len(pf); base += groth16.ProofSize {
		for _, sl := range slots {
			probe := good
			copy(probe[sl.from:sl.to], pf[base+sl.from:base+sl.to])
			if _, err := groth16.DecodeProofs(probe[:]); err != nil {
				var fe *groth16.FormatError
				if errors.As(err, &fe) {
					err = fe.Err
				}
				return base + sl.from, sl.name, err
			}
		}
	}
	return 0, "", nil
}
