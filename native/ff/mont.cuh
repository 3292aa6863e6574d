// SPDX-License-Identifier: Apache-2.0 OR MIT

// mont.cuh: prime-field elements in Montgomery form, usable on host and device.
//
// Memory layout is gnark-crypto's fp.Element / fr.Element: N64 little-endian
// 64-bit limbs of x·R mod p with R = 2^(64·N64). On little-endian machines the
// same bytes read as 2·N64 little-endian 32-bit limbs, which is what device code
// works on (PTX carry chains, carry_chain.cuh). Host code works on 64-bit limbs
// with 128-bit products, which is faster on x86; both paths give the same
// canonical results and tests compare them.
#pragma once

#include <cstring>

#include "../util/compat.hpp"
#include "carry_chain.cuh"

namespace cuseal::ff {

// Field parameter classes (see bls12_381.hpp) provide:
//   N64, p64(i), one64(i) (R mod p), r2_64(i) (R² mod p), m0_64() (-p⁻¹ mod 2^64),
//   p32(i), m0_32() (-p⁻¹ mod 2^32).
template <class P>
struct alignas(8) mont_t {
	static constexpr int N64 = P::N64;
	static constexpr int N32 = 2 * P::N64;
	using params = P;

	uint32_t v[N32];

	// --- constructors -----------------------------------------------------
	CUSEAL_HD static mont_t zero() {
		mont_t r;
		CUSEAL_UNROLL for (int i = 0; i < N32; i++) r.v[i] = 0;
		return r;
	}
	// one returns 1 in Montgomery form (R mod p).
	CUSEAL_HD static mont_t one() {
		mont_t r;
		CUSEAL_UNROLL for (int i = 0; i < N64; i++) r.set64(i, P::one64(i));
		return r;
	}
	// from_u64 returns x (canonical, small) in Montgomery form.
	CUSEAL_HD static mont_t from_u64(uint64_t x) {
		mont_t r = zero();
		r.set64(0, x);
		return r.to_mont();
	}

	CUSEAL_HD uint64_t get64(int i) const { return uint64_t(v[2 * i]) | (uint64_t(v[2 * i + 1]) << 32); }
	CUSEAL_HD void set64(int i, uint64_t x) { v[2 * i] = uint32_t(x); v[2 * i + 1] = uint32_t(x >> 32); }

	// --- predicates -------------------------------------------------------
	CUSEAL_HD bool is_zero() const {
		uint32_t acc = 0;
		CUSEAL_UNROLL for (int i = 0; i < N32; i++) acc |= v[i];
		return acc == 0;
	}
	CUSEAL_HD bool operator==(const mont_t& o) const {
		uint32_t acc = 0;
		CUSEAL_UNROLL for (int i = 0; i < N32; i++) acc |= v[i] ^ o.v[i];
		return acc == 0;
	}
	CUSEAL_HD bool operator!=(const mont_t& o) const { return !(*this == o); }

	// is_reduced reports whether the stored value is < p (every valid element is).
	CUSEAL_HD bool is_reduced() const {
		for (int i = N64 - 1; i >= 0; i--) {
			uint64_t a = get64(i), b = P::p64(i);
			if (a != b) return a < b;
		}
		return false;
	}

	// --- arithmetic -------------------------------------------------------
	CUSEAL_HD friend mont_t operator+(const mont_t& a, const mont_t& b) {
		mont_t r;
#ifdef CUSEAL_DEVICE_CODE
		ptx_chain c;
		chain_add<N32, ptx_chain, P>(c, r.v, a.v, b.v);
#else
		host_add(r, a, b);
#endif
		return r;
	}
	CUSEAL_HD friend mont_t operator-(const mont_t& a, const mont_t& b) {
		mont_t r;
#ifdef CUSEAL_DEVICE_CODE
		ptx_chain c;
		chain_sub<N32, ptx_chain, P>(c, r.v, a.v, b.v);
#else
		host_sub(r, a, b);
#endif
		return r;
	}
	CUSEAL_HD friend mont_t operator*(const mont_t& a, const mont_t& b) {
		mont_t r;
#ifdef CUSEAL_DEVICE_CODE
		ptx_chain c;
		chain_mul<N32, ptx_chain, P>(c, r.v, a.v, b.v);
#else
		host_mul(r, a, b);
#endif
		return r;
	}
	CUSEAL_HD mont_t operator-() const { return zero() - *this; }
	CUSEAL_HD mont_t& operator+=(const mont_t& b) { return *this = *this + b; }
	CUSEAL_HD mont_t& operator-=(const mont_t& b) { return *this = *this - b; }
	CUSEAL_HD mont_t& operator*=(const mont_t& b) { return *this = *this * b; }
	CUSEAL_HD mont_t sqr() const { return *this * *this; }
	CUSEAL_HD mont_t dbl() const { return *this + *this; }

	// to_mont maps canonical x (stored in v) to x·R mod p.
	CUSEAL_HD mont_t to_mont() const {
		mont_t r2;
		CUSEAL_UNROLL for (int i = 0; i < N64; i++) r2.set64(i, P::r2_64(i));
		return *this * r2;
	}
	// from_mont maps x·R mod p back to canonical x.
	CUSEAL_HD mont_t from_mont() const {
		mont_t one_c = zero();
		one_c.v[0] = 1;
		return *this * one_c;
	}

	// pow returns this^e for a little-endian exponent of n64 limbs.
	CUSEAL_HD_NOINLINE mont_t pow(const uint64_t* e, int n64) const {
		mont_t r = one();
		for (int i = n64 - 1; i >= 0; i--)
			for (int b = 63; b >= 0; b--) {
				r = r.sqr();
				if ((e[i] >> b) & 1) r = r * *this;
			}
		return r;
	}
	CUSEAL_HD mont_t pow_u64(uint64_t e) const { return pow(&e, 1); }

	// inv returns this^(p-2) (Fermat), which is 1/this for this != 0 and 0 for 0.
	CUSEAL_HD_NOINLINE mont_t inv() const {
		uint64_t e[N64];
		CUSEAL_UNROLL for (int i = 0; i < N64; i++) e[i] = P::p64(i);
		e[0] -= 2; // p is odd and > 2: no borrow
		return pow(e, N64);
	}

	// --- 32-bit carry-chain path on the host (for tests) ------------------
	// These run the exact limb algorithm the device runs (chain_*), with the
	// carry flag emulated, so host tests cover the device arithmetic.
	static mont_t emu_add(const mont_t& a, const mont_t& b) { mont_t r; emu_chain c; chain_add<N32, emu_chain, P>(c, r.v, a.v, b.v); return r; }
	static mont_t emu_sub(const mont_t& a, const mont_t& b) { mont_t r; emu_chain c; chain_sub<N32, emu_chain, P>(c, r.v, a.v, b.v); return r; }
	static mont_t emu_mul(const mont_t& a, const mont_t& b) { mont_t r; emu_chain c; chain_mul<N32, emu_chain, P>(c, r.v, a.v, b.v); return r; }

private:
	// --- 64-bit host path ---------------------------------------------------
	static inline void load(uint64_t* o, const mont_t& a) { std::memcpy(o, a.v, sizeof a.v); }
	static inline void store(mont_t& a, const uint64_t* o) { std::memcpy(a.v, o, sizeof a.v); }

	// sub_p_if_ge: t (N64 limbs plus a top carry word) minus p when t >= p.
	static inline void reduce_once(uint64_t* t, uint64_t top) {
		uint64_t d[N64];
		unsigned __int128 borrow = 0;
		for (int i = 0; i < N64; i++) {
			unsigned __int128 x = (unsigned __int128)t[i] - P::p64(i) - borrow;
			d[i] = uint64_t(x);
			borrow = (x >> 64) & 1;
		}
		if (top || !borrow)
			for (int i = 0; i < N64; i++) t[i] = d[i];
	}
	static inline void host_add(mont_t& r, const mont_t& a, const mont_t& b) {
		uint64_t x[N64], y[N64];
		load(x, a);
		load(y, b);
		unsigned __int128 c = 0;
		for (int i = 0; i < N64; i++) {
			c += (unsigned __int128)x[i] + y[i];
			x[i] = uint64_t(c);
			c >>= 64;
		}
		reduce_once(x, uint64_t(c));
		store(r, x);
	}
	static inline void host_sub(mont_t& r, const mont_t& a, const mont_t& b) {
		uint64_t x[N64], y[N64];
		load(x, a);
		load(y, b);
		uint64_t borrow = 0;
		for (int i = 0; i < N64; i++) {
			unsigned __int128 d = (unsigned __int128)x[i] - y[i] - borrow;
			x[i] = uint64_t(d);
			borrow = uint64_t(d >> 64) & 1;
		}
		if (borrow) {
			unsigned __int128 c = 0;
			for (int i = 0; i < N64; i++) {
				c += (unsigned __int128)x[i] + P::p64(i);
				x[i] = uint64_t(c);
				c >>= 64;
			}
		}
		store(r, x);
	}
	static inline void host_mul(mont_t& r, const mont_t& a, const mont_t& b) {
		uint64_t x[N64], y[N64], t[N64 + 2] = {0};
		load(x, a);
		load(y, b);
		for (int i = 0; i < N64; i++) {
			unsigned __int128 c = 0;
			for (int j = 0; j < N64; j++) {
				c += (unsigned __int128)x[j] * y[i] + t[j];
				t[j] = uint64_t(c);
				c >>= 64;
			}
			c += t[N64];
			t[N64] = uint64_t(c);
			t[N64 + 1] = uint64_t(c >> 64);

			const uint64_t m = t[0] * P::m0_64();
			c = (unsigned __int128)m * P::p64(0) + t[0];
			c >>= 64;
			for (int j = 1; j < N64; j++) {
				c += (unsigned __int128)m * P::p64(j) + t[j];
				t[j - 1] = uint64_t(c);
				c >>= 64;
			}
			c += t[N64];
			t[N64 - 1] = uint64_t(c);
			t[N64] = t[N64 + 1] + uint64_t(c >> 64);
		}
		reduce_once(t, t[N64]);
		store(r, t);
	}
};

} // namespace cuseal::ff
