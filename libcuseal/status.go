// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/stacked"
)

// Status codes of include/cuseal_porep.h (CUSEAL_POREP_*): the classes of
// the cuseal CLI's exit codes, plus cancellation.
const (
	statusOK        = 0
	statusInvalid   = 1
	statusBadInput  = 2
	statusInternal  = 3
	statusCancelled = 4
)

// callError is an error with the status it is reported under.
type callError struct {
	status int
	err    error
}

func (e *callError) Error() string { return e.err.Error() }
func (e *callError) Unwrap() error { return e.err }

// badInputf is an error in the caller's arguments, reported as
// CUSEAL_POREP_ERR_BAD_INPUT.
func badInputf(format string, a ...any) error {
	return &callError{status: statusBadInput, err: fmt.Errorf(format, a...)}
}

// statusOf maps an error from package porep (or this package) to a status
// code, as the CLI's classifyPorepError maps it to an exit code (cli/commit2.go):
// what the caller can fix is bad input, a proof that does not verify is
// invalid, the rest is internal. Cancellation has its own code.
func statusOf(err error) int {
	if err == nil {
		return statusOK
	}
	var ce *callError
	var fe *groth16.FormatError
	var pe *stacked.ParseError
	switch {
	case errors.As(err, &ce):
		return ce.status
	case errors.Is(err, context.Canceled):
		return statusCancelled
	case errors.Is(err, groth16.ErrInvalidProof):
		return statusInvalid
	case errors.Is(err, porep.ErrBadInput), errors.Is(err, porep.ErrParamsNotFound), errors.Is(err, porep.ErrUnknownBackend),
		errors.Is(err, porep.ErrUnsupportedProof), errors.Is(err, stacked.ErrSyntheticC1), errors.Is(err, paramfile.ErrParamsConflict),
		errors.Is(err, groth16.ErrShape), errors.As(err, &fe), errors.As(err, &pe):
		return statusBadInput
	}
	return statusInternal
}

// fileStatus is statusOf for GenerateTestParams, whose directory is the
// caller's: a directory that cannot be created or written is bad input (as
// `cuseal params generate --out` reports it).
func fileStatus(err error) int {
	var pe *fs.PathError
	if statusOf(err) == statusInternal && errors.As(err, &pe) &&
		(errors.Is(err, fs.ErrPermission) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrExist)) {
		return statusBadInput
	}
	return statusOf(err)
}
