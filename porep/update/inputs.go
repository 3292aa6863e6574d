// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/stacked"
)

// PublicInputs is compound.rs generate_public_inputs for partition k
// (circuit.rs PublicInputs::to_vec): [Fr(k | h_select << pbl), comm_r_old,
// comm_d_new, comm_r_new], without ONE. Errors: k out of range.
func PublicInputs(cfg *Config, k int, commROld, commDNew, commRNew *fr.Element) ([]fr.Element, error) {
	if k < 0 || k >= cfg.Partitions {
		return nil, fmt.Errorf("update: public inputs: partition %d out of range (%s has %d)", k, cfg.Name, cfg.Partitions)
	}
	return []fr.Element{stacked.FrFromUint64(cfg.KAndHSelect(k)), *commROld, *commDNew, *commRNew}, nil
}
