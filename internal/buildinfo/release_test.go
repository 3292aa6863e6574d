// SPDX-License-Identifier: Apache-2.0 OR MIT

package buildinfo

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

var (
	semver       = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`)
	releaseEntry = regexp.MustCompile(`(?m)^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?\s*$`)
	currentLine  = regexp.MustCompile(`(?m)^The current release is \*\*([^*]+)\*\* \(git tag ` + "`v([^`]+)`" + `\)\.$`)
	versionUses  = regexp.MustCompile(`cuseal-(\d+\.\d+\.\d+)-linux|@v(\d+\.\d+\.\d+)\b`)
)

// TestVersionAgrees: Version is a semantic version; CHANGELOG.md's top release (the first
// `## [X.Y.Z] - date` below `## [Unreleased]`) is Version, with a date and a link; and
// docs/releasing.md's current release, and the archive names and `@v` versions there, in the
// README and in docs/building.md, are Version.
func TestVersionAgrees(t *testing.T) {
	if !semver.MatchString(Version) {
		t.Fatalf("Version %q is not a semantic version X.Y.Z", Version)
	}
	log, err := os.ReadFile("../../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	var top, date string
	for _, m := range releaseEntry.FindAllStringSubmatch(string(log), -1) {
		if m[1] == "Unreleased" {
			continue
		}
		top, date = m[1], m[2]
		break
	}
	switch {
	case top != Version:
		t.Errorf("CHANGELOG.md: the top release is %q, buildinfo.Version %q: add its entry (docs/releasing.md)", top, Version)
	case date == "":
		t.Errorf("CHANGELOG.md: ## [%s] has no date (## [%s] - YYYY-MM-DD)", top, top)
	case !strings.Contains(string(log), "\n["+Version+"]: "):
		t.Errorf("CHANGELOG.md: no link [%s]: at the end", Version)
	}

	doc, err := os.ReadFile("../../docs/releasing.md")
	if err != nil {
		t.Fatal(err)
	}
	m := currentLine.FindStringSubmatch(string(doc))
	if m == nil || m[1] != Version || m[2] != Version {
		t.Errorf("docs/releasing.md: want the line \"The current release is **%s** (git tag `v%s`).\", found %q", Version, Version, m)
	}
	uses := versionUses.FindAllStringSubmatch(string(doc), -1)
	if len(uses) < 3 {
		t.Errorf("docs/releasing.md: %d archive names or @v versions, want the install and archive examples", len(uses))
	}
	for _, file := range []string{"docs/releasing.md", "README.md", "docs/building.md"} {
		b, err := os.ReadFile("../../" + file)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range versionUses.FindAllStringSubmatch(string(b), -1) {
			if v := u[1] + u[2]; v != Version {
				t.Errorf("%s: %q names %s, buildinfo.Version is %s", file, u[0], v, Version)
			}
		}
	}
}

// TestServiceUnitRunsTheArchivesBinary: the systemd unit the archives ship
// starts the binary they ship (bin/cuseal, installed as /usr/local/bin/cuseal),
// not a source build's other name (a new user's trial found cuseal-cuda).
func TestServiceUnitRunsTheArchivesBinary(t *testing.T) {
	unit, err := os.ReadFile("../../docs/cuseal-serve.service")
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	if m := regexp.MustCompile(`(?m)^ExecStart=(\S+)`).FindSubmatch(unit); m != nil {
		got = string(m[1])
	}
	if got != "/usr/local/bin/cuseal" {
		t.Errorf("docs/cuseal-serve.service: ExecStart runs %q, want /usr/local/bin/cuseal (the archives' bin/cuseal)", got)
	}
}
