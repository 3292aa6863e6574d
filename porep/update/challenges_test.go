// SPDX-License-Identifier: Apache-2.0 OR MIT

package update

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/filecoin-project/go-state-types/abi"
)

// TestPhiRhoChallenges recomputes phi, the partition challenges, c_high and
// rho of the reference vector and the public inputs.
func TestPhiRhoChallenges(t *testing.T) {
	m, cfg, _ := loadRef(t)
	commROld, commDNew, commRNew := hexFr(t, "comm_r_old", m.CommROld), hexFr(t, "comm_d_new", m.CommDNew), hexFr(t, "comm_r_new", m.CommRNew)
	phi := Phi(&commDNew, &commROld)
	if got := frHex(&phi); got != m.Phi {
		t.Fatalf("phi %s, want %s", got, m.Phi)
	}
	for _, p := range m.Partition {
		chs, err := Challenges(cfg, &commRNew, p.K)
		if err != nil {
			t.Fatal(err)
		}
		if len(chs) != len(p.Challenges) {
			t.Fatalf("partition %d: %d challenges, want %d", p.K, len(chs), len(p.Challenges))
		}
		for i, w := range p.Challenges {
			if chs[i] != w.C {
				t.Errorf("partition %d challenge %d: %d, want %d", p.K, i, chs[i], w.C)
			}
			high := cfg.ChallengeHigh(w.C)
			rho := Rho(&phi, high)
			if high != w.CHigh || frHex(&rho) != w.Rho {
				t.Errorf("partition %d challenge %d: c_high %d rho %s, want %d %s", p.K, i, high, frHex(&rho), w.CHigh, w.Rho)
			}
		}
		pub, err := PublicInputs(cfg, p.K, &commROld, &commDNew, &commRNew)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.KAndHSelect(p.K) != p.KAndHSelect || len(pub) != len(p.PublicInputs) {
			t.Fatalf("partition %d: k_and_h_select %d, %d inputs; want %d, %d", p.K, cfg.KAndHSelect(p.K), len(pub), p.KAndHSelect, len(p.PublicInputs))
		}
		for i := range pub {
			if got := frHex(&pub[i]); got != p.PublicInputs[i] {
				t.Errorf("partition %d public input %d: %s, want %s", p.K, i, got, p.PublicInputs[i])
			}
		}
	}
	if _, err := Challenges(cfg, &commRNew, cfg.Partitions); err == nil {
		t.Error("Challenges accepted a partition out of range")
	}
	if _, err := PublicInputs(cfg, -1, &commROld, &commDNew, &commRNew); err == nil {
		t.Error("PublicInputs accepted partition -1")
	}
}

// xorShift is rand_xorshift 0.3 XorShiftRng (next_u64 = two next_u32, low
// first), to rebuild upstream's test comm_r_new.
type xorShift struct{ x, y, z, w uint32 }

func (r *xorShift) u32() uint32 {
	t := r.x ^ (r.x << 11)
	r.x, r.y, r.z = r.y, r.z, r.w
	r.w = r.w ^ (r.w >> 19) ^ (t ^ (t >> 8))
	return r.w
}

func (r *xorShift) u64() uint64 { lo := r.u32(); return uint64(r.u32())<<32 | uint64(lo) }

// TestChallengesAgainstHardcoded is storage-proofs-update challenges.rs
// test_challenges_against_hardcoded for the registered sizes: comm_r_new =
// Fr::random(XorShiftRng::from_seed(TEST_SEED)) (blstrs 0.7: four next_u64
// as a LE integer, top bit cleared, retried until below r), the first five
// challenges of some partitions.
func TestChallengesAgainstHardcoded(t *testing.T) {
	seed := [16]byte{0x59, 0x62, 0xbe, 0x5d, 0x76, 0x3d, 0x31, 0x8d, 0x17, 0xdb, 0x37, 0x32, 0x54, 0x06, 0xbc, 0xe5}
	le := func(b []byte) uint32 { return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24 }
	rng := &xorShift{le(seed[0:]), le(seed[4:]), le(seed[8:]), le(seed[12:])}
	var commRNew fr.Element
	for {
		var raw [32]byte // big-endian for SetBytesCanonical
		for i := 0; i < 4; i++ {
			v := rng.u64()
			if i == 3 {
				v &= 1<<63 - 1 // REPR_SHAVE_BITS = 1
			}
			for j := 0; j < 8; j++ {
				raw[31-(8*i+j)] = byte(v >> (8 * j))
			}
		}
		if commRNew.SetBytesCanonical(raw[:]) == nil {
			break
		}
	}
	want := []struct {
		proof abi.RegisteredUpdateProof
		k     int
		first [5]uint64
	}{
		{0, 0, [5]uint64{53, 51, 56, 3, 0}},
		{1, 0, [5]uint64{36085, 32783, 44060, 10950, 3731}},
		{1, 1, [5]uint64{78878, 130797, 112892, 93994, 78379}},
		{2, 0, [5]uint64{1019125, 116736, 706220, 59698, 799498}},
		{2, 1, [5]uint64{2092548, 1213276, 1185483, 1164598, 1095197}},
		{2, 14, [5]uint64{15212432, 15665918, 15015423, 15012912, 15495223}},
		{2, 15, [5]uint64{16388544, 15794686, 16637142, 16319148, 16328348}},
		{3, 0, [5]uint64{1019125, 27985696, 15282860, 11586600, 44651330}},
		{3, 1, [5]uint64{109168525, 127316247, 80331041, 97065716, 72310052}},
		{3, 14, [5]uint64{990420169, 955146989, 968005601, 976863263, 944650706}},
		{3, 15, [5]uint64{1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
		{4, 0, [5]uint64{1019125, 13992848, 3820715, 18225541, 57316660}},
		{4, 1, [5]uint64{243386253, 197875851, 204632136, 171516766, 247789010}},
		{4, 14, [5]uint64{1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
		{4, 15, [5]uint64{2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
	}
	for _, w := range want {
		cfg, err := ConfigFor(w.proof)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Challenges(&cfg, &commRNew, w.k)
		if err != nil {
			t.Fatal(err)
		}
		if [5]uint64(got[:5]) != w.first {
			t.Errorf("%s k=%d: %v, upstream %v", cfg.Name, w.k, got[:5], w.first)
		}
	}
}
