// SPDX-License-Identifier: Apache-2.0 OR MIT

package buildinfo

import (
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

// TestFromBuildInfo: the module version, VCS facts and tags recorded by a
// `go build` in a clone are read; a `go install …@v` build (module version
// only) and a build without module facts say what they lack.
func TestFromBuildInfo(t *testing.T) {
	clone := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/cuseal/cuseal", Version: "v0.1.1-0.20261206230000-0123456789ab+dirty"},
		Settings: []debug.BuildSetting{{Key: "-tags", Value: "cuda,supraseal"}, {Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2026-12-06T23:00:00Z"}, {Key: "vcs.modified", Value: "true"}, {Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "amd64"}}}
	i := FromBuildInfo(clone)
	if i.Version != Version || i.Revision != clone.Settings[1].Value || i.Time != "2026-12-06T23:00:00Z" || i.Modified == nil || !*i.Modified ||
		!slices.Equal(i.Tags, []string{"cuda", "supraseal"}) || !i.CUDA || i.GoVersion != "go1.26.8" || i.OS != "linux" || i.Arch != "amd64" {
		t.Fatalf("clone build: %+v", i)
	}
	if got, want := i.ShortRevision(), "0123456789ab+modified"; got != want {
		t.Errorf("ShortRevision %q, want %q", got, want)
	}
	s := i.String()
	for _, w := range []string{"cuseal " + Version, "module " + clone.Main.Version, "rev 0123456789ab+modified", "2026-12-06T23:00:00Z", "go1.26.8 linux/amd64", "tags cuda,supraseal"} {
		if !strings.Contains(s, w) {
			t.Errorf("String() = %q: no %q", s, w)
		}
	}
	if l := i.Labels(); len(l) != len(LabelNames) || l[2] != clone.Settings[1].Value || l[3] != "true" || l[5] != "cuda,supraseal" {
		t.Errorf("Labels %q for %q", l, LabelNames)
	}

	installed := FromBuildInfo(&debug.BuildInfo{Main: debug.Module{Version: "v" + Version}})
	if installed.ModuleVersion != "v"+Version || installed.Revision != "" || installed.Modified != nil || installed.CUDA || len(installed.Tags) != 0 {
		t.Errorf("go install build: %+v", installed)
	}
	if s := installed.String(); !strings.Contains(s, "module v"+Version) || strings.Contains(s, "rev ") || !strings.Contains(s, "tags none") {
		t.Errorf("go install build: %q", s)
	}
	none := FromBuildInfo(nil)
	if none.GoVersion != runtime.Version() || none.OS != runtime.GOOS || none.Tags == nil || !strings.Contains(none.String(), "no module or VCS facts recorded") {
		t.Errorf("no build info: %+v %q", none, none.String())
	}
}

// TestRead: this test binary's own facts are read.
func TestRead(t *testing.T) {
	i := Read()
	if i.Version != Version || i.GoVersion == "" || i.OS != runtime.GOOS || i.Arch != runtime.GOARCH {
		t.Errorf("Read() = %+v", i)
	}
}

// TestLinkerRevision: where the toolchain recorded no revision, the one ./build.sh dist sets
// with -ldflags -X is used; a recorded one wins.
func TestLinkerRevision(t *testing.T) {
	defer func(v string) { ldVCS = v }(ldVCS)
	ldVCS = "89abcdef0123456789abcdef0123456789abcdef,2026-12-06T23:00:00Z,false"
	i := FromBuildInfo(&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}})
	if i.Revision != "89abcdef0123456789abcdef0123456789abcdef" || i.Time != "2026-12-06T23:00:00Z" || i.Modified == nil || *i.Modified {
		t.Errorf("worktree build: %+v", i)
	}
	rec := FromBuildInfo(&debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123"}}})
	if rec.Revision != "0123" || rec.Modified != nil {
		t.Errorf("recorded revision: %+v", rec)
	}
}
