// SPDX-License-Identifier: Apache-2.0 OR MIT

package stacked

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/cuseal/cuseal/internal/parallel"
	"golang.org/x/crypto/blake2b"
)

// Domain-separation tags of storage-proofs-core crypto/mod.rs.
const (
	drsampleDST   = "Filecoin_DRSample"
	feistelDST    = "Filecoin_Feistel"
	feistelRounds = 3
)

// Graph is the stacked SDR graph: a BucketGraph (6 DRG parents, ChaCha8
// sampling) plus the Feistel expander (8 parents). It mirrors
// storage-proofs-core drgraph.rs BucketGraph and storage-proofs-porep
// stacked/vanilla/graph.rs StackedGraph. A Graph is immutable and safe for
// concurrent use.
type Graph struct {
	nodes       uint64
	api         APIVersion
	drgSeed     [28]byte
	feistelKeys [4]uint64
	// Feistel precomputation (crypto/feistel.rs precompute).
	leftMask, rightMask uint64
	halfBits            uint
	// roundTable[r][x] = F(x, key_r) for every half-width value x, built by
	// ParentCache: the round function only ever sees 2^halfBits inputs per
	// round (2^17 for 32/64 GiB), so bulk expansion needs no hashing.
	tableOnce  sync.Once
	roundTable atomic.Pointer[[feistelRounds][]uint64]
}

// NewGraph builds the graph for nodes nodes (2 ≤ nodes ≤ 2^32), porep_id and
// API version.
func NewGraph(nodes uint64, porepID [32]byte, api APIVersion) (*Graph, error) {
	if nodes < 2 || nodes > 1<<32 {
		return nil, fmt.Errorf("graph: node count %d not in 2..2^32", nodes)
	}
	if api < APIVersion1_0_0 || api > APIVersion1_2_0 {
		return nil, fmt.Errorf("graph: unknown api version %d", int(api))
	}
	g := &Graph{nodes: nodes, api: api}
	s := sha256.Sum256(append([]byte(drsampleDST), porepID[:]...))
	copy(g.drgSeed[:], s[:28])
	f := sha256.Sum256(append([]byte(feistelDST), porepID[:]...))
	for i := range g.feistelKeys {
		g.feistelKeys[i] = binary.LittleEndian.Uint64(f[8*i:])
	}
	// precompute(num_elements = nodes·8): smallest power of 4 ≥ n, log4 ≥ 1.
	n := nodes * ExpDegree
	next, log4 := uint64(4), uint(1)
	for next < n {
		next *= 4
		log4++
	}
	g.halfBits = log4
	g.rightMask = (1 << log4) - 1
	g.leftMask = g.rightMask << log4
	return g, nil
}

// GraphFor returns the graph of a sector configuration.
func GraphFor(c *SectorConfig) (*Graph, error) { return NewGraph(c.Nodes, c.PoRepID, c.APIVersion) }

// Nodes returns the number of nodes.
func (g *Graph) Nodes() uint64 { return g.nodes }

// FeistelKeys returns the four Feistel keys (only the first three are used).
func (g *Graph) FeistelKeys() [4]uint64 { return g.feistelKeys }

// DRGParents writes the 6 base (DRG) parents of node into out
// (BucketGraph::parents). V1_0 puts the predecessor node−1 last, V1_1+ first.
func (g *Graph) DRGParents(node uint32, out *[BaseDegree]uint32) {
	if node < 2 {
		*out = [BaseDegree]uint32{}
		return
	}
	var seed [32]byte
	copy(seed[:28], g.drgSeed[:])
	binary.LittleEndian.PutUint32(seed[28:], node)
	var rng chacha8Rng
	rng.seed(&seed)

	const mPrime = BaseDegree - 1
	meta := uint64(node) * mPrime
	// n_buckets = ceil(log2(meta)) computed exactly; Rust's f64 log2 is exact
	// enough for meta < 2^35 that both agree.
	nBuckets := uint64(bits.Len64(meta - 1))
	pred, first := mPrime, 0
	if g.api != APIVersion1_0_0 {
		pred, first = 0, 1
	}
	for k := 0; k < mPrime; k++ {
		bucket := rng.u64()%nBuckets + 1
		largest := meta
		if bucket < 64 && uint64(1)<<bucket < largest {
			largest = uint64(1) << bucket
		}
		smallest := largest >> 1
		if smallest < 2 {
			smallest = 2
		}
		dist := smallest + rng.u64()%(largest-smallest+1)
		parent := uint32((meta - dist) / mPrime)
		if parent == node {
			parent = node - 1
		}
		out[first+k] = parent
	}
	out[pred] = node - 1
}

// ExpParents writes the 8 expander parents of node into out
// (StackedGraph::generate_expanded_parents / correspondent).
func (g *Graph) ExpParents(node uint32, out *[ExpDegree]uint32) {
	n := g.nodes * ExpDegree
	for i := 0; i < ExpDegree; i++ {
		t := g.permute(n, uint64(node)*ExpDegree+uint64(i))
		if g.api == APIVersion1_0_0 {
			out[i] = uint32(t) / ExpDegree // V1_0 truncates to u32 first
		} else {
			out[i] = uint32(t / ExpDegree)
		}
	}
}

// Parents writes the 14 parents of node (6 DRG then 8 expander), the layout
// of a parent-cache entry.
func (g *Graph) Parents(node uint32, out *[Degree]uint32) {
	g.DRGParents(node, (*[BaseDegree]uint32)(out[:BaseDegree]))
	g.ExpParents(node, (*[ExpDegree]uint32)(out[BaseDegree:]))
}

// ParentCache returns the parents of every node, Degree entries per node
// (node n at [14n, 14n+14)), the layout of rust-fil-proofs' parent cache
// file. It uses up to GOMAXPROCS goroutines.
func (g *Graph) ParentCache() []uint32 {
	g.buildRoundTable()
	out := make([]uint32, g.nodes*Degree)
	const chunk = 4096
	chunks := int((g.nodes + chunk - 1) / chunk)
	_ = parallel.Dynamic(chunks, 0, func(_, k int) error {
		start := uint64(k) * chunk
		end := min(start+chunk, g.nodes)
		for n := start; n < end; n++ {
			g.Parents(uint32(n), (*[Degree]uint32)(out[n*Degree:(n+1)*Degree]))
		}
		return nil
	})
	return out
}

func (g *Graph) permute(numElements, index uint64) uint64 {
	u := g.feistelEncode(index)
	for u >= numElements {
		u = g.feistelEncode(u)
	}
	return u
}

func (g *Graph) feistelEncode(index uint64) uint64 {
	left := (index & g.leftMask) >> g.halfBits
	right := index & g.rightMask
	if t := g.roundTable.Load(); t != nil {
		for r := 0; r < feistelRounds; r++ {
			left, right = right, left^t[r][right]
		}
		return left<<g.halfBits | right
	}
	for r := 0; r < feistelRounds; r++ {
		left, right = right, left^feistelRound(right, g.feistelKeys[r], g.rightMask)
	}
	return left<<g.halfBits | right
}

// buildRoundTable fills roundTable once (3·2^halfBits blake2b calls, on
// GOMAXPROCS goroutines). It is only worth it for bulk expansion.
func (g *Graph) buildRoundTable() {
	g.tableOnce.Do(func() {
		n := uint64(1) << g.halfBits
		var tab [feistelRounds][]uint64
		for r := range tab {
			tab[r] = make([]uint64, n)
		}
		workers := uint64(runtime.GOMAXPROCS(0))
		chunk := (n + workers - 1) / workers
		var wg sync.WaitGroup
		for lo := uint64(0); lo < n; lo += chunk {
			hi := min(lo+chunk, n)
			wg.Add(1)
			go func() {
				defer wg.Done()
				for x := lo; x < hi; x++ {
					for r := range tab {
						tab[r][x] = feistelRound(x, g.feistelKeys[r], g.rightMask)
					}
				}
			}()
		}
		wg.Wait()
		g.roundTable.Store(&tab)
	})
}

// feistelRound is F(R, K) = blake2b-512(R u64 BE ‖ K u64 BE)[0..8] BE & mask.
func feistelRound(right, key, mask uint64) uint64 {
	var data [16]byte
	binary.BigEndian.PutUint64(data[:8], right)
	binary.BigEndian.PutUint64(data[8:], key)
	h := blake2b.Sum512(data[:])
	return binary.BigEndian.Uint64(h[:8]) & mask
}
