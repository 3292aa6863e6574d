// SPDX-License-Identifier: Apache-2.0 OR MIT

// bls12_381.hpp: the BLS12-381 base field Fp (381-bit), scalar field Fr
// (255-bit) and Fp2 = Fp[u]/(u²+1), laid out exactly like gnark-crypto v0.22.0
// ecc/bls12-381/fp.Element, fr.Element and internal/fptower.E2.
//
// Constants: p and r are the curve's moduli; one = R mod p, r2 = R² mod p,
// m0 = -p⁻¹ mod 2^64 (gnark-crypto's qInvNeg). They are checked by the host
// tests against vectors written by tools/vectors (gnark-crypto).
#pragma once

#include "mont.cuh"

namespace cuseal::ff {

// The limb tables are local constexpr arrays inside constexpr functions so the
// same definition serves host and device code; with unrolled loops nvcc folds
// them into immediates.
struct fp_params {
	static constexpr int N64 = 6;
	CUSEAL_HD static constexpr uint64_t p64(int i) {
		constexpr uint64_t t[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
		                           0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
		return t[i];
	}
	CUSEAL_HD static constexpr uint64_t one64(int i) {
		constexpr uint64_t t[6] = {0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
		                           0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL};
		return t[i];
	}
	CUSEAL_HD static constexpr uint64_t r2_64(int i) {
		constexpr uint64_t t[6] = {0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL, 0x8de5476c4c95b6d5ULL,
		                           0x67eb88a9939d83c0ULL, 0x9a793e85b519952dULL, 0x11988fe592cae3aaULL};
		return t[i];
	}
	CUSEAL_HD static constexpr uint64_t m0_64() { return 0x89f3fffcfffcfffdULL; }
	CUSEAL_HD static constexpr uint32_t p32(int i) { return uint32_t(p64(i >> 1) >> (32 * (i & 1))); }
	CUSEAL_HD static constexpr uint32_t m0_32() { return 0xfffcfffdU; }
};

struct fr_params {
	static constexpr int N64 = 4;
	CUSEAL_HD static constexpr uint64_t p64(int i) {
		constexpr uint64_t t[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
		                           0x73eda753299d7d48ULL};
		return t[i];
	}
	CUSEAL_HD static constexpr uint64_t one64(int i) {
		constexpr uint64_t t[4] = {0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL,
		                           0x1824b159acc5056fULL};
		return t[i];
	}
	CUSEAL_HD static constexpr uint64_t r2_64(int i) {
		constexpr uint64_t t[4] = {0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL,
		                           0x0748d9d99f59ff11ULL};
		return t[i];
	}
	CUSEAL_HD static constexpr uint64_t m0_64() { return 0xfffffffeffffffffULL; }
	CUSEAL_HD static constexpr uint32_t p32(int i) { return uint32_t(p64(i >> 1) >> (32 * (i & 1))); }
	CUSEAL_HD static constexpr uint32_t m0_32() { return 0xffffffffU; }
};

using fp_t = mont_t<fp_params>; // gnark-crypto fp.Element, 48 bytes
using fr_t = mont_t<fr_params>; // gnark-crypto fr.Element, 32 bytes

static_assert(sizeof(fp_t) == 48, "fp_t must match fp.Element");
static_assert(sizeof(fr_t) == 32, "fr_t must match fr.Element");

// fp2_t: c0 + c1·u with u² = -1; gnark-crypto fptower.E2{A0, A1}, 96 bytes.
struct fp2_t {
	fp_t c0, c1;

	CUSEAL_HD static fp2_t zero() { return {fp_t::zero(), fp_t::zero()}; }
	CUSEAL_HD static fp2_t one() { return {fp_t::one(), fp_t::zero()}; }
	CUSEAL_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
	CUSEAL_HD bool operator==(const fp2_t& o) const { return c0 == o.c0 && c1 == o.c1; }
	CUSEAL_HD bool operator!=(const fp2_t& o) const { return !(*this == o); }

	CUSEAL_HD friend fp2_t operator+(const fp2_t& a, const fp2_t& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
	CUSEAL_HD friend fp2_t operator-(const fp2_t& a, const fp2_t& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
	CUSEAL_HD fp2_t operator-() const { return {-c0, -c1}; }
	// Karatsuba: 3 Fp multiplications.
	CUSEAL_HD_NOINLINE friend fp2_t operator*(const fp2_t& a, const fp2_t& b) {
		fp_t v0 = a.c0 * b.c0, v1 = a.c1 * b.c1;
		fp_t s = (a.c0 + a.c1) * (b.c0 + b.c1);
		return {v0 - v1, s - v0 - v1};
	}
	CUSEAL_HD fp2_t& operator+=(const fp2_t& b) { return *this = *this + b; }
	CUSEAL_HD fp2_t& operator-=(const fp2_t& b) { return *this = *this - b; }
	CUSEAL_HD fp2_t& operator*=(const fp2_t& b) { return *this = *this * b; }
	// (a0 + a1u)² = (a0+a1)(a0-a1) + 2a0a1·u
	CUSEAL_HD_NOINLINE fp2_t sqr() const { return {(c0 + c1) * (c0 - c1), (c0 * c1).dbl()}; }
	CUSEAL_HD fp2_t dbl() const { return {c0.dbl(), c1.dbl()}; }
	// 1/(a0 + a1u) = (a0 - a1u)/(a0² + a1²); 0 maps to 0.
	CUSEAL_HD_NOINLINE fp2_t inv() const {
		fp_t t = (c0.sqr() + c1.sqr()).inv();
		return {c0 * t, -(c1 * t)};
	}
};

static_assert(sizeof(fp2_t) == 96, "fp2_t must match fptower.E2");

// batch_inverse replaces each x[i] by 1/x[i] (zeros stay zero) with one field
// inversion (Montgomery's trick). scratch must hold n elements. Host only.
template <class F>
void batch_inverse(F* x, size_t n, F* scratch) {
	F acc = F::one();
	for (size_t i = 0; i < n; i++) {
		scratch[i] = acc;
		if (!x[i].is_zero()) acc = acc * x[i];
	}
	F inv = acc.inv();
	for (size_t i = n; i-- > 0;) {
		if (x[i].is_zero()) continue;
		F t = inv * scratch[i];
		inv = inv * x[i];
		x[i] = t;
	}
}

} // namespace cuseal::ff
