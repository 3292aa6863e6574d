// SPDX-License-Identifier: Apache-2.0 OR MIT

package seal

import (
	"bytes"
	"context"
	"encoding/binary"
	"testing"

	"github.com/cuseal/cuseal/porep/stacked"
)

// TestGenerateLabelsGolden: storage-proofs-porep tests/stacked_vanilla.rs
// test_stacked_porep_generate_labels: 11 layers, replica_id [9;32], the last
// label of the last layer for 2 KiB and 4 KiB (the test passes byte sizes 1<<11
// and 1<<12, so 64 and 128 nodes), porep_id [0;32] with API
// 1.0 and [123;32] with API 1.1 / 1.2 (expected values as u64 limbs, LE).
func TestGenerateLabelsGolden(t *testing.T) {
	legacy, modern := [32]byte{}, [32]byte(bytes.Repeat([]byte{123}, 32))
	cases := []struct {
		nodes   uint64
		porepID [32]byte
		api     stacked.APIVersion
		want    [4]uint64
	}{
		{64, legacy, stacked.APIVersion1_0_0, [4]uint64{0xd3faa96b9a0fba04, 0xea81a283d106485e, 0xe3d51b9afa5ac2b3, 0x0462f4f4f1a68d37}},
		{128, legacy, stacked.APIVersion1_0_0, [4]uint64{0x7e191e52c4a8da86, 0x5ae8a1c9e6fac148, 0xce239f3b88a894b8, 0x234c00d1dc1d53be}},
		{64, modern, stacked.APIVersion1_1_0, [4]uint64{0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc, 0x06021188c7a71cb5}},
		{128, modern, stacked.APIVersion1_1_0, [4]uint64{0x22ab81cf68c4676d, 0x7a77a82fc7c9c189, 0xc6c03d32c1e42d23, 0x0f777c18cc2c55bd}},
		{64, modern, stacked.APIVersion1_2_0, [4]uint64{0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc, 0x06021188c7a71cb5}},
		{128, modern, stacked.APIVersion1_2_0, [4]uint64{0x22ab81cf68c4676d, 0x7a77a82fc7c9c189, 0xc6c03d32c1e42d23, 0x0f777c18cc2c55bd}},
	}
	replicaID := [32]byte(bytes.Repeat([]byte{9}, 32))
	for _, tc := range cases {
		g, err := stacked.NewGraph(tc.nodes, tc.porepID, tc.api)
		if err != nil {
			t.Fatal(err)
		}
		parents := g.ParentCache()
		var prev []byte
		for l := uint32(1); l <= 11; l++ {
			cur := make([]byte, 32*tc.nodes)
			if err := labelLayer(context.Background(), parents, &replicaID, l, prev, cur); err != nil {
				t.Fatal(err)
			}
			prev = cur
		}
		var want [32]byte
		for i, v := range tc.want {
			binary.LittleEndian.PutUint64(want[8*i:], v)
		}
		if got := prev[len(prev)-32:]; !bytes.Equal(got, want[:]) {
			t.Errorf("nodes %d api %v: last label %x want %x", tc.nodes, tc.api, got, want)
		}
	}
}

// BenchmarkLabelLayer: one layer-2 pass over 2^14 nodes (ns/op per layer;
// divide by 16384 for ns per label).
func BenchmarkLabelLayer(b *testing.B) {
	const nodes = 1 << 14
	g, _ := stacked.NewGraph(nodes, [32]byte{5}, stacked.APIVersion1_1_0)
	parents := g.ParentCache()
	rid := [32]byte{1}
	prev := make([]byte, 32*nodes)
	cur := make([]byte, 32*nodes)
	_ = labelLayer(context.Background(), parents, &rid, 1, nil, prev)
	b.SetBytes(32 * nodes)
	b.ReportAllocs()
	for b.Loop() {
		_ = labelLayer(context.Background(), parents, &rid, 2, prev, cur)
	}
}
