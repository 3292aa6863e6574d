// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
)

// Memory is EstimateMemory's breakdown, in bytes.
type Memory struct {
	// Params is the mapped .params file (its pages are all read during a
	// proof and count in the resident set; with preload the decoded
	// queries are added).
	Params uint64
	// PerPartition is one synthesized partition's assignment (a, b, c over
	// the constraints and the input and aux values); InFlight of them are
	// alive at once.
	PerPartition uint64
	InFlight     int
	// Backend is the CPU backend's largest stage (the H stage: the decoded
	// h query, the FFT vectors over the domain and the MSM's scratch); 0 for the GPU
	// backends, which work in device memory.
	Backend uint64
	// Total is the estimated peak resident set: Params plus the Go heap
	// (assignments and backend work, doubled for the collector's headroom,
	// GOGC=100) plus a fixed runtime base.
	Total uint64
}

// baseBytes is the process's resident set before proving (runtime,
// the C1 data, the prepared verifying key, the parent graph of a small
// sector).
const baseBytes = 200 << 20

// EstimateMemory estimates, from circuit c's shape (its SizeHint, exact)
// and without synthesizing, the peak memory of proving it — SealCommitPhase2,
// the PoSt and SnapDeals calls, one engine partition — with the given
// backend ("cpu"; "auto" counts as cpu; the GPU backends, "cuda" and
// "supraseal", work in device memory), partitions in flight and preload
// setting. c is a registered proof's configuration (*stacked.SectorConfig,
// *post.Config, *update.Config). paramsBytes is the size of the .params
// file (0: paramfile.EstimateParamsBytes, from the shape). Calibrated on
// the peak RSS of a measured 2 KiB C2 on the CPU backend (one partition in
// flight; docs/BENCHMARKS.md, "CPU: end-to-end C2, 2 KiB").
func EstimateMemory(c paramfile.Circuit, backend string, inFlight int, preload bool, paramsBytes uint64) (Memory, error) {
	hint, err := c.SizeHint()
	if err != nil {
		return Memory{}, err
	}
	if paramsBytes == 0 {
		if paramsBytes, err = paramfile.EstimateParamsBytes(c); err != nil {
			return Memory{}, err
		}
	}
	if inFlight < 1 {
		inFlight = 1
	}
	rows := uint64(hint.Constraints + hint.Inputs)
	domain := uint64(1)
	for domain < rows {
		domain <<= 1
	}
	const fr, g1 = 32, groth16.G1UncompressedSize
	m := Memory{
		Params:       paramsBytes,
		PerPartition: rows*3*fr + uint64(hint.Inputs+hint.Aux)*fr,
		InFlight:     inFlight,
	}
	if preload {
		// Decoded affine points take about what their encoding takes.
		m.Params *= 2
	}
	if backend == BackendCPU || backend == BackendAuto || backend == "" {
		// The decoded h query plus the FFT vectors and the MSM's scratch
		// (calibrated, below).
		m.Backend = domain * (g1 + 5*fr)
	}
	heap := uint64(inFlight)*m.PerPartition + m.Backend
	m.Total = m.Params + 2*heap + baseBytes
	return m, nil
}
