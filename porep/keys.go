// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
)

// Keys is one circuit's Groth16 keys — its .params and .vk, loaded, cached
// and evicted by porep/paramfile — in the parameter directory of the
// options it was made with (WithParamsDir, else $FIL_PROOFS_PARAMETER_CACHE
// or /var/tmp/filecoin-proof-parameters), under their production-parameter
// policy (WithRequireProductionParams, FIL_PROOFS_VERIFY_PRODUCTION_PARAMS;
// the one warning for test parameters). Every prover and verifier of this
// package reads its keys through one. Rust twin: the parameter cache of
// storage-proofs-core (get_groth_params, get_verifying_key).
type Keys struct {
	s *settings
	c paramfile.Circuit
}

// KeysFor is the keys of circuit c — a registered proof's configuration:
// *stacked.SectorConfig, *post.Config or *update.Config — in the
// parameter directory opts select. Of opts, WithParamsDir,
// WithRequireProductionParams, WithDigestCacheFile, WithContext (hashing),
// WithLogger and WithProgress (hashing, the test-parameters warning)
// apply.
func KeysFor(c paramfile.Circuit, opts ...Option) *Keys {
	return &Keys{s: newSettings(opts), c: c}
}

// keysOf is KeysFor with settings already made.
func keysOf(s *settings, c paramfile.Circuit) *Keys { return &Keys{s: s, c: c} }

// Circuit is the circuit whose keys these are.
func (k *Keys) Circuit() paramfile.Circuit { return k.c }

// Paths returns the .params and .vk paths.
func (k *Keys) Paths() (params, vk string) {
	params, vk, _ = k.c.ParameterPaths(k.s.paramsDir)
	return params, vk
}

// Load applies the production-parameter policy to the .params and the .vk,
// then returns the opened .params and the prepared .vk after
// paramfile.LoadProvingKeys's checks: regular readable files, the .meta's
// sector size, the .params's shape against the circuit, and the .vk being
// the .params's key (a mismatch names both files and the first differing
// field). Both are cached per process by path, size and mtime. Errors wrap
// ErrParamsNotFound (a missing file) or ErrBadInput, naming the file.
func (k *Keys) Load() (*groth16.Params, *groth16.PreparedVerifyingKey, error) {
	if err := productionCheck(k.s, k.c, true); err != nil {
		return nil, nil, err
	}
	return paramfile.LoadProvingKeys(k.s.paramsDir, k.c)
}

// loadVK is Load for a verifier: the policy and paramfile.LoadVK's checks
// for the .vk alone.
func (k *Keys) loadVK() (*groth16.PreparedVerifyingKey, error) {
	if err := productionCheck(k.s, k.c, false); err != nil {
		return nil, err
	}
	return paramfile.LoadVK(k.s.paramsDir, k.c)
}

// Evict drops the .params and .vk from the process-wide cache (a later
// Load opens and prepares them again) and reports whether the .params was
// loaded. The file is closed when its last user lets go of it, so a proof
// still running on it is not disturbed. The engine's parameter
// residency uses it.
func (k *Keys) Evict() (wasLoaded bool) { return paramfile.Evict(k.s.paramsDir, k.c) }

// Memory is EstimateMemoryWith for one partition of the circuit in flight
// (assignments consumed by the proof, as the Job runner and the engine
// prove), with the keys' preload setting and the .params file's size
// (paramfile.ParamsBytes: its shape's when the file cannot be read).
func (k *Keys) Memory(backend string) (Memory, error) {
	size, err := paramfile.ParamsBytes(k.s.paramsDir, k.c)
	if err != nil {
		return Memory{}, err
	}
	return EstimateMemoryWith(k.c, MemoryOptions{Backend: backend, InFlight: 1, Preload: k.s.preload, ParamsBytes: size})
}
