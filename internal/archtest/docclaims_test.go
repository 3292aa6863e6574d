// SPDX-License-Identifier: Apache-2.0 OR MIT

package archtest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Limits the docs state: README.md is the front door (at most 200 lines);
// a hand-written Go file of the product holds one room a reader can keep
// in mind (at most 600 lines; generated *.pb.go files are exempt).
const (
	readmeMaxLines  = 200
	productMaxLines = 600
)

// productGoFiles maps each hand-written, non-test Go file of the module
// (outside testdata, build outputs and testsupport) to its content.
func productGoFiles(t *testing.T, root string) map[string][]byte {
	t.Helper()
	skipDir := map[string]bool{"testdata": true, "build": true, "bin": true, "target": true, "testsupport": true}
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (skipDir[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, ".pb.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		out[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 100 {
		t.Fatalf("found %d product Go files; the walk is not what this test expects", len(out))
	}
	return out
}

// TestDocClaims holds the claims of README.md and docs/architecture.md
// that the tree itself can show.
func TestDocClaims(t *testing.T) {
	root := moduleRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(readme, []byte("\n")); n > readmeMaxLines {
		t.Errorf("README.md: %d lines, at most %d (the front door; move detail to docs/)", n, readmeMaxLines)
	}
	files := productGoFiles(t, root)
	// Conventions: sizes of encodings are named constants, groth16.ProofSize
	// for a proof, never the literal 192 in arithmetic.
	literal := regexp.MustCompile(`[*]\s*192\b|\b192\s*[*]`)
	for path, b := range files {
		if n := bytes.Count(b, []byte("\n")); n > productMaxLines {
			t.Errorf("%s: %d lines, at most %d: split it along a seam a reader can name", path, n, productMaxLines)
		}
		for i, line := range strings.Split(string(b), "\n") {
			code, _, _ := strings.Cut(line, "//")
			if literal.MatchString(code) {
				t.Errorf("%s:%d: a proof's 192 bytes as a literal; use groth16.ProofSize", path, i+1)
			}
		}
	}
	// Words: porep's per-family files cannot be taken for its sub-packages:
	// no porep/<name>.go beside a package porep/<name>/.
	for path := range files {
		dir, file := filepath.Split(path)
		if dir != "porep/" {
			continue
		}
		if st, err := os.Stat(filepath.Join(root, "porep", strings.TrimSuffix(file, ".go"))); err == nil && st.IsDir() {
			t.Errorf("%s: named as the package porep/%s is; name it after the family (family_<name>.go)", path, strings.TrimSuffix(file, ".go"))
		}
	}
	for _, f := range []string{"porep/family.go", "porep/family_porep.go", "porep/family_post.go", "porep/family_update.go", "porep/errors.go"} {
		if _, ok := files[f]; !ok {
			t.Errorf("docs/architecture.md names %s, which is not there", f)
		}
	}
	// Words: a family is porep's (a type), a kind the engine's (a
	// constructor per kind): no name is both.
	decl := func(path, re string) bool { return regexp.MustCompile(re).Match(files[path]) }
	for _, name := range []string{"porepKind", "postKind", "updateKind"} {
		found := false
		for path := range files {
			if strings.HasPrefix(path, "porep/engine/") && decl(path, `(?m)^func `+name+`\(`) {
				found = true
			}
		}
		if !found {
			t.Errorf("porep/engine has no func %s (docs/architecture.md, Words)", name)
		}
	}
	for path := range files {
		if strings.HasPrefix(path, "porep/engine/") && decl(path, `(?m)^func (porep|post|update)Family\(`) {
			t.Errorf("%s: a constructor named like porep's family types; kinds are the engine's (porepKind, …)", path)
		}
	}
}
