// SPDX-License-Identifier: Apache-2.0 OR MIT

package archtest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// spdxLine is the license line every source file carries near its top
// (LICENSE-APACHE, LICENSE-MIT).
const spdxLine = "SPDX-License-Identifier: Apache-2.0 OR MIT"

// licensed reports whether a file of this name must carry spdxLine: source
// files in the languages of the project and its build scripts.
func licensed(name string) bool {
	switch filepath.Ext(name) {
	case ".go", ".c", ".cpp", ".hpp", ".cuh", ".cu", ".h", ".rs", ".sh", ".py":
		return true
	}
	switch name {
	case "CMakeLists.txt", "Cargo.toml", "cuseal.pc.in", "run":
		return true
	}
	return false
}

// Every source file of the module (outside testdata and build outputs)
// names its license in its first three lines.
func TestSPDXHeaders(t *testing.T) {
	root := moduleRoot(t)
	skipDir := map[string]bool{"testdata": true, "build": true, "bin": true, "target": true, "node_modules": true}
	var missing []string
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (skipDir[name] || strings.HasPrefix(name, ".") && name != ".ci") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !licensed(name) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		lines := bytes.SplitN(b, []byte("\n"), 4)
		head := bytes.Join(lines[:min(3, len(lines))], []byte("\n"))
		if !bytes.Contains(head, []byte(spdxLine)) {
			rel, _ := filepath.Rel(root, path)
			missing = append(missing, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("only %d source files found under %s", n, root)
	}
	for _, f := range missing {
		t.Errorf("%s: no %q in its first three lines", f, spdxLine)
	}
}
