// SPDX-License-Identifier: Apache-2.0 OR MIT

//go:build cgo

package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
)

// TestPanicRecovered checks that a panic inside an export's body becomes
// CUSEAL_POREP_ERR_INTERNAL with the panic value in the message, and that
// errors keep their text and get their class, through the same deferred
// recovery and C message as every export.
func TestPanicRecovered(t *testing.T) {
	st, msg := guarded("test", func() error {
		var m map[string]int
		//lint:ignore SA5000 the nil-map write is the panic under test
		m["x"] = 1 // nil map write: a runtime panic
		return nil
	})
	if st != statusInternal || !strings.HasPrefix(msg, "libcuseal: test: internal error: panic: assignment to entry in nil map") {
		t.Fatalf("panic: status %d, message %q", st, msg)
	}
	st, msg = guarded("test", func() error { panic(fmt.Sprintf("boom %d", 7)) })
	if st != statusInternal || !strings.Contains(msg, "panic: boom 7") {
		t.Fatalf("panic(string): status %d, message %q", st, msg)
	}
	for _, c := range []struct {
		err    error
		status int
	}{
		{nil, statusOK},
		{fmt.Errorf("porep: C1: %w", porep.ErrBadInput), statusBadInput},
		{fmt.Errorf("x: %w", porep.ErrParamsNotFound), statusBadInput},
		{fmt.Errorf("x: %w", porep.ErrUnknownBackend), statusBadInput},
		{fmt.Errorf("x: %w", paramfile.ErrParamsConflict), statusBadInput},
		{fmt.Errorf("porep: partition 0: %w", groth16.ErrInvalidProof), statusInvalid},
		{fmt.Errorf("porep: partition 0: prove: %w", context.Canceled), statusCancelled},
		{errors.New("disk on fire"), statusInternal},
		{badInputf("options.struct_size is 8"), statusBadInput},
	} {
		st, msg := guarded("test", func() error { return c.err })
		want := ""
		if c.err != nil {
			want = "libcuseal: test: " + c.err.Error()
		}
		if st != c.status || msg != want {
			t.Errorf("%v: status %d, message %q; want %d, %q", c.err, st, msg, c.status, want)
		}
	}
}
