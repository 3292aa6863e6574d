// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"errors"
	"fmt"

	"github.com/cuseal/cuseal/porep/aggregate"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
	"github.com/cuseal/cuseal/porep/stacked"
)

// ErrUnsupportedProof is returned for registered proofs or aggregation
// kinds cuseal cannot prove or verify (SnarkPackV1 aggregation).
var ErrUnsupportedProof = errors.New("porep: unsupported registered proof")

// ErrInvalidProof is groth16.ErrInvalidProof: SealCommitPhase2 wraps it when
// a proof it produced does not verify (errors.Is works with either name).
var ErrInvalidProof = groth16.ErrInvalidProof

// ErrBadInput is wrapped by every error caused by the caller's input rather
// than by cuseal or its environment: a malformed or inconsistent C1 output
// or Commit2In wrapper, a sector number or miner that does not match it,
// undecodable proof bytes or malformed commitments given to VerifySeal,
// parameters whose shape does not fit the sector's circuit, a parameter file
// that cannot be read (permissions, a directory in its place) or is
// truncated or corrupt, a .vk that is not the .params file's key, and files
// that are not the official ones under WithRequireProductionParams. Test with
// errors.Is; errors.As still reaches the underlying error (e.g. a
// *stacked.ParseError naming the JSON path). It is paramfile.ErrBadInput,
// the value porep/paramfile's errors wrap.
var ErrBadInput = paramfile.ErrBadInput

// badInput marks err as caused by the caller's input (see ErrBadInput).
func badInput(err error) error { return paramfile.BadInput(err) }

// badInputf is badInput(fmt.Errorf(format, a...)).
func badInputf(format string, a ...any) error {
	return badInput(fmt.Errorf(format, a...))
}

// ErrAggregateInvalid is aggregate.ErrInvalidAggregate: VerifyAggregateSeals
// and VerifySeal report it as (false, nil); SealCommitPhase2 wraps it when
// an NI-PoRep aggregate it produced does not verify.
var ErrAggregateInvalid = aggregate.ErrInvalidAggregate

// ErrUnknownBackend is returned for a backend name nobody registered.
var ErrUnknownBackend = errors.New("porep: unknown backend")

// ErrGPUDisabled: BELLMAN_NO_GPU is set (to anything but "0") and a GPU
// backend was asked for by name. (Its text is the one it had when groth16
// declared it, so messages stay as they were.)
var ErrGPUDisabled = errors.New("groth16: GPU disabled by BELLMAN_NO_GPU")

// ErrParamsNotFound is returned when a parameter or verifying-key file is
// missing from the parameter directory. It is paramfile.ErrParamsNotFound
// (errors.Is works with either name).
var ErrParamsNotFound = paramfile.ErrParamsNotFound

// to32 is stacked.To32 with its error marked as bad input.
func to32(b []byte, name string) ([32]byte, error) {
	out, err := stacked.To32(b, name)
	if err != nil {
		return out, badInputf("porep: %w", err)
	}
	return out, nil
}

// The arguments a FieldError can name, as filecoin-ffi's callers know them
// (its parameter and rust-fil-proofs' field names).
const (
	FieldProofType  = "proof type"
	FieldRandomness = "randomness"
	FieldCommROld   = "comm_r_old"
	FieldCommRNew   = "comm_r_new"
	FieldCommDNew   = "comm_d_new"
)

// FieldError is bad input (errors.Is(err, ErrBadInput) holds) about one
// argument of a call: Field names it (a Field* constant), Err says what is
// wrong with it without naming it, so a layer above (porep/engine) can
// name the argument in its own terms. Bad input about the proofs a call
// takes (a C1 output, vanilla proofs) is not a FieldError: its message
// names the proof, partition and JSON path or byte offset.
type FieldError struct {
	Field string
	Err   error
}

func (e *FieldError) Error() string   { return "porep: " + e.Field + ": " + e.Err.Error() }
func (e *FieldError) Unwrap() []error { return []error{ErrBadInput, e.Err} }

// fieldErrorf is a FieldError about field.
func fieldErrorf(field, format string, a ...any) error {
	return &FieldError{Field: field, Err: fmt.Errorf(format, a...)}
}
