package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/filecoin-project/go-state-types/abi"
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

// proverOptions turns the common flags into porep options.
func proverOptions(c *cli.Context, dir, backend string, rec *phaseRecorder) ([]porep.Option, error) {
	n := c.Int("partitions-in-flight")
	if n < 1 {
		return nil, usageErrorf("--partitions-in-flight %d: must be at least 1", n)
	}
	opts := []porep.Option{
		porep.WithParamsDir(dir), porep.WithBackend(backend), porep.WithContext(c.Context),
		porep.WithLogger(slog.Default()), porep.WithProgress(rec.record), porep.WithMaxPartitionsInFlight(n),
	}
	if c.Bool("preload-params") {
		opts = append(opts, porep.WithPreloadParams())
	}
	w := c.Int("synth-workers")
	if w < 0 {
		return nil, usageErrorf("--synth-workers %d: must be at least 0", w)
	}
	return append(opts, porep.WithSynthesisWorkers(w)), nil
}

func commit2Command() *cli.Command {
	return &cli.Command{
		Name:  "commit2",
		Usage: "prove a sector: C1 output → Groth16 proof (192 bytes per partition), verified before it is written",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "c1", Usage: "C1 JSON or lotus-bench Commit2In `FILE`", Required: true},
			&cli.StringFlag{Name: "out", Usage: "write the proof to `FILE` (default: hex on stdout)"},
			&cli.BoolFlag{Name: "hex", Usage: "write the proof file as hex instead of raw bytes"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing --out file"},
			paramsDirFlag(),
			minerFlag(),
			sectorFlag(),
			&cli.StringFlag{Name: "backend", Usage: "proving backend: auto, cpu or cuda", Value: porep.BackendAuto},
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
}

// phaseTiming is one row of the timing table.
type phaseTiming struct {
	Phase   string  `json:"phase"`
	Seconds float64 `json:"seconds"`
}

// c1Input is a C1 file read and validated, with the sector number it implies.
type c1Input struct {
	path   string
	data   []byte
	c1     *stacked.C1Output
	cfg    stacked.SectorConfig
	sector abi.SectorNumber
	miner  abi.ActorID
}

// readC1Input reads --c1 (raw C1 JSON or Commit2In), validates it, and checks that its
// replica_id belongs to --miner and the sector number and that its challenges derive from
// its seed, so that every input mistake is a usage error naming the file before any proving
// starts. With forProving it also recomputes every Merkle path and column hash (what the
// circuit will enforce; verify does not need them).
func readC1Input(c *cli.Context, forProving bool) (*c1Input, error) {
	in := &c1Input{path: c.String("c1")}
	miner, err := parseMiner(c.String("miner"))
	if err != nil {
		return nil, inputError(err)
	}
	in.miner = miner
	if in.data, err = os.ReadFile(in.path); err != nil {
		return nil, inputError(fmt.Errorf("--c1: %w", fileError(err)))
	}
	raw, wrapper, err := stacked.UnwrapC1Input(in.data)
	if err != nil {
		return nil, inputError(fmt.Errorf("%s: %w", in.path, err))
	}
	if in.c1, in.cfg, err = stacked.ParseC1(raw); err != nil {
		return nil, inputError(fmt.Errorf("%s: %w", in.path, err))
	}
	switch {
	case c.IsSet("sector"):
		in.sector = abi.SectorNumber(c.Uint64("sector"))
		if wrapper != nil && wrapper.SectorNum != int64(in.sector) {
			return nil, usageErrorf("--sector %d: %s is a Commit2In for sector %d", in.sector, in.path, wrapper.SectorNum)
		}
	case wrapper != nil:
		in.sector = abi.SectorNumber(wrapper.SectorNum)
	default:
		in.sector = 1
	}
	if wrapper != nil && wrapper.SectorSize != 0 && wrapper.SectorSize != in.cfg.SectorSize {
		return nil, usageErrorf("%s: Commit2In.SectorSize = %d, but its registered_proof %s has %d (%s)",
			in.path, wrapper.SectorSize, in.cfg.Name, in.cfg.SectorSize, formatSize(in.cfg.SectorSize))
	}
	if in.c1.SyntheticInvalid {
		return nil, usageErrorf("%s: synthetic C1 data (made for bench synth) cannot be proven", in.path)
	}
	want := stacked.ReplicaID(stacked.ProverID(in.miner), in.sector, in.c1.Ticket, in.c1.CommD, in.cfg.PoRepID)
	if stacked.Domain(want) != in.c1.ReplicaID {
		return nil, usageErrorf("%s: replica_id is not the one of miner %s, sector %d with this C1's ticket, comm_d and porep_id (%s): wrong --miner or --sector, or an altered ticket, comm_d or registered_proof",
			in.path, c.String("miner"), in.sector, in.cfg.Name)
	}
	// The challenges derive from replica_id and seed: an altered seed would otherwise
	// only show up after synthesis.
	if err := in.c1.CheckChallenges(&in.cfg); err != nil {
		return nil, inputError(fmt.Errorf("%s: %w", in.path, err))
	}
	if forProving {
		if err := in.c1.CheckInclusionProofs(&in.cfg); err != nil {
			return nil, inputError(fmt.Errorf("%s: %w", in.path, err))
		}
	}
	return in, nil
}

// checkParamsPresent names the missing parameter file, and says when the directory holds
// parameters for other sector sizes only.
func checkParamsPresent(dir string, cfg *stacked.SectorConfig, needParams bool) error {
	pp, vp, _ := cfg.ParameterPaths(dir)
	need := []string{vp}
	if needParams {
		need = append(need, pp)
	}
	for _, p := range need {
		if _, err := os.Stat(p); err != nil {
			hint := fmt.Sprintf("generate test parameters with: cuseal params generate --sector-size %s --out %s", formatSize(cfg.SectorSize), dir)
			if others := otherParams(dir); others != "" {
				hint = "the directory holds parameters for other circuits only (" + others + "); " + hint
			}
			return usageErrorf("--params-dir: no %s parameters for %s: %s missing; %s", formatSize(cfg.SectorSize), cfg.Name, p, hint)
		}
	}
	return nil
}

// otherParams lists the sector sizes of the PoRep parameter files in dir.
func otherParams(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".vk") && strings.Contains(e.Name(), "stacked-proof-of-replication") {
			names = append(names, e.Name())
		}
	}
	if len(names) > 3 {
		names = append(names[:3], "…")
	}
	return strings.Join(names, ", ")
}

// backendName resolves --backend and --no-gpu.
func backendName(c *cli.Context) (string, error) {
	b := c.String("backend")
	switch b {
	case porep.BackendAuto, porep.BackendCPU, porep.BackendCUDA:
	default:
		return "", usageErrorf("--backend %q: want auto, cpu or cuda", b)
	}
	if noGPU(c) {
		if b == porep.BackendCUDA {
			return "", usageErrorf("--backend cuda contradicts --no-gpu (BELLMAN_NO_GPU)")
		}
		return porep.BackendCPU, nil
	}
	if b == porep.BackendCUDA && !cudaBuild {
		return "", usageErrorf("--backend cuda: this binary was built without CUDA (pure Go); use bin/cuseal-cuda (built by ./build.sh build where nvcc is installed), or --backend cpu")
	}
	return b, nil
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
	if n := c.Int("partitions-in-flight"); n < 1 {
		return usageErrorf("--partitions-in-flight %d: must be at least 1", n)
	}
	if w := c.Int("synth-workers"); w < 0 {
		return usageErrorf("--synth-workers %d: must be at least 0", w)
	}
	outPath := c.String("out")
	if outPath != "" {
		if err := checkOutFile(outPath); err != nil {
			return err
		}
		if _, err := os.Lstat(outPath); err == nil && !c.Bool("force") {
			return usageErrorf("--out %s: exists; refusing to overwrite it (pass --force to replace it)", outPath)
		}
	}
	dir := c.String("params-dir")
	if err := checkParamsPresent(dir, &in.cfg, true); err != nil {
		return err
	}
	parse := time.Since(start)

	jsonOut := c.Bool("json")
	rec := newPhaseRecorder(newProgress(c.App.ErrWriter, jsonOut, int64(in.cfg.Partitions),
		fmt.Sprintf("commit2 %s", formatSize(in.cfg.SectorSize))))
	opts, err := proverOptions(c, dir, backend, rec)
	if err != nil {
		return err
	}
	proof, err := porep.SealCommitPhase2(in.data, in.sector, in.miner, opts...)
	rec.bar.Done()
	if err != nil {
		return classifyPorepError(err)
	}
	total := time.Since(start)
	if outPath != "" {
		data := proof
		if c.Bool("hex") {
			data = []byte(hex.EncodeToString(proof) + "\n")
		}
		if err := writeFileAtomic(outPath, data); err != nil {
			return inputError(fmt.Errorf("--out: %w", fileError(err)))
		}
	}
	out := commit2Output{
		RegisteredProof: in.cfg.Name,
		Partitions:      len(proof) / groth16.ProofSize,
		Backend:         rec.backend(),
		Proof:           hex.EncodeToString(proof),
		ProofFile:       outPath,
		Timings:         append([]phaseTiming{{"read+validate C1", parse.Seconds()}}, rec.timings()...),
		Seconds:         total.Seconds(),
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
	case errors.Is(err, groth16.ErrInvalidProof):
		return &exitError{code: exitInvalidProof, err: err}
	case errors.Is(err, porep.ErrBadInput), errors.Is(err, porep.ErrParamsNotFound), errors.Is(err, porep.ErrUnknownBackend),
		errors.Is(err, porep.ErrUnsupportedProof), errors.Is(err, porep.ErrSyntheticC1),
		errors.Is(err, groth16.ErrShape), errors.As(err, &fe), errors.As(err, &pe):
		return inputError(err)
	}
	return internalError(err)
}

// checkOutFile checks that path can be written: its directory exists and is writable and
// path is not a directory. The file itself is written atomically at the end.
func checkOutFile(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return usageErrorf("--out %s: is a directory", path)
	}
	dir := dirOf(path)
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return usageErrorf("--out %s: directory %s does not exist (create it first)", path, dir)
	}
	if err != nil {
		return inputError(fmt.Errorf("--out: %w", fileError(err)))
	}
	if !st.IsDir() {
		return usageErrorf("--out %s: %s is not a directory", path, dir)
	}
	return checkWritableDir(dir)
}

func dirOf(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		if i == 0 {
			return "/"
		}
		return path[:i]
	}
	return "."
}

// phaseRecorder collects the per-partition synthesis and proving times that
// porep.SealCommitPhase2 reports through porep.WithProgress, advancing a progress bar.
type phaseRecorder struct {
	bar  *progress
	mu   sync.Mutex
	rows []phaseTiming
	name string
}

func newPhaseRecorder(bar *progress) *phaseRecorder { return &phaseRecorder{bar: bar} }

// record is the porep.WithProgress callback; partitions in flight call it concurrently.
func (h *phaseRecorder) record(ev porep.PhaseEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch ev.Phase {
	case porep.PhaseStart:
		h.name = ev.Backend
	case porep.PhaseSynthesized:
		h.rows = append(h.rows, phaseTiming{fmt.Sprintf("partition %d: synthesize", ev.Partition), ev.Took.Seconds()})
	case porep.PhaseProven:
		h.rows = append(h.rows, phaseTiming{fmt.Sprintf("partition %d: prove+verify", ev.Partition), ev.Took.Seconds()})
		h.bar.Add(1)
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
