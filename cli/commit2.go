// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/stacked"
)

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
	if err := checkParamsPresent(dir, &in.cfg, true); err != nil {
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

// phaseTiming is one row of the timing table.
type phaseTiming struct {
	Phase   string  `json:"phase"`
	Seconds float64 `json:"seconds"`
}

// checkParamsPresent names the missing parameter file, says when the directory holds
// parameters for other circuits only, and names a dangling symbolic link or a directory
// standing where a parameter file should be. Problems found later, when the files are
// read (permissions, corrupt contents), are input errors too (porep.ErrBadInput).
func checkParamsPresent(dir string, cfg *stacked.SectorConfig, needParams bool) error {
	pp, vp, _ := cfg.ParameterPaths(dir)
	need := []string{vp}
	if needParams {
		need = append(need, pp)
	}
	for _, p := range need {
		lst, lerr := os.Lstat(p)
		st, err := os.Stat(p)
		switch {
		case err == nil && st.IsDir():
			return usageErrorf("--params-dir: %s is a directory, want the %s parameter file", p, cfg.Name)
		case err == nil:
			continue
		case lerr == nil && lst.Mode()&fs.ModeSymlink != 0 && errors.Is(err, fs.ErrNotExist):
			target, _ := os.Readlink(p)
			return usageErrorf("--params-dir: %s is a dangling symbolic link (to %s, which does not exist); fix or remove the link", p, target)
		case !errors.Is(err, fs.ErrNotExist):
			return inputError(fmt.Errorf("--params-dir: %w", fileError(err)))
		}
		hint := fmt.Sprintf("generate test parameters with: cuseal params generate --sector-size %s --out %s", stacked.SizeLabel(cfg.SectorSize), dir)
		if others := otherParams(dir, cfg); others != "" {
			hint = "the directory holds parameters for other circuits only (" + others + "); " + hint
		}
		return usageErrorf("--params-dir: no %s parameters for %s: %s missing; %s", stacked.SizeLabel(cfg.SectorSize), cfg.Name, p, hint)
	}
	return nil
}

// otherParams lists the PoRep verifying keys in dir that belong to circuits other than cfg's.
func otherParams(dir string, cfg *stacked.SectorConfig) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	own := cfg.ParameterFileStem()
	var names []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasSuffix(n, ".vk") && strings.Contains(n, "stacked-proof-of-replication") && !strings.HasPrefix(n, own) {
			names = append(names, n)
		}
	}
	if len(names) > 3 {
		names = append(names[:3], "…")
	}
	return strings.Join(names, ", ")
}

// backendName resolves --backend and --no-gpu.
func backendName(c *cli.Context) (string, error) {
	return resolveBackend(c, c.String("backend"))
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
	if err := writeProofOut(outPath, proof, c.Bool("hex")); err != nil {
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
		return writeJSON(c, out)
	}
	if outPath == "" {
		printf(c, "%s\n", out.Proof)
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

// classifyPorepError maps errors from the porep API to exit codes: what the user can fix
// (input, parameters, backend choice) is 2, an invalid proof 1, anything else internal.
func classifyPorepError(err error) error {
	var fe *groth16.FormatError
	var pe *stacked.ParseError
	switch {
	case errors.Is(err, context.Canceled):
		return internalError(err)
	case errors.Is(err, groth16.ErrInvalidProof), errors.Is(err, porep.ErrAggregateInvalid):
		return &exitError{code: exitInvalidProof, err: err}
	case errors.Is(err, porep.ErrBadInput), errors.Is(err, porep.ErrParamsNotFound), errors.Is(err, porep.ErrUnknownBackend),
		errors.Is(err, porep.ErrUnsupportedProof), errors.Is(err, stacked.ErrSyntheticC1),
		errors.Is(err, groth16.ErrShape), errors.As(err, &fe), errors.As(err, &pe):
		return inputError(err)
	}
	return internalError(err)
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

// warningsOption shows porep's warnings (TEST parameters) as "cuseal: warning: …" lines on
// stderr, for the commands without a progress display (post, update).
func warningsOption(c *cli.Context) porep.Option {
	return porep.WithProgress(newPhaseRecorder(nil, c.App.ErrWriter, 1).record)
}

// record is the porep.WithProgress callback; partitions in flight call it concurrently.
func (h *phaseRecorder) record(ev porep.PhaseEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
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
