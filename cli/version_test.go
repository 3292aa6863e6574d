// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/internal/buildinfo"
)

// TestVersionJSON: `cuseal version --json` is internal/buildinfo's facts of this binary, with
// the native library's for a CUDA build; `cuseal --version` prints the release and the facts as
// urfave/cli users expect; the root help names every kind cuseal proves.
func TestVersionJSON(t *testing.T) {
	code, out, stderr := runCLI(t, "version", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got buildinfo.Info
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("version --json: %v\n%s", err, out)
	}
	want := buildinfo.Read()
	if got.Version != buildinfo.Version || got.ModuleVersion != want.ModuleVersion || got.Revision != want.Revision ||
		got.GoVersion != want.GoVersion || got.CUDA != cudaBuild || got.Tags == nil {
		t.Errorf("version --json %+v, want %+v", got, want)
	}
	code, out, _ = runCLI(t, "--version")
	if code != exitOK || !strings.HasPrefix(out, "cuseal version "+buildinfo.Version+" (") || !strings.Contains(out, want.GoVersion) {
		t.Errorf("--version: exit %d, %q", code, out)
	}
	_, out, _ = runCLI(t, "--help")
	for _, kind := range []string{"PoRep C2", "WindowPoSt", "WinningPoSt", "SnapDeals"} {
		if !strings.Contains(out, kind) {
			t.Errorf("root help does not name %s:\n%s", kind, out)
		}
	}
}
