// SPDX-License-Identifier: Apache-2.0 OR MIT

package bridge

import (
	"time"
)

// SRSOptions configures NewSRS.
type SRSOptions struct {
	// Validate checks every point: coordinates reduced, not the point at
	// infinity, on the curve (no subgroup check; porep/groth16 does that
	// when it decodes checked params).
	Validate bool
	// PinHost page-locks the library's host copy of the SRS
	// (cudaHostRegister) for faster uploads. Off by default: pinning a large
	// SRS takes seconds (once per SRS, never per proof) and the time is
	// reported in SRSInfo.PinTime. Without a CUDA device (or when the pin
	// fails) the SRS stays pageable and SRSInfo.PinSkipped says why; the
	// library prints nothing, the caller decides what to show.
	PinHost bool
}

// SRSInfo describes an SRS handle.
type SRSInfo struct {
	NH, NL, NA, NBG1, NBG2 uint64 // query lengths
	HostBytes              uint64 // size of the library's host copy
	ResidentMask           uint64 // bit d: resident on CUDA device d
	Pinned                 bool
	Refs                   int           // references held (handles not yet closed)
	PinTime                time.Duration // how long the pin took (0 when not pinned)
	CreateTime             time.Duration // copy and validation time
	PinSkipped             string        // PinHost was asked for but not done: why (e.g. "no CUDA device"); else empty
}
