// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"errors"
	"fmt"
)

// Sentinel errors. Callers branch on them with errors.Is; the wrapping
// *FormatError carries the location (file, section, index, byte offset).
var (
	// ErrInvalidProof: the pairing check failed (the proof does not verify).
	ErrInvalidProof = errors.New("groth16: invalid proof")
	// ErrTruncated: the data ends before the structure it announces.
	ErrTruncated = errors.New("truncated")
	// ErrTrailingData: bytes remain after the last section.
	ErrTrailingData = errors.New("trailing data after last section")
	// ErrPointAtInfinity: an identity point where the format forbids one.
	ErrPointAtInfinity = errors.New("point at infinity")
	// ErrNotOnCurve: the coordinates do not satisfy the curve equation.
	ErrNotOnCurve = errors.New("point not on curve")
	// ErrNotInSubgroup: on the curve but not in the prime-order subgroup.
	ErrNotInSubgroup = errors.New("point not in prime-order subgroup")
	// ErrNonCanonical: a coordinate is ≥ the base-field modulus p.
	ErrNonCanonical = errors.New("non-canonical field element (≥ p)")
	// ErrBadFlags: the three zcash flag bits do not fit the expected encoding.
	ErrBadFlags = errors.New("bad zcash encoding flags")
	// ErrShape: an assignment does not fit the parameters (sizes, densities).
	ErrShape = errors.New("assignment does not fit parameters")
)

// Section names used in errors and in Params.Section.
const (
	SectionVK  = "vk"
	SectionIC  = "ic"
	SectionH   = "h"
	SectionL   = "l"
	SectionA   = "a"
	SectionBG1 = "b_g1"
	SectionBG2 = "b_g2"
	// SectionProof names a proof byte string (not a params section).
	SectionProof = "proof"
)

// FormatError locates a defect in a `.params`, `.vk` or proof byte string.
// Offset is the absolute byte offset of the offending field; Index is the
// element index within Section, or -1 where not applicable (a count, a
// missing section).
type FormatError struct {
	File    string // path, or a caller-chosen name for in-memory data
	Section string // one of the Section* constants
	Index   int
	Offset  int64
	Err     error // one of the sentinels above, possibly wrapped with detail
}

func (e *FormatError) Error() string {
	file := e.File
	if file == "" {
		file = "<memory>"
	}
	if e.Index >= 0 {
		return fmt.Sprintf("groth16: %s: section %s[%d] at byte offset %d: %v", file, e.Section, e.Index, e.Offset, e.Err)
	}
	return fmt.Sprintf("groth16: %s: section %s at byte offset %d: %v", file, e.Section, e.Offset, e.Err)
}

func (e *FormatError) Unwrap() error { return e.Err }
