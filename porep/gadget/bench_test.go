// SPDX-License-Identifier: Apache-2.0 OR MIT

package gadget

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/cuseal/cuseal/porep/cs"
)

// benchBlock returns 512 allocated message bits in sys.
func benchBlock(sys cs.ConstraintSystem, seed byte) []Boolean {
	data := make([]byte, 64)
	for i := range data {
		data[i] = byte(i)*31 + seed
	}
	return allocBytes(sys, data)
}

// BenchmarkSHA256Compression: one compression of 512 allocated bits with
// the constant IV into a pre-sized ProvingAssignment (25,840 constraints).
func BenchmarkSHA256Compression(b *testing.B) {
	const perBlock = 25840 + 512
	p := cs.NewProvingAssignment(cs.SizeHint{Constraints: perBlock * (b.N + 1), Aux: perBlock * (b.N + 1), Inputs: 1})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bits := benchBlock(p, byte(i))
		state := SHA256IV()
		if err := SHA256Compression(p, bits, &state); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	n := float64(p.NumConstraints())
	b.ReportMetric(n/b.Elapsed().Seconds(), "constraints/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/constraint")
}

// BenchmarkSHA256Batch1M: 40 chained compressions (1,033,600 constraints
// plus 20,480 input bits), the way create_label hashes 20 blocks twice,
// into a ProvingAssignment sized for the batch.
func BenchmarkSHA256Batch1M(b *testing.B) {
	const blocks = 40
	const per = blocks * (25840 + 512)
	b.ReportAllocs()
	var total int
	for i := 0; i < b.N; i++ {
		p := cs.NewProvingAssignment(cs.SizeHint{Constraints: per, Aux: per, Inputs: 1})
		state := SHA256IV()
		for k := 0; k < blocks; k++ {
			bits := benchBlock(p, byte(k))
			if err := SHA256Compression(p, bits, &state); err != nil {
				b.Fatal(err)
			}
		}
		total += p.NumConstraints()
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "constraints/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(total), "ns/constraint")
}

// BenchmarkSHA256CompressionCounter: the same compression into a Counter,
// i.e. the gadget's own cost without witness evaluation.
func BenchmarkSHA256CompressionCounter(b *testing.B) {
	c := cs.NewCounter()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		bits := benchBlock(c, byte(i))
		state := SHA256IV()
		if err := SHA256Compression(c, bits, &state); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(c.Constraints)/b.Elapsed().Seconds(), "constraints/s")
}

// BenchmarkCreateLabel: one layer-1 create_label as the stacked circuit
// builds it (replica id and 6 DRG parents from to_bits_le, expanded to 37,
// allocated UInt64 node), into a pre-sized ProvingAssignment: ~524k
// constraints, of which 522,269 are create_label itself.
func BenchmarkCreateLabel(b *testing.B) {
	const per = 530000
	b.ReportAllocs()
	var total int
	for i := 0; i < b.N; i++ {
		p := cs.NewProvingAssignment(cs.SizeHint{Constraints: per, Aux: per, Inputs: 1})
		var v fr.Element
		v.SetUint64(uint64(i) + 12345)
		v.Square(&v)
		id := AllocNum(p, &v)
		replica := ReverseBitNumbering(id.ToBitsLE(p))
		parents := make([][]Boolean, 0, 37)
		for k := 0; k < 6; k++ {
			v.Square(&v)
			n := AllocNum(p, &v)
			parents = append(parents, ReverseBitNumbering(n.ToBitsLE(p)))
		}
		for len(parents) < 37 {
			parents = append(parents, parents[len(parents)%6])
		}
		node := AllocUInt64(p, 777)
		if _, err := CreateLabel(p, replica, parents, UInt32Constant(1), &node); err != nil {
			b.Fatal(err)
		}
		total += p.NumConstraints()
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "constraints/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(total), "ns/constraint")
}
