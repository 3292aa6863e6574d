// SPDX-License-Identifier: Apache-2.0 OR MIT

package archtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReliabilityDoc: every test docs/reliability.md's table cites (a cell
// "`pkg`: `TestA`, `TestB/sub` (tier); `pkg2`: ...") is a func of that
// package's _test.go files, so the document does not outlive its tests.
func TestReliabilityDoc(t *testing.T) {
	root := moduleRoot(t)
	doc, err := os.ReadFile(filepath.Join(root, "docs/reliability.md"))
	if err != nil {
		t.Fatal(err)
	}
	cite := regexp.MustCompile("`([a-z][a-z0-9/]*)`: ((?:`Test[A-Za-z0-9_/]*`(?:, | \\([^)]*\\)|)\\s*)+)")
	name := regexp.MustCompile("`(Test[A-Za-z0-9_]*)[^`]*`")
	n := 0
	for _, line := range strings.Split(string(doc), "\n") {
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		for _, m := range cite.FindAllStringSubmatch(line, -1) {
			src := testSources(t, filepath.Join(root, m[1]))
			for _, tm := range name.FindAllStringSubmatch(m[2], -1) {
				n++
				if !strings.Contains(src, "func "+tm[1]+"(t *testing.T)") {
					t.Errorf("docs/reliability.md cites %s in %s, which has no such test", tm[1], m[1])
				}
			}
		}
	}
	if n < 10 {
		t.Fatalf("found %d cited tests in docs/reliability.md: the citation form changed?", n)
	}
}

// testSources is the text of the _test.go files in dir.
func testSources(t *testing.T, dir string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil || len(files) == 0 {
		t.Errorf("%s: no test files (%v)", dir, err)
		return ""
	}
	var b strings.Builder
	for _, f := range files {
		s, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(s)
	}
	return b.String()
}
