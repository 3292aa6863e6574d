// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build supraseal

package porep

import (
	"sync"

	"github.com/cuseal/cuseal/porep/groth16"
)

// The supraseal-c2 backend: the registry entry BackendSupraSeal, built with
// the supraseal tag. One backend is shared by the process, so the SRS
// supraseal loads from a .params file stays in (pinned) memory across
// SealCommitPhase2 calls. Without a usable device the factory fails with
// bridge/supraseal.ErrNoDevice (or ErrGPUDisabled under BELLMAN_NO_GPU).
func init() { provideBackend(BackendSupraSeal, nil, sharedSupraSealBackend) }

var (
	supraMu      sync.Mutex
	supraBackend *groth16.SupraSealBackend
)

func sharedSupraSealBackend() (groth16.Backend, error) {
	if GPUDisabledByEnv() {
		return nil, ErrGPUDisabled
	}
	supraMu.Lock()
	defer supraMu.Unlock()
	if supraBackend == nil {
		b, err := groth16.NewSupraSealBackend()
		if err != nil {
			return nil, err
		}
		supraBackend = b
	}
	return supraBackend, nil
}
