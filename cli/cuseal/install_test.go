// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/internal/buildinfo"
	"github.com/cuseal/cuseal/testsupport/testenv"
)

// TestGoInstall: from a fresh clone (of this checkout's HEAD: what is committed), `go install
// ./cli/cuseal` with an empty GOBIN puts one binary there, named cuseal, and its `version
// --json` names the clone's revision, unmodified. (A git worktree is not stamped by Go: hence
// the clone.)
func TestGoInstall(t *testing.T) {
	testenv.Long(t, "go install in a fresh clone compiles the module (a minute or more)")
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found", tool)
		}
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	src, gobin := filepath.Join(tmp, "src"), filepath.Join(tmp, "bin")
	if out, err := exec.Command("git", "clone", "--quiet", root, src).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	rev, err := exec.Command("git", "-C", src, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	install := exec.Command("go", "install", "./cli/cuseal")
	// GOFLAGS in the environment wins over `go env -w GOFLAGS=-buildvcs=false`.
	install.Dir, install.Env = src, append(os.Environ(), "GOBIN="+gobin, "GOFLAGS=-buildvcs=true", "CGO_ENABLED=0")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install ./cli/cuseal: %v\n%s", err, out)
	}
	ents, err := os.ReadDir(gobin)
	if err != nil || len(ents) != 1 || ents[0].Name() != "cuseal" {
		t.Fatalf("GOBIN holds %v (%v), want cuseal alone", ents, err)
	}
	out, err := exec.Command(filepath.Join(gobin, "cuseal"), "version", "--json").Output()
	if err != nil {
		t.Fatalf("cuseal version --json: %v", err)
	}
	var got buildinfo.Info
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("version --json: %v\n%s", err, out)
	}
	if got.Version != buildinfo.Version || got.Revision != strings.TrimSpace(string(rev)) || got.Modified == nil || *got.Modified || got.Time == "" {
		t.Errorf("version --json %+v, want version %s, revision %s, unmodified", got, buildinfo.Version, rev)
	}
}
