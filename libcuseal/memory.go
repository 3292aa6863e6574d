// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

import (
	"github.com/cuseal/cuseal/internal/hostmem"
	"github.com/cuseal/cuseal/porep/paramfile"
)

// defaultParamsSeed is the CLI's default --seed ("cuseal-porep-test",
// zero-padded: cli/params_generate.go), so both make the same parameters.
var defaultParamsSeed = [32]byte{'c', 'u', 's', 'e', 'a', 'l', '-', 'p', 'o', 'r', 'e', 'p', '-', 't', 'e', 's', 't'}

// checkCircuitSetupMemory refuses (bad input) a test-parameter setup of a
// circuit whose estimated peak memory (paramfile.EstimateSetupMemory of its
// shape) exceeds MemAvailable, as `cuseal params
// generate` does without --force: the setup would otherwise take the
// caller's process down. call and name (the circuit) go in the message.
func checkCircuitSetupMemory(call, name string, c paramfile.Circuit) error {
	avail, ok := hostmem.Available()
	if !ok {
		return nil
	}
	shape, err := c.SizeHint()
	if err != nil {
		return err
	}
	need := paramfile.EstimateSetupMemory(shape)
	if need <= avail {
		return nil
	}
	return badInputf("libcuseal: %s: %s needs about %.1f GB of memory (%.1fM variables), but only %.1f GB is available (MemAvailable in %s); pass CUSEAL_POREP_GEN_FORCE to try anyway",
		call, name, float64(need)/1e9, float64(shape.Inputs+shape.Aux)/1e6, float64(avail)/1e9, hostmem.MemInfoPath)
}
