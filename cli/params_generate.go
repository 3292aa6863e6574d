// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cuseal/cuseal/internal/atomicfile"
	"github.com/cuseal/cuseal/porep/aggregate"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/stacked"
)

// defaultParamsSeed is the toxic-waste seed `params generate` uses without --seed: the one
// cuseal's own tests use, so the demo, the CLI test and the porep tests share one set of
// cached 2 KiB test parameters. It is public, like every test seed.
const defaultParamsSeed = "cuseal-porep-test"

// notForProduction is printed, to stderr, by every command that writes test parameters.
const notForProduction = `!! NOT FOR PRODUCTION: test parameters from a publicly known seed. Anyone can forge
!! proofs that verify against them. Use them for tests and benchmarks only, never to seal
!! real sectors; production parameters come from Filecoin's trusted setup (paramfetch).`

func paramsGenerateCommand() *cli.Command {
	return &cli.Command{
		Name:  "generate",
		Usage: "generate INSECURE test parameters for a sector size, under the Filecoin file names",
		Description: "Synthesizes the blank circuit of the sector size, evaluating it at tau constraint by\n" +
			"constraint (no R1CS is recorded), and writes a Groth16 setup with toxic waste derived\n" +
			"from --seed (cuseal-toxic-v1) query by query, chunk by chunk. The files (.params, .vk,\n" +
			".meta and a .cuseal-test.json stamp) go into --out under the names commit2 and verify\n" +
			"look for. A 2KiB PoRep setup takes 1-3 minutes on 2 cores, peaks at ~0.45 GB of memory\n" +
			"and writes a 1.1 GB .params file; memory is 96 bytes per circuit variable plus up to\n" +
			"~1.5 GB. A setup whose estimated memory need exceeds MemAvailable is refused unless\n" +
			"--force (32GiB PoRep needs ~12.7 GB). --reuse reuses only parameters whose stamp\n" +
			"records the same seed and circuit digest; others are never overwritten. --out may not be\n" +
			"the production parameter directory (/var/tmp/filecoin-proof-parameters, or where\n" +
			"FIL_PROOFS_PARAMETER_CACHE points) unless --force.\n\n" + notForProduction,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "sector-size", Usage: "sector size (2KiB, 8MiB, ...); required unless --srs"},
			circuitFlag(),
			&cli.BoolFlag{Name: "srs", Usage: "write an INSECURE SnarkPack SRS (" + aggregate.SRSFileName + ") instead of Groth16 parameters"},
			&cli.IntFlag{Name: "srs-size", Usage: "with --srs: the most proofs it can aggregate (a power of two)", Value: defaultSRSSize},
			&cli.StringFlag{Name: "out", Usage: "output `DIR` (created if missing)", Required: true},
			&cli.StringFlag{Name: "seed", Usage: "toxic-waste seed: a number N (no leading zero), 64 hex digits (0x optional), or a short string of 1 to 32 bytes", Value: defaultParamsSeed},
			&cli.BoolFlag{Name: "reuse", Usage: "reuse matching test parameters already in --out instead of refusing"},
			&cli.BoolFlag{Name: "force", Usage: "run even when the estimated memory need exceeds the available memory, or --out is a production parameter directory"},
			&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON object"},
		},
		Action: paramsGenerateAction,
	}
}

// paramsGenerateOutput is what `cuseal params generate --json` prints.
type paramsGenerateOutput struct {
	RegisteredProof string  `json:"registered_proof"`
	Params          string  `json:"params"`
	VK              string  `json:"vk"`
	Meta            string  `json:"meta"`
	Stamp           string  `json:"stamp"`
	Seed            string  `json:"seed"` // hex
	R1CSDigest      string  `json:"r1cs_digest"`
	Constraints     int     `json:"constraints"`
	Inputs          int     `json:"inputs"`
	Aux             int     `json:"aux"`
	Reused          bool    `json:"reused"`
	Seconds         float64 `json:"seconds"`
	NotForProd      bool    `json:"not_for_production"`
}

func paramsGenerateAction(c *cli.Context) error {
	if c.Bool("srs") {
		if c.IsSet("sector-size") {
			return usageErrorf("--sector-size does not apply to --srs (a SnarkPack SRS serves every sector size; its size is --srs-size)")
		}
		return paramsGenerateSRS(c)
	}
	if !c.IsSet("sector-size") {
		return usageErrorf("--sector-size is required (or --srs for a SnarkPack SRS)")
	}
	tc, _, err := testCircuitFor(c.String("circuit"), c.String("sector-size"))
	if err != nil {
		return err
	}
	seed, err := parseParamsSeed(c.String("seed"))
	if err != nil {
		return inputError(err)
	}
	dir := c.String("out")
	if reason := productionDirReason(dir); reason != "" && !c.Bool("force") {
		return usageErrorf("--out %s: refusing to write TEST parameters there: %s, and proofs made with test parameters are rejected on chain; choose another --out (or pass --force)", dir, reason)
	}
	if !c.Bool("force") {
		if err := checkSetupMemory(tc); err != nil {
			return err
		}
	}
	removeCreated, err := mkdirAllTracked(dir)
	if err != nil {
		return inputError(fmt.Errorf("--out: %w", fileError(err)))
	}
	// A failed run leaves no directory it created behind (removeCreated
	// removes only empty directories).
	defer func() {
		if err != nil {
			removeCreated()
		}
	}()
	// Ctrl-C or SIGTERM during the setup removes the temporary files (up to 1.1 GB at 2KiB)
	// and the directory this run created, and returns; the process then exits, which ends the
	// setup still running in its goroutine (told through ctx, it stops between chunks).
	pp, vp, mp := tc.ParameterPaths(dir)
	preexisting := false
	for _, p := range []string{pp, vp, mp} {
		if _, err := os.Lstat(p); err == nil {
			preexisting = true
		}
	}
	ctx, stop := interruptible(c)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- paramsGenerate(ctx, c, tc, seed, dir) }()
	select {
	case err = <-done:
		return err
	case <-ctx.Done():
		if !preexisting {
			paramfile.CleanPartialTestParams(dir, tc)
		}
		os.Remove(genLockPath(dir, tc)) // the generation still holds it: the process ends next
		removeCreated()
		err = internalError(fmt.Errorf("params generate: interrupted (%v); removed its partial files", context.Cause(ctx)))
		return err
	}
}

// paramsGenerate runs `params generate` once the flags are checked and dir exists; ctx's end
// stops the generation between chunks (its partial files are removed).
func paramsGenerate(ctx context.Context, c *cli.Context, tc paramfile.Circuit, seed [32]byte, dir string) error {
	pp, vp, mp := tc.ParameterPaths(dir)
	if !(c.Bool("reuse") && allExist(pp, vp, paramfile.TestStampPath(dir, tc))) {
		// One run per circuit and directory at a time: two would both pass the check below
		// and the last rename would win, each reporting success.
		lock := genLockPath(dir, tc)
		release, held, err := lockFile(lock)
		switch {
		case held:
			return usageErrorf("--out %s: another `cuseal params generate` is writing %s's parameters there (it holds %s); run this one when it ends", dir, tc.ProofName(), filepath.Base(lock))
		case err != nil:
			return inputError(fmt.Errorf("--out: %w", fileError(err)))
		}
		defer release()
	}
	if !c.Bool("reuse") {
		for _, p := range []string{pp, vp, mp} {
			if _, err := os.Stat(p); err == nil {
				return usageErrorf("--out: %s exists; refusing to overwrite parameters (pass --reuse to reuse matching test parameters)", p)
			}
		}
	}
	// Probe for writability only when this run may write: with --reuse and the .params,
	// .vk and stamp all present, GenerateTestParams reuses them or refuses (a conflict),
	// and writes nothing. The probe's create + remove would change the directory's mtime,
	// which invalidates go test's cache for every package that reads the parameters
	// (./build.sh test runs this before go test on every run).
	if !(c.Bool("reuse") && allExist(pp, vp, paramfile.TestStampPath(dir, tc))) {
		if err := checkWritableDir(dir); err != nil {
			return err
		}
	}
	// A run killed mid-write (SIGKILL, OOM) leaves its temporary .params behind (47 GB at
	// 32 GiB PoRep); free the disk before this run needs it, and say so.
	for _, p := range []string{pp, vp, mp, paramfile.TestStampPath(dir, tc)} {
		if removed, n := atomicfile.SweepAbandoned(p); len(removed) > 0 {
			fmt.Fprintf(c.App.ErrWriter, "removed %s of %s (%s), left by a run that ended mid-write\n", countOf(len(removed), "abandoned temporary file"), filepath.Base(p), humanBytes(uint64(n)))
		}
	}
	jsonOut := c.Bool("json")
	bar := newPhaseProgress(c.App.ErrWriter, -1, fmt.Sprintf("%s test parameters", tc.ProofName()))
	start := time.Now()
	tp, err := paramfile.GenerateTestParams(dir, tc, seed, slog.Default(), paramfile.WithContext(ctx), paramfile.WithProgress(func(ev paramfile.Event) {
		bar.Phase(ev.Stage)
	}))
	bar.Done()
	if err == nil && !tp.Reused {
		// Once, when test parameters are written; a reuse only says so in its summary.
		fmt.Fprintln(c.App.ErrWriter, notForProduction)
	}
	var ce *paramfile.ParamsConflictError
	if errors.As(err, &ce) {
		what := "no stamp recording their seed"
		if ce.StampSeed != "" {
			what = fmt.Sprintf("seed %s, R1CS digest %s", describeSeedHex(ce.StampSeed), ce.StampDigest)
		}
		return usageErrorf("--out: %s: existing parameters (%s) do not match --seed %s; refusing to overwrite them (choose another --out)",
			ce.Path, what, describeSeedHex(hex.EncodeToString(seed[:])))
	}
	if err != nil {
		return internalError(err)
	}
	out := paramsGenerateOutput{
		RegisteredProof: tc.ProofName(),
		Params:          tp.ParamsPath,
		VK:              tp.VKPath,
		Meta:            tp.MetaPath,
		Stamp:           tp.StampPath,
		Seed:            hex.EncodeToString(seed[:]),
		R1CSDigest:      hex.EncodeToString(tp.R1CSDigest[:]),
		Constraints:     tp.Constraints,
		Inputs:          tp.Inputs,
		Aux:             tp.Aux,
		Reused:          tp.Reused,
		Seconds:         time.Since(start).Seconds(),
		NotForProd:      true,
	}
	if jsonOut {
		return writeJSON(c, out)
	}
	verb := "generated"
	if out.Reused {
		verb = "reused"
	}
	printf(c, "%s TEST parameters for %s (%d constraints, %d inputs, %d aux) in %.1fs — NOT FOR PRODUCTION\n",
		verb, tc.ProofName(), out.Constraints, out.Inputs, out.Aux, out.Seconds)
	printf(c, "  params: %s\n  vk:     %s\n  seed:   %s\n", out.Params, out.VK, out.Seed)
	return nil
}

// parseParamsSeed turns --seed into the 32-byte toxic-waste seed: 64 hex digits are the
// bytes themselves; a decimal number N is N as a little-endian u64 in the first 8 bytes; any
// other string of at most 32 bytes is its bytes, zero-padded (the tests' seeds are such
// strings).
func parseParamsSeed(s string) ([32]byte, error) {
	var seed [32]byte
	h, prefixed := strings.CutPrefix(strings.Replace(s, "0X", "0x", 1), "0x")
	if b, err := hex.DecodeString(h); err == nil && len(h) == 64 {
		copy(seed[:], b)
		return seed, nil
	}
	digits := s != "" && strings.Trim(s, "0123456789") == ""
	switch {
	case prefixed:
		return seed, fmt.Errorf("--seed %q: 0x takes all 64 hex digits of the seed (%d given)", s, len(h))
	case digits && len(s) > 1 && s[0] == '0':
		// "000102…" reads as hex bytes to a person and as a number to ParseUint.
		return seed, fmt.Errorf("--seed %q: a number with a leading zero is ambiguous: give the number without it, or all 64 hex digits of the seed", s)
	case !digits && len(s) >= 16 && strings.Trim(s, "0123456789abcdefABCDEF") == "":
		return seed, fmt.Errorf("--seed %q: hex digits, but not 64 of them: give all 64 hex digits of the seed (a string seed that looks like hex is refused as ambiguous)", s)
	}
	if n, err := strconv.ParseUint(s, 10, 64); err == nil {
		binary.LittleEndian.PutUint64(seed[:], n)
		return seed, nil
	} else if digits {
		return seed, fmt.Errorf("--seed %q: a number over 2^64−1", s)
	}
	if s == "" || len(s) > 32 {
		return seed, fmt.Errorf("--seed %q: want a number, 64 hex digits, or a string of 1 to 32 bytes", s)
	}
	copy(seed[:], s)
	return seed, nil
}

// testCircuitFor resolves --circuit and --sector-size into the circuit
// test parameters are generated for and its (estimated) constraint count:
// PoRep StackedDrg<size>V1_1, WinningPoSt StackedDrgWinning<size>V1,
// WindowPoSt StackedDrgWindow<size>V1_1 (the proofs Lotus and Curio use) or
// the update proof StackedDrg<size>V1.
func testCircuitFor(circuit, sectorSize string) (paramfile.Circuit, int, error) {
	spec, err := lookupCircuit("circuit", circuit)
	if err != nil {
		return nil, 0, err
	}
	cfg, err := configForSize[paramfile.Circuit](spec, sectorSize)
	if err != nil {
		return nil, 0, err
	}
	constraints, err := spec.constraints(cfg)
	if err != nil {
		return nil, 0, err
	}
	return cfg, constraints, nil
}

// describeSeedHex renders a 32-byte seed (hex) the way --seed would take it: a short
// string, a number, or the 64 hex digits.
func describeSeedHex(h string) string {
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != 32 {
		return strconv.Quote(h)
	}
	n := len(b)
	for n > 0 && b[n-1] == 0 {
		n--
	}
	if n <= 8 {
		var v [8]byte
		copy(v[:], b[:n])
		return strconv.FormatUint(binary.LittleEndian.Uint64(v[:]), 10)
	}
	printable := true
	for _, c := range b[:n] {
		printable = printable && c >= 0x21 && c < 0x7f
	}
	if printable {
		return strconv.Quote(string(b[:n]))
	}
	return h
}

// productionDirReason says why dir must not receive test parameters: it is rust-fil-proofs'
// default parameter directory, or the one FIL_PROOFS_PARAMETER_CACHE points to (where lotus,
// its workers and commit2 read parameters); "" otherwise. Paths are compared cleaned,
// absolute and with symbolic links resolved where they exist.
func productionDirReason(dir string) string {
	if sameDir(dir, stacked.DefaultParameterDir) {
		return fmt.Sprintf("it is the production parameter directory %s (rust-fil-proofs' default)", stacked.DefaultParameterDir)
	}
	if env := os.Getenv("FIL_PROOFS_PARAMETER_CACHE"); env != "" && sameDir(dir, env) {
		return fmt.Sprintf("FIL_PROOFS_PARAMETER_CACHE=%s points to it (where provers read their parameters)", env)
	}
	return ""
}

// sameDir reports whether a and b name the same directory.
func sameDir(a, b string) bool {
	norm := func(p string) string {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		return filepath.Clean(p)
	}
	return norm(a) == norm(b)
}

// genLockPath is the lock file a `params generate` of c into dir holds.
func genLockPath(dir string, c paramfile.Circuit) string {
	return filepath.Join(dir, "."+c.ParameterFileStem()+".generating")
}
