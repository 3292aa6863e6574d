// SPDX-License-Identifier: Apache-2.0 OR MIT

package porep

import (
	"github.com/cuseal/cuseal/porep/groth16"
	"github.com/cuseal/cuseal/porep/paramfile"
)

// Memory is EstimateMemory's breakdown, in bytes.
type Memory struct {
	// Params is what the parameters keep resident: on the CPU backend the
	// verifying key only (the queries are read with pread, chunk by chunk,
	// through the page cache, which is not the process's), or the decoded
	// queries with preload (about the file's size); on the GPU backends
	// the decoded SRS they cache (about the file's size).
	Params uint64
	// PerPartition is one synthesized partition's assignment: a, b, c (on
	// the CPU backend with the capacity of the domain, all of it written
	// when H is computed in place), the input and aux values and the
	// density bitmaps; InFlight of them are alive at once.
	PerPartition uint64
	InFlight     int
	// Backend is the CPU backend's largest stage beyond the assignments:
	// the H stage's FFT twiddles (and, when the caller keeps its
	// assignments, the copies of a, b, c) or the MSM stage's chunk buffers
	// and MultiExp scratch, whichever is larger; 0 for the GPU backends.
	Backend uint64
	// Total is the estimated peak resident set: Params, the assignments
	// in flight, Backend and a fixed base (runtime, binary, inputs).
	Total uint64
}

// MemoryOptions are EstimateMemoryWith's settings beyond the circuit.
type MemoryOptions struct {
	// Backend: "cpu" ("auto" and "" count as cpu), "cuda", "supraseal".
	Backend string
	// InFlight is the partitions whose assignments are alive at once (≥ 1).
	InFlight int
	// Preload decodes every query once up front (Params.Preload).
	Preload bool
	// ParamsBytes is the .params file's size (0: from the shape,
	// paramfile.EstimateParamsBytes).
	ParamsBytes uint64
}

// Calibration of the model on the four kinds' 2 KiB peaks (docs/BENCHMARKS.md,
// "EstimateMemory against the measured peak"): the process before proving
// (runtime, binary, the prepared verifying key, a small sector's inputs),
// the MSM stage's heap per chunk point (MultiExp's digits and buckets, and
// what the heap grows by between the per-chunk collections) and the three
// concurrent FFTs' twiddles per domain element.
const (
	baseBytes          = 25 << 20
	msmHeapPerPoint    = 355
	fftTwiddlesPerElem = 12
)

// EstimateMemory is EstimateMemoryWith with the assignments consumed by the
// proof, as the Job runner (SealCommitPhase2, the PoSt and SnapDeals calls,
// the CLI) and the engine prove.
func EstimateMemory(c paramfile.Circuit, backend string, inFlight int, preload bool, paramsBytes uint64) (Memory, error) {
	return EstimateMemoryWith(c, MemoryOptions{Backend: backend, InFlight: inFlight, Preload: preload, ParamsBytes: paramsBytes})
}

// EstimateMemoryWith estimates, from circuit c's shape (its SizeHint, exact)
// and without synthesizing, the peak resident memory of proving it with
// options o. c is a registered proof's configuration (*stacked.SectorConfig,
// *post.Config, *update.Config). The model (docs/architecture.md, "Memory
// and concurrency"), with n the constraints plus inputs, m the domain,
// N_aux and N_in the variables, C the CPU backend's MSM chunk (at most
// the longest query):
//
//	cpu:  vk (or the file, preloaded) + k·(96·m + 32·(N_aux+N_in) + (2·N_aux+N_in)/8)
//	      + max(12·m, C·(32 + 96·buffers + 355)) + base
//	gpu:  the file (decoded SRS) + k·32·(3·n + N_aux + N_in) + base
//
// Figures against the measured peaks are in docs/BENCHMARKS.md.
func EstimateMemoryWith(c paramfile.Circuit, o MemoryOptions) (Memory, error) {
	hint, err := c.SizeHint()
	if err != nil {
		return Memory{}, err
	}
	paramsBytes := o.ParamsBytes
	if paramsBytes == 0 {
		if paramsBytes, err = paramfile.EstimateParamsBytes(c); err != nil {
			return Memory{}, err
		}
	}
	inFlight := max(o.InFlight, 1)
	nIn, nAux := uint64(hint.Inputs), uint64(hint.Aux)
	rows := uint64(hint.Constraints + hint.Inputs)
	domain := uint64(1)
	for domain < rows {
		domain <<= 1
	}
	const fr, g1 = 32, groth16.G1UncompressedSize
	values := (nAux+nIn)*fr + (2*nAux+nIn+7)/8
	m := Memory{InFlight: inFlight}
	switch o.Backend {
	case BackendCPU, BackendAuto, "":
		m.Params = 864 + 4 + nIn*g1 // the verifying key
		if o.Preload {
			m.Params += paramsBytes
		}
		// a, b, c at the domain's capacity, H computed in them: the Job
		// runner and the engine prove under WithAssignmentsConsumed.
		m.PerPartition = 3*fr*domain + values
		h := uint64(fftTwiddlesPerElem) * domain
		longest := max(domain-1, nAux)
		chunk := uint64(groth16.ChunkFor(int(longest)))
		buffers := uint64(1)
		switch {
		case o.Preload:
			buffers = 0
		case longest > chunk:
			buffers = 2
		}
		m.Backend = max(h, chunk*(fr+g1*buffers+msmHeapPerPoint))
	default:
		m.Params = paramsBytes
		m.PerPartition = 3*fr*rows + values
	}
	m.Total = m.Params + uint64(inFlight)*m.PerPartition + m.Backend + baseBytes
	return m, nil
}
