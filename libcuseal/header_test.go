// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cgo

package main

// The header against what is built and written from it: the library's
// exported symbols, the documentation's C examples, the Python binding's
// declarations and the documentation's Python examples.

import (
	"bytes"
	"encoding/hex"
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

// docHelperHeader is the first line of docs/c-abi.md's helper block: the
// file the example programs include.
const docHelperHeader = "/* cuseal_example.h:"

// TestDocExamples (issue 44, item 4): every C block of docs/c-abi.md is
// whole: the helper header (saved as cuseal_example.h) and one program per
// kind, each compiled (C99, -Wall -Wextra -Werror -pedantic) and linked
// against libcuseal.so. The test-parameters program also runs: it makes
// WindowPoSt 2 KiB test parameters and prints the library's info.
func TestDocExamples(t *testing.T) {
	cc := tool(t, "to compile the documentation's C examples", "cc", "gcc", "clang")
	doc, err := os.ReadFile(filepath.Join("..", "docs", "c-abi.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```c\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	if len(blocks) < 7 {
		t.Fatalf("docs/c-abi.md has %d C blocks, want the helpers and a program for test parameters, C2, WindowPoSt, WinningPoSt, SnapDeals, aggregation", len(blocks))
	}
	if !strings.HasPrefix(blocks[0][1], docHelperHeader) {
		t.Fatalf("the first C block of docs/c-abi.md is not the helpers (%q)", docHelperHeader)
	}
	lib := buildLib(t, "c-shared")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "cuseal_example.h"), []byte(blocks[0][1]), 0o644); err != nil {
		t.Fatal(err)
	}
	var programs []string
	for i, m := range blocks[1:] {
		if !strings.Contains(m[1], "int main(") {
			t.Errorf("C block %d of docs/c-abi.md is not a whole program:\n%s", i+2, m[1])
			continue
		}
		src := filepath.Join(dir, fmt.Sprintf("example%d.c", i+1))
		if err := os.WriteFile(src, []byte(m[1]), 0o644); err != nil {
			t.Fatal(err)
		}
		exe := strings.TrimSuffix(src, ".c")
		run(t, cc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I", filepath.Join("..", "include"), "-I", dir,
			src, "-o", exe, "-L", filepath.Dir(lib), "-lcuseal", "-Wl,-rpath,"+filepath.Dir(lib))
		programs = append(programs, exe)
	}
	var env []string
	if cudaBuild {
		env = []string{"LD_PRELOAD=" + lib}
	}
	out := string(runEnv(t, env, programs[0], t.TempDir()))
	if !strings.Contains(out, `"not_for_production":true`) || !strings.Contains(out, `"warnings":`) || !strings.Contains(out, fmt.Sprintf(`"abi_version":%d`, abiVersion)) {
		t.Errorf("the test-parameters example printed:\n%s", out)
	}
	// The WindowPoSt program proves and verifies the window reference vector (a CPU proof).
	w := loadVectors(t).window
	args := []string{w.ParamsDir(t), hex.EncodeToString(w.Randomness)}
	for i, s := range w.Sectors {
		args = append(args, strconv.FormatUint(uint64(s.SectorNumber), 10), hex.EncodeToString(commR(t, w, i)), w.VanillaFiles[i])
	}
	if out := string(runEnv(t, env, programs[2], args...)); !strings.Contains(out, "verified=true") {
		t.Errorf("the WindowPoSt example printed:\n%s", out)
	}
	// A failing call: its message reaches the output (check reads err after the call; a
	// new user found the examples printing "status 2: " and nothing more).
	missing := filepath.Join(t.TempDir(), "no-params")
	cmd, _ := command(t, programs[2], append([]string{missing}, args[1:]...)...)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil || !strings.Contains(stderr.String(), "generate_window_post_with_vanilla: status") || !strings.Contains(stderr.String(), missing) {
		t.Errorf("the WindowPoSt example without its parameters: %v, stderr:\n%s", err, stderr.String())
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
