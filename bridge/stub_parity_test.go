// SPDX-License-Identifier: Apache-2.0 OR MIT

package bridge

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// exportedAPI returns the exported functions, methods and types declared in
// the package's non-test files whose build constraint is constraint, each
// as "name: signature" (types: just the name; their fields may differ).
func exportedAPI(t *testing.T, constraint string) map[string]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	api := map[string]string{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		// The constraint line stands in the header, before the package clause
		// (after the SPDX line).
		hdr, _, _ := strings.Cut("\n"+string(src), "\npackage ")
		if !strings.Contains(hdr+"\n", "\n//go:build "+constraint+"\n") {
			continue
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				key := d.Name.Name
				if d.Recv != nil {
					var b strings.Builder
					printer.Fprint(&b, fset, d.Recv.List[0].Type)
					key = b.String() + "." + key
				}
				var b strings.Builder
				printer.Fprint(&b, fset, d.Type)
				api[key] = b.String()
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.IsExported() {
						api["type "+ts.Name.Name] = "type"
					}
				}
			}
		}
	}
	return api
}

// TestStubParity: the !cuda stubs (native_stub.go, prover_stub.go) declare
// every exported function, method and type of the cuda files with the same
// signature, so a new C ABI wrapper cannot be added on one side only (the
// other build would fail to compile only where someone builds it).
func TestStubParity(t *testing.T) {
	cuda := exportedAPI(t, "cuda && cgo")
	stub := exportedAPI(t, "!cuda || !cgo")
	if len(cuda) == 0 || len(stub) == 0 {
		t.Fatalf("found %d cuda and %d stub declarations: build constraints changed?", len(cuda), len(stub))
	}
	var diffs []string
	for k, v := range cuda {
		if w, ok := stub[k]; !ok {
			diffs = append(diffs, "missing in the stub: "+k+" "+v)
		} else if w != v {
			diffs = append(diffs, "signature differs: "+k+": cuda "+v+", stub "+w)
		}
	}
	for k, v := range stub {
		if _, ok := cuda[k]; !ok {
			diffs = append(diffs, "only in the stub: "+k+" "+v)
		}
	}
	t.Logf("%d exported declarations in the cuda files, %d in the stubs", len(cuda), len(stub))
	sort.Strings(diffs)
	for _, d := range diffs {
		t.Error(d)
	}
}
