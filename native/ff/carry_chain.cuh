// SPDX-License-Identifier: Apache-2.0 OR MIT

// carry_chain.cuh: 32-bit add/multiply-add with an explicit carry flag.
//
// ptx_chain maps each operation to one PTX instruction that reads/writes the
// hardware carry flag (add.cc, addc.cc, mad.lo.cc, madc.hi.cc, ...). emu_chain
// implements the same instructions in portable C++ with the flag in a member,
// so the device's 32-bit Montgomery code (mont.cuh, mul_chain/add_chain) can be
// run and tested on the CPU instruction for instruction. Only the one-line
// asm bodies below are not exercised by host tests.
#pragma once

#include "../util/compat.hpp"

namespace cuseal::ff {

// emu_chain: host emulation of the PTX carry-flag instructions.
struct emu_chain {
	uint32_t cf = 0;

	CUSEAL_HD uint32_t add_cc(uint32_t a, uint32_t b) { uint64_t s = uint64_t(a) + b; cf = uint32_t(s >> 32); return uint32_t(s); }
	CUSEAL_HD uint32_t addc_cc(uint32_t a, uint32_t b) { uint64_t s = uint64_t(a) + b + cf; cf = uint32_t(s >> 32); return uint32_t(s); }
	CUSEAL_HD uint32_t addc(uint32_t a, uint32_t b) { return uint32_t(uint64_t(a) + b + cf); }
	CUSEAL_HD uint32_t sub_cc(uint32_t a, uint32_t b) { uint64_t d = uint64_t(a) - b; cf = uint32_t(d >> 63); return uint32_t(d); }
	CUSEAL_HD uint32_t subc_cc(uint32_t a, uint32_t b) { uint64_t d = uint64_t(a) - b - cf; cf = uint32_t(d >> 63); return uint32_t(d); }
	CUSEAL_HD uint32_t subc(uint32_t a, uint32_t b) { return uint32_t(uint64_t(a) - b - cf); }
	CUSEAL_HD uint32_t mul_lo(uint32_t a, uint32_t b) { return a * b; }
	CUSEAL_HD uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return add_cc(a * b, c); }
	CUSEAL_HD uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return addc_cc(a * b, c); }
	CUSEAL_HD uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) { return add_cc(uint32_t((uint64_t(a) * b) >> 32), c); }
	CUSEAL_HD uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) { return addc_cc(uint32_t((uint64_t(a) * b) >> 32), c); }
};

#if defined(__CUDACC__)
// ptx_chain: the same instructions on the device. The carry flag lives in the
// hardware; asm volatile keeps the chain in program order.
struct ptx_chain {
	__device__ __forceinline__ uint32_t add_cc(uint32_t a, uint32_t b) { uint32_t r; asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
	__device__ __forceinline__ uint32_t addc_cc(uint32_t a, uint32_t b) { uint32_t r; asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
	__device__ __forceinline__ uint32_t addc(uint32_t a, uint32_t b) { uint32_t r; asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
	__device__ __forceinline__ uint32_t sub_cc(uint32_t a, uint32_t b) { uint32_t r; asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
	__device__ __forceinline__ uint32_t subc_cc(uint32_t a, uint32_t b) { uint32_t r; asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
	__device__ __forceinline__ uint32_t subc(uint32_t a, uint32_t b) { uint32_t r; asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
	__device__ __forceinline__ uint32_t mul_lo(uint32_t a, uint32_t b) { return a * b; }
	__device__ __forceinline__ uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) { uint32_t r; asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
	__device__ __forceinline__ uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) { uint32_t r; asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
	__device__ __forceinline__ uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) { uint32_t r; asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
	__device__ __forceinline__ uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) { uint32_t r; asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
};
#endif

// chain_add: r = a + b mod p for N 32-bit limbs, inputs < p, 2p < 2^(32N).
template <int N, class C, class P>
CUSEAL_HD void chain_add(C& c, uint32_t* r, const uint32_t* a, const uint32_t* b) {
	uint32_t s[N], t[N];
	s[0] = c.add_cc(a[0], b[0]);
	CUSEAL_UNROLL for (int i = 1; i < N; i++) s[i] = c.addc_cc(a[i], b[i]);
	// t = s - p; keep s when that borrows.
	t[0] = c.sub_cc(s[0], P::p32(0));
	CUSEAL_UNROLL for (int i = 1; i < N; i++) t[i] = c.subc_cc(s[i], P::p32(i));
	uint32_t borrow = c.subc(0, 0); // 0xffffffff when s < p
	CUSEAL_UNROLL for (int i = 0; i < N; i++) r[i] = (s[i] & borrow) | (t[i] & ~borrow);
}

// chain_sub: r = a - b mod p for N 32-bit limbs, inputs < p.
template <int N, class C, class P>
CUSEAL_HD void chain_sub(C& c, uint32_t* r, const uint32_t* a, const uint32_t* b) {
	uint32_t d[N];
	d[0] = c.sub_cc(a[0], b[0]);
	CUSEAL_UNROLL for (int i = 1; i < N; i++) d[i] = c.subc_cc(a[i], b[i]);
	uint32_t mask = c.subc(0, 0); // 0xffffffff when a < b: add p back
	r[0] = c.add_cc(d[0], P::p32(0) & mask);
	CUSEAL_UNROLL for (int i = 1; i < N; i++) r[i] = c.addc_cc(d[i], P::p32(i) & mask);
}

// chain_mul: r = a·b·2^(-32N) mod p (CIOS Montgomery, 32-bit limbs), inputs < p.
// Each outer step adds a·b[i] and m·p as separate lo and hi passes so every
// pass is one unbroken carry chain; the result is < 2p and one conditional
// subtraction brings it below p.
template <int N, class C, class P>
CUSEAL_HD void chain_mul(C& c, uint32_t* r, const uint32_t* a, const uint32_t* b) {
	uint32_t t[N + 2];
	CUSEAL_UNROLL for (int i = 0; i < N + 2; i++) t[i] = 0;
	CUSEAL_UNROLL for (int i = 0; i < N; i++) {
		const uint32_t bi = b[i];
		t[0] = c.mad_lo_cc(a[0], bi, t[0]);
		CUSEAL_UNROLL for (int j = 1; j < N; j++) t[j] = c.madc_lo_cc(a[j], bi, t[j]);
		t[N] = c.addc_cc(t[N], 0);
		t[N + 1] = c.addc(t[N + 1], 0);
		t[1] = c.mad_hi_cc(a[0], bi, t[1]);
		CUSEAL_UNROLL for (int j = 1; j < N; j++) t[j + 1] = c.madc_hi_cc(a[j], bi, t[j + 1]);
		t[N + 1] = c.addc(t[N + 1], 0);

		const uint32_t m = c.mul_lo(t[0], P::m0_32());
		t[0] = c.mad_lo_cc(m, P::p32(0), t[0]);
		CUSEAL_UNROLL for (int j = 1; j < N; j++) t[j] = c.madc_lo_cc(m, P::p32(j), t[j]);
		t[N] = c.addc_cc(t[N], 0);
		t[N + 1] = c.addc(t[N + 1], 0);
		t[1] = c.mad_hi_cc(m, P::p32(0), t[1]);
		CUSEAL_UNROLL for (int j = 1; j < N; j++) t[j + 1] = c.madc_hi_cc(m, P::p32(j), t[j + 1]);
		t[N + 1] = c.addc(t[N + 1], 0);

		// t[0] is now zero: shift one limb down.
		CUSEAL_UNROLL for (int j = 0; j < N + 1; j++) t[j] = t[j + 1];
		t[N + 1] = 0;
	}
	// t < 2p < 2^(32N), so t[N] == 0; subtract p once if t >= p.
	uint32_t u[N];
	u[0] = c.sub_cc(t[0], P::p32(0));
	CUSEAL_UNROLL for (int i = 1; i < N; i++) u[i] = c.subc_cc(t[i], P::p32(i));
	uint32_t borrow = c.subc(t[N], 0);
	CUSEAL_UNROLL for (int i = 0; i < N; i++) r[i] = (t[i] & borrow) | (u[i] & ~borrow);
}

} // namespace cuseal::ff
