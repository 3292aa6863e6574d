// SPDX-License-Identifier: Apache-2.0 OR MIT

package gadget

import (
	"fmt"

	"github.com/cuseal/cuseal/porep/cs"
)

// LabelParents is the number of parent labels hashed into one SDR label
// (TOTAL_PARENTS in storage-proofs-porep stacked/vanilla/proof.rs).
const LabelParents = 37

// CreateLabel mirrors storage-proofs-porep stacked/circuit/create_label.rs
// create_label_circuit. The SHA-256 message is, in SHA-256 bit order:
//
//	replicaID (≤ 256 bits, padded with Constant(false) to 256)
//	‖ layer, 32 bits big-endian ‖ node, 64 bits big-endian
//	‖ Constant(false) up to 512 bits
//	‖ each of the 37 parents, padded with Constant(false) to a multiple of
//	  256 bits
//
// i.e. the vanilla preimage replica_id ‖ layer u32 BE ‖ node u64 BE ‖
// 20 zero bytes ‖ 37 × 32-byte parent labels. The big-endian digest is
// reverse_bit_numbering'ed, cut to 254 bits and pack_bits'ed into one aux
// number: sha256(preimage) with byte[31] &= 0x3f as a little-endian Fr.
// In the stacked circuit (replica id and parents from to_bits_le, node
// allocated, layer constant) it costs 522,269 constraints and 521,749 aux.
//
// replicaID must hold 32…256 bits and parents exactly 37 entries, as
// upstream asserts.
func CreateLabel(sys cs.ConstraintSystem, replicaID []Boolean, parents [][]Boolean, layer UInt32, node *UInt64) (AllocatedNum, error) {
	if len(replicaID) < 32 || len(replicaID) > 256 {
		return AllocatedNum{}, fmt.Errorf("create_label: replica id has %d bits, want 32…256", len(replicaID))
	}
	if len(parents) != LabelParents {
		return AllocatedNum{}, fmt.Errorf("create_label: %d parents, want %d", len(parents), LabelParents)
	}
	size := 512
	for _, p := range parents {
		size += (len(p) + 255) / 256 * 256
	}
	msg := make([]Boolean, 0, size)
	msg = append(msg, replicaID...)
	for len(msg) < 256 {
		msg = append(msg, Constant(false))
	}
	msg = layer.AppendBitsBE(msg)
	for i := 63; i >= 0; i-- {
		msg = append(msg, node.Bits[i])
	}
	for len(msg) < 512 {
		msg = append(msg, Constant(false))
	}
	for _, p := range parents {
		msg = append(msg, p...)
		for len(msg)%256 != 0 {
			msg = append(msg, Constant(false))
		}
	}
	// reverse_bit_numbering of the 256-bit digest, the first 254 bits and
	// pack_bits: exactly filecoin-hashers' hash_circuit tail.
	return SHA256HashCircuit(sys, msg)
}
