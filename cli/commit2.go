// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/hex"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/stacked"
)

func commit2Command() *cli.Command {
	return &cli.Command{
		Name:  "commit2",
		Usage: fmt.Sprintf("prove a sector: C1 output → Groth16 proof (%d bytes per partition), verified before it is written", groth16.ProofSize),
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "c1", Usage: "C1 JSON or lotus-bench Commit2In `FILE`", Required: true},
			&cli.StringFlag{Name: "out", Usage: "write the proof to `FILE` (default: hex on stdout)"},
			&cli.BoolFlag{Name: "hex", Usage: "write the proof file as hex instead of raw bytes"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing --out file, and prove even when the estimated memory need exceeds the available memory"},
			paramsDirFlag(),
			requireProductionFlag(),
			minerFlag(),
			sectorFlag(),
			&cli.StringFlag{Name: "backend", Usage: backendUsage(), Value: porep.BackendAuto},
			noGPUFlag(),
			&cli.BoolFlag{Name: "json", Usage: "print the result and timings as one JSON object"},
		}, proverFlags()...),
		Action: commit2Action,
	}
}

// commit2Output is what `cuseal commit2 --json` prints.
type commit2Output struct {
	RegisteredProof string        `json:"registered_proof"`
	Partitions      int           `json:"partitions"`
	Backend         string        `json:"backend"`
	Proof           string        `json:"proof"` // hex
	ProofFile       string        `json:"proof_file,omitempty"`
	Timings         []phaseTiming `json:"timings"`
	Seconds         float64       `json:"seconds"`
	// Warnings are porep's warnings (TEST parameters), also printed on stderr.
	Warnings []string `json:"warnings,omitempty"`
}

func commit2Action(c *cli.Context) error {
	start := time.Now()
	in, err := readC1Input(c, true)
	if err != nil {
		return err
	}
	backend, err := backendName(c)
	if err != nil {
		return err
	}
	outPath, err := checkOutFlag(c)
	if err != nil {
		return err
	}
	if err := preflightProve(c, in, []string{backend}); err != nil {
		return err
	}
	dir := c.String("params-dir")
	parse := time.Since(start)

	jsonOut := c.Bool("json")
	rec := newPhaseRecorder(newPhaseProgress(c.App.ErrWriter, int64(in.cfg.Partitions),
		fmt.Sprintf("commit2 %s", stacked.SizeLabel(in.cfg.SectorSize))), c.App.ErrWriter, in.cfg.Partitions)
	opts := proverOptions(c, dir, backend, rec)
	proof, err := porep.SealCommitPhase2(in.data, in.sector, in.miner, opts...)
	rec.bar.Done()
	if err != nil {
		return classifyPorepError(err)
	}
	total := time.Since(start)
	if err := writeProofOut(c.App.ErrWriter, outPath, proof, c.Bool("hex")); err != nil {
		return err
	}
	out := commit2Output{
		RegisteredProof: in.cfg.Name,
		Partitions:      in.cfg.Partitions,
		Backend:         rec.backend(),
		Proof:           hex.EncodeToString(proof),
		ProofFile:       outPath,
		Timings:         append([]phaseTiming{{"read+validate C1", parse.Seconds()}}, rec.timings()...),
		Seconds:         total.Seconds(),
		Warnings:        rec.warnings,
	}
	out.Timings = append(out.Timings, phaseTiming{"total", total.Seconds()})
	if jsonOut {
		return proofToStdout(c, out.Proof, func() error { return writeJSON(c, out) })
	}
	if outPath == "" {
		if err := printProofHex(c, out.Proof); err != nil {
			return err
		}
	} else {
		printf(c, "proof: %s (%d bytes, %d partition(s), %s backend)\n", outPath, len(proof), out.Partitions, out.Backend)
	}
	// Timings go to stderr when stdout carries the proof.
	w := c.App.Writer
	if outPath == "" {
		w = c.App.ErrWriter
	}
	printTimings(w, out.Timings)
	return nil
}
