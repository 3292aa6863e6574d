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

// EstimateParamsBytes is the size in bytes of c's .params file as its
// shape gives it, for when the file cannot be read: the vk, then the h
// (domain − 1), l (aux) and a, b_g1, b_g2 queries (about half as dense as
// l) as uncompressed points (2 KiB PoRep: 1.18 GB for a 1.11 GB file).
func EstimateParamsBytes(c Circuit) (uint64, error) {
	h, err := c.SizeHint()
	if err != nil {
		return 0, fmt.Errorf("porep: %s: %w", c.ProofName(), err)
	}
	const g1, g2 = groth16.G1UncompressedSize, groth16.G2UncompressedSize
	aux := uint64(h.Aux)
	return 2048 + uint64(domainSize(h)-1)*g1 + aux*g1 + aux/2*(2*g1+g2), nil
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
