// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"fmt"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep/seal"
	"github.com/cuseal/cuseal/porep/stacked"
)

// vanillaCommand checks a C1 output's vanilla proofs without parameters or proving: the
// test sealer's oracle (seal.VerifyC1), useful before spending minutes on commit2.
func vanillaCommand() *cli.Command {
	return &cli.Command{
		Name:  "verify-vanilla",
		Usage: "check a C1 output's vanilla proofs (every Merkle path, column hash and label): exit 0 valid, 1 invalid",
		Description: "Recomputes what rust-fil-proofs' vanilla Proof::verify checks, challenge by challenge:\n" +
			"challenge derivation and graph parents, every Merkle path to comm_d / comm_r_last / comm_c,\n" +
			"every column hash, every label and the encoding. Needs no parameters.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "c1", Usage: "C1 JSON or lotus-bench Commit2In `FILE`", Required: true},
			&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON object"},
		},
		Action: vanillaAction,
	}
}

// vanillaOutput is what `cuseal verify-vanilla --json` prints.
type vanillaOutput struct {
	RegisteredProof string  `json:"registered_proof"`
	Valid           bool    `json:"valid"`
	Partitions      int     `json:"partitions"`
	Challenges      int     `json:"challenges"`
	Error           string  `json:"error,omitempty"`
	Seconds         float64 `json:"seconds"`
}

func vanillaAction(c *cli.Context) error {
	start := time.Now()
	path := c.String("c1")
	data, err := os.ReadFile(path)
	if err != nil {
		return inputError(fmt.Errorf("--c1: %w", fileError(err)))
	}
	raw, _, err := stacked.UnwrapC1Input(data)
	if err != nil {
		return inputError(fmt.Errorf("%s: %w", path, err))
	}
	c1, cfg, err := stacked.ParseC1(raw)
	if err != nil {
		return inputError(fmt.Errorf("%s: %w", path, err))
	}
	out := vanillaOutput{RegisteredProof: cfg.Name, Partitions: len(c1.VanillaProofs)}
	for _, p := range c1.VanillaProofs {
		out.Challenges += len(p)
	}
	verr := seal.VerifyC1(c1, &cfg)
	out.Valid = verr == nil
	if verr != nil {
		out.Error = fmt.Sprintf("%s: %v", path, verr)
	}
	out.Seconds = time.Since(start).Seconds()
	if c.Bool("json") {
		if err := writeJSON(c, out); err != nil {
			return internalError(err)
		}
	} else if out.Valid {
		printf(c, "valid: %s vanilla proofs, %d partition(s), %d challenge(s) (%.3fs)\n",
			out.RegisteredProof, out.Partitions, out.Challenges, out.Seconds)
	}
	if verr != nil {
		return &exitError{code: exitInvalidProof, err: fmt.Errorf("%s: vanilla proofs are invalid: %w", path, verr)}
	}
	return nil
}
