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

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

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

// r1csDigest synthesizes c's blank circuit (one partition) of the given
// shape into a cs.R1CSStream and returns its cuseal-r1cs-v1 digest (the
// R1CS as the prover sees it, per-input rows included) without recording
// it: what decides whether existing test parameters are reused.
func r1csDigest(ctx context.Context, c Circuit, shape cs.SizeHint) ([32]byte, error) {
	stream := cs.NewR1CSStream(shape.Inputs, shape.Aux, shape.Constraints+shape.Inputs)
	if err := c.BlankCircuit().Synthesize(ctx, stream); err != nil {
		return [32]byte{}, fmt.Errorf("porep: synthesize %s: %w", c.ProofName(), err)
	}
	d, err := stream.Digest()
	if err != nil {
		return [32]byte{}, fmt.Errorf("porep: %s: %w", c.ProofName(), err)
	}
	return d, nil
}

// teeSystem synthesizes one circuit into two constraint systems at once
// (both number variables alike): the streamed setup and the digest.
type teeSystem struct{ a, b cs.ConstraintSystem }

func (t teeSystem) Alloc(v *fr.Element) cs.Variable {
	t.b.Alloc(v)
	return t.a.Alloc(v)
}

func (t teeSystem) AllocInput(v *fr.Element) cs.Variable {
	t.b.AllocInput(v)
	return t.a.AllocInput(v)
}

func (t teeSystem) Enforce(a, b, c cs.LC) {
	t.a.Enforce(a, b, c)
	t.b.Enforce(a, b, c)
}

func (t teeSystem) Push(string) {}

func (t teeSystem) Pop() {}

// GenerateTestParams writes INSECURE Groth16 parameters for circuit c
// (PoRep, PoSt, SnapDeals: `cuseal params generate --circuit`) into dir
// under the Filecoin file names (.params, .vk, .meta recording
// c.ProofSectorSize()) so that porep's provers and verifiers find them with
// porep.WithParamsDir(dir), with toxic waste derived from seed
// (groth16.ToxicWasteFromSeed). The blank circuit (c.SizeHint's shape) is
// synthesized once into groth16.StreamSetup, which evaluates it at τ
// constraint by constraint, and into a cs.R1CSStream for its digest; no
// R1CS is recorded, and the queries are computed and written chunk by
// chunk (memory: EstimateSetupMemory). The bytes are groth16.Setup's of the
// recorded R1CS. A stamp file "<stem>.cuseal-test.json" names the seed and
// R1CS digest; when it and the parameter files already match, nothing is
// regenerated (Reused; the digest is computed by a synthesis of its own
// first). When parameter files for c exist in dir and the stamp records
// another seed or R1CS digest, or there is no stamp, it overwrites nothing
// and returns a *ParamsConflictError (errors.Is ErrParamsConflict). Files
// are written atomically (temporary file + rename), the stamp last; on an
// error or cancellation (WithContext: checked between chunks of queries)
// none of this run's files stay.
//
// FOR TESTS ONLY: anyone who knows seed can forge proofs. docs/BENCHMARKS.md
// has the times and peak memory (2 KiB PoRep: 2.7M constraints, domain
// 2^22, a 1.1 GB .params).
//
// Options: WithProgress receives an Event naming the stage as each stage
// starts: "checking the circuit's digest" (only when files exist),
// "synthesizing the circuit at τ", "writing the queries".
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
	// The seed is checked before the (slow) synthesis, the digest after.
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
	shape, err := c.SizeHint()
	if err != nil {
		return nil, fmt.Errorf("porep: test params: %s: %w", c.ProofName(), err)
	}
	out.Constraints, out.Inputs, out.Aux = shape.Constraints+shape.Inputs, shape.Inputs, shape.Aux
	t0 := time.Now()
	if len(existing) > 0 {
		// Same seed and circuit: reuse them if the digest matches too.
		stage("checking the circuit's digest")
		d, err := r1csDigest(st.ctx, c, shape)
		if err != nil {
			return nil, err
		}
		out.R1CSDigest = d
		if dh := hex.EncodeToString(d[:]); old.R1CSDigest != dh {
			return nil, &ParamsConflictError{Path: out.StampPath, StampSeed: old.Seed, StampDigest: old.R1CSDigest,
				Reason: fmt.Sprintf("was made for R1CS digest %s, this circuit's is %s", old.R1CSDigest, dh)}
		}
		_, e1 := os.Stat(pp)
		_, e2 := os.Stat(vp)
		if e1 == nil && e2 == nil {
			out.Reused = true
			return out, nil
		}
		// Same seed, circuit and digest: regenerating writes the same bytes.
	}
	// Remove a stale stamp first: a crash below must not leave a stamp
	// vouching for other files.
	if err := os.Remove(out.StampPath); err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("porep: test params: %w", err)
	}
	stage("synthesizing the circuit at τ")
	setup, err := groth16.NewStreamSetup(shape, groth16.ToxicWasteFromSeed(seed))
	if err != nil {
		return nil, fmt.Errorf("porep: test params: %s: %w", c.ProofName(), err)
	}
	defer setup.Close()
	stream := cs.NewR1CSStream(shape.Inputs, shape.Aux, shape.Constraints+shape.Inputs)
	if err := c.BlankCircuit().Synthesize(st.ctx, teeSystem{setup, stream}); err != nil {
		return nil, fmt.Errorf("porep: test params: synthesize %s: %w", c.ProofName(), err)
	}
	if err := setup.Finish(); err != nil {
		return nil, fmt.Errorf("porep: test params: %s: %w", c.ProofName(), err)
	}
	if out.R1CSDigest, err = stream.Digest(); err != nil {
		return nil, fmt.Errorf("porep: test params: %s: %w", c.ProofName(), err)
	}
	log.Info("test params: circuit evaluated at tau", "circuit", c.ProofName(), "constraints", out.Constraints, "took", time.Since(t0))
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
	t1 := time.Now()
	stage("writing the queries")
	if err := writeTestParamsFiles(st.ctx, out, c.ProofSectorSize(), setup, stampJSON); err != nil {
		return nil, err
	}
	log.Info("test params: written", "params", pp, "queries took", time.Since(t1), "took", time.Since(t0))
	return out, nil
}

// writeTestParamsFiles writes the .params (streamed from setup), .vk,
// .meta and stamp files of out, each atomically, the stamp last. On an
// error it removes the ones it wrote: parameter files without their stamp
// would block every later run.
func writeTestParamsFiles(ctx context.Context, out *TestParams, sectorSize uint64, setup *groth16.StreamSetup, stampJSON []byte) (err error) {
	pp, vp, mp := out.ParamsPath, out.VKPath, out.MetaPath
	defer func() {
		if err != nil {
			for _, p := range []string{pp, vp, mp, out.StampPath} {
				os.Remove(p)
			}
		}
	}()
	vk, err := setup.WriteParamsFile(ctx, pp)
	if err != nil {
		return fmt.Errorf("porep: test params: %w", err)
	}
	if err := groth16.WriteVerifyingKeyFile(vp, vk); err != nil {
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
	labelConstraints    = 522_269
	labelParentCost     = 256 // per parent label fed into the label's SHA-256
	commDLevelCost      = 45_382
	columnWorkBound     = 14*(598+5_302) + 598 + 2*5_302 + 65 + 1 + 2
	topLevelConstraints = 571
	// setupBaseBytes is GenerateTestParams' memory beyond
	// groth16.StreamSetupMemory: the Go runtime and binary, the blank
	// circuit's synthesis (16.5 MB of RSS for a 32 GiB PoRep partition
	// into a cs.R1CSStream alone) and the Go heap's slack beside the
	// tables: the rest of the measured peak RSS of a 2 KiB PoRep
	// generation (438,816 KiB; docs/BENCHMARKS.md, "Test-parameter
	// generation").
	setupBaseBytes = 47 << 20
)

// EstimateTestParamsMemory estimates, from cfg's circuit shape and without
// synthesizing it, the number of constraints of one partition and the peak
// memory in bytes GenerateTestParams needs for it (EstimateSetupMemory,
// with one variable per constraint: a PoRep circuit has ~0.1% fewer aux
// variables than constraints). The constraint count follows
// docs/porep-circuit.md §4.6 (exact at 32 GiB: 130.3M; ~4% high at 2 KiB).
// 32 GiB comes out at 12.7 GB.
func EstimateTestParamsMemory(cfg *stacked.SectorConfig) (constraints int, bytes uint64) {
	depthD := 0
	for n := cfg.Nodes; n > 1; n >>= 1 {
		depthD++
	}
	perChallenge := depthD*commDLevelCost + columnWorkBound +
		cfg.Layers*labelConstraints + (6+14*(cfg.Layers-1))*labelParentCost
	constraints = cfg.ChallengesPerPartition*perChallenge + topLevelConstraints
	return constraints, EstimateSetupMemory(cs.SizeHint{Constraints: constraints, Aux: constraints, Inputs: 1})
}

// EstimateSetupMemory is the peak memory in bytes of GenerateTestParams
// for a circuit of the given shape (cs.SizeHint: Inputs with ONE, Aux):
// groth16.StreamSetupMemory — 96 bytes per variable for u, v and the l/ic
// scalars with the G1 fixed-base table (at most 101 MB), or 32 bytes per
// variable with the G2 table (at most 1.41 GB), whichever is more, and
// ~40 MB of query chunks and scratch — and setupBaseBytes. The domain
// enters only through the table's size: neither the R1CS nor a
// domain-sized vector is ever held.
func EstimateSetupMemory(shape cs.SizeHint) uint64 {
	return groth16.StreamSetupMemory(shape) + setupBaseBytes
}
