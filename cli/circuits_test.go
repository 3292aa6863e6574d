// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"strings"
	"testing"
)

// TestLookupCircuit: every circuit by its name and its aliases (snap is update), only
// among the circuits a command offers, and an unknown name refused naming the flag and
// the offered names.
func TestLookupCircuit(t *testing.T) {
	for _, s := range circuits {
		for _, name := range append([]string{s.name}, s.aliases...) {
			if got, err := lookupCircuit("circuit", name); err != nil || got.name != s.name {
				t.Errorf("lookupCircuit(%q) = %v, %v; want %s", name, got, err, s.name)
			}
		}
	}
	if got, err := lookupCircuit("kind", "snap", vanillaCircuits...); err != nil || got.name != circuitUpdate {
		t.Errorf("snap among bench vanilla's circuits: %v, %v", got, err)
	}
	for _, tc := range []struct {
		flag, name string
		only       []string
		want       string
	}{
		{"circuit", "update", postCircuits, `--circuit "update": want winning-post or window-post`},
		{"kind", "seal", nil, `--kind "seal": want porep, winning-post, window-post or update`},
	} {
		_, err := lookupCircuit(tc.flag, tc.name, tc.only...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || exitCode(err, &strings.Builder{}) != exitUsage {
			t.Errorf("lookupCircuit(%q, %q, %v) = %v, want a usage error %q", tc.flag, tc.name, tc.only, err, tc.want)
		}
	}
}
