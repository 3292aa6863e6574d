// SPDX-License-Identifier: Apache-2.0 OR MIT

package groth16

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"os"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/internal/parallel"
	"github.com/cuseal/cuseal/porep/cs"
)

// SyntheticShape is a circuit shape for timing backends at sizes no test parameters exist
// for (a 32 GiB partition's domain is 2^27): the shape native/tests/bench_groth16.cpp uses,
// so cuseal's and other provers' figures are comparable. For domain 2^LogN: constraints and
// aux variables 0.97·2^LogN each (rows including the input rows), 16 inputs (ONE first),
// A-aux density 60 %, B-aux 40 %, every input B-dense; witness values 35 % zero, 35 % one,
// the rest random (a SHA-heavy circuit is mostly bits); a, b, c 25 % zero, 25 % one, the
// rest random. c is NOT a·b, so H is a dense polynomial as in a real proof (its coefficients
// then depend on the coset a prover uses: proofs of a synthetic shape are for timing only,
// they neither verify nor match across backends).
//
// The parameters are not a real setup: every query is a tiling of 4096 distinct points
// (Pippenger's cost does not depend on the points being distinct), the verifying key is
// made of random multiples of the generators. WriteSyntheticParams streams them to a file
// (47 GiB for 2^27), which both cuseal and supraseal read like any .params file.
//
// Benchmark scaffolding (`cuseal bench groth16` and tests only; nothing on the proving path
// uses it). It stays in this package, unlike synthetic C1 (porep/synthetic), because it
// writes and checks the .params layout itself — the verifying-key encoding, the section
// counts, the uncompressed point encodings and the atomic streaming writer are this
// package's format internals, which a package elsewhere could only reach if they were
// exported for this one benchmark.
type SyntheticShape struct {
	LogN                int
	Constraints, Inputs int // Constraints includes the Inputs rows (input_i · 0 = 0)
	Aux                 int
}

// NewSyntheticShape returns the shape for domain 2^logN (10 ≤ logN ≤ 28).
func NewSyntheticShape(logN int) (SyntheticShape, error) {
	if logN < 10 || logN > 28 {
		return SyntheticShape{}, fmt.Errorf("groth16: synthetic shape: log %d out of range 10..28", logN)
	}
	n := 97 * (1 << logN) / 100
	return SyntheticShape{LogN: logN, Constraints: n, Inputs: 16, Aux: n}, nil
}

const syntheticTile = 4096

// densities returns the shape's A-aux and B-aux bitmaps (fixed seed: the params file and
// every assignment agree) and their popcounts.
func (s SyntheticShape) densities() (aAux, bAux cs.Density, popA, popB int) {
	words := (s.Aux + 63) / 64
	aw, bw := make([]uint64, words), make([]uint64, words)
	parallelChunks(s.Aux, func(lo, hi int) {
		// chunks are 64-aligned, so each worker owns whole words
		r := rand.New(rand.NewPCG(0x5e7a, uint64(lo)))
		for i := lo; i < hi; i++ {
			x := r.Uint32N(100)
			if x < 60 {
				aw[i/64] |= 1 << (i % 64)
			}
			if x%50 < 20 { // 40 %, not the same variables as A
				bw[i/64] |= 1 << (i % 64)
			}
		}
	})
	for i := range aw {
		popA += bits.OnesCount64(aw[i])
		popB += bits.OnesCount64(bw[i])
	}
	return cs.Density{Words: aw, BitLen: s.Aux}, cs.Density{Words: bw, BitLen: s.Aux}, popA, popB
}

// syntheticChunk is the stretch of elements one random stream covers (seeded
// by its first index): fixed, so that the synthetic data, and a params file
// written by one process and assignments made by another, never depend on
// GOMAXPROCS. A multiple of 64: each chunk owns whole density words.
const syntheticChunk = 1 << 16

// parallelChunks runs f over [0, n) in syntheticChunk chunks on up to
// GOMAXPROCS goroutines (internal/parallel).
func parallelChunks(n int, f func(lo, hi int)) {
	parallel.For((n+syntheticChunk-1)/syntheticChunk, 1, func(clo, chi int) {
		for c := clo; c < chi; c++ {
			f(c*syntheticChunk, min((c+1)*syntheticChunk, n))
		}
	})
}

// SyntheticParamsSize is the byte size of the shape's .params file.
func (s SyntheticShape) SyntheticParamsSize() int64 {
	_, _, popA, popB := s.densities()
	g1 := int64(1<<s.LogN-1) + int64(s.Aux) + int64(s.Inputs+popA) + int64(s.Inputs+popB)
	return vkFixedSize + 4 + int64(G1UncompressedSize)*int64(s.Inputs) + 5*4 +
		g1*G1UncompressedSize + int64(s.Inputs+popB)*G2UncompressedSize
}

// WriteSyntheticParams writes the shape's parameters to path (atomically: a temporary file
// renamed into place).
func WriteSyntheticParams(path string, s SyntheticShape) error {
	_, _, popA, popB := s.densities()
	rng := rand.New(rand.NewPCG(0x9a7a, uint64(s.LogN)))
	_, _, g1Gen, g2Gen := bls.Generators()
	randScalar := func() *big.Int {
		var e fr.Element
		e.SetUint64(rng.Uint64() | 1)
		e.Mul(&e, &e) // any non-zero scalar will do
		return e.BigInt(new(big.Int))
	}
	mulG1 := func() bls.G1Affine {
		var p bls.G1Affine
		p.ScalarMultiplication(&g1Gen, randScalar())
		return p
	}
	mulG2 := func() bls.G2Affine {
		var p bls.G2Affine
		p.ScalarMultiplication(&g2Gen, randScalar())
		return p
	}
	vk := VerifyingKey{Alpha1: mulG1(), Beta1: mulG1(), Beta2: mulG2(), Gamma2: mulG2(), Delta1: mulG1(), Delta2: mulG2()}
	for i := 0; i < s.Inputs; i++ {
		vk.IC = append(vk.IC, mulG1())
	}
	// The tiles: k·P for k = 1..4096 (P a random multiple of the generator), encoded once.
	g1Tile := make([]byte, 0, syntheticTile*G1UncompressedSize)
	g2Tile := make([]byte, 0, syntheticTile*G2UncompressedSize)
	p1, p2 := mulG1(), mulG2()
	var j1 bls.G1Jac
	var j2 bls.G2Jac
	for k := 0; k < syntheticTile; k++ {
		j1.AddMixed(&p1)
		j2.AddMixed(&p2)
		var a1 bls.G1Affine
		var a2 bls.G2Affine
		a1.FromJacobian(&j1)
		a2.FromJacobian(&j2)
		g1Tile = appendG1(g1Tile, &a1)
		g2Tile = appendG2(g2Tile, &a2)
	}
	counts := [numQueries]int{1<<s.LogN - 1, s.Aux, s.Inputs + popA, s.Inputs + popB, s.Inputs + popB}
	return writeFileAtomic(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 8<<20)
		if _, err := vk.WriteTo(bw); err != nil {
			return err
		}
		for q, n := range counts {
			tile, size := g1Tile, G1UncompressedSize
			if q == qBG2 {
				tile, size = g2Tile, G2UncompressedSize
			}
			var c [4]byte
			binary.BigEndian.PutUint32(c[:], uint32(n))
			if _, err := bw.Write(c[:]); err != nil {
				return err
			}
			for left := n; left > 0; {
				k := min(left, syntheticTile)
				if _, err := bw.Write(tile[:k*size]); err != nil {
					return err
				}
				left -= k
			}
		}
		return bw.Flush()
	})
}

// SyntheticParams opens the shape's parameters at path, writing them first when the file is
// missing or has another size; it reports whether it wrote them.
func SyntheticParams(path string, s SyntheticShape) (*Params, bool, error) {
	wrote := false
	if st, err := os.Stat(path); err != nil || st.Size() != s.SyntheticParamsSize() {
		if err := WriteSyntheticParams(path, s); err != nil {
			return nil, false, err
		}
		wrote = true
	}
	p, err := OpenParams(path, false)
	if err != nil {
		return nil, wrote, err
	}
	if err := checkSyntheticShape(p, s); err != nil {
		p.Close()
		return nil, wrote, err
	}
	return p, wrote, nil
}

// checkSyntheticShape checks that params have the counts of shape s.
func checkSyntheticShape(p *Params, s SyntheticShape) error {
	_, _, popA, popB := s.densities()
	want := [numQueries]int{1<<s.LogN - 1, s.Aux, s.Inputs + popA, s.Inputs + popB, s.Inputs + popB}
	for q, n := range want {
		if got := p.Sections()[q].Count; got != n || len(p.VK.IC) != s.Inputs {
			return fmt.Errorf("groth16: %s: not the synthetic 2^%d shape (%s has %d points, want %d; ic %d, want %d)",
				p.Name(), s.LogN, queryNames[q], got, n, len(p.VK.IC), s.Inputs)
		}
	}
	return nil
}

// SyntheticAssignment returns an assignment of the shape (values from seed; densities those
// of WriteSyntheticParams).
func SyntheticAssignment(s SyntheticShape, seed uint64) *cs.Assignment {
	aAux, bAux, _, _ := s.densities()
	bIn := cs.Density{Words: make([]uint64, (s.Inputs+63)/64), BitLen: s.Inputs}
	for i := 0; i < s.Inputs; i++ {
		bIn.Words[i/64] |= 1 << (i % 64)
	}
	fill := func(n int, p0, p1 uint32, stream uint64) []fr.Element {
		v := make([]fr.Element, n)
		parallelChunks(n, func(lo, hi int) {
			r := rand.New(rand.NewPCG(seed, stream<<40|uint64(lo)))
			for i := lo; i < hi; i++ {
				switch x := r.Uint32N(100); {
				case x < p0:
				case x < p0+p1:
					v[i].SetOne()
				default:
					v[i] = fr.Element{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64() & 0x0fffffffffffffff}
				}
			}
		})
		return v
	}
	input := fill(s.Inputs, 0, 0, 1)
	input[0].SetOne()
	return &cs.Assignment{
		A: fill(s.Constraints, 25, 25, 2), B: fill(s.Constraints, 25, 25, 3), C: fill(s.Constraints, 25, 25, 4),
		Input: input, Aux: fill(s.Aux, 35, 35, 5),
		ADensityAux: aAux, BDensityInput: bIn, BDensityAux: bAux,
	}
}
