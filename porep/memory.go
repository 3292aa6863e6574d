// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/stacked"
)

// Commit2Memory is EstimateCommit2Memory's breakdown, in bytes.
type Commit2Memory struct {
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

// commit2BaseBytes is the process's resident set before proving (runtime,
// the C1 data, the prepared verifying key, the parent graph of a small
// sector).
const commit2BaseBytes = 200 << 20

// EstimateCommit2Memory estimates, from cfg's circuit shape
// (stacked.SizeHintFor, exact) and without synthesizing, the peak memory
// SealCommitPhase2 needs with the given backend ("cpu"; "auto" counts as
// cpu; the GPU backends, "cuda" and "supraseal", work in device memory),
// partitions in flight and preload setting. paramsBytes
// is the size of the .params file (0: computed from the shape).
// Calibrated on the peak RSS of a measured 2 KiB proof on the CPU backend
// (one partition in flight; docs/BENCHMARKS.md, "CPU: end-to-end C2, 2 KiB").
func EstimateCommit2Memory(cfg *stacked.SectorConfig, backend string, inFlight int, preload bool, paramsBytes uint64) (Commit2Memory, error) {
	hint, err := stacked.SizeHintFor(cfg)
	if err != nil {
		return Commit2Memory{}, err
	}
	return estimateMemory(hint, backend, inFlight, preload, paramsBytes), nil
}

// estimateMemory is EstimateCommit2Memory for a circuit of the given shape
// (PoRep or PoSt: the same Groth16 prover).
func estimateMemory(hint cs.SizeHint, backend string, inFlight int, preload bool, paramsBytes uint64) Commit2Memory {
	if inFlight < 1 {
		inFlight = 1
	}
	rows := uint64(hint.Constraints + hint.Inputs)
	domain := uint64(1)
	for domain < rows {
		domain <<= 1
	}
	const fr, g1, g2 = 32, groth16.G1UncompressedSize, groth16.G2UncompressedSize
	if paramsBytes == 0 {
		// vk + h + l + a + b_g1 + b_g2, with a and b about half as dense
		// as l (2 KiB: 1.18 GB for a 1.11 GB file).
		paramsBytes = 2048 + (domain-1)*g1 + uint64(hint.Aux)*g1 + uint64(hint.Aux)/2*(2*g1+g2)
	}
	m := Commit2Memory{
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
	m.Total = m.Params + 2*heap + commit2BaseBytes
	return m
}
