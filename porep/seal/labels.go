// SPDX-License-Identifier: Apache-2.0 OR MIT

package seal

import (
	"context"
	"crypto/sha256"
	"encoding/binary"

	"github.com/cuseal/cuseal/porep/stacked"
)

// labelHeader writes replica_id ‖ layer u32 BE ‖ node u64 BE ‖ 20 zero bytes
// into buf[:64].
func labelHeader(buf []byte, replicaID *[32]byte, layer uint32, node uint64) {
	copy(buf[:32], replicaID[:])
	binary.BigEndian.PutUint32(buf[32:36], layer)
	binary.BigEndian.PutUint64(buf[36:44], node)
	clear(buf[44:64])
}

// labelLayer computes the labels of one layer into cur (nodes·32 bytes), as
// create_label/single.rs create_label (layer 1, prev == nil) and
// create_label_exp (later layers) do: node 0 hashes the 64-byte header only;
// every other node hashes the header and 37 parent labels: layer 1 cycles
// its 6 DRG parents (same layer), later layers cycle the 6 DRG parents (same
// layer) and the 8 expander parents (previous layer) as p ‖ p ‖ p[0..9].
// Labels are trimmed to 254 bits. The loop is sequential: node n depends on
// node n−1 of the same layer.
func labelLayer(ctx context.Context, parents []uint32, replicaID *[32]byte, layer uint32, prev, cur []byte) error {
	n := len(cur) / 32
	var buf [64 + stacked.TotalParents*32]byte
	for node := 0; node < n; node++ {
		if node&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		labelHeader(buf[:], replicaID, layer, uint64(node))
		var sum [32]byte
		if node == 0 {
			sum = sha256.Sum256(buf[:64])
		} else {
			p := parents[node*stacked.Degree : (node+1)*stacked.Degree]
			o := 64
			if prev == nil {
				for k := 0; k < stacked.TotalParents; k++ {
					copy(buf[o:o+32], cur[32*int(p[k%stacked.BaseDegree]):])
					o += 32
				}
			} else {
				for k := 0; k < stacked.TotalParents; k++ {
					j := k % stacked.Degree
					src := cur
					if j >= stacked.BaseDegree {
						src = prev
					}
					copy(buf[o:o+32], src[32*int(p[j]):])
					o += 32
				}
			}
			sum = sha256.Sum256(buf[:])
		}
		sum[31] &= 0x3f
		copy(cur[32*node:], sum[:])
	}
	return nil
}

// LabelFromParents is the label of node in layer (1-based) from its 37
// parent labels (LayerParents), trimmed to 254 bits
// (LabelingProof::create_label).
func LabelFromParents(replicaID *[32]byte, layer uint32, node uint64, parents []stacked.Domain) stacked.Domain {
	h := sha256.New()
	var hdr [64]byte
	labelHeader(hdr[:], replicaID, layer, node)
	h.Write(hdr[:])
	for i := range parents {
		h.Write(parents[i][:])
	}
	var out stacked.Domain
	h.Sum(out[:0])
	out[31] &= 0x3f
	return out
}
