// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

import (
	"io"
	"os"
	"sync"
)

// testWarnings records every warning the Go API gave during a call — the
// TEST-parameters warning, which it gives once per process and parameter
// set (paramfile.TestParamsWarning) — for cuseal_porep_info's "warnings".
// A call without a logger also writes each one to warnOut at once: with
// CUSEAL_POREP_LOG_OFF it would otherwise be lost for good, and a test
// parameter must never be silent. (A call with a logger logs it there.)
var testWarnings warningLog

// warnOut is where the warnings of calls without a logger go (stderr).
var warnOut io.Writer = os.Stderr

type warningLog struct {
	mu   sync.Mutex
	msgs []string
}

// all is every warning recorded so far, in order ([] when none).
func (w *warningLog) all() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string{}, w.msgs...)
}
