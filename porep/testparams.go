package porep

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

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
	// R1CSDigest is the cuseal-r1cs-v1 digest of the circuit (digests.md §1).
	R1CSDigest [32]byte
	// Reused is true when matching files were already present.
	Reused bool
	// Constraints (per-input rows included), Inputs (ONE included), Aux.
	Constraints, Inputs, Aux int
}

// testStamp is the content of "<stem>.cuseal-test.json".
type testStamp struct {
	Warning    string `json:"warning"`
	Circuit    string `json:"circuit"`
	Seed       string `json:"seed"`
	R1CSDigest string `json:"r1cs_digest"`
}

// RecordR1CS synthesizes cfg's blank circuit (one partition) into a
// cs.Recorder and returns the R1CS as the prover sees it (per-input rows
// included). This is what parameters for cfg are generated from.
func RecordR1CS(cfg *stacked.SectorConfig) (*cs.R1CS, error) {
	rec := cs.NewRecorder()
	if err := stacked.BlankCircuit(cfg).Synthesize(rec); err != nil {
		return nil, fmt.Errorf("porep: record %s: %w", cfg.Name, err)
	}
	return rec.R1CS(), nil
}

// GenerateTestParams writes INSECURE Groth16 parameters for cfg's circuit
// into dir under the Filecoin file names (.params, .vk, .meta) so that
// SealCommitPhase2 and VerifySeal find them with WithParamsDir(dir): the
// blank circuit is recorded (RecordR1CS) and groth16.Setup runs with toxic
// waste derived from seed (groth16.ToxicWasteFromSeed). A stamp file
// "<stem>.cuseal-test.json" names the seed and R1CS digest; when it and the
// parameter files already match, nothing is regenerated (Reused). Files are
// written atomically, the stamp last.
//
// FOR TESTS ONLY: anyone who knows seed can forge proofs. Setup for a
// 2 KiB sector (2.7M constraints, domain 2^22) takes minutes on a few
// cores and writes about 1.7 GB.
func GenerateTestParams(dir string, cfg *stacked.SectorConfig, seed [32]byte, log *slog.Logger) (*TestParams, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("porep: test params: %w", err)
	}
	pp, vp, mp := cfg.ParameterPaths(dir)
	out := &TestParams{ParamsPath: pp, VKPath: vp, MetaPath: mp,
		StampPath: filepath.Join(dir, cfg.ParameterFileStem()+".cuseal-test.json")}
	t0 := time.Now()
	r1cs, err := RecordR1CS(cfg)
	if err != nil {
		return nil, err
	}
	out.R1CSDigest = r1cs.Digest()
	out.Constraints, out.Inputs, out.Aux = r1cs.NumConstraints(), r1cs.NumInputs, r1cs.NumAux
	log.Info("test params: circuit recorded", "circuit", cfg.Name, "constraints", out.Constraints, "took", time.Since(t0))
	stamp := testStamp{
		Warning:    "TEST PARAMETERS: toxic waste derived from the seed (cuseal-toxic-v1); anyone knowing it can forge proofs",
		Circuit:    cfg.ParameterIdentifier(),
		Seed:       hex.EncodeToString(seed[:]),
		R1CSDigest: hex.EncodeToString(out.R1CSDigest[:]),
	}
	stampJSON, err := json.MarshalIndent(stamp, "", "  ")
	if err != nil {
		return nil, err
	}
	if old, err := os.ReadFile(out.StampPath); err == nil && bytes.Equal(old, stampJSON) {
		_, e1 := os.Stat(pp)
		_, e2 := os.Stat(vp)
		if e1 == nil && e2 == nil {
			out.Reused = true
			return out, nil
		}
	}
	// Remove a stale stamp first: a crash below must not leave a stamp
	// vouching for other files.
	if err := os.Remove(out.StampPath); err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("porep: test params: %w", err)
	}
	t1 := time.Now()
	params, err := groth16.Setup(r1cs, groth16.ToxicWasteFromSeed(seed))
	if err != nil {
		return nil, fmt.Errorf("porep: test params: %w", err)
	}
	r1cs = nil
	log.Info("test params: setup done", "circuit", cfg.Name, "took", time.Since(t1))
	if err := groth16.WriteParamsFile(pp, params); err != nil {
		return nil, fmt.Errorf("porep: test params: %w", err)
	}
	if err := groth16.WriteVerifyingKeyFile(vp, &params.VK); err != nil {
		return nil, fmt.Errorf("porep: test params: %w", err)
	}
	// Parameter files are shared read-only data (the temporary files they
	// were staged in are private).
	for _, p := range []string{pp, vp} {
		if err := os.Chmod(p, 0o644); err != nil {
			return nil, fmt.Errorf("porep: test params: %w", err)
		}
	}
	// rust-fil-proofs CacheEntryMetadata.
	meta, _ := json.Marshal(map[string]uint64{"sector_size": cfg.SectorSize})
	if err := writeAtomic(mp, meta); err != nil {
		return nil, err
	}
	if err := writeAtomic(out.StampPath, stampJSON); err != nil {
		return nil, err
	}
	log.Info("test params: written", "params", pp, "took", time.Since(t0))
	return out, nil
}

// writeAtomic writes data to path through a temporary file and a rename.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("porep: %w", err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if e := f.Close(); err == nil {
		err = e
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("porep: write %s: %w", path, err)
	}
	return nil
}
