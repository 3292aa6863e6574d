// SPDX-License-Identifier: Apache-2.0 OR MIT

package bridge

import (
	"fmt"
	"time"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// SplitMode decides, per query, whether the 1-scalars are batch-added and
// only the other significant scalars go through an MSM.
type SplitMode uint32

const (
	// SplitAuto splits a query when the union over the batch of its
	// significant scalars (neither 0 nor 1) is at most half its slots.
	SplitAuto SplitMode = 0
	// SplitNever runs one MSM over the density-compacted scalars.
	SplitNever SplitMode = 1
	// SplitAlways always splits.
	SplitAlways SplitMode = 2
)

func (m SplitMode) String() string {
	switch m {
	case SplitAuto:
		return "auto"
	case SplitNever:
		return "never"
	case SplitAlways:
		return "always"
	}
	return fmt.Sprintf("SplitMode(%d)", uint32(m))
}

// ProveOptions configures SRS.QuerySums; the zero value is the default
// (B_G2 on the device, automatic split, automatic MSM windows).
type ProveOptions struct {
	// SkipBG2 leaves BG2 at infinity so the caller can compute it elsewhere
	// (e.g. on the CPU, overlapped with the device work).
	SkipBG2   bool
	Split     SplitMode
	MSMWindow uint32 // Pippenger window for every MSM; 0 = from each size
}

// ProveTimings reports where a QuerySums call spent its time, summed over
// the batch. Device stages include waiting for the device.
type ProveTimings struct {
	Prep     time.Duration // host: checks, 0/1 classification, compaction
	WaitLock time.Duration // waiting for the device mutex (another call ran)
	Upload   time.Duration // issuing a/b/c uploads (they overlap the NTTs), SRS residency or streaming
	HNTT     time.Duration // the seven NTTs and the pointwise step of H (what the uploads did not hide)
	// HMSM .. BG2MSM include the tail gather, scalar uploads and batch additions.
	HMSM, LMSM, AMSM, BG1MSM, BG2MSM time.Duration
	Total                            time.Duration
	Split                            [3]bool   // l, a, b: query was split
	Resident                         bool      // the SRS was device-resident for the call
	Tail                             [3]uint64 // slots through the MSM per query (per circuit)
	Ones                             [3]uint64 // batch-added slots per query, summed over circuits
}

// Density is a bitmap over variables: 64-bit words, LSB first, BitLen bits
// (porep/cs.Density has the same shape).
type Density struct {
	Words  []uint64
	BitLen int
}

// Circuit is one synthesized circuit as the prover takes it (porep/cs.Assignment
// field for field): evaluations A, B, C per constraint (including the
// input rows), Input (ONE first), Aux, and the three densities. All
// circuits of one call must have identical densities.
type Circuit struct {
	A, B, C                                 []fr.Element
	Input, Aux                              []fr.Element
	ADensityAux, BDensityInput, BDensityAux Density
}

// QuerySums are the five query sums of one circuit (Jacobian):
//
//	H   = Σ_{i<m−1} h_i·coef_i, coef = coefficients of (A·B − C)/Z on the
//	      domain of size m = NH + 1 (coset generator 7, as porep/groth16)
//	L   = Σ_j l_j·aux_j
//	A   = Σ_i a_i·input_i + Σ_{j A-dense} a_{nInput+k}·aux_j
//	BG1 = Σ_{i B-dense} b_g1_k·input_i + Σ_{j B-dense} b_g1_{pop+k}·aux_j,
//	      pop = popcount of the B-input density; BG2 likewise in G2.
type QuerySums struct {
	H, L, A, BG1 bls12381.G1Jac
	BG2          bls12381.G2Jac
}
