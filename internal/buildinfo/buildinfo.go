// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package buildinfo is the one home of cuseal's release version and of what
// the Go toolchain recorded about a binary's build (runtime/debug.ReadBuildInfo):
// module version, VCS revision, time and modified flag, Go version, platform
// and build tags. `cuseal version`, serve's /status and cuseal_build_info
// gauge, and libcuseal's cuseal_porep_info all read it. The native
// library's version and CUDA architectures are filled in by the callers that
// link the bridge (cli, libcuseal).
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Version is cuseal's release version (semantic versioning, without the
// leading v): the one place it is written. CHANGELOG.md's top release and
// docs/releasing.md match it (TestVersionAgrees); a release is tagged
// "v" + Version.
const Version = "0.1.0"

// Info is what a binary knows about its own build. Fields the toolchain did
// not record are empty: `go install …@vX.Y.Z` records the module version
// but no VCS facts; a `go build` in a git clone records the revision, its
// time and whether the tree was modified (unless -buildvcs=false).
type Info struct {
	Version       string   `json:"version"`                  // Version
	ModuleVersion string   `json:"module_version"`           // the main module's version: "v0.1.0", a pseudo-version, or "(devel)"
	Revision      string   `json:"revision,omitempty"`       // vcs.revision: the commit built
	Time          string   `json:"time,omitempty"`           // vcs.time: the commit's time, RFC 3339
	Modified      *bool    `json:"modified,omitempty"`       // vcs.modified: uncommitted changes in the tree
	GoVersion     string   `json:"go_version"`               // the toolchain, e.g. go1.26.8
	OS            string   `json:"os"`                       // GOOS
	Arch          string   `json:"arch"`                     // GOARCH
	Tags          []string `json:"tags"`                     // -tags of the build
	CUDA          bool     `json:"cuda"`                     // built with the CUDA backend (tag cuda)
	NativeVersion string   `json:"native_version,omitempty"` // the linked native library (CUDA builds; filled by the caller)
	CUDAArchs     []string `json:"cuda_archs,omitempty"`     // SM architectures compiled into it (filled by the caller)
}

// ldVCS is "revision,time,modified" (vcs.revision, vcs.time, vcs.modified)
// for builds whose toolchain records no VCS facts (a git worktree,
// -buildvcs=false): ./build.sh dist sets it with one -ldflags=-X (GOFLAGS
// takes no spaces). What the toolchain recorded wins.
var ldVCS string

// Read returns this binary's build facts.
func Read() Info {
	bi, _ := debug.ReadBuildInfo() // nil, false without module support
	return FromBuildInfo(bi)
}

// FromBuildInfo returns the facts in bi (nil: none recorded, as in a binary
// built without module support); the platform is this process's.
func FromBuildInfo(bi *debug.BuildInfo) Info {
	info := Info{Version: Version, GoVersion: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH, Tags: []string{}}
	if bi == nil {
		bi = &debug.BuildInfo{}
	}
	info.ModuleVersion = bi.Main.Version
	if bi.GoVersion != "" {
		info.GoVersion = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "-tags":
			for _, t := range strings.Split(s.Value, ",") {
				if t = strings.TrimSpace(t); t != "" {
					info.Tags = append(info.Tags, t)
				}
			}
		case "vcs.revision":
			info.Revision = s.Value
		case "vcs.time":
			info.Time = s.Value
		case "vcs.modified":
			m := s.Value == "true"
			info.Modified = &m
		case "GOOS":
			info.OS = s.Value
		case "GOARCH":
			info.Arch = s.Value
		}
	}
	if f := strings.Split(ldVCS, ","); info.Revision == "" && len(f) == 3 && f[0] != "" {
		m := f[2] == "true"
		info.Revision, info.Time, info.Modified = f[0], f[1], &m
	}
	for _, t := range info.Tags {
		if t == "cuda" {
			info.CUDA = true
		}
	}
	return info
}

// ShortRevision is the revision's first 12 hex digits, with "+modified"
// when the tree had uncommitted changes; "" when none was recorded.
func (i Info) ShortRevision() string {
	r := i.Revision
	if len(r) > 12 {
		r = r[:12]
	}
	if r != "" && i.Modified != nil && *i.Modified {
		r += "+modified"
	}
	return r
}

// String is the one-line form `cuseal version` prints:
// "cuseal 0.1.0 (module v0.1.0, rev 0123456789ab, 2026-12-06T23:00:00Z; go1.26.8 linux/amd64; tags cuda)".
func (i Info) String() string {
	var src []string
	if i.ModuleVersion != "" {
		src = append(src, "module "+i.ModuleVersion)
	}
	if r := i.ShortRevision(); r != "" {
		src = append(src, "rev "+r)
	}
	if i.Time != "" {
		src = append(src, i.Time)
	}
	if len(src) == 0 {
		src = append(src, "no module or VCS facts recorded")
	}
	tags := "none"
	if len(i.Tags) > 0 {
		tags = strings.Join(i.Tags, ",")
	}
	s := fmt.Sprintf("cuseal %s (%s; %s %s/%s; tags %s)", i.Version, strings.Join(src, ", "), i.GoVersion, i.OS, i.Arch, tags)
	if i.NativeVersion != "" {
		s += "; native " + i.NativeVersion
		if len(i.CUDAArchs) > 0 {
			s += ", archs " + strings.Join(i.CUDAArchs, ",")
		}
	}
	return s
}

// Labels are the cuseal_build_info gauge's labels (the Prometheus
// convention: a constant 1 whose labels carry the facts), in a fixed order
// with LabelNames.
func (i Info) Labels() []string {
	mod := ""
	if i.Modified != nil {
		mod = fmt.Sprint(*i.Modified)
	}
	return []string{i.Version, i.ModuleVersion, i.Revision, mod, i.GoVersion, strings.Join(i.Tags, ","), fmt.Sprint(i.CUDA), i.NativeVersion}
}

// LabelNames names Labels' values.
var LabelNames = []string{"version", "module_version", "revision", "modified", "go_version", "tags", "cuda", "native_version"}
