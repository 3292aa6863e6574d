// SPDX-License-Identifier: Apache-2.0 OR MIT

package poseidon

import "math"

// Round-number search of neptune 11 src/round_numbers.rs (a port of the
// Poseidon authors' calc_round_numbers.py): 128-bit security, n = 256 bits,
// x^5 S-box, then a security margin of R_F += 2 and R_P = ceil(1.075·R_P).
// neptune computes in f32; every operation below is rounded to float32
// explicitly so that Go cannot fuse or widen it.
const (
	roundPrimeBits = 256 // "n" in the Poseidon paper (neptune rounds 255 up)
	roundSecurity  = 128 // "M" in the Poseidon paper
)

// calcRoundNumbers returns (R_F, R_P) for width t with neptune's margin
// (Strength::Standard, security_margin = true).
func calcRoundNumbers(t int) (rf, rp int) {
	best := math.MaxInt
	for rfTest := 2; rfTest <= 1000; rfTest += 2 {
		for rpTest := 4; rpTest < 200; rpTest++ {
			if !roundNumbersAreSecure(t, rfTest, rpTest) {
				continue
			}
			f := rfTest + 2
			p := int(float32(math.Ceil(float64(float32(float32(1.075) * float32(rpTest))))))
			cost := t*f + p
			if cost < best || (cost == best && f < rf) {
				rf, rp, best = f, p, cost
			}
		}
	}
	return rf, rp
}

// roundNumbersAreSecure mirrors round_numbers_are_secure: R_F must reach the
// statistical, interpolation and both Gröbner-basis bounds.
func roundNumbersAreSecure(t, rf, rp int) bool {
	fp, ft := float32(rp), float32(t)
	n, m := float32(roundPrimeBits), float32(roundSecurity)
	rfStat := float32(10)
	if m <= float32(float32(n-3)*float32(ft+1)) {
		rfStat = 6
	}
	log2t := float32(math.Log2(float64(ft)))
	rfInterp := float32(float32(float32(0.43)*m)+log2t) - fp
	rfGrob1 := float32(float32(0.21)*n) - fp
	rfGrob2 := float32(float32(float32(float32(0.14)*n)-1)-fp) / float32(ft-1)
	max := 0
	for _, v := range [...]float32{rfStat, rfInterp, rfGrob1, rfGrob2} {
		c := int(math.Ceil(float64(v)))
		if c < 0 {
			c = 0 // Rust's `as usize` saturates negative values at 0
		}
		if c > max {
			max = c
		}
	}
	return rf >= max
}
