// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

// Errors and exit codes: every action returns an error that carries its exit code
// (usageErrorf, inputError, internalError, errInvalidProof, or classifyPorepError for what
// the porep API returns), and exitCode prints it as one line.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cuseal/cuseal/porep"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/stacked"
)

// Exit codes of the cuseal binary (architecture.md, "Errors").
const (
	exitOK           = 0
	exitInvalidProof = 1
	exitUsage        = 2 // bad usage or bad input: a missing or malformed file, a wrong flag value
	exitInternal     = 3
)

// exitError carries the exit code chosen for an error.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageErrorf reports bad usage or bad input (exit 2).
func usageErrorf(format string, a ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, a...)}
}

// inputError marks err as caused by the user's input (exit 2).
func inputError(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: exitUsage, err: err}
}

// internalError marks err as a failure of cuseal itself (exit 3).
func internalError(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: exitInternal, err: err}
}

// errInvalidProof is returned when a proof does not verify (exit 1).
var errInvalidProof = &exitError{code: exitInvalidProof, err: errors.New("proof is invalid")}

// classifyPorepError maps errors from the porep API to exit codes: what the user can fix
// (input, parameters, backend choice) is 2, an invalid proof 1, anything else internal.
func classifyPorepError(err error) error {
	var fe *groth16.FormatError
	var pe *stacked.ParseError
	switch {
	case errors.Is(err, context.Canceled):
		return internalError(err)
	case errors.Is(err, groth16.ErrInvalidProof), errors.Is(err, porep.ErrAggregateInvalid):
		return &exitError{code: exitInvalidProof, err: err}
	case errors.Is(err, porep.ErrBadInput), errors.Is(err, porep.ErrParamsNotFound), errors.Is(err, porep.ErrUnknownBackend),
		errors.Is(err, porep.ErrUnsupportedProof), errors.Is(err, stacked.ErrSyntheticC1),
		errors.Is(err, groth16.ErrShape), errors.As(err, &fe), errors.As(err, &pe):
		return inputError(err)
	}
	return internalError(err)
}

// classify makes any error an action returns without an exit code an internal error: an
// action must say when an error is the user's fault.
func classify(err error) error {
	if err == nil {
		return nil
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	return internalError(err)
}

// exitCode prints err as one line on stderr and returns the exit code for it. Errors that
// urfave/cli produces itself (a missing required flag, a malformed flag value) are usage
// errors: every action's own errors carry a code (see classify).
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	code := exitUsage
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
	}
	fmt.Fprintf(stderr, "cuseal: %s\n", termSafe(oneLine(err.Error())))
	return code
}

// termSafe is s with what a terminal would act on escaped as
// strconv.Quote writes it: control characters (ESC, CR, BS: "\x1b"),
// other runes that are not printable (bidirectional overrides, zero-width
// marks: "\u202e") and bytes that are not UTF-8; printable text, spaces
// included, is left as it is. For every string that comes from a server
// (ids, names, errors) or a file before it reaches the terminal.
func termSafe(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unicode.IsPrint(r):
			b.WriteString(s[i : i+n])
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}

// oneLine folds a multi-line message into one line.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}
