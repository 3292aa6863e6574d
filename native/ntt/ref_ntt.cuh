// SPDX-License-Identifier: Apache-2.0 OR MIT

// ref_ntt.cuh: radix-2 number-theoretic transform over Fr for sizes 2^0..2^28,
// written once for the CUDA executor and the host emulation.
//
// Definitions (match gnark-crypto fr/fft and bellperson's EvaluationDomain):
//   ω_n = 7^((r-1)/n), a primitive n-th root of unity (7 = Fr's multiplicative
//   generator, gnark-crypto fft.GeneratorFullMultiplicativeGroup);
//   forward:  X_i = Σ_j x_j ω_n^(ij);  inverse: x_j = n⁻¹ Σ_i X_i ω_n^(-ij);
//   coset forward evaluates on g·⟨ω_n⟩ (x_j multiplied by g^j first, g = 7);
//   coset inverse multiplies the result by g^(-j).
// Orders: input and output each natural or bit-reversed. Natural→bit-reversed
// is a Gentleman-Sande (DIF) pass sequence, bit-reversed→natural Cooley-Tukey
// (DIT); the other two orders add a bit-reversal permutation first.
//
// Butterfly stages run three at a time: one launch per radix-8 step, one
// thread per group of 8 elements (k_dit_radix / k_dif_radix); k_dit / k_dif
// are the single radix-2 stages, kept as the reference the tests compare with.
// Twiddles ω^k come from two 2^14-entry tables per base (lo[k mod 2^14] ·
// hi[k / 2^14]) covering exponents below 2^28, for ω_max (2^28-th root), its
// inverse, g and g⁻¹: 8 tables, 4 MiB per device, built once.
#pragma once

#include <vector>

#include "../ff/bls12_381.hpp"
#include "../exec/exec_host.hpp"

namespace cuseal::ntt {

using ff::fr_t;

constexpr unsigned MAX_LG = 28;
constexpr unsigned TW_LG = 14;
constexpr uint32_t TW_SIZE = uint32_t(1) << TW_LG;

enum order : int { NATURAL = 0, BIT_REVERSED = 1 };

// tables points at the 8 twiddle tables (host or device memory), each
// TW_SIZE elements: [0] ω lo, [1] ω hi, [2] ω⁻¹ lo, [3] ω⁻¹ hi, [4] g lo,
// [5] g hi, [6] g⁻¹ lo, [7] g⁻¹ hi; stored contiguously.
struct tables {
	const fr_t* base;
	CUSEAL_HD fr_t pow(int which, uint32_t e) const {
		const fr_t* lo = base + size_t(2 * which) * TW_SIZE;
		const fr_t* hi = lo + TW_SIZE;
		return lo[e & (TW_SIZE - 1)] * hi[e >> TW_LG];
	}
};
enum : int { TW_OMEGA = 0, TW_OMEGA_INV = 1, TW_G = 2, TW_G_INV = 3 };

CUSEAL_HD uint32_t bit_reverse(uint32_t x, unsigned lg) {
	if (lg == 0) return 0;
#ifdef CUSEAL_DEVICE_CODE
	return __brev(x) >> (32 - lg);
#else
	x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
	x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
	x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
	x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
	x = (x >> 16) | (x << 16);
	return x >> (32 - lg);
#endif
}

// build_tables fills 8·TW_SIZE host elements (see tables).
void build_tables(std::vector<fr_t>& out);

// --- kernel bodies ---------------------------------------------------------

struct k_bitrev {
	static constexpr unsigned block_size = 256;
	static constexpr const char* name = "ntt bitrev";
	CUSEAL_HD static void run(size_t i, fr_t* x, unsigned lg) {
		uint32_t j = bit_reverse(uint32_t(i), lg);
		if (i < j) {
			fr_t t = x[i];
			x[i] = x[j];
			x[j] = t;
		}
	}
};

// Butterfly t of stage s (half-width m = 2^s) pairs i = (t/m)·2m + t%m with
// i + m, twiddle ω_{2m}^(t%m) = ω_max^((t%m)·2^(27-s)).
struct k_dit {
	static constexpr unsigned block_size = 256;
	static constexpr const char* name = "ntt dit stage";
	CUSEAL_HD static void run(size_t t, fr_t* x, unsigned s, tables tw, int which) {
		size_t m = size_t(1) << s, k = t & (m - 1);
		size_t i = ((t >> s) << (s + 1)) + k, j = i + m;
		fr_t v = x[j] * tw.pow(which, uint32_t(k << (MAX_LG - 1 - s)));
		fr_t u = x[i];
		x[i] = u + v;
		x[j] = u - v;
	}
};

struct k_dif {
	static constexpr unsigned block_size = 256;
	static constexpr const char* name = "ntt dif stage";
	CUSEAL_HD static void run(size_t t, fr_t* x, unsigned s, tables tw, int which) {
		size_t m = size_t(1) << s, k = t & (m - 1);
		size_t i = ((t >> s) << (s + 1)) + k, j = i + m;
		fr_t u = x[i], v = x[j];
		x[i] = u + v;
		x[j] = (u - v) * tw.pow(which, uint32_t(k << (MAX_LG - 1 - s)));
	}
};

// Radix-2^R steps: one thread runs R consecutive butterfly stages s..s+R-1 on
// the 2^R elements base + j·2^s (j < 2^R), base = (g / 2^s)·2^(s+R) + g mod 2^s.
// Those elements only meet each other in these stages (the pair at stage s+q
// is j, j + 2^q), so one launch replaces R radix-2 launches and R-1 passes
// over memory. Twiddle of the pair at stage s+q: ω_max^((g mod 2^s + (j mod
// 2^q)·2^s)·2^(27-s-q)), exactly the radix-2 stage's.
template <int R>
struct k_dit_radix {
	static constexpr unsigned block_size = 128;
	static constexpr const char* name = "ntt dit radix step";
	CUSEAL_HD static void run(size_t g, fr_t* x, unsigned s, tables tw, int which) {
		constexpr int K = 1 << R;
		const size_t m = size_t(1) << s, k0 = g & (m - 1);
		const size_t base = ((g >> s) << (s + R)) + k0;
		fr_t v[K];
		CUSEAL_UNROLL for (int j = 0; j < K; j++) v[j] = x[base + j * m];
		CUSEAL_UNROLL for (int q = 0; q < R; q++) {
			const int h = 1 << q;
			CUSEAL_UNROLL for (int j = 0; j < K; j++) {
				if (j & h) continue;
				const size_t k = k0 + size_t(j & (h - 1)) * m;
				fr_t t = v[j + h] * tw.pow(which, uint32_t(k << (MAX_LG - 1 - s - q)));
				v[j + h] = v[j] - t;
				v[j] = v[j] + t;
			}
		}
		CUSEAL_UNROLL for (int j = 0; j < K; j++) x[base + j * m] = v[j];
	}
};

template <int R>
struct k_dif_radix {
	static constexpr unsigned block_size = 128;
	static constexpr const char* name = "ntt dif radix step";
	CUSEAL_HD static void run(size_t g, fr_t* x, unsigned s, tables tw, int which) {
		constexpr int K = 1 << R;
		const size_t m = size_t(1) << s, k0 = g & (m - 1);
		const size_t base = ((g >> s) << (s + R)) + k0;
		fr_t v[K];
		CUSEAL_UNROLL for (int j = 0; j < K; j++) v[j] = x[base + j * m];
		CUSEAL_UNROLL for (int q = R - 1; q >= 0; q--) {
			const int h = 1 << q;
			CUSEAL_UNROLL for (int j = 0; j < K; j++) {
				if (j & h) continue;
				const size_t k = k0 + size_t(j & (h - 1)) * m;
				fr_t u = v[j], w = v[j + h];
				v[j] = u + w;
				v[j + h] = (u - w) * tw.pow(which, uint32_t(k << (MAX_LG - 1 - s - q)));
			}
		}
		CUSEAL_UNROLL for (int j = 0; j < K; j++) x[base + j * m] = v[j];
	}
};

// RADIX_BITS: stages fused per launch (2^27 takes 9 launches).
constexpr unsigned RADIX_BITS = 3;

// k_scale: x[i] *= factor · (coset ? base^j : 1), j = i or bitrev(i).
struct k_scale {
	static constexpr unsigned block_size = 256;
	static constexpr const char* name = "ntt scale";
	CUSEAL_HD static void run(size_t i, fr_t* x, unsigned lg, int bitrev, int coset_which, fr_t factor, tables tw) {
		fr_t f = factor;
		if (coset_which >= 0) {
			uint32_t j = bitrev ? bit_reverse(uint32_t(i), lg) : uint32_t(i);
			f = f * tw.pow(coset_which, j);
		}
		x[i] = x[i] * f;
	}
};

// --- driver -------------------------------------------------------------

struct options {
	unsigned lg = 0;
	bool inverse = false;
	order in = NATURAL, out = NATURAL;
	bool coset = false;
};

// inv_n returns n⁻¹ in Fr (Montgomery form).
inline fr_t inv_n(unsigned lg) { return fr_t::from_u64(uint64_t(1) << lg).inv(); }

// launch_step launches the radix-2^r step body (r = 1, 2 or 3) over g groups.
template <class Exec, class B1, class B2, class B3>
void launch_step(Exec& ex, unsigned r, size_t g, fr_t* d, unsigned s, tables tw, int which) {
	switch (r) {
	case 1: ex.template launch<B1>(g, STREAM_COMPUTE, d, s, tw, which); break;
	case 2: ex.template launch<B2>(g, STREAM_COMPUTE, d, s, tw, which); break;
	default: ex.template launch<B3>(g, STREAM_COMPUTE, d, s, tw, which); break;
	}
}

// run transforms d (2^lg elements in executor memory) in place. tw points at
// the 8 tables in executor memory.
template <class Exec>
void run(Exec& ex, fr_t* d, const options& o, tables tw) {
	if (o.lg > MAX_LG) fail(CUSEAL_ERR_INVALID_ARGUMENT, "ntt: log size %u above %u", o.lg, MAX_LG);
	const size_t n = size_t(1) << o.lg;
	const int S = STREAM_COMPUTE;
	const int which = o.inverse ? TW_OMEGA_INV : TW_OMEGA;

	if (o.coset && !o.inverse)
		ex.template launch<k_scale>(n, S, d, o.lg, int(o.in == BIT_REVERSED), int(TW_G), fr_t::one(), tw);

	bool dif; // natural→bit-reversed (DIF) or bit-reversed→natural (DIT)
	if (o.in == o.out) {
		ex.template launch<k_bitrev>(n, S, d, o.lg);
		dif = o.in == BIT_REVERSED; // now natural: DIF gives bit-reversed
	} else {
		dif = o.in == NATURAL;
	}
	if (dif) {
		for (unsigned top = o.lg; top > 0;) {
			const unsigned r = top < RADIX_BITS ? top : RADIX_BITS, s = top - r;
			launch_step<Exec, k_dif_radix<1>, k_dif_radix<2>, k_dif_radix<3>>(ex, r, n >> r, d, s, tw, which);
			top = s;
		}
	} else {
		for (unsigned s = 0; s < o.lg;) {
			const unsigned r = o.lg - s < RADIX_BITS ? o.lg - s : RADIX_BITS;
			launch_step<Exec, k_dit_radix<1>, k_dit_radix<2>, k_dit_radix<3>>(ex, r, n >> r, d, s, tw, which);
			s += r;
		}
	}

	if (o.inverse)
		ex.template launch<k_scale>(n, S, d, o.lg, int(o.out == BIT_REVERSED), o.coset ? int(TW_G_INV) : -1,
		                            inv_n(o.lg), tw);
}

} // namespace cuseal::ntt
