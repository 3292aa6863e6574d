// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/filecoin-project/go-state-types/abi"
	"golang.org/x/crypto/chacha20"

	"github.com/cuseal/cuseal/testsupport/testenv"
)

// TestChachaCoreMatchesChaCha20: with 10 double rounds the core must equal
// x/crypto's RFC 8439 ChaCha20 (zero nonce, so the 64-bit counter layout of
// rand_chacha coincides with the 32-bit counter + 96-bit nonce layout).
func TestChachaCoreMatchesChaCha20(t *testing.T) {
	var seed [32]byte
	for i := range seed {
		seed[i] = byte(7*i + 3)
	}
	var key [8]uint32
	for i := range key {
		key[i] = binary.LittleEndian.Uint32(seed[4*i:])
	}
	c, err := chacha20.NewUnauthenticatedCipher(seed[:], make([]byte, 12))
	if err != nil {
		t.Fatal(err)
	}
	stream := make([]byte, 64*3)
	c.XORKeyStream(stream, stream)
	for blk := 0; blk < 3; blk++ {
		var out [16]uint32
		chachaBlock(&out, &key, uint64(blk), 0, 10)
		for w := 0; w < 16; w++ {
			if got, want := out[w], binary.LittleEndian.Uint32(stream[64*blk+4*w:]); got != want {
				t.Fatalf("block %d word %d: %08x want %08x", blk, w, got, want)
			}
		}
	}
}

// parentCacheID mirrors cache.rs cache_path: sha256(H::name() ‖
// graph.identifier() ‖ feistel keys LE ‖ cache_entries u32 LE).
func parentCacheID(g *Graph) string {
	h := sha256.New()
	h.Write([]byte("poseidon_hasher"))
	fmt.Fprintf(h, "stacked_graph::StackedGraph{expansion_degree: 8 base_graph: drgraph::BucketGraph{size: %d; degree: 6; hasher: poseidon_hasher} }", g.nodes)
	for _, k := range g.feistelKeys {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], k)
		h.Write(b[:])
	}
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], uint32(g.nodes))
	h.Write(b[:])
	return "v28-sdr-parent-" + hex.EncodeToString(h.Sum(nil))
}

// TestParentCacheDigests regenerates whole production parent caches and
// compares their SHA-256 with rust-fil-proofs parent_cache.json. This checks
// ChaCha8 sampling, bucket math, the Feistel expander and both API rules.
func TestParentCacheDigests(t *testing.T) {
	raw, err := os.ReadFile("testdata/parent_cache.json")
	if err != nil {
		t.Fatal(err)
	}
	var manifest map[string]struct {
		SectorSize uint64 `json:"sector_size"`
		Digest     string `json:"digest"`
	}
	if err := json.Unmarshal(raw, &manifest); err != nil {
		t.Fatal(err)
	}
	sizes := []uint64{2 << 10}
	if testenv.Enabled(testenv.TierLong) {
		sizes = append(sizes, 8<<20)
	}
	for _, size := range sizes {
		matched := 0
		// The cache of the V1 proof (api 1.0) and of the V1_1 proof (1.1).
		for _, p := range []int{0, 5} {
			idx := map[uint64]int{2 << 10: 0, 8 << 20: 1}[size]
			cfg, err := ConfigFor(abiProof(p + idx))
			if err != nil {
				t.Fatal(err)
			}
			g, err := GraphFor(&cfg)
			if err != nil {
				t.Fatal(err)
			}
			id := parentCacheID(g)
			want, ok := manifest[id]
			if !ok {
				t.Fatalf("%s: cache id %s not in parent_cache.json", cfg.Name, id)
			}
			if want.SectorSize != size {
				t.Fatalf("%s: manifest size %d", cfg.Name, want.SectorSize)
			}
			cache := g.ParentCache()
			buf := make([]byte, 4*len(cache))
			for i, v := range cache {
				binary.LittleEndian.PutUint32(buf[4*i:], v)
			}
			got := sha256.Sum256(buf)
			if hex.EncodeToString(got[:]) != want.Digest {
				t.Fatalf("%s: parent cache digest %x, want %s", cfg.Name, got, want.Digest)
			}
			matched++
		}
		if matched != 2 {
			t.Fatalf("size %d: matched %d caches", size, matched)
		}
	}
}

func TestGraphParentsInvariants(t *testing.T) {
	for _, api := range []APIVersion{APIVersion1_0_0, APIVersion1_1_0, APIVersion1_2_0} {
		g, err := NewGraph(2048, [32]byte{5}, api)
		if err != nil {
			t.Fatal(err)
		}
		for n := uint32(2); n < 2048; n++ {
			var p [Degree]uint32
			g.Parents(n, &p)
			predSlot := 0
			if api == APIVersion1_0_0 {
				predSlot = BaseDegree - 1
			}
			if p[predSlot] != n-1 {
				t.Fatalf("api %v node %d: predecessor slot holds %d", api, n, p[predSlot])
			}
			for i := 0; i < BaseDegree; i++ {
				if p[i] >= n {
					t.Fatalf("api %v node %d: drg parent %d = %d not below node", api, n, i, p[i])
				}
			}
			for i := BaseDegree; i < Degree; i++ {
				if uint64(p[i]) >= g.nodes {
					t.Fatalf("exp parent out of range")
				}
			}
		}
	}
}

func abiProof(i int) abi.RegisteredSealProof { return abi.RegisteredSealProof(i) }

func BenchmarkDRGParents(b *testing.B) {
	g, _ := NewGraph(1<<30, [32]byte{8}, APIVersion1_1_0)
	var p [BaseDegree]uint32
	n := uint32(1 << 29)
	for b.Loop() {
		g.DRGParents(n, &p)
		n++
	}
}

func BenchmarkExpParents(b *testing.B) {
	g, _ := NewGraph(1<<30, [32]byte{8}, APIVersion1_1_0)
	var p [ExpDegree]uint32
	n := uint32(1 << 29)
	for b.Loop() {
		g.ExpParents(n, &p)
		n++
	}
}

// TestFeistelTableMatchesHashing: table-driven expansion equals the direct
// round function for every node of a 2^16-node graph and sampled nodes of
// a 32 GiB graph.
func TestFeistelTableMatchesHashing(t *testing.T) {
	for _, nodes := range []uint64{1 << 16, 1 << 30} {
		direct, _ := NewGraph(nodes, [32]byte{9}, APIVersion1_1_0)
		tabled, _ := NewGraph(nodes, [32]byte{9}, APIVersion1_1_0)
		tabled.buildRoundTable()
		step := uint64(1)
		if nodes > 1<<16 {
			step = nodes / 997
		}
		for n := uint64(0); n < nodes; n += step {
			var a, b [ExpDegree]uint32
			direct.ExpParents(uint32(n), &a)
			tabled.ExpParents(uint32(n), &b)
			if a != b {
				t.Fatalf("nodes %d node %d: %v vs %v", nodes, n, a, b)
			}
		}
	}
}

func BenchmarkExpParentsTable(b *testing.B) {
	g, _ := NewGraph(1<<30, [32]byte{8}, APIVersion1_1_0)
	g.buildRoundTable()
	var p [ExpDegree]uint32
	n := uint32(1 << 29)
	for b.Loop() {
		g.ExpParents(n, &p)
		n++
	}
}
