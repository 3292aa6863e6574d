// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cgo

package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestForkedChild: calls from a child forked (without exec) after the
// library was loaded are refused at once with CUSEAL_POREP_ERR_INTERNAL,
// their outputs cleared, instead of hanging in the Go runtime (which does
// not survive fork): testdata/fork_test.c forks 20 children while another
// thread of the parent is in a call (where entering Go hung a fifth of the
// time), and testdata/fork_ctypes.py starts a Python multiprocessing
// worker with "fork" (refused) and with "spawn" (works).
func TestForkedChild(t *testing.T) {
	lib := buildLib(t, "c-shared")
	wantMsg := func(kv map[string]string, key, call string) {
		t.Helper()
		if m := kv[key]; !strings.HasPrefix(m, "libcuseal: "+call+": called in process ") || !strings.Contains(m, "does not survive fork() without exec()") {
			t.Errorf("%s = %q", key, m)
		}
	}
	kv := parseKV(t, run(t, compileProgram(t, lib, "fork_test.c", filepath.Join("..", "include")), "20"))
	wantMsg(kv, "CHILD_MSG", "info")

	py := python(t, "for the multiprocessing check")
	var env []string
	if cudaBuild {
		env = []string{"LD_PRELOAD=" + lib} // see TestPythonCtypes
	}
	kv = parseKV(t, runEnv(t, env, py, filepath.Join("testdata", "fork_ctypes.py"), lib))
	wantMsg(kv, "FORK_MSG", "info")
}
