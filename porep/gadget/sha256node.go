// SPDX-License-Identifier: Apache-2.0 OR MIT

package gadget

import (
	"github.com/cuseal/cuseal/porep/cs"
)

// SHA256HashCircuit mirrors filecoin-hashers sha256.rs hash_circuit:
// sha256(bits), reverse the bits within each byte of the big-endian digest,
// keep the first 254 and pack_bits them into one aux number — the digest as
// a little-endian Fr with the top two bits cleared (trim_to_fr32).
func SHA256HashCircuit(sys cs.ConstraintSystem, bits []Boolean) (AllocatedNum, error) {
	be, err := SHA256(sys, bits)
	if err != nil {
		return AllocatedNum{}, err
	}
	le := AppendReverseBitNumbering(make([]Boolean, 0, 256), be)
	return PackBits(sys, le[:Capacity]), nil
}

// SHA256HashMultiLeaf mirrors filecoin-hashers sha256.rs
// hash_multi_leaf_circuit: every leaf is to_bits_le (255 aux + 256
// constraints), padded with Constant(false) to 256 bits and reversed within
// each byte (its little-endian bytes, MSB first), concatenated, then
// SHA256HashCircuit. For the comm_d tree node (2 leaves) it costs 45,379
// constraints.
func SHA256HashMultiLeaf(sys cs.ConstraintSystem, leaves []AllocatedNum) (AllocatedNum, error) {
	msg := make([]Boolean, 0, 256*len(leaves))
	var tmp [NumBits]Boolean
	s := acquire(sys)
	for i := range leaves {
		s.toBitsLE(&leaves[i], tmp[:])
		msg = AppendReverseBitNumbering(msg, tmp[:])
	}
	release(s)
	return SHA256HashCircuit(sys, msg)
}

// SHA256HashLeafBits mirrors hash_leaf_bits_circuit: left and right bit
// vectors are each padded to whole bytes and reversed within each byte,
// concatenated, then SHA256HashCircuit.
func SHA256HashLeafBits(sys cs.ConstraintSystem, left, right []Boolean) (AllocatedNum, error) {
	msg := AppendReverseBitNumbering(make([]Boolean, 0, len(left)+len(right)+16), left)
	msg = AppendReverseBitNumbering(msg, right)
	return SHA256HashCircuit(sys, msg)
}
