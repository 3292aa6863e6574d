// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/bridge/supraseal"
	"github.com/cuseal/cuseal/testsupport/testparams"
)

// TestSupraSealRegistration: "supraseal" is registered exactly in supraseal builds; "auto"
// never picks it; without a device (or the build) asking for it fails with a reason.
func TestSupraSealRegistration(t *testing.T) {
	registered := slices.Contains(Backends(), BackendSupraSeal)
	if registered != supraseal.Built {
		t.Fatalf("registered %v, built %v", registered, supraseal.Built)
	}
	if _, name, err := NewBackend(BackendAuto); err != nil || name == BackendSupraSeal {
		t.Fatalf("auto chose %q (%v)", name, err)
	}
	_, _, err := NewBackend(BackendSupraSeal)
	switch {
	case !registered:
		if !errors.Is(err, ErrUnknownBackend) || !strings.Contains(err.Error(), "-tags supraseal") {
			t.Fatalf("unregistered supraseal: %v", err)
		}
	case supraseal.DeviceCount() == 0:
		if err == nil {
			t.Fatal("supraseal backend created without a device")
		}
	}
}

// TestSealCommitPhase2SupraSeal proves the sealed 2 KiB sector with supraseal-c2 and with
// the CPU backend: for fixed randomness the bytes must be equal, and the proof must verify.
// It logs both times (docs/BENCHMARKS.md). It skips without the supraseal build or a device.
func TestSealCommitPhase2SupraSeal(t *testing.T) {
	if !slices.Contains(Backends(), BackendSupraSeal) {
		t.Skip("skipping supraseal test: built without the supraseal tag (./build.sh supraseal)")
	}
	if supraseal.DeviceCount() == 0 {
		t.Skip("skipping GPU test: no CUDA device supraseal can use")
	}
	proveMatchesCPU(t, seal2K(t), testparams.Get2K(t), BackendSupraSeal)
}
