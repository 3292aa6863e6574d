// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

/*
#cgo CFLAGS: -I${SRCDIR}/../include
#define CUSEAL_POREP_BUILDING_LIBRARY 1
#include <stdlib.h>
#include "cuseal_porep.h"
*/
import "C"

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"unsafe"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/stacked"
)

// optionsSizeV1 is sizeof(cuseal_porep_options) of ABI version 1 (through
// test_only_randomness_seed), which version 2 keeps.
const optionsSizeV1 = C.uint32_t(unsafe.Offsetof(C.cuseal_porep_options{}.test_only_randomness_seed) + unsafe.Sizeof(C.cuseal_porep_options{}.test_only_randomness_seed))

// callOptions is what one call takes from a cuseal_porep_options.
type callOptions struct {
	ctx    context.Context
	opts   []porep.Option
	logger *slog.Logger // nil: none asked for
}

// readOptions converts *o (NULL: defaults) into porep options: it checks
// struct_size, the cancel handle, the backend and the seed pointer, takes
// the parameter directory from params_dir or else from the environment as
// it is when the call starts (paramsDirFromEnv), and returns the
// cancellation if the handle was triggered already. Every
// export reads its options after its other arguments, right before the
// work: bad input is reported first.
func readOptions(o *C.cuseal_porep_options) (*callOptions, error) {
	co := &callOptions{ctx: context.Background()}
	dir := ""
	if o != nil {
		// Callers of every ABI version since 1 are served: a later version
		// may append fields, and those past struct_size keep their defaults.
		if o.struct_size < optionsSizeV1 || o.struct_size > C.sizeof_cuseal_porep_options {
			return nil, badInputf("options.struct_size is %d, want %d (sizeof(cuseal_porep_options) of ABI version %d; %d for versions 1 and 2; fill the struct with cuseal_porep_options_init)",
				o.struct_size, C.sizeof_cuseal_porep_options, abiVersion, optionsSizeV1)
		}
		if o.cancel != nil {
			h, ok := cancelHandles.Load(uintptr(unsafe.Pointer(o.cancel)))
			if !ok {
				return nil, badInputf("options.cancel %p is not a live handle from cuseal_porep_cancel_new", unsafe.Pointer(o.cancel))
			}
			co.ctx = h.(*cancelHandle).ctx
		}
		if o.params_dir != nil {
			dir = C.GoString(o.params_dir)
		}
		if o.backend != nil && C.GoString(o.backend) != "" {
			name := C.GoString(o.backend)
			if err := checkBackend(name); err != nil {
				return nil, err
			}
			co.opts = append(co.opts, porep.WithBackend(name))
		}
		if o.partitions_in_flight > 0 {
			co.opts = append(co.opts, porep.WithMaxPartitionsInFlight(int(o.partitions_in_flight)))
		}
		if o.preload_params != 0 {
			co.opts = append(co.opts, porep.WithPreloadParams())
		}
		if l := newLogger(o.log_level, o.log_fn, o.log_user); l != nil {
			co.opts = append(co.opts, porep.WithLogger(l))
			co.logger = l
		}
		if o.test_only_randomness_seed != nil {
			var seed [32]byte
			copy(seed[:], unsafe.Slice((*byte)(unsafe.Pointer(o.test_only_randomness_seed)), 32))
			co.opts = append(co.opts, porep.WithDeterministicRandomness(seed))
		}
	}
	if dir == "" {
		dir = paramsDirFromEnv()
	}
	co.opts = append(co.opts, porep.WithContext(co.ctx), porep.WithParamsDir(dir))
	if envSet("FIL_PROOFS_VERIFY_PRODUCTION_PARAMS", "1", "true", "yes") {
		co.opts = append(co.opts, porep.WithRequireProductionParams())
	}
	testWarnings.attach(co)
	if err := co.ctx.Err(); err != nil {
		return nil, fmt.Errorf("options.cancel was triggered before the call started: %w", err)
	}
	return co, nil
}

// checkBackend refuses a backend this library does not have: bad input
// for every call, also for those that do not prove.
func checkBackend(name string) error {
	have := porep.Backends()
	if name == porep.BackendAuto || slices.Contains(have, name) {
		return nil
	}
	if spec, ok := porep.LookupBackend(name); ok && spec.Missing != "" {
		return badInputf("options.backend %q: %w: this build has no %s", name, porep.ErrUnknownBackend, spec.Missing)
	}
	return badInputf("options.backend %q: %w (this library has %s, %s)", name, porep.ErrUnknownBackend, porep.BackendAuto, strings.Join(have, ", "))
}

// getenv is the process's C environment variable name as it is now (""
// when unset). Go's os.Getenv answers from the copy of the environment the
// runtime took from the process's initial one when the library was
// loaded, which a caller's setenv (or Python's os.environ[...] = ...) does
// not change.
func getenv(name string) string {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	if v := C.getenv(cname); v != nil {
		return C.GoString(v)
	}
	return ""
}

// paramsDirFromEnv is the parameter directory when params_dir is NULL or
// "": $FIL_PROOFS_PARAMETER_CACHE as the environment holds it when the
// call starts, else rust-fil-proofs' default.
func paramsDirFromEnv() string {
	if d := getenv("FIL_PROOFS_PARAMETER_CACHE"); d != "" {
		return d
	}
	return stacked.DefaultParameterDir
}

// envSet reports whether the environment variable name holds one of
// values when the call starts (case-insensitive, spaces trimmed).
func envSet(name string, values ...string) bool {
	return slices.Contains(values, strings.ToLower(strings.TrimSpace(getenv(name))))
}

// attach makes a call's options record the warnings, and write them to
// warnOut when the call has no logger.
func (w *warningLog) attach(co *callOptions) {
	quiet := co.logger == nil
	co.opts = append(co.opts, porep.WithProgress(func(ev porep.PhaseEvent) {
		if ev.Phase != porep.PhaseWarning || ev.Message == "" {
			return
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		w.msgs = append(w.msgs, ev.Message)
		if quiet {
			fmt.Fprintf(warnOut, "libcuseal: warning: %s\n", ev.Message)
		}
	}))
}
