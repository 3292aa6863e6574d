// SPDX-License-Identifier: Apache-2.0 OR MIT

package paramfile

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/cuseal/cuseal/internal/atomicfile"
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/stacked"
)

// TestParams describes parameters written by GenerateTestParams.
type TestParams struct {
	// ParamsPath, VKPath and MetaPath are the files under their Filecoin
	// names (stacked.SectorConfig.ParameterPaths); StampPath records the
	// seed and R1CS digest they were generated from.
	ParamsPath, VKPath, MetaPath, StampPath string
	// R1CSDigest is the cuseal-r1cs-v1 digest of the circuit (docs/digests.md §1).
	R1CSDigest [32]byte
	// Reused is true when matching files were already present.
	Reused bool
	// Constraints (per-input rows included), Inputs (ONE included), Aux.
	Constraints, Inputs, Aux int
}

// TestStamp is the content of "<stem>.cuseal-test.json", the file
// GenerateTestParams writes next to the parameters it made: what they are
// (Warning), for which circuit (stacked.SectorConfig.ParameterIdentifier),
// from which toxic-waste seed and R1CS digest (both hex).
type TestStamp struct {
	Warning    string `json:"warning"`
	Circuit    string `json:"circuit"`
	Seed       string `json:"seed"`
	R1CSDigest string `json:"r1cs_digest"`
}

// ErrParamsConflict is wrapped by the error GenerateTestParams returns when
// the target directory already holds parameter files for the circuit that
// were not made from the same seed and R1CS (another seed, another circuit,
// or no stamp at all: production parameters, say).
var ErrParamsConflict = errors.New("porep: test params: existing parameters do not match")

// ParamsConflictError says which existing file GenerateTestParams refused to
// overwrite and what its stamp records. It unwraps to ErrParamsConflict.
type ParamsConflictError struct {
	// Path is the stamp file, or the parameter file when there is no stamp.
	Path string
	// StampSeed and StampDigest are the stamp's seed and R1CS digest (hex);
	// empty when there is no readable stamp.
	StampSeed, StampDigest string
	// Reason says what does not match, e.g. "records seed 07… for …".
	Reason string
}

func (e *ParamsConflictError) Error() string {
	return fmt.Sprintf("porep: test params: %s %s; refusing to overwrite those parameters", e.Path, e.Reason)
}

func (e *ParamsConflictError) Unwrap() error { return ErrParamsConflict }

// ReadTestStamp reads and parses a "<stem>.cuseal-test.json" stamp; one
// without a seed or R1CS digest is an error.
func ReadTestStamp(path string) (*TestStamp, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var st TestStamp
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if st.Seed == "" || st.R1CSDigest == "" {
		return nil, fmt.Errorf("%s: no seed or r1cs_digest", path)
	}
	return &st, nil
}

// recordR1CS synthesizes c's blank circuit (one partition) into a
// cs.Recorder and returns the R1CS as the prover sees it (per-input rows
// included): the first stage of GenerateTestParams, what the parameters
// are generated from.
func recordR1CS(c Circuit) (*cs.R1CS, error) {
	rec := cs.NewRecorder()
	if err := c.BlankCircuit().Synthesize(context.Background(), rec); err != nil {
		return nil, fmt.Errorf("porep: record %s: %w", c.ProofName(), err)
	}
	return rec.R1CS(), nil
}

// GenerateTestParams writes INSECURE Groth16 parameters for circuit c
// (PoRep, PoSt, SnapDeals: `cuseal params generate --circuit`) into dir
// under the Filecoin file names (.params, .vk, .meta recording
// c.ProofSectorSize()) so that porep's provers and verifiers find them with
// porep.WithParamsDir(dir): the blank circuit is recorded (recordR1CS) and
// groth16.Setup runs with toxic waste derived from seed
// (groth16.ToxicWasteFromSeed). A stamp file "<stem>.cuseal-test.json"
// names the seed and R1CS digest; when it and the parameter files already
// match, nothing is regenerated (Reused). When parameter files for c exist
// in dir and the stamp records another seed or R1CS digest, or there is no
// stamp, it overwrites nothing and returns a *ParamsConflictError
// (errors.Is ErrParamsConflict). Files are written atomically (temporary
// file + rename), the stamp last.
//
// FOR TESTS ONLY: anyone who knows seed can forge proofs. Setup for a
// 2 KiB sector (2.7M constraints, domain 2^22) takes about a minute on two
// cores and writes about 1.1 GB (.params); docs/BENCHMARKS.md has the times.
//
// Options: WithProgress receives an Event naming the stage as each stage
// starts: "recording the circuit", "setup (powers of tau, queries)",
// "writing the files".
func GenerateTestParams(dir string, c Circuit, seed [32]byte, log *slog.Logger, opts ...Option) (*TestParams, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	st := newSettings(opts)
	stage := func(name string) { st.progress(Event{Stage: name}) }
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("porep: test params: %w", err)
	}
	pp, vp, mp := c.ParameterPaths(dir)
	out := &TestParams{ParamsPath: pp, VKPath: vp, MetaPath: mp, StampPath: TestStampPath(dir, c)}
	// Never overwrite parameters made from another seed or circuit (or of
	// unknown origin): every proof made with them would stop verifying.
	// The seed is checked before the (slow) recording, the digest after.
	var existing []string
	for _, p := range []string{pp, vp, mp} {
		if _, err := os.Lstat(p); err == nil {
			existing = append(existing, p)
		}
	}
	old, err := ReadTestStamp(out.StampPath)
	if len(existing) > 0 {
		switch {
		case err != nil:
			return nil, &ParamsConflictError{Path: existing[0], Reason: fmt.Sprintf("has no readable stamp (%v)", err)}
		case old.Seed != hex.EncodeToString(seed[:]) || old.Circuit != c.ParameterIdentifier():
			return nil, &ParamsConflictError{Path: out.StampPath, StampSeed: old.Seed, StampDigest: old.R1CSDigest,
				Reason: fmt.Sprintf("records seed %s for %s", old.Seed, old.Circuit)}
		}
	}
	t0 := time.Now()
	stage("recording the circuit")
	r1cs, err := recordR1CS(c)
	if err != nil {
		return nil, err
	}
	out.R1CSDigest = r1cs.Digest()
	out.Constraints, out.Inputs, out.Aux = r1cs.NumConstraints(), r1cs.NumInputs, r1cs.NumAux
	log.Info("test params: circuit recorded", "circuit", c.ProofName(), "constraints", out.Constraints, "took", time.Since(t0))
	stamp := TestStamp{
		Warning:    "TEST PARAMETERS: toxic waste derived from the seed (cuseal-toxic-v1); anyone knowing it can forge proofs",
		Circuit:    c.ParameterIdentifier(),
		Seed:       hex.EncodeToString(seed[:]),
		R1CSDigest: hex.EncodeToString(out.R1CSDigest[:]),
	}
	stampJSON, err := json.MarshalIndent(stamp, "", "  ")
	if err != nil {
		return nil, err
	}
	if old != nil && old.Seed == stamp.Seed && old.Circuit == stamp.Circuit && old.R1CSDigest == stamp.R1CSDigest {
		_, e1 := os.Stat(pp)
		_, e2 := os.Stat(vp)
		if e1 == nil && e2 == nil {
			out.Reused = true
			return out, nil
		}
		// Same seed and circuit: regenerating writes the same bytes.
	} else if len(existing) > 0 {
		return nil, &ParamsConflictError{Path: out.StampPath, StampSeed: old.Seed, StampDigest: old.R1CSDigest,
			Reason: fmt.Sprintf("was made for R1CS digest %s, this circuit's is %s", old.R1CSDigest, stamp.R1CSDigest)}
	}
	// Remove a stale stamp first: a crash below must not leave a stamp
	// vouching for other files.
	if err := os.Remove(out.StampPath); err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("porep: test params: %w", err)
	}
	t1 := time.Now()
	stage("setup (powers of tau, queries)")
	params, err := groth16.Setup(r1cs, groth16.ToxicWasteFromSeed(seed))
	if err != nil {
		return nil, fmt.Errorf("porep: test params: %w", err)
	}
	r1cs = nil
	log.Info("test params: setup done", "circuit", c.ProofName(), "took", time.Since(t1))
	stage("writing the files")
	if err := writeTestParamsFiles(out, c.ProofSectorSize(), params, stampJSON); err != nil {
		return nil, err
	}
	log.Info("test params: written", "params", pp, "took", time.Since(t0))
	return out, nil
}

// writeTestParamsFiles writes the .params, .vk, .meta and stamp files of out,
// each atomically, the stamp last. On an error it removes the ones it wrote:
// parameter files without their stamp would block every later run.
func writeTestParamsFiles(out *TestParams, sectorSize uint64, params *groth16.Params, stampJSON []byte) (err error) {
	pp, vp, mp := out.ParamsPath, out.VKPath, out.MetaPath
	defer func() {
		if err != nil {
			for _, p := range []string{pp, vp, mp, out.StampPath} {
				os.Remove(p)
			}
		}
	}()
	if err := groth16.WriteParamsFile(pp, params); err != nil {
		return fmt.Errorf("porep: test params: %w", err)
	}
	if err := groth16.WriteVerifyingKeyFile(vp, &params.VK); err != nil {
		return fmt.Errorf("porep: test params: %w", err)
	}
	// Parameter files are shared read-only data (the temporary files they
	// were staged in are private).
	for _, p := range []string{pp, vp} {
		if err := os.Chmod(p, 0o644); err != nil {
			return fmt.Errorf("porep: test params: %w", err)
		}
	}
	// rust-fil-proofs CacheEntryMetadata.
	meta, _ := json.Marshal(map[string]uint64{"sector_size": sectorSize})
	if err := writeAtomic(mp, meta); err != nil {
		return err
	}
	if err := writeAtomic(out.StampPath, stampJSON); err != nil {
		return err
	}
	return nil
}

// TestStampPath is the test stamp of c's parameters in dir:
// "<stem>.cuseal-test.json" beside the .params.
func TestStampPath(dir string, c Circuit) string {
	return filepath.Join(dir, c.ParameterFileStem()+".cuseal-test.json")
}

// CleanPartialTestParams removes what an interrupted GenerateTestParams
// for c left in dir: its temporary files (atomicfile's ".<name>.tmp*", and
// ".tmp-<name>-*" as cuseal before it named some) and, when no stamp was written, the
// parameter files of this run. Call it only for a dir that held none of
// c's parameter files before the run; it is for a signal handler (a
// killed process cannot clean up after itself).
func CleanPartialTestParams(dir string, c Circuit) {
	pp, vp, mp := c.ParameterPaths(dir)
	stamp := TestStampPath(dir, c)
	for _, p := range []string{pp, vp, mp, stamp} {
		for _, pat := range []string{atomicfile.TempGlob(p), filepath.Join(dir, ".tmp-"+filepath.Base(p)+"-*")} {
			tmps, _ := filepath.Glob(pat)
			for _, t := range tmps {
				os.Remove(t)
			}
		}
	}
	if _, err := os.Stat(stamp); err != nil {
		for _, p := range []string{pp, vp, mp} {
			os.Remove(p)
		}
	}
}

// writeAtomic writes data to path through internal/atomicfile.
func writeAtomic(path string, data []byte) error {
	if err := atomicfile.WriteBytes(path, data); err != nil {
		return fmt.Errorf("porep: write %s: %w", path, err)
	}
	return nil
}

// Constraint costs of the Stacked-DRG circuit, per challenge (docs/porep-circuit.md
// §4.6, the 32 GiB breakdown): one SHA-256 label with its parents, one
// comm_d path level, and the column/tree work (14 parent columns, c_x and two
// Poseidon paths) at its 32 GiB size, an upper bound for smaller trees.
const (
	labelConstraints     = 522_269
	labelParentCost      = 256 // per parent label fed into the label's SHA-256
	commDLevelCost       = 45_382
	columnWorkBound      = 14*(598+5_302) + 598 + 2*5_302 + 65 + 1 + 2
	topLevelConstraints  = 571
	setupBytesPerRow     = 720 // see EstimateTestParamsMemory
	setupBytesPerDomainI = 160
)

// EstimateTestParamsMemory estimates, from cfg's circuit shape and without
// synthesizing it, the number of constraints of one partition and the peak
// memory in bytes GenerateTestParams needs for it. The constraint count
// follows docs/porep-circuit.md §4.6 (exact at 32 GiB: 130.3M; ~4% high at
// 2 KiB). The bytes count the recorded R1CS (~5.6 non-zeros per row at 36
// bytes each) and what groth16.Setup holds at once: the u, v, w and l/ic
// scalars and the nonZero copies (~5 field elements per row), the l, a,
// b_g1 and b_g2 query points (~290 bytes per row), and over the FFT domain
// (next power of two) the powers of τ, the h scalars and the h points
// (160 bytes per element), with the Go heap's slack. Calibrated on a
// measured 2 KiB run (docs/BENCHMARKS.md, "CPU: end-to-end C2, 2 KiB");
// 32 GiB comes out at ~115 GB.
func EstimateTestParamsMemory(cfg *stacked.SectorConfig) (constraints int, bytes uint64) {
	depthD := 0
	for n := cfg.Nodes; n > 1; n >>= 1 {
		depthD++
	}
	perChallenge := depthD*commDLevelCost + columnWorkBound +
		cfg.Layers*labelConstraints + (6+14*(cfg.Layers-1))*labelParentCost
	constraints = cfg.ChallengesPerPartition*perChallenge + topLevelConstraints
	return constraints, EstimateSetupMemory(constraints)
}

// EstimateSetupMemory is the peak memory in bytes of a test-parameter
// setup of a circuit of the given number of constraints (the bytes of
// EstimateTestParamsMemory).
func EstimateSetupMemory(constraints int) uint64 {
	m := uint64(1)
	for m < uint64(constraints) {
		m <<= 1
	}
	return uint64(constraints)*setupBytesPerRow + m*setupBytesPerDomainI
}
