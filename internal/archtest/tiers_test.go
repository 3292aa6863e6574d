// SPDX-License-Identifier: Apache-2.0 OR MIT

package archtest

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const (
	testingDoc = "docs/testing.md"
	tierHead   = "| Package | Test | Tier | Why |"
	gatePkg    = "testsupport/testenv"
)

// gated is one test (or helper) that asks testsupport/testenv for a tier.
type gated struct {
	pkg, fn, tier string
	pos           string
}

// TestTiersDocumented fails when a function in a _test.go file asks
// testsupport/testenv for the long or huge tier (testenv.Long, testenv.Huge,
// testenv.Enabled) and docs/testing.md's tier table has no row for it with
// that tier, or when the table has a row that no code backs: the table is
// the list of what the default run leaves out, true by construction.
func TestTiersDocumented(t *testing.T) {
	root := moduleRoot(t)
	inCode := gatedTests(t, root)
	inDoc := parseTierTable(t, filepath.Join(root, testingDoc))
	for key, g := range inCode {
		tier, ok := inDoc[key]
		switch {
		case !ok:
			t.Errorf("%s: %s %s is a %s test but %s's tier table has no row `| `%s` | `%s` | %s | why |`", g.pos, g.pkg, g.fn, g.tier, testingDoc, g.pkg, g.fn, g.tier)
		case tier != g.tier:
			t.Errorf("%s: %s %s is a %s test; %s says %s", g.pos, g.pkg, g.fn, g.tier, testingDoc, tier)
		}
	}
	for key, tier := range inDoc {
		if _, ok := inCode[key]; !ok {
			t.Errorf("%s: row %s (%s) names no function that asks testsupport/testenv for a tier", testingDoc, key, tier)
		}
	}
}

// oldGates are the gates testsupport/testenv replaced; only it may use them.
// (Spelled in pieces, so that a grep for them finds the gate alone.)
var oldGates = regexp.MustCompile(strings.Join([]string{
	`testing\.` + `Short\(\)`, `"test\.` + `short"`, // -short, also read through flag.Lookup
	"CUSEAL_" + "RUST_GOLDEN_LARGE", "CUSEAL_" + "SKIP_32G", "CUSEAL_" + "HOST_EMULATION_2K", "CUSEAL_" + "BENCH_LARGE",
}, "|"))

// TestOneGate fails when a Go file outside testsupport/testenv reads -short or
// one of the environment gates it replaced: one variable chooses what runs.
func TestOneGate(t *testing.T) {
	root := moduleRoot(t)
	walkGo(t, root, false, func(rel string, src []byte) {
		if strings.HasPrefix(rel, gatePkg+"/") || strings.HasPrefix(rel, "internal/archtest/") {
			return
		}
		sc := bufio.NewScanner(strings.NewReader(string(src)))
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			if m := oldGates.FindString(sc.Text()); m != "" {
				t.Errorf("%s:%d: %s: gate tests through testsupport/testenv (testenv.Long, testenv.Huge, testenv.Enabled)", rel, n, m)
			}
		}
	})
}

// gatedTests parses every _test.go file and returns, by "pkg Func", the
// top-level functions that call testenv.Long/Huge/Enabled, with the
// highest tier they name.
func gatedTests(t *testing.T, root string) map[string]gated {
	out := map[string]gated{}
	fset := token.NewFileSet()
	walkGo(t, root, true, func(rel string, src []byte) {
		if strings.HasPrefix(rel, gatePkg+"/") {
			return
		}
		f, err := parser.ParseFile(fset, rel, src, 0)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			return
		}
		alias := ""
		for _, imp := range f.Imports {
			if strings.HasSuffix(strings.Trim(imp.Path.Value, `"`), "/"+gatePkg) {
				alias = "testenv"
				if imp.Name != nil {
					alias = imp.Name.Name
				}
			}
		}
		if alias == "" {
			return
		}
		pkg := filepath.ToSlash(filepath.Dir(rel))
		// Top-level functions, and package-level variables holding a function
		// literal (var helper = func(t *testing.T) { testenv.Long(t, ...) }).
		type body struct {
			name string
			pos  token.Pos
			node ast.Node
		}
		var bodies []body
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body != nil && d.Recv == nil { // methods: none today
					bodies = append(bodies, body{d.Name.Name, d.Pos(), d.Body})
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					vs, ok := sp.(*ast.ValueSpec)
					if !ok {
						continue
					}
					for i, v := range vs.Values {
						if fl, ok := v.(*ast.FuncLit); ok && i < len(vs.Names) {
							bodies = append(bodies, body{vs.Names[i].Name, vs.Names[i].Pos(), fl.Body})
						}
					}
				}
			}
		}
		for _, b := range bodies {
			tier := ""
			ast.Inspect(b.node, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				name, ok := selector(call.Fun, alias)
				if !ok {
					return true
				}
				var this string
				switch name {
				case "Long":
					this = "long"
				case "Huge":
					this = "huge"
				case "Enabled":
					if len(call.Args) == 1 {
						switch a, _ := selector(call.Args[0], alias); a {
						case "TierLong":
							this = "long"
						case "TierHuge":
							this = "huge"
						}
					}
				}
				if this == "huge" || (this == "long" && tier == "") {
					tier = this
				}
				return true
			})
			if tier == "" {
				continue
			}
			key := pkg + " " + b.name
			out[key] = gated{pkg: pkg, fn: b.name, tier: tier, pos: fset.Position(b.pos).String()}
		}
	})
	return out
}

// selector returns name when e is alias.name.
func selector(e ast.Expr, alias string) (string, bool) {
	se, ok := e.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	id, ok := se.X.(*ast.Ident)
	if !ok || id.Name != alias {
		return "", false
	}
	return se.Sel.Name, true
}

// parseTierTable reads the tier table of docs/testing.md: rows
// `| `pkg` | `TestName` | long|huge | why |`, keyed "pkg TestName".
func parseTierTable(t *testing.T, path string) map[string]string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	in := false
	for n, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, tierHead) {
			in = true
			continue
		}
		if !in {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			if len(out) > 0 {
				break
			}
			continue
		}
		if strings.HasPrefix(line, "|---") || strings.HasPrefix(line, "| ---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 4 {
			t.Errorf("%s:%d: a tier row needs four cells: %s", testingDoc, n+1, line)
			continue
		}
		pkg := strings.Trim(strings.TrimSpace(cells[0]), "`")
		fn := strings.Trim(strings.TrimSpace(cells[1]), "`")
		tier := strings.TrimSpace(cells[2])
		if tier != "long" && tier != "huge" {
			t.Errorf("%s:%d: tier %q: want long or huge", testingDoc, n+1, tier)
		}
		if strings.TrimSpace(cells[3]) == "" {
			t.Errorf("%s:%d: %s %s: say why it is %s", testingDoc, n+1, pkg, fn, tier)
		}
		key := pkg + " " + fn
		if _, dup := out[key]; dup {
			t.Errorf("%s:%d: %s listed twice", testingDoc, n+1, key)
		}
		out[key] = tier
	}
	if !in {
		t.Fatalf("%s: no tier table (a line starting %q)", testingDoc, tierHead)
	}
	return out
}

// walkGo calls fn for every .go file of the module (tests only, or all),
// with its path relative to root, skipping build outputs and testdata.
func walkGo(t *testing.T, root string, testsOnly bool, fn func(rel string, src []byte)) {
	t.Helper()
	skip := []string{".git", "build", "bin", "testdata", "target", "node_modules"}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (slices.Contains(skip, d.Name()) || strings.HasPrefix(d.Name(), "build-") || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || (testsOnly && !strings.HasSuffix(p, "_test.go")) {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		fn(filepath.ToSlash(rel), src)
		return nil
	})
	if err != nil {
		t.Fatal(fmt.Errorf("walking %s: %w", root, err))
	}
}
