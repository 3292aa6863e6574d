// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

/*
#cgo CFLAGS: -I${SRCDIR}/../include
#define CUSEAL_POREP_BUILDING_LIBRARY 1
#include <stdlib.h>
#include "cuseal_porep.h"

// Go cannot call a C function pointer; this trampoline does. (It lives in a
// file without //export: such files' preambles may hold definitions.)
static void cuseal_porep_call_log(cuseal_porep_log_fn fn, void* user, int32_t level, const char* msg) {
	fn(user, level, msg);
}
*/
import "C"

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"unsafe"
)

// logSink formats records with a slog text handler into a buffer and hands
// each one to the caller's callback. One sink serves one call; its mutex
// serialises the callbacks of that call.
type logSink struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	fn   C.cuseal_porep_log_fn
	user unsafe.Pointer
}

// callbackHandler is a slog.Handler writing through a logSink.
type callbackHandler struct {
	inner slog.Handler // a TextHandler writing into sink.buf
	sink  *logSink
}

func (h *callbackHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.inner.Enabled(ctx, l)
}

func (h *callbackHandler) Handle(ctx context.Context, r slog.Record) error {
	s := h.sink
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf.Reset()
	if err := h.inner.Handle(ctx, r); err != nil {
		return err
	}
	msg := C.CString(strings.TrimRight(s.buf.String(), "\n"))
	defer C.free(unsafe.Pointer(msg))
	C.cuseal_porep_call_log(s.fn, s.user, C.int32_t(r.Level), msg)
	return nil
}

func (h *callbackHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &callbackHandler{inner: h.inner.WithAttrs(as), sink: h.sink}
}

func (h *callbackHandler) WithGroup(name string) slog.Handler {
	return &callbackHandler{inner: h.inner.WithGroup(name), sink: h.sink}
}

// logOff is CUSEAL_POREP_LOG_OFF.
const logOff = 127

// newLogger returns the logger the options ask for, or nil to keep porep's
// default (discard): records at or above level go to fn, or to stderr when
// fn is NULL.
func newLogger(level C.int32_t, fn C.cuseal_porep_log_fn, user unsafe.Pointer) *slog.Logger {
	if level >= logOff {
		return nil
	}
	if fn == nil {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.Level(level)}))
	}
	s := &logSink{fn: fn, user: user}
	return slog.New(&callbackHandler{inner: recordHandler(&s.buf, slog.Level(level)), sink: s})
}

// recordHandler formats the records a log callback gets, as the header
// documents them: "level=INFO msg=... key=value ...", without slog's time
// (the caller's logging adds its own; stderr lines keep it).
func recordHandler(w io.Writer, level slog.Level) slog.Handler {
	return slog.NewTextHandler(w, &slog.HandlerOptions{Level: level, ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if len(groups) == 0 && a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}})
}
