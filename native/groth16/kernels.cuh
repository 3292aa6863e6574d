// SPDX-License-Identifier: Apache-2.0 OR MIT

// kernels.cuh: kernel bodies of the Groth16 prover (H pointwise step, base
// gather, 0/1 batch addition) and an MSM driver over executor-resident points
// and scalars. Each body is a CUSEAL_HD run(i, ...) over a 1-D grid, launched
// by the executor (exec_cuda.cuh on a GPU, exec_host.hpp in host emulation).
#pragma once

#include <algorithm>
#include <vector>

#include "../msm/ref_pippenger.cuh"

namespace cuseal::g16 {

using ff::fr_t;

// k_hpoint: a[i] = (a[i]·b[i] − c[i])·zinv on the coset, zinv = 1/(g^m − 1).
struct k_hpoint {
	static constexpr unsigned block_size = 256;
	static constexpr const char* name = "groth16 h pointwise";
	CUSEAL_HD static void run(size_t i, fr_t* a, const fr_t* b, const fr_t* c, fr_t zinv) {
		a[i] = (a[i] * b[i] - c[i]) * zinv;
	}
};

// k_gather: dst[k] = src[idx[k]] (tail bases compacted once per batch).
template <class Aff>
struct k_gather {
	static constexpr unsigned block_size = 256;
	static constexpr const char* name = "groth16 gather bases";
	CUSEAL_HD static void run(size_t k, Aff* dst, const Aff* src, const uint32_t* idx) { dst[k] = src[idx[k]]; }
};

// k_batch_add: partial[t] = Σ src[idx[k]] over k ∈ [t·per, min(count, (t+1)·per)).
template <class Aff, class Xyzz>
struct k_batch_add {
	static constexpr unsigned block_size = 128;
	static constexpr const char* name = "groth16 batch add";
	CUSEAL_HD static void run(size_t t, const Aff* src, const uint32_t* idx, uint64_t count, uint64_t per,
	                          Xyzz* partial) {
		uint64_t lo = t * per, hi = lo + per < count ? lo + per : count;
		Xyzz acc = Xyzz::infinity();
		for (uint64_t k = lo; k < hi; k++) acc = acc.add_affine(src[idx[k]]);
		partial[t] = acc;
	}
};

// k_sum_xyzz: out[t] = Σ in[k] over k ∈ [t·per, min(count, (t+1)·per)).
template <class Xyzz>
struct k_sum_xyzz {
	static constexpr unsigned block_size = 64;
	static constexpr const char* name = "groth16 sum partials";
	CUSEAL_HD static void run(size_t t, const Xyzz* in, uint64_t count, uint64_t per, Xyzz* out) {
		uint64_t lo = t * per, hi = lo + per < count ? lo + per : count;
		Xyzz acc = Xyzz::infinity();
		for (uint64_t k = lo; k < hi; k++) acc = acc.add(in[k]);
		out[t] = acc;
	}
};

// batch_add returns Σ src[idx[k]], k < count, with idx in executor memory:
// up to 2^18 threads (enough to fill an H100/H200) of ≥ 16 additions, then
// ≤ 256 partial sums downloaded and added on the host.
template <class Exec, class Aff, class Xyzz>
Xyzz batch_add(Exec& ex, const Aff* src, const uint32_t* idx, uint64_t count) {
	if (count == 0) return Xyzz::infinity();
	constexpr uint64_t max_threads = uint64_t(1) << 18;
	uint64_t per1 = std::max<uint64_t>(16, (count + max_threads - 1) / max_threads);
	uint64_t t1 = (count + per1 - 1) / per1;
	uint64_t per2 = std::max<uint64_t>(1, (t1 + 255) / 256);
	uint64_t t2 = (t1 + per2 - 1) / per2;
	dbuf<Exec, Xyzz> p1(ex, t1), p2(ex, t2);
	ex.template launch<k_batch_add<Aff, Xyzz>>(t1, STREAM_COMPUTE, src, idx, count, per1, p1.get());
	ex.template launch<k_sum_xyzz<Xyzz>>(t2, STREAM_COMPUTE, (const Xyzz*)p1.get(), t1, per2, p2.get());
	std::vector<Xyzz> h(t2);
	ex.d2h(h.data(), p2.get(), t2 * sizeof(Xyzz), STREAM_COMPUTE);
	ex.sync();
	Xyzz r = Xyzz::infinity();
	for (const Xyzz& x : h) r = r.add(x);
	return r;
}

// msm_resident computes Σ scalars[i]·points[i] with both vectors already in
// executor memory, through the native core's reusable Pippenger phases
// (msm/ref_pippenger.cuh: accumulate_chunk — digits, block scan, counting sort,
// load-balanced bucket pieces — and reduce_buckets), chunked over pointer
// offsets when the sort scratch does not fit (no copies). max_chunk > 0
// caps the chunk (tests force the multi-chunk path with it).
template <class Exec, class Aff, class Xyzz, class Jac>
Jac msm_resident(Exec& ex, const Aff* points, const fr_t* scalars, uint64_t n, unsigned window,
                 uint64_t max_chunk = 0) {
	using namespace cuseal::msm;
	if (n == 0) return Jac::infinity();
	const layout L = make_layout(choose_window(n, window));
	// Memory plan as msm::run, without the point/scalar upload buffers.
	const size_t fixed = size_t(L.nwin) * L.nb * sizeof(Xyzz) + sort_scratch<Exec>::bytes(L, 1, sizeof(Xyzz)) +
	                     size_t(L.nwin) * (L.nseg + 1) * sizeof(Xyzz);
	const size_t per_point = size_t(L.nwin) * 4 * 2 + size_t(L.nwin) * (4 + 2 * sizeof(Xyzz)) / 32;
	const size_t budget = ex.mem_budget();
	if (budget <= fixed + per_point * 1024)
		fail(CUSEAL_ERR_OUT_OF_MEMORY, "msm: %zu bytes of device memory available, need more than %zu", budget,
		     fixed + per_point * 1024);
	uint64_t chunk = std::min<uint64_t>(n, (budget - fixed) / per_point);
	chunk = std::min<uint64_t>(chunk, uint64_t(1) << 30); // point index fits below SIGN_BIT
	if (max_chunk) chunk = std::min<uint64_t>(chunk, max_chunk);
	dbuf<Exec, Xyzz> buckets(ex, size_t(L.nwin) * L.nb);
	sort_scratch<Exec> scratch(ex, L, uint32_t(chunk), sizeof(Xyzz));
	ex.zero(buckets.get(), buckets.bytes(), STREAM_COMPUTE);
	for (uint64_t off = 0; off < n; off += chunk) {
		const uint32_t m = uint32_t(std::min<uint64_t>(chunk, n - off));
		accumulate_chunk<Exec, Aff, Xyzz>(ex, L, points + off, scalars + off, m, scratch, buckets.get());
	}
	return reduce_buckets<Exec, Xyzz, Jac>(ex, L, buckets.get());
}

} // namespace cuseal::g16
