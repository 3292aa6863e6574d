// SPDX-License-Identifier: Apache-2.0 OR MIT

package supraseal

import (
	"errors"
	"math/bits"
	"unsafe"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/bridge"
)

// ErrNotBuilt: the binary was built without the supraseal tag.
var ErrNotBuilt = errors.New("supraseal: not built in (build tag supraseal: ./build.sh supraseal builds bin/cuseal-supraseal)")

// ErrNoDevice: supraseal found no usable CUDA device (sppark counts devices with compute
// capability >= 7.0 and cooperative launch; CUDA_VISIBLE_DEVICES is honoured by the runtime).
var ErrNoDevice = errors.New("supraseal: no CUDA device supraseal can use")

// Error is an error reported by the shim or by supraseal itself.
type Error struct {
	Code    int // 1 bad argument, 2 supraseal/CUDA error, 3 caught panic
	Message string
}

func (e *Error) Error() string { return "supraseal: " + e.Message }

// Density and Circuit are the native prover's types (bridge): one synthesized circuit as a
// GPU prover takes it, whichever prover that is. All circuits of one Prove call must share
// sizes and densities.
type (
	Density = bridge.Density
	Circuit = bridge.Circuit
)

// Proof is a proof as supraseal writes it: affine points in gnark-crypto's in-memory layout
// (identity = (0, 0)), 384 bytes.
type Proof struct {
	A bls.G1Affine
	B bls.G2Affine
	C bls.G1Affine
}

// The proof buffer is handed to C as is; these are the offsets of supraseal's groth16_proof.
var _ = [1]struct{}{}[unsafe.Sizeof(Proof{})-384]
var _ = [1]struct{}{}[unsafe.Offsetof(Proof{}.B)-96]
var _ = [1]struct{}{}[unsafe.Offsetof(Proof{}.C)-288]
var _ = [1]struct{}{}[unsafe.Sizeof(fr.Element{})-32]

var densityNames = [3]string{"A-aux", "B-input", "B-aux"}

// popcount returns the set bits among the first nbits bits of words.
func popcount(words []uint64, nbits int) int {
	n := 0
	for i := 0; i < nbits/64; i++ {
		n += bits.OnesCount64(words[i])
	}
	if r := nbits % 64; r != 0 {
		n += bits.OnesCount64(words[nbits/64] & (1<<uint(r) - 1))
	}
	return n
}
