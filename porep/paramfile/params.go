// SPDX-License-Identifier: Apache-2.0 OR MIT

package paramfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"sync"

	"github.com/cuseal/cuseal/porep/groth16"
)

// ErrParamsNotFound is returned when a parameter or verifying-key file is
// missing from the parameter directory (porep.ErrParamsNotFound is this
// value).
var ErrParamsNotFound = errors.New("porep: parameter file not found")

// ErrBadInput is wrapped by every error about a parameter file that is the
// user's to fix: unreadable, corrupt or truncated, of another circuit or
// sector size, a .vk that is not the .params file's key, not the official
// file under RequireProductionParams. It is porep.ErrBadInput (the same
// value, errors.Is works with either name), which porep wraps around its
// other input errors too.
var ErrBadInput = errors.New("porep: bad input")

// badInputError makes err match ErrBadInput without changing its message.
type badInputError struct{ err error }

func (e *badInputError) Error() string   { return e.err.Error() }
func (e *badInputError) Unwrap() []error { return []error{ErrBadInput, e.err} }

// BadInput marks err as caused by the caller's input: the result matches
// ErrBadInput with errors.Is, has err's message and unwraps to err (nil
// stays nil).
func BadInput(err error) error {
	if err == nil {
		return nil
	}
	return &badInputError{err}
}

// badInputf is BadInput(fmt.Errorf(format, a...)).
func badInputf(format string, a ...any) error {
	return BadInput(fmt.Errorf(format, a...))
}

// Opened parameters and prepared verifying keys are kept for the life of
// the process, keyed by path and file identity (size, mtime, inode), as
// rust-fil-proofs keeps its parameter caches: opening a .params file and
// preparing a vk are done once, and a regenerated file is picked up. An
// opened .params that changed on disk while in use (groth16.Params.Changed)
// is dropped, so the next load reads the file afresh.
var (
	paramsCacheMu sync.Mutex
	paramsCache   = map[string]cachedParams{}
	vkCache       = map[string]cachedVK{}
)

// Evict drops c's .params and .vk in dir from the process-wide caches (a
// later LoadParams, LoadVK or LoadProvingKeys opens and prepares them
// again) and reports whether the .params was loaded. The file is closed
// when its last user lets go of it (a finalizer calls Close), so a proof
// still running on it is not disturbed. The engine's parameter residency uses it.
func Evict(dir string, c Circuit) (wasLoaded bool) {
	pp, vp, _ := c.ParameterPaths(dir)
	paramsCacheMu.Lock()
	defer paramsCacheMu.Unlock()
	if e, ok := paramsCache[pp]; ok {
		delete(paramsCache, pp)
		runtime.SetFinalizer(e.p, (*groth16.Params).Close)
		wasLoaded = true
	}
	delete(vkCache, vp)
	return wasLoaded
}

// FileID is a file's identity for the caches keyed by path: its size,
// modification time (ns), inode and device, so that a file replaced by
// rename is a new one even with the same size and mtime. Compare with ==.
type FileID struct {
	size  int64
	mtime int64
	ino   uint64
	dev   uint64
}

type cachedParams struct {
	id FileID
	p  *groth16.Params
}

type cachedVK struct {
	id  FileID
	vk  *groth16.VerifyingKey
	pvk *groth16.PreparedVerifyingKey
}

// StatID returns the identity of the parameter file at path after checking
// that it is a readable regular file: a missing file wraps
// ErrParamsNotFound, a directory, special or unreadable file ErrBadInput.
func StatID(path string) (FileID, error) {
	fi, err := checkParamFile(path)
	if err != nil {
		return FileID{}, err
	}
	gid := groth16.IdentityOf(fi)
	return FileID{fi.Size(), fi.ModTime().UnixNano(), gid.Inode, gid.Device}, nil
}

// checkParamFile checks that path is a regular file that can be read. A
// missing file (or a symbolic link to one, named as a dangling link) wraps
// ErrParamsNotFound; a directory, a special file or a file that cannot be
// opened (permission) wraps ErrBadInput: every problem with a parameter
// file the user points at is the user's to fix, not an internal error.
func checkParamFile(path string) (fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, paramFileError(path, err)
	}
	if fi.IsDir() {
		return nil, badInputf("porep: %s: is a directory, want a parameter file", path)
	}
	if !fi.Mode().IsRegular() {
		return nil, badInputf("porep: %s: is not a regular file (%s)", path, fi.Mode().Type())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, paramFileError(path, err)
	}
	f.Close()
	return fi, nil
}

// paramFileError words an os error about the parameter file path as one
// line naming it: missing (ErrParamsNotFound; a dangling symbolic link is
// named as such, with its target), or unreadable (ErrBadInput).
func paramFileError(path string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if target, lerr := os.Readlink(path); lerr == nil {
			return fmt.Errorf("%w: %s is a dangling symbolic link (to %s, which does not exist)", ErrParamsNotFound, path, target)
		}
		return fmt.Errorf("%w: %s", ErrParamsNotFound, path)
	case errors.Is(err, fs.ErrPermission):
		return badInputf("porep: %s: permission denied (the parameter files must be readable by this user)", path)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return badInputf("porep: %s: %s %v", path, pe.Op, pe.Err)
	}
	return badInputf("porep: %s: %w", path, err)
}

// LoadParams opens (or returns the already opened) .params file of c in
// dir, unchecked as rust-fil-proofs reads it in production, and checks its
// .meta (sector size) and its shape against the circuit (one IC point per
// public input, L and domain sizes). The open file is kept for the life of
// the process, keyed by path, size, mtime and inode, until it changes on
// disk; the caller must not close it. Errors wrap ErrParamsNotFound or
// ErrBadInput, naming the file, groth16.ErrParamsChanged (the file changed
// while it was read), or are internal (a failed read).
func LoadParams(dir string, c Circuit) (*groth16.Params, error) {
	path, _, _ := c.ParameterPaths(dir)
	id, err := StatID(path)
	if err != nil {
		return nil, err
	}
	paramsCacheMu.Lock()
	defer paramsCacheMu.Unlock()
	if e, ok := paramsCache[path]; ok && e.id == id && !e.p.Changed() {
		return e.p, nil
	}
	if err := checkMeta(dir, c); err != nil {
		return nil, err
	}
	p, err := groth16.OpenParams(path, false)
	if err != nil {
		return nil, paramReadError(path, err)
	}
	if err := checkParamsShape(path, p, c); err != nil {
		p.Close()
		return nil, err
	}
	// An older Params of a replaced file stays open while a concurrent
	// call may still use it (its file closes when it becomes unreachable).
	paramsCache[path] = cachedParams{id, p}
	return p, nil
}

// LoadVK reads (or returns the already prepared) .vk file of c in dir,
// cached like LoadParams, after checking the .meta; a key with another IC
// count than c's public inputs wraps ErrBadInput.
func LoadVK(dir string, c Circuit) (*groth16.PreparedVerifyingKey, error) {
	_, pvk, err := loadVKFile(dir, c)
	return pvk, err
}

// loadVKFile is LoadVK returning the decoded key too.
func loadVKFile(dir string, c Circuit) (*groth16.VerifyingKey, *groth16.PreparedVerifyingKey, error) {
	_, path, _ := c.ParameterPaths(dir)
	id, err := StatID(path)
	if err != nil {
		return nil, nil, err
	}
	paramsCacheMu.Lock()
	defer paramsCacheMu.Unlock()
	if e, ok := vkCache[path]; ok && e.id == id {
		return e.vk, e.pvk, nil
	}
	if err := checkMeta(dir, c); err != nil {
		return nil, nil, err
	}
	vk, err := groth16.ReadVerifyingKeyFile(path)
	if err != nil {
		return nil, nil, paramReadError(path, err)
	}
	if len(vk.IC) != c.NumPublicInputs() {
		return nil, nil, badInputf("porep: %s: vk has %d IC points, the %s circuit has %d public inputs (ONE included): parameters for another circuit",
			path, len(vk.IC), c.ProofName(), c.NumPublicInputs())
	}
	pvk, err := groth16.PrepareVerifyingKey(vk)
	if err != nil {
		return nil, nil, fmt.Errorf("porep: %s: %w", path, err)
	}
	vkCache[path] = cachedVK{id, vk, pvk}
	return vk, pvk, nil
}

// paramReadError classifies an error from decoding a parameter file: a
// corrupt or truncated file (*groth16.FormatError) and an os error about the
// file are the user's input (ErrBadInput / ErrParamsNotFound); anything else
// (a failed read, a file changed while read) is not.
func paramReadError(path string, err error) error {
	var fe *groth16.FormatError
	var pe *fs.PathError
	switch {
	case errors.As(err, &fe):
		return badInputf("porep: %w", err)
	case errors.As(err, &pe):
		return paramFileError(path, pe)
	}
	return fmt.Errorf("porep: %s: %w", path, err)
}

// LoadProvingKeys loads c's .params and .vk from dir and checks that the
// .vk file, which verifiers (cuseal verify, rust-fil-proofs verify_seal,
// verify_*_post and verify_empty_sector_update_proof, the chain) use, holds
// the same verifying key as the .params file the prover uses: porep's
// provers self-verify with the .vk, and a pair from two setups would
// otherwise yield proofs that only the .params's own key accepts; the
// error names both files and the first differing field. The comparison is
// of the decoded points (about 4.7 KB for PoRep), done on every call; the
// files themselves are cached.
func LoadProvingKeys(dir string, c Circuit) (*groth16.Params, *groth16.PreparedVerifyingKey, error) {
	params, err := LoadParams(dir, c)
	if err != nil {
		return nil, nil, err
	}
	vk, pvk, err := loadVKFile(dir, c)
	if err != nil {
		return nil, nil, err
	}
	pp, vp, _ := c.ParameterPaths(dir)
	if field := vkDifference(&params.VK, vk); field != "" {
		return nil, nil, badInputf("porep: %s and %s hold different verifying keys (first difference: %s): they come from different setups, and proofs made with this .params would not verify against this .vk; %s",
			vp, pp, field, whichKeyIsWrong(vp, pp))
	}
	return params, pvk, nil
}

// vkDifference names the first field in which a and b differ (bellperson's
// VerifyingKey field names), or "" when they are equal.
func vkDifference(a, b *groth16.VerifyingKey) string {
	switch {
	case !a.Alpha1.Equal(&b.Alpha1):
		return "alpha_g1"
	case !a.Beta1.Equal(&b.Beta1):
		return "beta_g1"
	case !a.Beta2.Equal(&b.Beta2):
		return "beta_g2"
	case !a.Gamma2.Equal(&b.Gamma2):
		return "gamma_g2"
	case !a.Delta1.Equal(&b.Delta1):
		return "delta_g1"
	case !a.Delta2.Equal(&b.Delta2):
		return "delta_g2"
	case len(a.IC) != len(b.IC):
		return fmt.Sprintf("ic count %d vs %d", len(b.IC), len(a.IC))
	}
	for i := range a.IC {
		if !a.IC[i].Equal(&b.IC[i]) {
			return fmt.Sprintf("ic[%d]", i)
		}
	}
	return ""
}

// checkMeta compares the sector_size of c's .meta file in dir, when there
// is one (rust-fil-proofs CacheEntryMetadata, {"sector_size": N}), with
// c's sector size.
func checkMeta(dir string, c Circuit) error {
	_, _, path := c.ParameterPaths(dir)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return paramFileError(path, err)
	}
	var meta struct {
		SectorSize *uint64 `json:"sector_size"`
	}
	if err := json.Unmarshal(data, &meta); err != nil || meta.SectorSize == nil {
		return badInputf("porep: %s: not a parameter metadata file (want {\"sector_size\": N})", path)
	}
	if *meta.SectorSize != c.ProofSectorSize() {
		return badInputf("porep: %s: sector_size %d, but %s has sector size %d: parameters for another sector size",
			path, *meta.SectorSize, c.ProofName(), c.ProofSectorSize())
	}
	return nil
}

// checkParamsShape compares the query counts in p's header with the shape
// of c's circuit (Circuit.Size, exact): one IC point per public input, one
// L point per auxiliary variable, and an H query of domain−1 points where
// the domain is the smallest power of two holding the constraints plus one
// row per input (bellperson's generator). Parameters for another sector
// size would otherwise only fail after synthesis.
func checkParamsShape(path string, p *groth16.Params, c Circuit) error {
	if len(p.VK.IC) != c.NumPublicInputs() {
		return badInputf("porep: %s: vk has %d IC points, the %s circuit has %d public inputs (ONE included): parameters for another circuit",
			path, len(p.VK.IC), c.ProofName(), c.NumPublicInputs())
	}
	hint, err := c.SizeHint()
	if err != nil {
		return fmt.Errorf("porep: %w", err)
	}
	domain := domainSize(hint)
	if p.NumL() != hint.Aux || p.DomainSize() != domain {
		return badInputf("porep: %s: parameters for %d auxiliary variables and a domain of %d, the %s circuit has %d and %d: parameters for another sector size or circuit",
			path, p.NumL(), p.DomainSize(), c.ProofName(), hint.Aux, domain)
	}
	return nil
}

// CheckParamsHeader checks the shape of c's .params file in dir against
// the circuit when the file is there and its header reads, for
// porep.VerifySeal: it needs only the .vk, and a .params file it cannot open
// is not its concern. Only an ErrBadInput error is returned.
func CheckParamsHeader(dir string, c Circuit) error {
	path, _, _ := c.ParameterPaths(dir)
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	if _, err := LoadParams(dir, c); errors.Is(err, ErrBadInput) {
		return err
	}
	return nil
}
