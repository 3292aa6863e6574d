// SPDX-License-Identifier: Apache-2.0 OR MIT

package archtest

import (
	"strings"
	"testing"
)

// TestViolations feeds the checker a made-up table and go list output with one of each
// problem, so a checker that never complains cannot pass.
func TestViolations(t *testing.T) {
	const m = "example.com/m"
	s := func(names ...string) map[string]struct{} {
		out := map[string]struct{}{}
		for _, n := range names {
			out[n] = struct{}{}
		}
		return out
	}
	rules := map[string]*rule{
		"low":   {row: 0, deps: s(), tests: s()},
		"cgo":   {row: 1, deps: s("C", "low"), tests: s()},
		"high":  {row: 2, deps: s("low", "cgo"), tests: s("extra")},
		"extra": {row: 3, deps: s("low"), tests: s()},
		"ghost": {row: 4, deps: s(), tests: s()},
		"up":    {row: 5, deps: s("late"), tests: s()},
		"late":  {row: 6, deps: s(), tests: s()},
	}
	p := func(path string, imports []string, tests []string, cgo ...string) pkg {
		for i := range imports {
			imports[i] = m + "/" + imports[i]
		}
		for i := range tests {
			tests[i] = m + "/" + tests[i]
		}
		return pkg{ImportPath: m + "/" + path, Imports: imports, TestImports: tests, CgoFiles: cgo}
	}
	lists := map[string][]pkg{}
	for _, tags := range tagSets {
		lists[tags] = []pkg{
			p("low", []string{"high"}, nil, "x.go"), // forbidden import, undeclared cgo
			p("cgo", []string{"low"}, nil, "c.go"),
			p("high", []string{"low"}, []string{"up"}), // "cgo" unused; test import not allowed
			p("extra", []string{"low"}, nil),
			p("up", []string{"late"}, nil),
			p("late", nil, nil),
			p("norow", nil, nil),
		}
	}
	lists["cuda"] = append(lists["cuda"], p("high", []string{"low", "cgo"}, []string{"extra"})) // used in one tag set
	got := strings.Join(violations(m, rules, lists), "\n")
	for _, want := range []string{
		"low imports high, which its row in docs/architecture.md does not allow (allowed: no cuseal package) [tags: none; cuda; supraseal; cuda,supraseal]",
		"low uses cgo (x.go) but its row in docs/architecture.md lacks `C`",
		"high's tests import up, which its row",
		"package norow has no row",
		"lists package ghost, which go list does not find",
		"up may import late, listed below it",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	for _, unwanted := range []string{"allows high to import cgo", "allows high's tests to import extra", "extra imports", "cgo imports"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("unexpected %q in:\n%s", unwanted, got)
		}
	}
	delete(lists, "cuda")
	lists["cuda"] = lists[""]
	if got := strings.Join(violations(m, rules, lists), "\n"); !strings.Contains(got, "allows high to import cgo, but no build's non-test code does") ||
		!strings.Contains(got, "allows high's tests to import extra, but none does") {
		t.Errorf("unused rules not reported:\n%s", got)
	}
}
