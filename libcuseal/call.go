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
	"fmt"
	"runtime/debug"
	"strings"
	"unsafe"
)

// The frame every export that returns a status runs its body in (export):
// the output arguments cleared and checked, the status and the message
// "libcuseal: CALL: ..." made from the body's error, outputs freed again
// when the call fails, panics recovered. (A call from a forked child
// never gets here: its C entry point refuses it, entry.go.)

// output is one output argument of an export: where the caller wants a
// result (nil: the caller passed NULL), named as in the header, and
// whether it receives library memory (a pointer, freed again when the call
// fails) or a count.
type output struct {
	name string
	ptr  unsafe.Pointer
	mem  bool
}

// outMem is an output receiving library memory (uint8_t**, uint64_t**, char**).
func outMem[T any](name string, p **T) output {
	return output{name: name, ptr: unsafe.Pointer(p), mem: true}
}

// outLen is an output receiving a count (size_t*).
func outLen(name string, p *C.size_t) output {
	return output{name: name, ptr: unsafe.Pointer(p)}
}

// bytesOut are the two outputs of a call returning bytes: NAME_out and NAME_len.
func bytesOut(name string, p **C.uint8_t, n *C.size_t) []output {
	return []output{outMem(name+"_out", p), outLen(name+"_len", n)}
}

// reset sets the output to NULL or 0; with free it first frees the
// library memory it holds (export's own: it clears every output first).
func (o output) reset(free bool) {
	switch {
	case o.ptr == nil:
	case o.mem:
		pp := (*unsafe.Pointer)(o.ptr)
		if free && *pp != nil {
			C.free(*pp)
		}
		*pp = nil
	default:
		*(*C.size_t)(o.ptr) = 0
	}
}

// export runs body as the export call: it sets every output the caller
// passed to NULL or 0 and refuses NULL ones (naming them), runs body, and
// returns body's status. On CUSEAL_POREP_OK *err_msg is set to NULL;
// otherwise what body may have set is freed and cleared again, and
// *err_msg (when err_msg is not NULL) receives "libcuseal: CALL: " and the
// error's text. A panic in body becomes CUSEAL_POREP_ERR_INTERNAL with the
// panic and its first frames in the message.
func export(call string, errMsg **C.char, outs []output, body func() error) (rc C.int) {
	var err error
	defer func() {
		if r := recover(); r != nil {
			err = panicError(r, debug.Stack())
		}
		st := statusOf(err)
		if st != statusOK {
			for _, o := range outs {
				o.reset(true)
			}
		}
		if errMsg != nil {
			*errMsg = nil
			if err != nil {
				*errMsg = C.CString(message(call, err))
			}
		}
		rc = C.int(st)
	}()
	var null []string
	for _, o := range outs {
		if o.ptr == nil {
			null = append(null, o.name)
		}
		o.reset(false)
	}
	if len(null) > 0 {
		err = badInputf("%s NULL (an output: pass the address of a variable to receive it)", nullOutputs(null))
		return
	}
	err = body()
	return
}

// nullOutputs names the NULL outputs: "a is", "a and b are", "a, b and c are".
func nullOutputs(names []string) string {
	if len(names) == 1 {
		return names[0] + " is"
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + " are"
}

// message is err's text as the caller gets it: one line, after the
// library's and the call's name.
func message(call string, err error) string {
	return "libcuseal: " + call + ": " + strings.ReplaceAll(err.Error(), "\n", " ")
}

// guarded runs f the way every export runs its body (export, the message
// through C memory) and returns the status and the message; the tests
// (which cannot use cgo) check the boundary with it.
func guarded(call string, f func() error) (status int, msg string) {
	var cmsg *C.char
	rc := export(call, &cmsg, nil, f)
	if cmsg != nil {
		msg = C.GoString(cmsg)
		C.free(unsafe.Pointer(cmsg))
	}
	return int(rc), msg
}

// panicError is the error a recovered panic is reported as.
func panicError(r any, stack []byte) error {
	return &callError{status: statusInternal, err: fmt.Errorf("internal error: panic: %v [%s]", r, firstFrames(stack))}
}

// firstFrames keeps the message short: the panicking function's frames.
func firstFrames(stack []byte) string {
	s := string(stack)
	if len(s) > 1500 {
		s = s[:1500] + "…"
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' || s[i] == '\t' {
			if len(out) > 0 && out[len(out)-1] != ' ' {
				out = append(out, ' ')
			}
			continue
		}
		out = append(out, s[i])
	}
	return string(out)
}
