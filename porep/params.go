package porep

import (
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
	p, err := groth16.OpenParams(path, false)
	if err != nil {
		return nil, fmt.Errorf("porep: %s params: %w", cfg.Name, err)
	}
	if len(p.VK.IC) != cfg.NumPublicInputs() {
		p.Close()
		return nil, fmt.Errorf("porep: %s: vk has %d IC points, the circuit %d public inputs", path, len(p.VK.IC), cfg.NumPublicInputs())
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
	vk, err := groth16.ReadVerifyingKeyFile(path)
	if err != nil {
		return nil, fmt.Errorf("porep: %s vk: %w", cfg.Name, err)
	}
	if len(vk.IC) != cfg.NumPublicInputs() {
		return nil, fmt.Errorf("porep: %s: vk has %d IC points, the circuit %d public inputs", path, len(vk.IC), cfg.NumPublicInputs())
	}
	pvk, err := groth16.PrepareVerifyingKey(vk)
	if err != nil {
		return nil, fmt.Errorf("porep: %s: %w", path, err)
	}
	vkCache[path] = cachedVK{id, pvk}
	return pvk, nil
}
