// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"os"
	"strings"

	"github.com/cuseal/cuseal/porep/paramfile"
)

// paramOptions carries the settings that hashing parameter files honours
// (context, PhaseHash progress, digest cache file) over to porep/paramfile.
func paramOptions(s *settings) []paramfile.Option {
	return []paramfile.Option{
		paramfile.WithContext(s.ctx),
		paramfile.WithDigestCacheFile(s.digestCacheFile),
		paramfile.WithProgress(func(ev paramfile.Event) {
			s.progress(PhaseEvent{Phase: PhaseHash, Partition: -1, File: ev.File, Done: ev.Done, Total: ev.Total})
		}),
	}
}

// warnTestParams gives the one-line TEST-parameters warning for path when a
// cuseal test stamp vouches for it, once per process and parameter set
// (paramfile.TestParamsWarning): as a PhaseWarning event and a slog warning.
func warnTestParams(s *settings, path string) {
	msg := paramfile.TestParamsWarning(path)
	if msg == "" {
		return
	}
	s.log.Warn(msg)
	s.progress(PhaseEvent{Phase: PhaseWarning, Partition: -1, File: path, Message: msg})
}

// productionCheck applies the production-parameter policy to the circuit's
// files in s.paramsDir: with WithRequireProductionParams (or
// FIL_PROOFS_VERIFY_PRODUCTION_PARAMS=1) every file is hashed against the
// official table first; otherwise test-stamped files get the warning.
func productionCheck(s *settings, circuit paramfile.Circuit, withParams bool) error {
	pp, vp, _ := circuit.ParameterPaths(s.paramsDir)
	paths := []string{vp}
	if withParams {
		paths = []string{pp, vp}
	}
	if s.requireProduction {
		return paramfile.RequireProductionParams(paths, paramOptions(s)...)
	}
	for _, p := range paths {
		warnTestParams(s, p)
	}
	return nil
}

// isProductionParamsEnv reports whether FIL_PROOFS_VERIFY_PRODUCTION_PARAMS
// asks for production parameters (rust-fil-proofs settings: a boolean;
// "1" or "true").
func isProductionParamsEnv() bool {
	v := strings.ToLower(strings.TrimSpace(os.Getenv("FIL_PROOFS_VERIFY_PRODUCTION_PARAMS")))
	return v == "1" || v == "true" || v == "yes"
}
