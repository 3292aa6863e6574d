package porep

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/stacked"
)

// ErrParamsNotFound is returned when a parameter or verifying-key file is
// missing from the parameter directory.
var ErrParamsNotFound = errors.New("porep: parameter file not found")

// Opened parameters and prepared verifying keys are kept for the life of
// the process, keyed by path and file identity (size, mtime), as
// rust-fil-proofs keeps its parameter caches: mapping a .params file and
// preparing a vk are done once, and a regenerated file is picked up.
var (
	paramsCacheMu sync.Mutex
	paramsCache   = map[string]cachedParams{}
	vkCache       = map[string]cachedVK{}
)

type fileID struct {
	size  int64
	mtime int64
}

type cachedParams struct {
	id fileID
	p  *groth16.Params
}

type cachedVK struct {
	id  fileID
	pvk *groth16.PreparedVerifyingKey
}

func statID(path string) (fileID, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fileID{}, fmt.Errorf("%w: %s", ErrParamsNotFound, path)
	}
	if err != nil {
		return fileID{}, fmt.Errorf("porep: %w", err)
	}
	return fileID{fi.Size(), fi.ModTime().UnixNano()}, nil
}

// loadParams opens (or returns the already opened) .params file of cfg in
// dir, unchecked as rust-fil-proofs reads it in production, and checks that
// its verifying key has one IC point per public input.
func loadParams(dir string, cfg *stacked.SectorConfig) (*groth16.Params, error) {
	path, _, _ := cfg.ParameterPaths(dir)
	id, err := statID(path)
	if err != nil {
		return nil, err
	}
	paramsCacheMu.Lock()
	defer paramsCacheMu.Unlock()
	if c, ok := paramsCache[path]; ok && c.id == id {
		return c.p, nil
	}
	if err := checkMeta(dir, cfg); err != nil {
		return nil, err
	}
	p, err := groth16.OpenParams(path, false)
	if err != nil {
		return nil, fmt.Errorf("porep: %s params: %w", cfg.Name, err)
	}
	if err := checkParamsShape(path, p, cfg); err != nil {
		p.Close()
		return nil, err
	}
	// An older mapping of a replaced file stays open: a concurrent call may
	// still be using it.
	paramsCache[path] = cachedParams{id, p}
	return p, nil
}

// loadVK reads (or returns the already prepared) .vk file of cfg in dir.
func loadVK(dir string, cfg *stacked.SectorConfig) (*groth16.PreparedVerifyingKey, error) {
	_, path, _ := cfg.ParameterPaths(dir)
	id, err := statID(path)
	if err != nil {
		return nil, err
	}
	paramsCacheMu.Lock()
	defer paramsCacheMu.Unlock()
	if c, ok := vkCache[path]; ok && c.id == id {
		return c.pvk, nil
	}
	if err := checkMeta(dir, cfg); err != nil {
		return nil, err
	}
	vk, err := groth16.ReadVerifyingKeyFile(path)
	if err != nil {
		return nil, fmt.Errorf("porep: %s vk: %w", cfg.Name, err)
	}
	if len(vk.IC) != cfg.NumPublicInputs() {
		return nil, badInputf("porep: %s: vk has %d IC points, the %s circuit has %d public inputs (ONE included): parameters for another circuit",
			path, len(vk.IC), cfg.Name, cfg.NumPublicInputs())
	}
	pvk, err := groth16.PrepareVerifyingKey(vk)
	if err != nil {
		return nil, fmt.Errorf("porep: %s: %w", path, err)
	}
	vkCache[path] = cachedVK{id, pvk}
	return pvk, nil
}

// checkMeta compares the sector_size of cfg's .meta file in dir, when there
// is one (rust-fil-proofs CacheEntryMetadata, {"sector_size": N}), with
// cfg's sector size.
func checkMeta(dir string, cfg *stacked.SectorConfig) error {
	_, _, path := cfg.ParameterPaths(dir)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("porep: %w", err)
	}
	var meta struct {
		SectorSize *uint64 `json:"sector_size"`
	}
	if err := json.Unmarshal(data, &meta); err != nil || meta.SectorSize == nil {
		return badInputf("porep: %s: not a parameter metadata file (want {\"sector_size\": N})", path)
	}
	if *meta.SectorSize != cfg.SectorSize {
		return badInputf("porep: %s: sector_size %d, but %s has sector size %d: parameters for another sector size",
			path, *meta.SectorSize, cfg.Name, cfg.SectorSize)
	}
	return nil
}

// checkParamsShape compares the query counts in p's header with the shape
// of cfg's circuit (stacked.SizeHintFor, exact): one IC point per public
// input, one L point per auxiliary variable, and an H query of domain−1
// points where the domain is the smallest power of two holding the
// constraints plus one row per input (bellperson's generator). Parameters
// for another sector size would otherwise only fail after synthesis.
func checkParamsShape(path string, p *groth16.Params, cfg *stacked.SectorConfig) error {
	if len(p.VK.IC) != cfg.NumPublicInputs() {
		return badInputf("porep: %s: vk has %d IC points, the %s circuit has %d public inputs (ONE included): parameters for another circuit",
			path, len(p.VK.IC), cfg.Name, cfg.NumPublicInputs())
	}
	hint, err := stacked.SizeHintFor(cfg)
	if err != nil {
		return fmt.Errorf("porep: %w", err)
	}
	domain := 1
	for domain < hint.Constraints+hint.Inputs {
		domain <<= 1
	}
	if p.NumL() != hint.Aux || p.DomainSize() != domain {
		return badInputf("porep: %s: parameters for %d auxiliary variables and a domain of %d, the %s circuit has %d and %d: parameters for another sector size or circuit",
			path, p.NumL(), p.DomainSize(), cfg.Name, hint.Aux, domain)
	}
	return nil
}

// checkParamsHeader checks the shape of cfg's .params file in dir against
// the circuit when the file is there and its header reads (VerifySeal needs
// only the .vk; a .params file it cannot open is not its concern).
func checkParamsHeader(dir string, cfg *stacked.SectorConfig) error {
	path, _, _ := cfg.ParameterPaths(dir)
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	p, err := loadParams(dir, cfg)
	if errors.Is(err, ErrBadInput) {
		return err
	}
	_ = p
	return nil
}
