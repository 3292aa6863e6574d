// SPDX-License-Identifier: Apache-2.0 OR MIT

package archtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// tagSets are the build-tag combinations cuseal ships: bin/cuseal, bin/cuseal-cuda,
// bin/cuseal-supraseal (cuda,supraseal) and the supraseal tag alone (SUPRASEAL_SKIP_CUDA=1).
var tagSets = []string{"", "cuda", "supraseal", "cuda,supraseal"}

const (
	docPath   = "docs/architecture.md"
	tableHead = "| Go package |"
	cgoMarker = "C" // the pseudo-import "C": the package uses cgo
)

// rule is one row of the table.
type rule struct {
	row   int                 // position in the table (imports must point to smaller rows)
	deps  map[string]struct{} // cuseal packages (relative to the module) it may import, and "C"
	tests map[string]struct{} // what its _test.go files may import in addition
}

// pkg is what `go list -json` says about one package.
type pkg struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
	CgoFiles     []string
	Error        *struct{ Err string }
}

// TestImportRules fails, naming the package and the import, when an import breaks the
// table in docs/architecture.md: a cuseal import the row does not list, cgo in a package
// whose row lacks `C`, a test import in neither column, an import of a package listed
// below (arrows point up), a package without a row, a row without a package, or a listed
// import that no build uses (the table must say what the code does).
func TestImportRules(t *testing.T) {
	root := moduleRoot(t)
	module := modulePath(t, root)
	rules := parseTable(t, filepath.Join(root, docPath))
	for _, v := range violations(module, rules, goListAll(t, root)) {
		t.Error(v)
	}
}

// violations checks the go list output of every tag set against the rules; each problem is
// one line, with the tag sets it shows up in.
func violations(module string, rules map[string]*rule, lists map[string][]pkg) []string {
	var out []string
	// The table itself: rows import only rows above them.
	for room, r := range rules {
		for i, col := range []map[string]struct{}{r.deps, r.tests} {
			for d := range col {
				if d == cgoMarker {
					continue
				}
				dr, ok := rules[d]
				switch {
				case !ok:
					out = append(out, fmt.Sprintf("%s: the row of %s lists %s, which has no row", docPath, room, d))
				case i == 0 && dr.row >= r.row:
					out = append(out, fmt.Sprintf("%s: %s may import %s, listed below it: move the row up or the import out", docPath, room, d))
				}
			}
		}
	}

	bad := map[string][]string{} // problem -> the tag sets showing it
	usedDeps := map[string]map[string]bool{}
	usedTests := map[string]map[string]bool{}
	for room := range rules {
		usedDeps[room], usedTests[room] = map[string]bool{}, map[string]bool{}
	}
	seen := map[string]bool{}
	for _, tags := range tagSets {
		for _, p := range lists[tags] {
			if p.Error != nil {
				bad[fmt.Sprintf("go list %s: %s", p.ImportPath, p.Error.Err)] = append(bad[fmt.Sprintf("go list %s: %s", p.ImportPath, p.Error.Err)], tags)
				continue
			}
			room, ok := relative(module, p.ImportPath)
			if !ok {
				continue
			}
			seen[room] = true
			r, ok := rules[room]
			if !ok {
				msg := fmt.Sprintf("package %s has no row in %s's package table: add one (job, imports)", room, docPath)
				bad[msg] = append(bad[msg], tags)
				continue
			}
			if len(p.CgoFiles) > 0 {
				if _, ok := r.deps[cgoMarker]; !ok {
					msg := fmt.Sprintf("%s uses cgo (%s) but its row in %s lacks `C`", room, strings.Join(p.CgoFiles, ", "), docPath)
					bad[msg] = append(bad[msg], tags)
				}
				usedDeps[room][cgoMarker] = true
			}
			for _, imp := range p.Imports {
				dep, ok := relative(module, imp)
				if !ok {
					continue
				}
				if _, ok := r.deps[dep]; ok {
					usedDeps[room][dep] = true
					continue
				}
				msg := fmt.Sprintf("%s imports %s, which its row in %s does not allow (allowed: %s)", room, dep, docPath, names(r.deps))
				bad[msg] = append(bad[msg], tags)
			}
			for _, imp := range append(slices.Clone(p.TestImports), p.XTestImports...) {
				dep, ok := relative(module, imp)
				if !ok || dep == room {
					continue
				}
				if _, ok := r.tests[dep]; ok {
					usedTests[room][dep] = true
					continue
				}
				if _, ok := r.deps[dep]; ok {
					continue
				}
				msg := fmt.Sprintf("%s's tests import %s, which its row in %s does not allow (allowed: %s)", room, dep, docPath, names(r.deps, r.tests))
				bad[msg] = append(bad[msg], tags)
			}
		}
	}
	for msg, tags := range bad {
		out = append(out, fmt.Sprintf("%s [tags: %s]", msg, tagList(tags)))
	}
	for room, r := range rules {
		if !seen[room] {
			out = append(out, fmt.Sprintf("%s lists package %s, which go list does not find", docPath, room))
			continue
		}
		for d := range r.deps {
			if !usedDeps[room][d] {
				out = append(out, fmt.Sprintf("%s allows %s to import %s, but no build's non-test code does: remove it from the row", docPath, room, d))
			}
		}
		for d := range r.tests {
			if !usedTests[room][d] {
				out = append(out, fmt.Sprintf("%s allows %s's tests to import %s, but none does: remove it from the row", docPath, room, d))
			}
		}
	}
	slices.Sort(out)
	return out
}

func tagList(tags []string) string {
	var out []string
	for _, t := range tags {
		if t == "" {
			t = "none"
		}
		out = append(out, t)
	}
	return strings.Join(out, "; ")
}

// goListAll runs go list once per tag set, concurrently (a few seconds in all).
func goListAll(t *testing.T, root string) map[string][]pkg {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go not on PATH (go test puts GOROOT/bin there): %v", err)
	}
	out := make(map[string][]pkg, len(tagSets))
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make([]error, len(tagSets))
	for i, tags := range tagSets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ps, err := goList(goBin, root, tags)
			errs[i] = err
			mu.Lock()
			out[tags] = ps
			mu.Unlock()
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	return out
}

func goList(goBin, root, tags string) ([]pkg, error) {
	cmd := exec.Command(goBin, "list", "-e", "-tags="+tags,
		"-json=ImportPath,Imports,TestImports,XTestImports,CgoFiles,Error", "./...")
	cmd.Dir = root
	// cgo on, so files that import "C" are listed as they are in the cuda and supraseal
	// builds; go list does not run the C compiler.
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	raw, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -tags=%q: %v: %s", tags, err, stderr.String())
	}
	var ps []pkg
	dec := json.NewDecoder(bytes.NewReader(raw))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list -tags=%q: %v", tags, err)
		}
		ps = append(ps, p)
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("go list -tags=%q: no packages", tags)
	}
	return ps, nil
}

var backticked = regexp.MustCompile("`([^`]+)`")

// parseTable reads the package table: the one whose header starts with tableHead. Only
// backticked names in the import columns count ("—" or prose around them is ignored).
func parseTable(t *testing.T, path string) map[string]*rule {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("the import rules live in %s: %v", path, err)
	}
	defer f.Close()
	rules := map[string]*rule{}
	in := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		l := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(l, tableHead):
			in = true
			continue
		case !in:
			continue
		case strings.HasPrefix(l, "|---"):
			continue
		case !strings.HasPrefix(l, "|"):
			in = false
			continue
		}
		cells := strings.Split(strings.Trim(l, "|"), "|")
		if len(cells) != 4 {
			t.Fatalf("%s:%d: a package row has 4 cells (package, job, imports, tests also import), got %d", path, line, len(cells))
		}
		room := backticked.FindStringSubmatch(cells[0])
		if room == nil {
			t.Fatalf("%s:%d: no `package` in the first cell", path, line)
		}
		if _, dup := rules[room[1]]; dup {
			t.Fatalf("%s:%d: %s has two rows", path, line, room[1])
		}
		rules[room[1]] = &rule{row: len(rules), deps: set(cells[2]), tests: set(cells[3])}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rules) == 0 {
		t.Fatalf("%s: no table whose header starts with %q", path, tableHead)
	}
	return rules
}

func set(cell string) map[string]struct{} {
	m := map[string]struct{}{}
	for _, s := range backticked.FindAllStringSubmatch(cell, -1) {
		m[s[1]] = struct{}{}
	}
	return m
}

func names(ms ...map[string]struct{}) string {
	var out []string
	for _, m := range ms {
		for k := range m {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	if len(out) == 0 {
		return "no cuseal package"
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// relative maps an import path inside the module to its directory ("porep/groth16").
func relative(module, path string) (string, bool) {
	rel, ok := strings.CutPrefix(path, module+"/")
	return rel, ok
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test's directory")
		}
		dir = parent
	}
}

func modulePath(t *testing.T, root string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if m, ok := strings.CutPrefix(strings.TrimSpace(l), "module "); ok {
			return strings.TrimSpace(m)
		}
	}
	t.Fatal("go.mod has no module line")
	return ""
}
