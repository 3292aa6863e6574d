// SPDX-License-Identifier: Apache-2.0 OR MIT

// ref_pippenger.cuh: bucket-method multi-scalar multiplication Σ sᵢ·Pᵢ for G1 and
// G2, written once for the CUDA executor and the host emulation.
//
// Phases, each a separate launch over a 1-D grid (so the host emulation runs
// each body over the same indices):
//   1. digits    one thread per point: Montgomery → canonical scalar, signed
//                (Booth) c-bit window digits |d| ≤ 2^(c-1), per-window bucket
//                histogram (atomic).
//   2. scan      exclusive prefix sum of each window's histogram, in three
//                launches (block sums, per-window scan of those, apply).
//   3. scatter   one thread per point: (point index, sign) pairs placed in
//                bucket order per window (a counting sort).
//   4. accumulate one thread per bucket piece (≤ √m sorted entries): mixed
//                affine additions into the XYZZ bucket, or into a partial
//                sum that a fix-up thread adds to a bucket cut into several
//                pieces (buckets persist across input chunks).
//   5. reduce    one thread per (window, segment): Σ b·B_b over a segment of
//                buckets with running sums, plus lo·(segment sum).
//   6. window    one thread per window: sum of its segments.
// The host downloads one point per window and combines them (Horner).
//
// Large inputs are processed in chunks sized from free device memory, with
// points and scalars double-buffered on a copy stream.
//
// Load balance: a bucket holding most of a chunk's points (e.g. all scalars
// 1) is cut into pieces, so no thread adds more than ~2√m points.
#pragma once

#include <algorithm>
#include <vector>

#include "../ec/point.cuh"
#include "../exec/exec_host.hpp"

namespace cuseal::msm {

using ff::fr_t;

// Scalars are < r < 2^255; with nwin·c ≥ 256 the top window never carries.
constexpr unsigned SCALAR_BITS = 256;
constexpr unsigned MIN_WINDOW = 1, MAX_WINDOW = 24;
constexpr uint32_t SIGN_BIT = 0x80000000u;

// layout describes the windows of one MSM.
struct layout {
	unsigned c;    // window bits
	unsigned nwin; // number of windows, ceil(256 / c)
	uint32_t nb;   // buckets per window, 2^(c-1) (bucket b ∈ 1..nb at index b-1)
	uint32_t nseg; // reduction segments per window
};

// default_window picks c from n (sppark's rule, docs/gpu-prover-notes.md §2.7):
// min(lg2(1.5n) − 8, 18), at least 10.
inline unsigned default_window(uint64_t n) {
	unsigned lg = 0;
	uint64_t x = n + n / 2;
	while (x > 1) { x >>= 1; lg++; }
	int c = int(lg) - 8;
	return unsigned(std::min(18, std::max(10, c)));
}

inline layout make_layout(unsigned c) {
	layout L;
	L.c = c;
	L.nwin = (SCALAR_BITS + c - 1) / c;
	L.nb = uint32_t(1) << (c - 1);
	// Enough (window, segment) threads to fill a GPU, each summing ≥ 16 buckets.
	uint32_t seg = 1;
	while (seg * 2 <= L.nb / 16 && seg * 2 * L.nwin <= 32768) seg *= 2;
	L.nseg = seg;
	return L;
}

// window_digit extracts the c-bit window at bit offset pos of a 256-bit
// little-endian scalar.
CUSEAL_HD uint32_t window_bits(const uint64_t* s, unsigned pos, unsigned c) {
	if (pos >= 256) return 0;
	unsigned limb = pos / 64, off = pos % 64;
	uint64_t v = s[limb] >> off;
	if (off + c > 64 && limb + 1 < 4) v |= s[limb + 1] << (64 - off);
	return uint32_t(v & ((uint64_t(1) << c) - 1));
}

// --- kernel bodies ---------------------------------------------------------

struct k_digits {
	static constexpr unsigned block_size = 256;
	static constexpr const char* name = "msm digits";
	// digits[w·m + i] = |d| | sign; counts[w·(nb+1) + |d|-1]++ for d ≠ 0.
	CUSEAL_HD static void run(size_t i, const fr_t* scalars, uint32_t m, layout L, uint32_t* digits, uint32_t* counts) {
		fr_t s = scalars[i].from_mont();
		uint64_t limbs[4];
		for (int k = 0; k < 4; k++) limbs[k] = s.get64(k);
		uint32_t carry = 0;
		for (unsigned w = 0; w < L.nwin; w++) {
			uint32_t d = window_bits(limbs, w * L.c, L.c) + carry;
			uint32_t mag, sign = 0;
			if (d > L.nb) { // Booth: d - 2^c, carry one into the next window
				mag = (uint32_t(1) << L.c) - d;
				sign = mag ? SIGN_BIT : 0;
				carry = 1;
			} else {
				mag = d;
				carry = 0;
			}
			digits[size_t(w) * m + i] = mag | sign;
			if (mag) atomic_add_u32(&counts[size_t(w) * (L.nb + 1) + mag - 1], 1);
		}
	}
};

// k_scan: one thread per window, serial over all nb buckets. Simple but
// latency-bound for large windows on a GPU; the driver uses the three-phase
// scan below (scan_counts). Kept for callers that launch it directly.
struct k_scan {
	static constexpr unsigned block_size = 32;
	static constexpr const char* name = "msm scan";
	// offsets[w·(nb+1) + j] = Σ_{k<j} counts[...k]; cursor gets the same.
	CUSEAL_HD static void run(size_t w, layout L, const uint32_t* counts, uint32_t* offsets, uint32_t* cursor) {
		size_t base = w * (L.nb + 1);
		uint32_t acc = 0;
		for (uint32_t j = 0; j <= L.nb; j++) {
			offsets[base + j] = acc;
			cursor[base + j] = acc;
			if (j < L.nb) acc += counts[base + j];
		}
	}
};

// Three-phase exclusive scan of the per-window histograms in blocks of
// SCAN_BLOCK buckets: block sums, a serial scan of the block sums per window
// (nb/SCAN_BLOCK entries), then each block writes its offsets.
constexpr uint32_t SCAN_BLOCK = 256;

CUSEAL_HD uint32_t scan_blocks(const layout& L) { return (L.nb + SCAN_BLOCK - 1) / SCAN_BLOCK; }

struct k_scan_block_sums {
	static constexpr unsigned block_size = 128;
	static constexpr const char* name = "msm scan block sums";
	CUSEAL_HD static void run(size_t t, layout L, const uint32_t* counts, uint32_t* partials) {
		const uint32_t nblk = scan_blocks(L);
		size_t w = t / nblk, b = t % nblk;
		const uint32_t* c = counts + w * (L.nb + 1);
		uint32_t lo = uint32_t(b) * SCAN_BLOCK, hi = lo + SCAN_BLOCK < L.nb ? lo + SCAN_BLOCK : L.nb, acc = 0;
		for (uint32_t j = lo; j < hi; j++) acc += c[j];
		partials[t] = acc;
	}
};

struct k_scan_partials {
	static constexpr unsigned block_size = 32;
	static constexpr const char* name = "msm scan partials";
	CUSEAL_HD static void run(size_t w, layout L, uint32_t* partials) {
		const uint32_t nblk = scan_blocks(L);
		uint32_t* p = partials + w * nblk;
		uint32_t acc = 0;
		for (uint32_t b = 0; b < nblk; b++) {
			uint32_t v = p[b];
			p[b] = acc;
			acc += v;
		}
	}
};

struct k_scan_apply {
	static constexpr unsigned block_size = 128;
	static constexpr const char* name = "msm scan apply";
	CUSEAL_HD static void run(size_t t, layout L, const uint32_t* counts, const uint32_t* partials, uint32_t* offsets,
	                          uint32_t* cursor) {
		const uint32_t nblk = scan_blocks(L);
		size_t w = t / nblk, b = t % nblk;
		const size_t base = w * (L.nb + 1);
		uint32_t lo = uint32_t(b) * SCAN_BLOCK, hi = lo + SCAN_BLOCK < L.nb ? lo + SCAN_BLOCK : L.nb;
		uint32_t acc = partials[t];
		for (uint32_t j = lo; j < hi; j++) {
			offsets[base + j] = acc;
			cursor[base + j] = acc;
			acc += counts[base + j];
		}
		if (hi == L.nb) { // last block: the end offset of the window
			offsets[base + L.nb] = acc;
			cursor[base + L.nb] = acc;
		}
	}
};

struct k_scatter {
	static constexpr unsigned block_size = 256;
	static constexpr const char* name = "msm scatter";
	CUSEAL_HD static void run(size_t i, uint32_t m, layout L, const uint32_t* digits, uint32_t* cursor, uint32_t* sorted) {
		for (unsigned w = 0; w < L.nwin; w++) {
			uint32_t d = digits[size_t(w) * m + i];
			uint32_t mag = d & ~SIGN_BIT;
			if (!mag) continue;
			uint32_t pos = atomic_add_u32(&cursor[size_t(w) * (L.nb + 1) + mag - 1], 1);
			sorted[size_t(w) * m + pos] = uint32_t(i) | (d & SIGN_BIT);
		}
	}
};

template <class Aff, class Xyzz>
struct k_accumulate {
	static constexpr unsigned block_size = 128;
	static constexpr const char* name = "msm accumulate";
	CUSEAL_HD static void run(size_t t, const Aff* points, uint32_t m, layout L, const uint32_t* offsets,
	                          const uint32_t* sorted, Xyzz* buckets) {
		size_t w = t / L.nb, j = t % L.nb;
		size_t base = w * (L.nb + 1);
		uint32_t begin = offsets[base + j], end = offsets[base + j + 1];
		if (begin == end) return;
		Xyzz acc = buckets[t];
		const uint32_t* col = sorted + w * m;
		for (uint32_t k = begin; k < end; k++) {
			uint32_t e = col[k];
			Aff p = points[e & ~SIGN_BIT];
			if (e & SIGN_BIT) p = p.neg();
			acc = acc.add_affine(p);
		}
		buckets[t] = acc;
	}
};

// --- bucket pieces (load balance) ------------------------------------------
//
// A bucket's sorted list is cut into pieces of at most T entries
// (T = piece_size(m) ≈ √m), one thread per piece, so a bucket that holds most
// points of a chunk (many equal scalars) is summed by ~m/T threads instead of
// one. Single-piece buckets are updated in place; multi-piece buckets get
// their pieces' sums in a partial array and a fix-up thread adds them (at most
// ~m/T additions). Per window: piece counts → scan → piece offsets (poff);
// multi-piece counts → scan → partial offsets (moff).

// piece_size: smallest power of two ≥ √m, at least 32.
CUSEAL_HD uint32_t piece_size(uint32_t m) {
	uint32_t t = 32;
	while (uint64_t(t) * t < m) t <<= 1;
	return t;
}

// piece_slots: bound on pieces per window, nb + ⌈m/T⌉.
CUSEAL_HD uint32_t piece_slots(const layout& L, uint32_t m) { return L.nb + (m + piece_size(m) - 1) / piece_size(m); }

// partial_slots: bound on pieces of multi-piece buckets per window, 2⌈m/T⌉.
CUSEAL_HD uint32_t partial_slots(uint32_t m) { return 2 * ((m + piece_size(m) - 1) / piece_size(m)) + 1; }

struct k_piece_counts {
	static constexpr unsigned block_size = 128;
	static constexpr const char* name = "msm piece counts";
	// pcount[b] = ⌈len_b / T⌉; mcount[b] = pcount[b] if > 1 else 0.
	CUSEAL_HD static void run(size_t t, layout L, uint32_t T, const uint32_t* offsets, uint32_t* pcount, uint32_t* mcount) {
		size_t w = t / L.nb, b = t % L.nb, base = w * (L.nb + 1);
		uint32_t len = offsets[base + b + 1] - offsets[base + b];
		uint32_t pc = (len + T - 1) / T;
		pcount[base + b] = pc;
		mcount[base + b] = pc > 1 ? pc : 0;
	}
};

struct k_piece_fill {
	static constexpr unsigned block_size = 128;
	static constexpr const char* name = "msm piece fill";
	CUSEAL_HD static void run(size_t t, layout L, uint32_t P, const uint32_t* poff, uint32_t* piece_bucket) {
		size_t w = t / L.nb, b = t % L.nb, base = w * (L.nb + 1);
		for (uint32_t k = poff[base + b]; k < poff[base + b + 1]; k++) piece_bucket[w * P + k] = uint32_t(b);
	}
};

template <class Aff, class Xyzz>
struct k_accumulate_pieces {
	static constexpr unsigned block_size = 128;
	static constexpr const char* name = "msm accumulate pieces";
	CUSEAL_HD static void run(size_t t, const Aff* points, uint32_t m, layout L, uint32_t T, uint32_t P, uint32_t M,
	                          const uint32_t* offsets, const uint32_t* sorted, const uint32_t* poff,
	                          const uint32_t* moff, const uint32_t* piece_bucket, Xyzz* buckets, Xyzz* partial) {
		size_t w = t / P, slot = t % P, base = w * (L.nb + 1);
		if (slot >= poff[base + L.nb]) return;
		uint32_t b = piece_bucket[t];
		uint32_t k = uint32_t(slot) - poff[base + b];
		uint32_t pc = poff[base + b + 1] - poff[base + b];
		uint32_t begin = offsets[base + b] + k * T, end = offsets[base + b + 1];
		if (end - begin > T) end = begin + T;
		Xyzz* out = pc == 1 ? &buckets[w * L.nb + b] : &partial[w * M + moff[base + b] + k];
		Xyzz acc = pc == 1 ? *out : Xyzz::infinity();
		const uint32_t* col = sorted + w * m;
		for (uint32_t e = begin; e < end; e++) {
			uint32_t v = col[e];
			Aff p = points[v & ~SIGN_BIT];
			if (v & SIGN_BIT) p = p.neg();
			acc = acc.add_affine(p);
		}
		*out = acc;
	}
};

template <class Xyzz>
struct k_piece_fixup {
	static constexpr unsigned block_size = 128;
	static constexpr const char* name = "msm piece fixup";
	CUSEAL_HD static void run(size_t t, layout L, uint32_t M, const uint32_t* poff, const uint32_t* moff,
	                          const Xyzz* partial, Xyzz* buckets) {
		size_t w = t / L.nb, b = t % L.nb, base = w * (L.nb + 1);
		uint32_t pc = poff[base + b + 1] - poff[base + b];
		if (pc < 2) return;
		Xyzz acc = buckets[t];
		const Xyzz* p = partial + w * M + moff[base + b];
		for (uint32_t k = 0; k < pc; k++) acc = acc.add(p[k]);
		buckets[t] = acc;
	}
};

template <class Xyzz>
struct k_reduce {
	static constexpr unsigned block_size = 64;
	static constexpr const char* name = "msm reduce";
	// seg_out[w·nseg + s] = Σ_{b in segment} b·B_b.
	CUSEAL_HD static void run(size_t t, layout L, const Xyzz* buckets, Xyzz* seg_out) {
		size_t w = t / L.nseg, s = t % L.nseg;
		uint32_t len = (L.nb + L.nseg - 1) / L.nseg;
		uint32_t lo = uint32_t(s) * len, hi = lo + len < L.nb ? lo + len : L.nb;
		Xyzz running = Xyzz::infinity(), acc = Xyzz::infinity();
		const Xyzz* B = buckets + w * L.nb;
		for (uint32_t j = hi; j-- > lo;) { // bucket index j holds digit j+1
			running = running.add(B[j]);
			acc = acc.add(running);
		}
		// acc = Σ (j-lo+1)·B_j; add lo·Σ B_j to weight each bucket by j+1.
		if (lo < hi) acc = acc.add(running.mul_small(lo));
		seg_out[t] = acc;
	}
};

template <class Xyzz>
struct k_window_sum {
	static constexpr unsigned block_size = 32;
	static constexpr const char* name = "msm window sum";
	CUSEAL_HD static void run(size_t w, layout L, const Xyzz* seg, Xyzz* win) {
		Xyzz acc = Xyzz::infinity();
		for (uint32_t s = 0; s < L.nseg; s++) acc = acc.add(seg[w * L.nseg + s]);
		win[w] = acc;
	}
};

// --- driver -------------------------------------------------------------

// options mirrors cuseal_msm_options (0 = automatic).
struct options {
	unsigned window_bits = 0;
	uint64_t chunk_points = 0;
};

// choose_window returns the window for n points (override or default).
inline unsigned choose_window(uint64_t n, unsigned override_bits) {
	unsigned c = override_bits ? override_bits : default_window(n);
	if (c < MIN_WINDOW || c > MAX_WINDOW)
		fail(CUSEAL_ERR_INVALID_ARGUMENT, "msm: window_bits %u outside [%u, %u]", c, MIN_WINDOW, MAX_WINDOW);
	return c;
}

// sort_scratch: executor memory for sorting up to `chunk` points per launch
// sequence (digits, per-window histograms and offsets, sorted indices, bucket
// pieces and their partial sums of xyzz_bytes each).
template <class Exec>
struct sort_scratch {
	uint32_t chunk; // largest m accepted; piece size and slot counts derive from it
	dbuf<Exec, uint32_t> counts, offsets, cursor, partials, digits, sorted, poff, moff, piece_bucket;
	dbuf<Exec, uint8_t> partial;
	sort_scratch(Exec& ex, const layout& L, uint32_t chunk_points, size_t xyzz_bytes)
	    : chunk(chunk_points), counts(ex, hist(L)), offsets(ex, hist(L)), cursor(ex, hist(L)),
	      partials(ex, size_t(L.nwin) * scan_blocks(L)),
	      digits(ex, size_t(L.nwin) * chunk_points), sorted(ex, size_t(L.nwin) * chunk_points), poff(ex, hist(L)),
	      moff(ex, hist(L)), piece_bucket(ex, size_t(L.nwin) * piece_slots(L, chunk_points)),
	      partial(ex, size_t(L.nwin) * partial_slots(chunk_points) * xyzz_bytes) {}
	static size_t hist(const layout& L) { return size_t(L.nwin) * (L.nb + 1); }
	// bytes needed for a layout and chunk size (for memory planning).
	static size_t bytes(const layout& L, uint64_t chunk, size_t xyzz_bytes) {
		const uint32_t c = uint32_t(chunk ? chunk : 1);
		return 5 * hist(L) * 4 + size_t(L.nwin) * scan_blocks(L) * 4 + 2 * size_t(L.nwin) * chunk * 4 +
		       size_t(L.nwin) * piece_slots(L, c) * 4 + size_t(L.nwin) * partial_slots(c) * xyzz_bytes;
	}
};

// scan_counts: exclusive per-window scan of in (nwin·(nb+1), slot nb ignored)
// into out_a and out_b (may be the same array); slot nb receives the total.
template <class Exec>
void scan_counts(Exec& ex, const layout& L, const uint32_t* in, uint32_t* block_sums, uint32_t* out_a, uint32_t* out_b) {
	const int S = STREAM_COMPUTE;
	const size_t nscan = size_t(L.nwin) * scan_blocks(L);
	ex.template launch<k_scan_block_sums>(nscan, S, L, in, block_sums);
	ex.template launch<k_scan_partials>(L.nwin, S, L, block_sums);
	ex.template launch<k_scan_apply>(nscan, S, L, in, (const uint32_t*)block_sums, out_a, out_b);
}

// accumulate_chunk adds m points (executor memory) with their scalars
// (executor memory, Montgomery form) into buckets (nwin·nb XYZZ, executor
// memory), enqueued on the compute stream. m must not exceed the scratch's
// chunk size.
template <class Exec, class Aff, class Xyzz>
void accumulate_chunk(Exec& ex, const layout& L, const Aff* points, const fr_t* scalars, uint32_t m,
                      sort_scratch<Exec>& s, Xyzz* buckets) {
	const int S = STREAM_COMPUTE;
	const size_t nbk = size_t(L.nwin) * L.nb;
	if (m > s.chunk) fail(CUSEAL_ERR_INTERNAL, "msm: chunk of %u points exceeds scratch for %u", m, s.chunk);
	// Sized from the scratch's chunk, not m: a smaller last chunk must not
	// get a smaller piece size (more pieces than the arrays hold).
	const uint32_t T = piece_size(s.chunk), P = piece_slots(L, s.chunk), M = partial_slots(s.chunk);
	// Digits and counting sort of (point, sign) by bucket, per window.
	ex.zero(s.counts.get(), s.counts.bytes(), S);
	ex.template launch<k_digits>(m, S, scalars, m, L, s.digits.get(), s.counts.get());
	scan_counts(ex, L, s.counts.get(), s.partials.get(), s.offsets.get(), s.cursor.get());
	ex.template launch<k_scatter>(m, S, m, L, (const uint32_t*)s.digits.get(), s.cursor.get(), s.sorted.get());
	// Pieces of at most T entries; counts and cursor are free to reuse now.
	ex.template launch<k_piece_counts>(nbk, S, L, T, (const uint32_t*)s.offsets.get(), s.counts.get(), s.cursor.get());
	scan_counts(ex, L, s.counts.get(), s.partials.get(), s.poff.get(), s.poff.get());
	scan_counts(ex, L, s.cursor.get(), s.partials.get(), s.moff.get(), s.moff.get());
	ex.template launch<k_piece_fill>(nbk, S, L, P, (const uint32_t*)s.poff.get(), s.piece_bucket.get());
	Xyzz* partial = reinterpret_cast<Xyzz*>(s.partial.get());
	ex.template launch<k_accumulate_pieces<Aff, Xyzz>>(
	    size_t(L.nwin) * P, S, points, m, L, T, P, M, (const uint32_t*)s.offsets.get(), (const uint32_t*)s.sorted.get(),
	    (const uint32_t*)s.poff.get(), (const uint32_t*)s.moff.get(), (const uint32_t*)s.piece_bucket.get(), buckets,
	    partial);
	ex.template launch<k_piece_fixup<Xyzz>>(nbk, S, L, M, (const uint32_t*)s.poff.get(), (const uint32_t*)s.moff.get(),
	                                        (const Xyzz*)partial, buckets);
}

// reduce_buckets turns the buckets into Σ_w 2^(c·w)·Σ_b b·B_{w,b}: segment and
// window sums on the executor, the Horner step over windows on the host.
// Synchronises the executor.
template <class Exec, class Xyzz, class Jac>
Jac reduce_buckets(Exec& ex, const layout& L, const Xyzz* buckets) {
	dbuf<Exec, Xyzz> seg(ex, size_t(L.nwin) * L.nseg);
	dbuf<Exec, Xyzz> win(ex, L.nwin);
	ex.template launch<k_reduce<Xyzz>>(size_t(L.nwin) * L.nseg, STREAM_COMPUTE, L, buckets, seg.get());
	ex.template launch<k_window_sum<Xyzz>>(L.nwin, STREAM_COMPUTE, L, (const Xyzz*)seg.get(), win.get());
	std::vector<Xyzz> host_win(L.nwin);
	ex.d2h(host_win.data(), win.get(), size_t(L.nwin) * sizeof(Xyzz), STREAM_COMPUTE);
	ex.sync();
	Xyzz r = Xyzz::infinity();
	for (unsigned w = L.nwin; w-- > 0;) { // R = R·2^c + W_w, top window first
		for (unsigned i = 0; i < L.c; i++) r = r.dbl();
		r = r.add(host_win[w]);
	}
	return r.to_jacobian();
}

// run computes Σ scalars[i]·points[i] (host arrays, gnark-crypto layout,
// scalars in Montgomery form) with executor ex and returns it in Jacobian
// coordinates. Points and scalars are uploaded in chunks, double-buffered on
// the copy stream. Throws cuseal::error on bad options or executor failures.
template <class Exec, class Aff, class Xyzz, class Jac>
Jac run(Exec& ex, const Aff* points, const fr_t* scalars, uint64_t n, const options& opt) {
	if (n == 0) return Jac::infinity();
	const layout L = make_layout(choose_window(n, opt.window_bits));

	// Fixed device memory, then the largest chunk that fits next to it.
	// The scratch grows about linearly in the chunk (pieces and partials by
	// √chunk); bytes(L, 2^20) / 2^20 bounds it per point for chunks ≥ 2^10.
	const size_t fixed = size_t(L.nwin) * L.nb * sizeof(Xyzz) + sort_scratch<Exec>::bytes(L, 1, sizeof(Xyzz)) +
	                     size_t(L.nwin) * (L.nseg + 1) * sizeof(Xyzz);
	const size_t per_point = 2 * (sizeof(Aff) + sizeof(fr_t)) + size_t(L.nwin) * 4 * 2 +
	                         size_t(L.nwin) * (4 + 2 * sizeof(Xyzz)) / 32;
	uint64_t chunk = opt.chunk_points;
	if (chunk == 0) {
		size_t budget = ex.mem_budget();
		if (budget <= fixed + per_point * 1024)
			fail(CUSEAL_ERR_OUT_OF_MEMORY, "msm: %zu bytes of device memory available, need more than %zu", budget,
			     fixed + per_point * 1024);
		chunk = std::min<uint64_t>(n, (budget - fixed) / per_point);
	}
	chunk = std::min<uint64_t>(chunk, n);
	chunk = std::min<uint64_t>(chunk, uint64_t(1) << 30); // point index fits below SIGN_BIT
	const uint64_t nchunks = (n + chunk - 1) / chunk;
	const uint32_t cm = uint32_t(chunk);

	dbuf<Exec, Xyzz> buckets(ex, size_t(L.nwin) * L.nb);
	sort_scratch<Exec> scratch(ex, L, cm, sizeof(Xyzz));
	dbuf<Exec, Aff> pts0(ex, cm), pts1(ex, nchunks > 1 ? cm : 1);
	dbuf<Exec, fr_t> sc0(ex, cm), sc1(ex, nchunks > 1 ? cm : 1);
	Aff* pts[2] = {pts0.get(), pts1.get()};
	fr_t* sc[2] = {sc0.get(), sc1.get()};
	enum { EV_READY0 = 0, EV_FREE0 = 2 };

	ex.zero(buckets.get(), buckets.bytes(), STREAM_COMPUTE);
	for (uint64_t k = 0; k < nchunks; k++) {
		const int b = int(k & 1);
		const uint64_t off = k * chunk;
		const uint32_t m = uint32_t(std::min<uint64_t>(chunk, n - off));
		// Upload chunk k into buffer b once chunk k-2 no longer reads it.
		if (k >= 2) ex.wait(STREAM_COPY, EV_FREE0 + b);
		ex.h2d(pts[b], points + off, size_t(m) * sizeof(Aff), STREAM_COPY);
		ex.h2d(sc[b], scalars + off, size_t(m) * sizeof(fr_t), STREAM_COPY);
		ex.record(EV_READY0 + b, STREAM_COPY);
		ex.wait(STREAM_COMPUTE, EV_READY0 + b);
		accumulate_chunk<Exec, Aff, Xyzz>(ex, L, pts[b], sc[b], m, scratch, buckets.get());
		ex.record(EV_FREE0 + b, STREAM_COMPUTE);
	}
	return reduce_buckets<Exec, Xyzz, Jac>(ex, L, buckets.get());
}

} // namespace cuseal::msm
