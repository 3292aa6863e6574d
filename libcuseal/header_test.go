// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

// The header against what is built and written from it: the library's
// exported symbols, the documentation's C examples, the Python binding's
// declarations and the documentation's Python examples.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// headerFunctions returns the names of the functions include/cuseal_porep.h
// declares.
func headerFunctions(t *testing.T) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "include", "cuseal_porep.h"))
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile(`(?m)^(?:int|void|uint32_t|cuseal_porep_cancel\*)\s+(cuseal_porep_\w+)\(`)
	out := map[string]bool{}
	for _, m := range decl.FindAllStringSubmatch(string(b), -1) {
		out[m[1]] = true
	}
	if len(out) < 20 {
		t.Fatalf("only %d function declarations found in cuseal_porep.h", len(out))
	}
	return out
}

// TestExportedSymbols: `nm -D libcuseal.so` lists exactly the functions
// the header declares (those with the cuseal_porep_ prefix): a call
// declared and not exported, or exported and not declared, fails here.
func TestExportedSymbols(t *testing.T) {
	nm := tool(t, "to list the library's dynamic symbols", "nm")
	lib := buildLib(t, "c-shared")
	declared := headerFunctions(t)
	exported := map[string]bool{}
	for _, line := range strings.Split(string(run(t, nm, "-D", "--defined-only", lib)), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && f[1] == "T" && strings.HasPrefix(f[2], "cuseal_porep_") {
			exported[f[2]] = true
		}
	}
	for name := range declared {
		if !exported[name] {
			t.Errorf("%s is declared in cuseal_porep.h but not exported by libcuseal.so", name)
		}
	}
	for name := range exported {
		if !declared[name] {
			t.Errorf("%s is exported by libcuseal.so but not declared in cuseal_porep.h", name)
		}
	}
	t.Logf("%d functions declared and exported", len(declared))
}

// docExamplePrelude declares what the C fragments of docs/c-abi.md use
// without declaring (a caller's variables), so that each compiles inside a
// function against the header.
const docExamplePrelude = `#include <stdio.h>
#include "cuseal_porep.h"
void doc_example(void);
void doc_example(void) {
	int rc = 0;
	char* err = NULL;
	cuseal_porep_options o;
	uint8_t *proof = NULL, *agg = NULL;
	size_t proof_len = 0, agg_len = 0, v0_len = 0, v1_len = 0, v_len = 0, p0_len = 0, p1_len = 0;
	static const uint8_t randomness[32], comm_r_old[32], comm_r_new[32], comm_d_new[32];
	const uint8_t *v0 = NULL, *v1 = NULL, *v = NULL, *p0 = NULL, *p1 = NULL;
	uint64_t miner = 1000, n_eligible = 1;
	cuseal_porep_sector_info sector;
	cuseal_porep_options_init(&o);
	sector.sector_number = 1;
	{
`

// TestDocExamples compiles every C example of docs/c-abi.md against the
// header (C99, -Wall -Wextra -Werror -pedantic): whole programs as they
// are, fragments inside a function that declares their caller's variables.
func TestDocExamples(t *testing.T) {
	cc := tool(t, "to compile the documentation's C examples", "cc", "gcc", "clang")
	doc, err := os.ReadFile(filepath.Join("..", "docs", "c-abi.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```c\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	if len(blocks) < 5 {
		t.Fatalf("docs/c-abi.md has %d C examples, want one per kind (C2, WindowPoSt, WinningPoSt, SnapDeals, aggregation)", len(blocks))
	}
	dir := t.TempDir()
	for i, m := range blocks {
		src := m[1]
		if !strings.Contains(src, "#include") {
			src = docExamplePrelude + src + "\t}\n\t(void)rc; (void)err; (void)proof; (void)agg; (void)proof_len; (void)agg_len;\n}\n"
		}
		f := filepath.Join(dir, fmt.Sprintf("example%d.c", i))
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			run(t, cc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-Wno-unused-variable",
				"-Wno-unused-but-set-variable", "-fsyntax-only", "-I", filepath.Join("..", "include"), f)
		})
	}
}

// TestPythonBindingMatchesHeader runs testdata/check_binding.py:
// examples/cuseal_porep.py declares every function of the header with its
// number of parameters, and the Python examples of docs/c-abi.md use only
// what the binding and the header have, with the right argument counts.
func TestPythonBindingMatchesHeader(t *testing.T) {
	py := python(t, "for the binding check")
	lib := buildLib(t, "c-shared")
	var env []string
	if cudaBuild {
		env = []string{"LD_PRELOAD=" + lib} // see TestPythonCtypes
	}
	out := runEnv(t, env, py, filepath.Join("testdata", "check_binding.py"), lib, filepath.Join("..", "include", "cuseal_porep.h"),
		filepath.Join("..", "examples"), filepath.Join("..", "docs", "c-abi.md"))
	kv := parseKV(t, out)
	if n, _ := strconv.Atoi(kv["DECLARED"]); n != len(headerFunctions(t)) {
		t.Errorf("the binding declares %s functions, the header has %d", kv["DECLARED"], len(headerFunctions(t)))
	}
	if n, _ := strconv.Atoi(kv["DOC_CALLS"]); n < 4 {
		t.Errorf("the Python examples make %s calls into the library, want one per kind", kv["DOC_CALLS"])
	}
}

// TestGoEntryPrototypes: entry.h, through which the C entry points call
// the exports' Go side, declares exactly the exports cgo made
// (libcuseal_go_* in the header cgo writes beside libcuseal.so), each
// with cgo's prototype: the two compile together, C99 with -Werror.
func TestGoEntryPrototypes(t *testing.T) {
	cc := tool(t, "to compile entry.h with cgo's header", "cc", "gcc", "clang")
	lib := buildLib(t, "c-shared")
	cgoHeader := strings.TrimSuffix(lib, ".so") + ".h"
	names := func(path string) []string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range regexp.MustCompile(`\b(libcuseal_go_\w+)\(`).FindAllStringSubmatch(string(b), -1) {
			out = append(out, m[1])
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	if got, want := names("entry.h"), names(cgoHeader); !slices.Equal(got, want) || len(want) < 19 {
		t.Errorf("entry.h declares %v\ncgo exports %v", got, want)
	}
	src := filepath.Join(t.TempDir(), "entry_check.c")
	if err := os.WriteFile(src, []byte("#include \"libcuseal.h\"\n#include \"entry.h\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, cc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", "-I", filepath.Dir(lib), "-I", filepath.Join("..", "include"), "-I", ".", src)
}
