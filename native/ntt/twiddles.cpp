// SPDX-License-Identifier: Apache-2.0 OR MIT

// twiddles.cpp: host construction of the NTT power tables (ref_ntt.cuh).
#include "ref_ntt.cuh"

namespace cuseal::ntt {

namespace {
// fill_pow writes lo[k] = b^k and hi[k] = b^(k·2^14) for k < 2^14.
void fill_pow(fr_t* lo, fr_t* hi, const fr_t& b) {
	lo[0] = fr_t::one();
	for (uint32_t k = 1; k < TW_SIZE; k++) lo[k] = lo[k - 1] * b;
	const fr_t step = lo[TW_SIZE - 1] * b; // b^(2^14)
	hi[0] = fr_t::one();
	for (uint32_t k = 1; k < TW_SIZE; k++) hi[k] = hi[k - 1] * step;
}
} // namespace

void build_tables(std::vector<fr_t>& out) {
	out.resize(size_t(8) * TW_SIZE);
	const fr_t g = fr_t::from_u64(7);
	// (r - 1) / 2^28: r - 1 = 2^32 · t with t odd, so shift right by 28.
	uint64_t e[4];
	for (int i = 0; i < 4; i++) e[i] = ff::fr_params::p64(i);
	e[0] -= 1;
	for (int i = 0; i < 4; i++) e[i] = (e[i] >> MAX_LG) | (i < 3 ? e[i + 1] << (64 - MAX_LG) : 0);
	const fr_t omega = g.pow(e, 4);
	fr_t* p = out.data();
	fill_pow(p + 0 * TW_SIZE, p + 1 * TW_SIZE, omega);
	fill_pow(p + 2 * TW_SIZE, p + 3 * TW_SIZE, omega.inv());
	fill_pow(p + 4 * TW_SIZE, p + 5 * TW_SIZE, g);
	fill_pow(p + 6 * TW_SIZE, p + 7 * TW_SIZE, g.inv());
}

} // namespace cuseal::ntt
