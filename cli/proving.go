// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/aggregate"
	"github.com/cuseal/cuseal/porep/post"
	"github.com/cuseal/cuseal/porep/stacked"
	"github.com/cuseal/cuseal/porep/update"
)

// The steps the proving and verifying commands share: flags checked before any work, the
// one missing-parameters check, porep's progress and warnings, and how a result is printed.

// runProve is the shared body of the proving commands (post winning|window,
// update prove) around their Go API call: it checks --synth-workers,
// --backend and --out, then the parameter files (checkParams), runs prove
// under Ctrl-C handling with the backend, workers, context and progress
// options (commit2's stage lines and warnings: newCommandRecorder), and
// writes the proof to --out (hex on stdout when outPath is "").
// cmd names the command in the interrupted message and the progress lines.
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
	rec := newCommandRecorder(c, cmd)
	pf, err = prove(ctx, porep.WithBackend(backend), porep.WithSynthesisWorkers(c.Int("synth-workers")), porep.WithContext(ctx), porep.WithProgress(rec.record))
	rec.bar.Done()
	if err != nil {
		if interruptedBySignal(c, ctx) {
			return nil, "", interruptedProof(ctx, cmd, outPath)
		}
		return nil, "", classifyPorepError(err)
	}
	return pf, outPath, writeProofOut(c.App.ErrWriter, outPath, pf, c.Bool("hex"))
}

// proverOptions turns the common flags, checked by preflightProve, into porep options.
func proverOptions(c *cli.Context, dir, backend string, rec *phaseRecorder) []porep.Option {
	n := c.Int("partitions-in-flight")
	opts := []porep.Option{
		porep.WithParamsDir(dir), porep.WithBackend(backend), porep.WithContext(c.Context),
		porep.WithLogger(slog.Default()), porep.WithProgress(rec.record), porep.WithMaxPartitionsInFlight(n),
	}
	if c.Bool("preload-params") {
		opts = append(opts, porep.WithPreloadParams())
	}
	opts = append(opts, productionOptions(c)...)
	return append(opts, porep.WithSynthesisWorkers(c.Int("synth-workers")))
}

// preflightProve is what commit2 and bench prove check, in this order, once the C1 is
// read and before anything is proven: --partitions-in-flight and --synth-workers, the
// parameter files in --params-dir, the estimated memory need of each backend (unless
// --force) and, for NI-PoRep (whose C2 aggregates its partition proofs), the SnarkPack SRS.
// Each failure is a usage or input error (exit 2) naming the flag or file.
func preflightProve(c *cli.Context, in *c1Input, backends []string) error {
	if n := c.Int("partitions-in-flight"); n < 1 {
		return usageErrorf("--partitions-in-flight %d: must be at least 1", n)
	}
	if w := c.Int("synth-workers"); w < 0 {
		return usageErrorf("--synth-workers %d: must be at least 0", w)
	}
	dir := c.String("params-dir")
	if err := checkParamsPresent(dir, porepParams(&in.cfg), true); err != nil {
		return err
	}
	if !c.Bool("force") {
		pp, _, _ := in.cfg.ParameterPaths(dir)
		for _, b := range backends {
			if err := checkProveMemory(c, &in.cfg, b, pp); err != nil {
				return err
			}
		}
	}
	if in.cfg.Challenges == stacked.ChallengesNonInteractive {
		return checkSRSPresent(dir)
	}
	return nil
}

// circuitParams is one circuit's parameter files as checkParamsPresent names them: the
// registered proof, the circuit (params generate's --circuit), the sector size and the file
// stem (v28-<cache identifier>).
type circuitParams struct {
	name, circuit string
	sectorSize    uint64
	stem          string
}

func porepParams(cfg *stacked.SectorConfig) circuitParams {
	return circuitParams{cfg.Name, circuitPoRep, cfg.SectorSize, cfg.ParameterFileStem()}
}

func postParams(cfg *post.Config) circuitParams {
	circuit := circuitWinningPoSt
	if cfg.Kind == post.Window {
		circuit = circuitWindowPoSt
	}
	return circuitParams{cfg.Name, circuit, cfg.SectorSize, cfg.ParameterFileStem()}
}

func updateParams(cfg *update.Config) circuitParams {
	return circuitParams{cfg.Name, circuitUpdate, cfg.SectorSize, cfg.ParameterFileStem()}
}

// checkParamsPresent is the one missing-parameters check, before any work: it names a
// missing parameter file of cp in dir (its .vk, and its .params when needParams) with the
// params generate command that writes test parameters for it, says when the directory
// holds parameters for other circuits of the family only, and names a dangling symbolic
// link or a directory standing where a parameter file should be. Problems found later,
// when the files are read (permissions, corrupt contents), are input errors too
// (porep.ErrBadInput).
func checkParamsPresent(dir string, cp circuitParams, needParams bool) error {
	pp, vp, _ := stacked.ParameterPathsFor(dir, cp.stem)
	need := []string{vp}
	if needParams {
		need = append(need, pp)
	}
	for _, p := range need {
		lst, lerr := os.Lstat(p)
		st, err := os.Stat(p)
		switch {
		case err == nil && st.IsDir():
			return usageErrorf("--params-dir: %s is a directory, want the %s parameter file", p, cp.name)
		case err == nil:
			continue
		case lerr == nil && lst.Mode()&fs.ModeSymlink != 0 && errors.Is(err, fs.ErrNotExist):
			target, _ := os.Readlink(p)
			return usageErrorf("--params-dir: %s is a dangling symbolic link (to %s, which does not exist); fix or remove the link", p, target)
		case !errors.Is(err, fs.ErrNotExist):
			return inputError(fmt.Errorf("--params-dir: %w", fileError(err)))
		}
		hint := "generate test parameters with: cuseal params generate"
		if cp.circuit != circuitPoRep {
			hint += " --circuit " + cp.circuit
		}
		hint += fmt.Sprintf(" --sector-size %s --out %s", stacked.SizeLabel(cp.sectorSize), dir)
		if others := otherParams(dir, cp.stem); others != "" {
			hint = "the directory holds parameters for other circuits only (" + others + "); " + hint
		}
		return usageErrorf("--params-dir: no %s parameters for %s: %s missing; %s", stacked.SizeLabel(cp.sectorSize), cp.name, p, hint)
	}
	return nil
}

// otherParams lists the verifying keys in dir of the family of the parameter file stem own
// (stacked-proof-of-replication, proof-of-spacetime-fallback, empty-sector-update) that
// belong to other circuits.
func otherParams(dir, own string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	family, _, _ := strings.Cut(strings.TrimPrefix(own, fmt.Sprintf("v%d-", stacked.ParameterVersion)), "-merkletree")
	var names []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasSuffix(n, ".vk") && strings.Contains(n, family) && !strings.HasPrefix(n, own) {
			names = append(names, n)
		}
	}
	if len(names) > 3 {
		names = append(names[:3], "…")
	}
	return strings.Join(names, ", ")
}

// phaseRecorder collects the per-partition synthesis and proving times that
// porep.SealCommitPhase2 reports through porep.WithProgress, shows each phase on the
// progress display, and prints porep's warnings (test parameters) as one line on stderr.
type phaseRecorder struct {
	bar        *progress
	stderr     io.Writer
	partitions int
	mu         sync.Mutex
	rows       []phaseTiming
	name       string
	warnings   []string
	// quietWarnings keeps warnings out of stderr (verify --json puts them in its JSON; with
	// --log-level warn or lower the slog record already shows them).
	quietWarnings bool
}

func newPhaseRecorder(bar *progress, stderr io.Writer, partitions int) *phaseRecorder {
	return &phaseRecorder{bar: bar, stderr: stderr, partitions: partitions, quietWarnings: slogShowsWarnings()}
}

// newCommandRecorder is commit2's progress display for another proving command (desc, such
// as "post window"): a spinner on a terminal, else one line per stage; the partition count
// comes with porep's PhaseStart event.
func newCommandRecorder(c *cli.Context, desc string) *phaseRecorder {
	return newPhaseRecorder(newPhaseProgress(c.App.ErrWriter, -1, desc), c.App.ErrWriter, 1)
}

// warningsOption shows porep's warnings (TEST parameters) as "cuseal: warning: …" lines on
// stderr, for the commands without a progress display (post verify, update verify).
func warningsOption(c *cli.Context) porep.Option {
	return porep.WithProgress(newPhaseRecorder(nil, c.App.ErrWriter, 1).record)
}

// record is the porep.WithProgress callback; partitions in flight call it concurrently.
func (h *phaseRecorder) record(ev porep.PhaseEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if ev.Phase == porep.PhaseStart && ev.Partitions > 0 {
		h.partitions = ev.Partitions
	}
	part := fmt.Sprintf("partition %d/%d", ev.Partition+1, h.partitions)
	switch ev.Phase {
	case porep.PhaseStart:
		h.name = ev.Backend
		h.bar.Phase(fmt.Sprintf("%s backend", ev.Backend))
	case porep.PhaseSynthesizing:
		h.bar.Phase(part + ": synthesizing the circuit")
	case porep.PhaseSynthesized:
		h.rows = append(h.rows, phaseTiming{fmt.Sprintf("partition %d: synthesize", ev.Partition), ev.Took.Seconds()})
	case porep.PhaseStage:
		if ev.Partition < 0 { // a stage of the whole proof (aggregation)
			h.bar.Phase(ev.Stage)
			break
		}
		h.bar.Phase(part + ": " + ev.Stage)
	case porep.PhaseProven:
		h.rows = append(h.rows, phaseTiming{fmt.Sprintf("partition %d: prove+verify", ev.Partition), ev.Took.Seconds()})
		h.bar.Add(1)
		h.bar.Phase(fmt.Sprintf("%s: proven and verified in %.1fs", part, ev.Took.Seconds()))
	case porep.PhaseHash:
		if ev.Done == 0 || ev.Done == ev.Total || h.bar == nil || h.bar.bar != nil {
			h.bar.Phase(fmt.Sprintf("hashing %s: %s of %s", filepath.Base(ev.File), humanBytes(uint64(ev.Done)), humanBytes(uint64(ev.Total))))
		}
	case porep.PhaseWarning:
		h.warnings = append(h.warnings, ev.Message)
		if !h.quietWarnings {
			h.bar.Println(h.stderr, "cuseal: warning: "+ev.Message)
		}
	}
}

func (h *phaseRecorder) timings() []phaseTiming {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]phaseTiming(nil), h.rows...)
}

func (h *phaseRecorder) backend() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.name
}

// checkSRSPresent names a missing SRS file with the command that makes a test one.
func checkSRSPresent(dir string) error {
	p := filepath.Join(dir, aggregate.SRSFileName)
	if _, err := os.Stat(p); err != nil {
		return usageErrorf("--params-dir: %s missing (SnarkPack SRS); generate a TEST one with: cuseal params generate --srs --out %s", p, dir)
	}
	return nil
}

// reportProof prints a proving command's result: out as one JSON object with --json, else
// the proof as hex on stdout when it went to no file (outPath ""), else summary.
func reportProof(c *cli.Context, out any, outPath, proofHex, summary string) error {
	switch {
	case c.Bool("json"):
		return proofToStdout(c, proofHex, func() error { return writeJSON(c, out) })
	case outPath == "":
		return printProofHex(c, proofHex)
	default:
		printf(c, "%s\n", summary)
	}
	return nil
}

// proofToStdout runs write, which puts a proof (proofHex) on stdout. If
// stdout cannot take it (a full disk behind a redirect, /dev/full, a closed
// pipe) the proof is not lost: its hex goes to stderr with the error, and
// the exit is 2, never 0.
func proofToStdout(c *cli.Context, proofHex string, write func() error) error {
	if err := write(); err != nil {
		return proofNotWritten(c.App.ErrWriter, "stdout", "stdout", proofHex, err)
	}
	return nil
}

// printProofHex puts the proof's hex on stdout, a line (proofToStdout).
func printProofHex(c *cli.Context, proofHex string) error {
	return proofToStdout(c, proofHex, func() error {
		_, err := fmt.Fprintf(c.App.Writer, "%s\n", proofHex)
		return err
	})
}

// proofNotWritten prints a proof that could not be written to dest (stdout,
// the --out path) in hex on errw, so that it is not lost, and returns the
// exit-2 error naming the flag or stream (where) and why.
func proofNotWritten(errw io.Writer, where, dest, proofHex string, err error) error {
	fmt.Fprintf(errw, "cuseal: the proof could not be written to %s; here it is in hex:\n%s\n", dest, proofHex)
	return inputError(fmt.Errorf("%s: %w (the proof is printed in hex above)", where, err))
}

// reportVerdict prints a verifying command's result (out as one JSON object with --json,
// else summary when the proof is valid) and returns errInvalidProof (exit 1) when it is not.
func reportVerdict(c *cli.Context, out any, valid bool, summary string) error {
	if c.Bool("json") {
		if err := writeJSON(c, out); err != nil {
			return internalError(err)
		}
	} else if valid {
		printf(c, "%s\n", summary)
	}
	if !valid {
		return errInvalidProof
	}
	return nil
}
