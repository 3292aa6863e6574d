// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/porep"
)

// demoSample is the text `cuseal demo` seals: 2032 bytes, the unpadded size of a 2 KiB
// sector (demo/SOURCE.md).
//
//go:embed demo/sample.txt
var demoSample []byte

// The demo sector's identities and randomness: fixed, so every run seals the same sector.
const (
	demoMiner  = "t01000"
	demoSector = "1"
	demoSize   = "2KiB"
	// demoCCSector is the CC (all-zero) sector --snapdeals seals and then
	// updates with the sample.
	demoCCSector = "2"
)

var (
	demoTicket = strings.Repeat("01", 32)
	demoSeed   = strings.Repeat("02", 32)
	// demoPoStRandomness is the chain randomness of the demo's PoSt (byte 31
	// ≤ 0x3f, as Lotus masks it).
	demoPoStRandomness = strings.Repeat("03", 32)
	// demoParamsSeed is the toxic seed of the demo's TEST parameters: the
	// rust-fil-proofs reference vectors' (bytes 0x00…0x1f), which
	// `./build.sh test` uses too, so the demo and the tests share one
	// cache (testdata/cache/params) instead of refusing each other's.
	demoParamsSeed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
)

func demoCommand() *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "seal the embedded 2KiB sample, prove it (C2, WinningPoSt, WindowPoSt) and verify the proofs (TEST parameters); print the phase timings",
		Description: "Runs the main jobs on a 2KiB sector, through the commands themselves: seal (the embedded\n" +
			"sample text), params generate --reuse (TEST parameters: 1.1 GB, generated once and then reused\n" +
			"while their stamp matches), commit2 (--backend) and verify; then, on the same sector,\n" +
			"WinningPoSt and one WindowPoSt partition: params generate --circuit winning-post|window-post\n" +
			"--reuse, post vanilla, post winning|window and post verify. With --snapdeals, also SnapDeals:\n" +
			"seal a CC (all-zero) sector, update encode it with the sample, update vanilla, params\n" +
			"generate --circuit update --reuse (656 MB, once), update prove and update verify. It prints\n" +
			"one table of their phase timings. The sample, the sealed sector, c1.json and the proofs stay in --out; on an\n" +
			"error or Ctrl-C what the demo wrote there is removed. Exit 1 if a proof does not verify.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "params-dir", Usage: "`DIR` for the 2KiB TEST parameters (reused when their stamp matches; never a production directory)",
				EnvVars: []string{"CUSEAL_TEST_PARAMS_DIR"}, Value: filepath.Join(os.TempDir(), "cuseal-test-params")},
			&cli.StringFlag{Name: "out", Usage: "`DIR` for the sample, the sealed sector and the proof (created; must be empty)", DefaultText: "a new directory in $TMPDIR"},
			&cli.StringFlag{Name: "backend", Usage: backendUsage(), Value: porep.BackendAuto},
			noGPUFlag(),
			&cli.BoolFlag{Name: "json", Usage: "print the timings, the proof and each step's result as one JSON object"},
			&cli.BoolFlag{Name: "snapdeals", Usage: "also prove a SnapDeals update: a CC sector updated with the sample (one 1.7M-constraint partition; about as long as the C2 step)"},
		},
		Action: demoAction,
	}
}

// demoOutput is what `cuseal demo --json` prints: the demo's table and each step's own
// --json result.
type demoOutput struct {
	Dir       string               `json:"dir"`
	ParamsDir string               `json:"params_dir"`
	Backend   string               `json:"backend"`
	Proof     string               `json:"proof"` // hex
	Valid     bool                 `json:"valid"`
	Timings   []phaseTiming        `json:"timings"`
	Seconds   float64              `json:"seconds"`
	Seal      sealOutput           `json:"seal"`
	Params    paramsGenerateOutput `json:"params"`
	Commit2   commit2Output        `json:"commit2"`
	Verify    verifyOutput         `json:"verify"`
	// PoSt: WinningPoSt and one WindowPoSt partition of the same sector.
	PoSt demoPoStOutput `json:"post"`
	// SnapDeals: with --snapdeals, a CC sector updated with the sample.
	SnapDeals *demoUpdateRun `json:"snapdeals,omitempty"`
}

// demoUpdateRun is the SnapDeals part of `cuseal demo --snapdeals --json`.
type demoUpdateRun struct {
	Seal    sealOutput           `json:"seal"`
	Encode  updateEncodeOutput   `json:"encode"`
	Vanilla updateVanillaOutput  `json:"vanilla"`
	Params  paramsGenerateOutput `json:"params"`
	Prove   updateOutput         `json:"prove"`
	Verify  updateVerifyOutput   `json:"verify"`
}

// demoPoStOutput is the PoSt part of `cuseal demo --json`.
type demoPoStOutput struct {
	Randomness string      `json:"randomness"`
	Winning    demoPoStRun `json:"winning"`
	Window     demoPoStRun `json:"window"`
}

// demoPoStRun is one PoSt kind's steps.
type demoPoStRun struct {
	Params  paramsGenerateOutput `json:"params"`
	Vanilla postVanillaOutput    `json:"vanilla"`
	Prove   postOutput           `json:"prove"`
	Verify  postVerifyOutput     `json:"verify"`
}

func demoAction(c *cli.Context) (err error) {
	start := time.Now()
	backend, err := backendName(c)
	if err != nil {
		return err
	}
	dir, cleanup, err := demoDir(c.String("out"))
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			cleanup()
		}
	}()
	ctx, stop := interruptible(c)
	defer stop()
	defer func() {
		if err != nil && interruptedBySignal(c, ctx) {
			err = internalError(fmt.Errorf("demo: interrupted by a signal; removed what it wrote in %s", dir))
		}
	}()

	out := demoOutput{Dir: dir, ParamsDir: c.String("params-dir")}
	sample := filepath.Join(dir, "sample.txt")
	if err := writeFileAtomic(sample, demoSample); err != nil {
		return internalError(fmt.Errorf("demo: %w", fileError(err)))
	}
	sector := filepath.Join(dir, "sector")
	if err := demoStep(c, ctx, &out.Seal, "seal", "--sector-size", demoSize, "--data", sample, "--out", sector,
		"--miner", demoMiner, "--sector", demoSector, "--ticket", demoTicket, "--seed", demoSeed); err != nil {
		return err
	}
	if err := demoStep(c, ctx, &out.Params, "params", "generate", "--sector-size", demoSize, "--seed", demoParamsSeed, "--out", out.ParamsDir, "--reuse"); err != nil {
		return err
	}
	proofPath := filepath.Join(dir, "proof")
	if err := demoStep(c, ctx, &out.Commit2, "commit2", "--c1", out.Seal.C1, "--params-dir", out.ParamsDir,
		"--miner", demoMiner, "--sector", demoSector, "--backend", backend, "--out", proofPath); err != nil {
		return err
	}
	if err := demoStep(c, ctx, &out.Verify, "verify", "--c1", out.Seal.C1, "--proof", proofPath, "--params-dir", out.ParamsDir,
		"--miner", demoMiner, "--sector", demoSector); err != nil {
		return err
	}
	out.PoSt.Randomness = demoPoStRandomness
	for _, k := range []struct {
		circuit, sub string
		run          *demoPoStRun
	}{{circuitWinningPoSt, "winning", &out.PoSt.Winning}, {circuitWindowPoSt, "window", &out.PoSt.Window}} {
		if err := demoPoSt(c, ctx, k.circuit, k.sub, out.ParamsDir, sector, filepath.Join(dir, "post-"+k.sub), backend, k.run); err != nil {
			return err
		}
	}
	kinds := "C2, WinningPoSt, WindowPoSt"
	if c.Bool("snapdeals") {
		out.SnapDeals = &demoUpdateRun{}
		if err := demoSnapDeals(c, ctx, dir, sample, out.ParamsDir, backend, out.SnapDeals); err != nil {
			return err
		}
		kinds += ", SnapDeals"
	}
	out.Backend, out.Proof = out.Commit2.Backend, out.Commit2.Proof
	out.Valid = out.Verify.Valid && out.PoSt.Winning.Verify.Valid && out.PoSt.Window.Verify.Valid &&
		(out.SnapDeals == nil || out.SnapDeals.Verify.Valid)
	out.Seconds = time.Since(start).Seconds()
	out.Timings = demoTimings(&out)
	if c.Bool("json") {
		return writeJSON(c, out)
	}
	printf(c, "\ncuseal demo: %s sector sealed from the embedded sample, proven (%s; %s backend) and verified\n\n", demoSize, kinds, out.Backend)
	printTimings(c.App.Writer, out.Timings)
	printf(c, "\nproof (%d bytes): %s\n", len(out.Proof)/2, out.Proof)
	printf(c, "files: %s (sample.txt, sector/ with c1.json, proof; post-winning/ and post-window/ with the vanilla proofs and proof", dir)
	if out.SnapDeals != nil {
		printf(c, "; snapdeals/ with the CC sector, the updated sector, the vanilla partition proofs and proof")
	}
	printf(c, ")\n")
	printf(c, "parameters: %s (TEST parameters: NOT FOR PRODUCTION)\n", out.ParamsDir)
	return nil
}

// demoPoSt runs one PoSt kind on the demo's sector: its TEST parameters
// (generated once, then reused), the sector's vanilla proofs (post
// vanilla), the proof (post winning|window) and its verification.
func demoPoSt(c *cli.Context, ctx context.Context, circuit, sub, params, sector, dir, backend string, run *demoPoStRun) error {
	if err := demoStep(c, ctx, &run.Params, "params", "generate", "--circuit", circuit, "--sector-size", demoSize, "--seed", demoParamsSeed, "--out", params, "--reuse"); err != nil {
		return err
	}
	if err := demoStep(c, ctx, &run.Vanilla, "post", "vanilla", "--circuit", circuit, "--sector-dir", sector, "--randomness", demoPoStRandomness, "--out", dir); err != nil {
		return err
	}
	var vanilla []string
	for _, s := range run.Vanilla.Sectors {
		vanilla = append(vanilla, "--vanilla", filepath.Join(dir, s.File))
	}
	common := append([]string{"--params-dir", params, "--proof-type", run.Vanilla.RegisteredProof, "--randomness", demoPoStRandomness, "--miner", demoMiner}, vanilla...)
	proof := filepath.Join(dir, "proof")
	if err := demoStep(c, ctx, &run.Prove, append([]string{"post", sub, "--backend", backend, "--out", proof}, common...)...); err != nil {
		return err
	}
	return demoStep(c, ctx, &run.Verify, append([]string{"post", "verify", "--proof", proof}, common...)...)
}

// demoSnapDeals runs SnapDeals on a second, CC (all-zero) sector: seal it,
// update encode it with the sample, update vanilla, its TEST parameters
// (generated once, then reused), update prove and update verify.
func demoSnapDeals(c *cli.Context, ctx context.Context, dir, sample, params, backend string, run *demoUpdateRun) error {
	base := filepath.Join(dir, "snapdeals")
	if err := os.Mkdir(base, 0o755); err != nil {
		return internalError(fmt.Errorf("demo: %w", fileError(err)))
	}
	zeros := filepath.Join(base, "cc.dat")
	if err := writeFileAtomic(zeros, make([]byte, len(demoSample))); err != nil {
		return internalError(fmt.Errorf("demo: %w", fileError(err)))
	}
	key, updated, vanilla := filepath.Join(base, "sector-key"), filepath.Join(base, "updated"), filepath.Join(base, "vanilla")
	if err := demoStep(c, ctx, &run.Seal, "seal", "--sector-size", demoSize, "--data", zeros, "--out", key,
		"--miner", demoMiner, "--sector", demoCCSector, "--ticket", demoTicket, "--seed", demoSeed); err != nil {
		return err
	}
	if err := demoStep(c, ctx, &run.Encode, "update", "encode", "--sector-size", demoSize, "--sector-key", key, "--data", sample, "--out", updated); err != nil {
		return err
	}
	comms := []string{"--comm-r-old", run.Encode.CommROld, "--comm-r-new", run.Encode.CommRNew, "--comm-d-new", run.Encode.CommDNew}
	if err := demoStep(c, ctx, &run.Vanilla, append([]string{"update", "vanilla", "--sector-size", demoSize, "--sector-key", key, "--updated", updated, "--out", vanilla}, comms...)...); err != nil {
		return err
	}
	if err := demoStep(c, ctx, &run.Params, "params", "generate", "--circuit", circuitUpdate, "--sector-size", demoSize, "--seed", demoParamsSeed, "--out", params, "--reuse"); err != nil {
		return err
	}
	common := append([]string{"--sector-size", demoSize, "--params-dir", params}, comms...)
	proof := filepath.Join(base, "proof")
	if err := demoStep(c, ctx, &run.Prove, append([]string{"update", "prove", "--backend", backend, "--vanilla", vanilla, "--out", proof}, common...)...); err != nil {
		return err
	}
	return demoStep(c, ctx, &run.Verify, append([]string{"update", "verify", "--proof", proof}, common...)...)
}

// demoDir returns the demo's working directory: out (created if missing; it must be empty),
// or a new directory in $TMPDIR. cleanup removes what the demo wrote there and the
// directories it created.
func demoDir(out string) (dir string, cleanup func(), err error) {
	if out == "" {
		dir, err := os.MkdirTemp("", "cuseal-demo-")
		if err != nil {
			return "", nil, internalError(fmt.Errorf("demo: %w", fileError(err)))
		}
		return dir, func() { os.RemoveAll(dir) }, nil
	}
	removeCreated, err := checkEmptyOutDir(out)
	if err != nil {
		return "", nil, err
	}
	// The directory was empty: everything in it at cleanup is the demo's.
	return out, func() {
		if entries, err := os.ReadDir(out); err == nil {
			for _, e := range entries {
				os.RemoveAll(filepath.Join(out, e.Name()))
			}
		}
		removeCreated()
	}, nil
}

// demoStep runs one cuseal command as the command line would (its flags, checks, progress on
// stderr and warnings are the command's own), with --json, and decodes its result into res.
// Its error keeps the command's exit code, prefixed "demo: COMMAND:".
func demoStep(c *cli.Context, ctx context.Context, res any, args ...string) error {
	argv := []string{c.App.Name}
	if lvl := c.String("log-level"); lvl != "" {
		argv = append(argv, "--log-level", lvl)
	}
	argv = append(append(argv, args...), "--json")
	var stdout bytes.Buffer
	err := newApp(&stdout, c.App.ErrWriter).RunContext(ctx, argv)
	step := args[0]
	if step == "params" || step == "post" || step == "update" {
		step += " " + args[1]
	}
	if stdout.Len() > 0 {
		if jerr := json.Unmarshal(stdout.Bytes(), res); jerr != nil && err == nil {
			err = internalError(fmt.Errorf("its --json output: %w", jerr))
		}
	}
	if err == nil {
		return nil
	}
	return demoStepError(step, err)
}

// demoStepError prefixes a step's error with "demo: STEP: " (once: errors
// that already start with the step's name keep theirs), with its exit code.
func demoStepError(step string, err error) error {
	code := exitInternal
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
	}
	if strings.HasPrefix(err.Error(), step+":") {
		return &exitError{code: code, err: fmt.Errorf("demo: %w", err)}
	}
	return &exitError{code: code, err: fmt.Errorf("demo: %s: %w", step, err)}
}

// demoTimings is the demo's table: each step's phases, in order, then the total.
func demoTimings(out *demoOutput) []phaseTiming {
	params := "params: generate (TEST ONLY)"
	if out.Params.Reused {
		params = "params: reuse cached (TEST ONLY)"
	}
	rows := []phaseTiming{
		{"seal: PC1", out.Seal.PC1Seconds},
		{"seal: PC2", out.Seal.PC2Seconds},
		{"seal: C1", out.Seal.C1Seconds},
		{params, out.Params.Seconds},
	}
	for _, t := range out.Commit2.Timings {
		rows = append(rows, phaseTiming{"commit2: " + t.Phase, t.Seconds})
	}
	rows = append(rows, phaseTiming{"verify", out.Verify.Seconds})
	for _, k := range []struct {
		name string
		run  *demoPoStRun
	}{{"winning", &out.PoSt.Winning}, {"window", &out.PoSt.Window}} {
		params := "params: " + k.name + "-post generate (TEST ONLY)"
		if k.run.Params.Reused {
			params = "params: " + k.name + "-post reuse cached (TEST ONLY)"
		}
		rows = append(rows, phaseTiming{params, k.run.Params.Seconds}, phaseTiming{"post vanilla: " + k.name, k.run.Vanilla.Seconds},
			phaseTiming{"post " + k.name + ": prove+verify", k.run.Prove.Seconds}, phaseTiming{"post verify: " + k.name, k.run.Verify.Seconds})
	}
	if u := out.SnapDeals; u != nil {
		params := "params: update generate (TEST ONLY)"
		if u.Params.Reused {
			params = "params: update reuse cached (TEST ONLY)"
		}
		rows = append(rows, phaseTiming{"snapdeals: seal CC sector", u.Seal.PC1Seconds + u.Seal.PC2Seconds + u.Seal.C1Seconds},
			phaseTiming{"update encode", u.Encode.Seconds}, phaseTiming{"update vanilla", u.Vanilla.Seconds}, phaseTiming{params, u.Params.Seconds},
			phaseTiming{"update prove: prove+verify", u.Prove.Seconds}, phaseTiming{"update verify", u.Verify.Seconds})
	}
	return append(rows, phaseTiming{"demo: total", out.Seconds})
}
