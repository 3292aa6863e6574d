// SPDX-License-Identifier: Apache-2.0 OR MIT

package paramfile

import (
	"fmt"

	"github.com/cuseal/cuseal/porep/cs"
	"github.com/cuseal/cuseal/porep/groth16"
)

// Circuit is the parameter identity of one Groth16 circuit: what names its
// .params/.vk/.meta files and what they must fit. Every function of this
// package that reads, caches, evicts, sizes or generates parameter files
// takes one. Rust twin: CacheableParameters (cache_identifier, the .meta's
// CacheEntryMetadata) of the circuit's CompoundProof. The registered
// proofs' configurations implement it: *stacked.SectorConfig (PoRep C2 and
// NI-PoRep, StackedCompound), *post.Config (WinningPoSt and WindowPoSt,
// FallbackPoStCompound), *update.Config (SnapDeals,
// EmptySectorUpdateCompound).
type Circuit interface {
	// ParameterPaths returns the .params, .vk and .meta paths in dir
	// (stacked.ParameterDir when dir is empty).
	ParameterPaths(dir string) (params, vk, meta string)
	// ParameterFileStem is the file name without extension:
	// v28-<cache identifier>.
	ParameterFileStem() string
	// ParameterIdentifier is PublicParams::identifier(), which test
	// stamps record.
	ParameterIdentifier() string
	// NumPublicInputs counts the public inputs with ONE: the .vk's IC
	// points.
	NumPublicInputs() int
	// ProofName is the registered proof's name ("StackedDrg2KiBV1_1",
	// "StackedDrgWinning2KiBV1"), for messages.
	ProofName() string
	// ProofSectorSize is the sector size in bytes, what the .meta records.
	ProofSectorSize() uint64
	// SizeHint is one partition circuit's exact shape (constraints without
	// the per-input rows, aux, inputs with ONE), measured once per shape
	// and cached: the .params's L and H queries and a proof's assignment
	// follow from it.
	SizeHint() (cs.SizeHint, error)
	// BlankCircuit is the circuit without a witness (its R1CS is every
	// witness's): what parameter generation records.
	BlankCircuit() cs.Circuit
}

// domainSize is the Groth16 evaluation domain of a circuit of the given
// shape: the smallest power of two holding the constraints plus one row
// per input (bellperson's generator and prover).
func domainSize(h cs.SizeHint) int {
	d := 1
	for d < h.Constraints+h.Inputs {
		d <<= 1
	}
	return d
}

// QuerySizer is implemented by the Circuits that count their .params A
// and B query lengths from their structure (the registered proofs'
// configurations: stacked.SectorConfig.QuerySizes and its PoSt and update
// twins): |a| and |b_g1| = |b_g2|, the variables in bellperson's A and B
// densities.
type QuerySizer interface {
	QuerySizes() (a, b int, err error)
}

// EstimateParamsBytes is the size in bytes of c's .params file as its
// shape gives it, for when the file cannot be read (bellperson
// Parameters::write): the vk (six points, the u32 IC count, one G1 per
// input), then h (domain − 1), l (aux), a, b_g1 and b_g2, each a u32 count
// and uncompressed points. With a QuerySizer the a and b lengths are
// counted, and the size is exact (the 2 KiB test parameters of every
// family: porep TestEstimateParamsBytes); otherwise a and b are taken as
// half the aux variables each.
func EstimateParamsBytes(c Circuit) (uint64, error) {
	h, err := c.SizeHint()
	if err != nil {
		return 0, fmt.Errorf("porep: %s: %w", c.ProofName(), err)
	}
	a, b := h.Inputs+h.Aux/2, h.Inputs+h.Aux/2
	if q, ok := c.(QuerySizer); ok {
		if a, b, err = q.QuerySizes(); err != nil {
			return 0, fmt.Errorf("porep: %s: %w", c.ProofName(), err)
		}
	}
	const g1, g2 = groth16.G1UncompressedSize, groth16.G2UncompressedSize
	vk := uint64(3*g1+3*g2+4) + uint64(h.Inputs)*g1
	points := uint64(domainSize(h)-1+h.Aux+a)*g1 + uint64(b)*(g1+g2)
	return vk + 5*4 + points, nil
}

// ParamsBytes is what c's .params in dir keeps resident once loaded (its
// pages are all read during a proof): the file's size when it is a
// readable regular file, else EstimateParamsBytes. The engine's parameter
// budget counts it.
func ParamsBytes(dir string, c Circuit) (uint64, error) {
	pp, _, _ := c.ParameterPaths(dir)
	if id, err := StatID(pp); err == nil {
		return uint64(id.size), nil
	}
	return EstimateParamsBytes(c)
}
