// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// PublicInputs returns the public inputs of partition k without the leading
// ONE (StackedCompound::generate_public_inputs, §2.4): replica_id, comm_d,
// comm_r, then per challenge c: c (comm_d path), the 6 DRG parents, the 8
// expander parents, c (UInt64), c (comm_r_last path), c (comm_c path).
// g may be nil (it is then built from cfg). The length is
// cfg.NumPublicInputs()−1.
func PublicInputs(cfg *SectorConfig, g *Graph, replicaID, commD, commR, seed [32]byte, k int) ([]fr.Element, error) {
	if g == nil {
		var err error
		if g, err = GraphFor(cfg); err != nil {
			return nil, err
		}
	}
	out := make([]fr.Element, 0, cfg.NumPublicInputs()-1)
	for _, v := range []struct {
		name string
		b    [32]byte
	}{{"replica_id", replicaID}, {"comm_d", commD}, {"comm_r", commR}} {
		e, err := FrFromBytes(&v.b)
		if err != nil {
			return nil, fmt.Errorf("public inputs: %s: %w", v.name, err)
		}
		out = append(out, e)
	}
	chs, err := PartitionChallenges(cfg, replicaID, commR, seed, k)
	if err != nil {
		return nil, fmt.Errorf("public inputs: %w", err)
	}
	var par [Degree]uint32
	for _, c := range chs {
		cf := FrFromUint64(c)
		out = append(out, cf)
		g.Parents(uint32(c), &par)
		for _, p := range par {
			out = append(out, FrFromUint64(uint64(p)))
		}
		out = append(out, cf, cf, cf)
	}
	return out, nil
}

// PublicInputs returns the public inputs of partition k for this C1 output
// (from its replica_id, comm_d, comm_r and seed).
func (c *C1Output) PublicInputs(cfg *SectorConfig, g *Graph, k int) ([]fr.Element, error) {
	return PublicInputs(cfg, g, c.ReplicaID, c.CommD, c.CommR, c.Seed, k)
}
