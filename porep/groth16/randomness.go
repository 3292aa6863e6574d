// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// ToxicWaste is the secret trapdoor of a Groth16 setup. Only for test
// parameters: whoever knows it can forge proofs.
type ToxicWaste struct {
	Tau, Alpha, Beta, Gamma, Delta fr.Element
}

// maskedScalar turns a SHA-256 digest into a scalar as docs/digests.md §5:
// clear the top two bits of the last byte and read the 32 bytes as a
// canonical little-endian integer (< 2^254 < r, so no reduction).
func maskedScalar(d [32]byte) fr.Element {
	d[31] &= 0x3f
	e, err := fr.LittleEndian.Element(&d)
	if err != nil {
		panic("groth16: masked digest ≥ r (impossible: 2^254 < r)")
	}
	return e
}

// ToxicWasteFromSeed derives the toxic waste from a 32-byte seed exactly as
// docs/digests.md §5 (`cuseal-toxic-v1`): for each label L in tau,
// alpha, beta, gamma, delta, value = mask(SHA-256("cuseal-toxic-v1" ‖ seed
// ‖ L)). The same seed and R1CS give point-for-point identical parameters
// in any correct implementation.
func ToxicWasteFromSeed(seed [32]byte) ToxicWaste {
	derive := func(label string) fr.Element {
		h := sha256.New()
		h.Write([]byte("cuseal-toxic-v1"))
		h.Write(seed[:])
		h.Write([]byte(label))
		var d [32]byte
		h.Sum(d[:0])
		return maskedScalar(d)
	}
	return ToxicWaste{
		Tau:   derive("tau"),
		Alpha: derive("alpha"),
		Beta:  derive("beta"),
		Gamma: derive("gamma"),
		Delta: derive("delta"),
	}
}

// Randomness is the pair (r, s) that blinds one proof.
type Randomness struct {
	R, S fr.Element
}

// RandomnessFromSeed derives (r_k, s_k) for partition k from a 32-byte seed
// exactly as docs/digests.md §6 (`cuseal-rs-v1`):
// r_k = mask(SHA-256("cuseal-rs-v1" ‖ seed ‖ "r" ‖ u64le(k))), s_k likewise
// with "s". For deterministic tests only: fixed r, s make proofs
// reproducible and byte-identical across backends.
func RandomnessFromSeed(seed [32]byte, k uint64) Randomness {
	derive := func(label string) fr.Element {
		h := sha256.New()
		h.Write([]byte("cuseal-rs-v1"))
		h.Write(seed[:])
		h.Write([]byte(label))
		var kb [8]byte
		binary.LittleEndian.PutUint64(kb[:], k)
		h.Write(kb[:])
		var d [32]byte
		h.Sum(d[:0])
		return maskedScalar(d)
	}
	return Randomness{R: derive("r"), S: derive("s")}
}

// NewRandomness draws (r, s) uniformly from crypto/rand, as a production
// prover must.
func NewRandomness() (Randomness, error) {
	var rs Randomness
	if _, err := rs.R.SetRandom(); err != nil {
		return rs, fmt.Errorf("groth16: random r: %w", err)
	}
	if _, err := rs.S.SetRandom(); err != nil {
		return rs, fmt.Errorf("groth16: random s: %w", err)
	}
	return rs, nil
}

// randomBatchScalar draws a 128-bit random scalar for batch verification
// (bellperson verify_proofs_batch uses 128-bit coefficients too).
func randomBatchScalar(z *fr.Element) error {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return fmt.Errorf("groth16: batch coefficient: %w", err)
	}
	z.SetBytes(b[:])
	return nil
}
