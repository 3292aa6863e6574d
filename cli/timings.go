// SPDX-License-Identifier: Apache-2.0 OR MIT

package cli

import (
	"fmt"
	"io"
)

// printTimings writes a two-column table of phase timings.
func printTimings(w io.Writer, rows []phaseTiming) {
	width := len("phase")
	for _, r := range rows {
		width = max(width, len(r.Phase))
	}
	fmt.Fprintf(w, "%-*s  %10s\n", width, "phase", "seconds")
	for _, r := range rows {
		fmt.Fprintf(w, "%-*s  %10.3f\n", width, r.Phase, r.Seconds)
	}
}

// phaseTiming is one row of the timing table.
type phaseTiming struct {
	Phase   string  `json:"phase"`
	Seconds float64 `json:"seconds"`
}
