// SPDX-License-Identifier: Apache-2.0 OR MIT

package seal

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveStaleStaging: only the names os.MkdirTemp(dir, StagingPrefix)
// makes are removed.
func TestRemoveStaleStaging(t *testing.T) {
	dir := t.TempDir()
	ours, err := os.MkdirTemp(dir, StagingPrefix)
	if err != nil {
		t.Fatal(err)
	}
	if !IsStagingDir(filepath.Base(ours)) {
		t.Fatalf("%s not recognised", ours)
	}
	for _, n := range []string{".staging-", ".staging-x1", "staging-1", ".staging-1.dat"} {
		if IsStagingDir(n) {
			t.Errorf("%q taken for a staging directory", n)
		}
	}
	keep := filepath.Join(dir, ".staging-abc")
	if err := os.Mkdir(keep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ours, "layer-1.dat"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := RemoveStaleStaging(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ours); !os.IsNotExist(err) {
		t.Errorf("%s still there", ours)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("%s removed", keep)
	}
}
