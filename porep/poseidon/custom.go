// SPDX-License-Identifier: Apache-2.0 OR MIT

package poseidon

import (
	"fmt"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
)

// customKey identifies a HashType::Custom constant set.
type customKey struct {
	arity int
	id    uint64
}

var (
	customCache    sync.Map // customKey → *Constants
	customTemplate sync.Map // *Constants → *template
)

// CustomConstants returns neptune 11's PoseidonConstants for
// HashType::Custom(CType::Arbitrary(id)) at Strength::Standard: the
// constants of ConstantsFor(arity) (round constants, MDS and round numbers
// do not depend on the hash type) with domain tag id·2^40
// (hash_type.rs CType::domain_tag). SnapDeals' gen-randomness hash
// (storage-proofs-update constants.rs POSEIDON_CONSTANTS_GEN_RANDOMNESS) is
// CustomConstants(2, 1). Cached; shared and read-only.
func CustomConstants(arity int, id uint64) (*Constants, error) {
	key := customKey{arity, id}
	if v, ok := customCache.Load(key); ok {
		return v.(*Constants), nil
	}
	base, err := ConstantsFor(arity)
	if err != nil {
		return nil, err
	}
	if id >= 1<<24 {
		return nil, fmt.Errorf("poseidon: custom domain id %d does not fit below 2^64 after the 2^40 shift", id)
	}
	c := *base
	c.DomainTag.SetUint64(id << 40)
	v, _ := customCache.LoadOrStore(key, &c)
	return v.(*Constants), nil
}

// HashWith is Hash with explicit constants (ConstantsFor or
// CustomConstants); len(inputs) must equal c.Arity.
func HashWith(c *Constants, inputs []fr.Element) (fr.Element, error) {
	var out fr.Element
	if len(inputs) != c.Arity {
		return out, fmt.Errorf("poseidon: %d inputs for arity-%d constants", len(inputs), c.Arity)
	}
	hashOptimized(c, &out, inputs)
	return out, nil
}

// HashCircuitWith is HashCircuit with explicit constants: the same R1CS
// shape and cost as HashCircuit for c.Arity, with c's domain tag folded
// into the first round's constant (neptune circuit.rs poseidon_hash with
// those constants).
func HashCircuitWith(sys cs.ConstraintSystem, c *Constants, vars []cs.Variable, vals []fr.Element) (cs.Variable, fr.Element, error) {
	var zero fr.Element
	if len(vars) != c.Arity || (vals != nil && len(vals) != len(vars)) {
		return 0, zero, fmt.Errorf("poseidon: HashCircuitWith got %d variables and %d values for arity %d", len(vars), len(vals), c.Arity)
	}
	if std, err := ConstantsFor(c.Arity); err == nil && std == c {
		return HashCircuit(sys, vars, vals)
	}
	v, ok := customTemplate.Load(c)
	if !ok {
		v, _ = customTemplate.LoadOrStore(c, buildTemplate(c))
	}
	return v.(*template).replay(sys, vars, vals)
}
