// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/internal/parallel"
)

// Rhos is vanilla.rs rhos: the 2^H encoding factors Rho(phi, high) for
// high = 0 … 2^H − 1, indexed by ChallengeHigh of a node.
func Rhos(cfg *Config, phi *fr.Element) []fr.Element {
	out := make([]fr.Element, 1<<cfg.H)
	for high := range out {
		out[high] = Rho(phi, uint64(high))
	}
	return out
}

// Encode is the node loop of vanilla.rs EmptySectorUpdate::encode_into:
// out[i] = old[i] + data[i]·rho(i >> (cbl − h)) in Fr, for every node of the
// sector. old is the sector key (the CC replica, TreeR's leaves), data the
// new Fr32-padded data (TreeD's leaves), phi = Phi(comm_d_new, comm_r_old).
// out may alias old. Errors: a slice that is not cfg.Nodes long.
func Encode(cfg *Config, phi *fr.Element, old, data, out []fr.Element) error {
	n := cfg.Nodes
	if uint64(len(old)) != n || uint64(len(data)) != n || uint64(len(out)) != n {
		return fmt.Errorf("update: encode: %s has %d nodes; got %d old, %d data and %d output nodes", cfg.Name, n, len(old), len(data), len(out))
	}
	rhos := Rhos(cfg, phi)
	parallel.For(int(n), 8192, func(lo, hi int) {
		var m fr.Element
		for i := lo; i < hi; i++ {
			m.Mul(&data[i], &rhos[cfg.ChallengeHigh(uint64(i))])
			out[i].Add(&old[i], &m)
		}
	})
	return nil
}

// Decode inverts Encode (vanilla.rs decode_from): data[i] = (new[i] −
// old[i])·rho(i >> (cbl − h))⁻¹. out may alias either input. Errors as
// Encode.
func Decode(cfg *Config, phi *fr.Element, old, replica, out []fr.Element) error {
	n := cfg.Nodes
	if uint64(len(old)) != n || uint64(len(replica)) != n || uint64(len(out)) != n {
		return fmt.Errorf("update: decode: %s has %d nodes; got %d old, %d replica and %d output nodes", cfg.Name, n, len(old), len(replica), len(out))
	}
	inv := Rhos(cfg, phi)
	for i := range inv {
		inv[i].Inverse(&inv[i])
	}
	parallel.For(int(n), 8192, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i].Sub(&replica[i], &old[i])
			out[i].Mul(&out[i], &inv[cfg.ChallengeHigh(uint64(i))])
		}
	})
	return nil
}
