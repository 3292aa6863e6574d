// SPDX-License-Identifier: Apache-2.0 OR MIT

// srs.cpp: cuseal_srs construction, validation, refcounting, pinning and
// eviction (see srs.hpp).
#include "srs.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "../groth16/prover.hpp"
#include "../util/parallel.hpp"

namespace cuseal::srs {

using ff::fp_t;
using ff::fp2_t;

const char* query_name(int q) {
	static const char* names[NQUERY] = {"h", "l", "a", "b_g1", "b_g2"};
	return q >= 0 && q < NQUERY ? names[q] : "?";
}

unsigned srs::domain_log() const {
	uint64_t m = n[Q_H] + 1;
	unsigned lg = 0;
	while ((uint64_t(1) << lg) < m) lg++;
	return n[Q_H] == 0 ? 0 : lg;
}

srs::~srs() {
	for (int d = 0; d < MAX_DEVICES; d++)
		if (dev[d].base) g16::cuda_free_image(d, dev[d].base);
	if (pinned) g16::cuda_unpin(host);
	std::free(host);
}

namespace {

// on_curve: y² = x³ + b with b = 4 (G1) or 4(1+u) (G2), Montgomery form.
bool on_curve(const g1_affine& p) {
	const fp_t b = fp_t::from_u64(4);
	return p.y.sqr() == p.x.sqr() * p.x + b;
}
bool on_curve(const g2_affine& p) {
	const fp_t four = fp_t::from_u64(4);
	const fp2_t b{four, four};
	return p.y.sqr() == p.x.sqr() * p.x + b;
}

bool reduced(const fp_t& x) { return x.is_reduced(); }
bool reduced(const fp2_t& x) { return x.c0.is_reduced() && x.c1.is_reduced(); }

template <class Aff>
void validate(const Aff* pts, uint64_t n, int q) {
	// First bad index, found in parallel; report the lowest.
	std::atomic<uint64_t> bad{UINT64_MAX};
	std::atomic<int> why{0};
	parallel_for(n, 0, [&](uint64_t lo, uint64_t hi) {
		for (uint64_t i = lo; i < hi && i < bad.load(std::memory_order_relaxed); i++) {
			int w = 0;
			if (!reduced(pts[i].x) || !reduced(pts[i].y)) w = 1;
			else if (pts[i].is_infinity()) w = 2;
			else if (!on_curve(pts[i])) w = 3;
			if (!w) continue;
			uint64_t cur = bad.load();
			while (i < cur && !bad.compare_exchange_weak(cur, i)) {}
			if (bad.load() == i) why.store(w);
			break;
		}
	});
	if (bad.load() == UINT64_MAX) return;
	static const char* what[] = {"", "coordinate not reduced modulo p", "point at infinity", "point not on curve"};
	fail(CUSEAL_ERR_INVALID_ARGUMENT, "srs %s[%llu]: %s", query_name(q), (unsigned long long)bad.load(),
	     what[why.load()]);
}

// --- zcash uncompressed decoding (docs/formats.md §1.1, §1.3) ---------------------

enum : int { Z_OK = 0, Z_FLAGS, Z_INFINITY, Z_NONCANONICAL };

// fp_be reads 48 big-endian bytes (flag bits already masked by the caller)
// into Montgomery form; false when the value is ≥ p.
bool fp_be(const uint8_t* b, fp_t& out) {
	fp_t x = fp_t::zero();
	for (int k = 0; k < 6; k++) {
		uint64_t w = 0;
		for (int j = 0; j < 8; j++) w = (w << 8) | b[8 * k + j];
		x.set64(5 - k, w);
	}
	if (!x.is_reduced()) return false;
	out = x.to_mont();
	return true;
}

// decode_point parses one uncompressed point of N coordinates (2: G1, 4: G2).
template <int N>
int decode_point(const uint8_t* p, fp_t* c) {
	const uint8_t flags = p[0] & 0xe0;
	if (flags & 0x80) return Z_FLAGS; // compressed encoding in an uncompressed section
	if (flags & 0x20) return Z_FLAGS; // sort flag must be clear when uncompressed
	if (flags & 0x40) return Z_INFINITY;
	uint8_t first[48];
	std::memcpy(first, p, 48);
	first[0] &= 0x1f;
	if (!fp_be(first, c[0])) return Z_NONCANONICAL;
	for (int k = 1; k < N; k++)
		if (!fp_be(p + 48 * k, c[k])) return Z_NONCANONICAL;
	return Z_OK;
}

// decode_query decodes n encoded points of query q into dst (affine).
void decode_query(const uint8_t* src, uint64_t n, int q, void* dst) {
	std::atomic<uint64_t> bad{UINT64_MAX};
	std::atomic<int> why{0};
	parallel_for(n, 0, [&](uint64_t lo, uint64_t hi) {
		for (uint64_t i = lo; i < hi && i < bad.load(std::memory_order_relaxed); i++) {
			int w;
			if (q == Q_BG2) {
				fp_t c[4];
				w = decode_point<4>(src + 192 * i, c);
				// zcash order x.c1, x.c0, y.c1, y.c0; gnark E2 is (A0, A1).
				if (!w) static_cast<g2_affine*>(dst)[i] = g2_affine{fp2_t{c[1], c[0]}, fp2_t{c[3], c[2]}};
			} else {
				fp_t c[2];
				w = decode_point<2>(src + 96 * i, c);
				if (!w) static_cast<g1_affine*>(dst)[i] = g1_affine{c[0], c[1]};
			}
			if (!w) continue;
			uint64_t cur = bad.load();
			while (i < cur && !bad.compare_exchange_weak(cur, i)) {}
			if (bad.load() == i) why.store(w);
			break;
		}
	});
	if (bad.load() == UINT64_MAX) return;
	static const char* what[] = {"", "bad zcash encoding flags (want uncompressed)", "point at infinity",
	                             "non-canonical coordinate (>= p)"};
	const uint64_t size = q == Q_BG2 ? 192 : 96;
	fail(CUSEAL_ERR_INVALID_ARGUMENT, "srs %s[%llu] (byte %llu of the section): %s", query_name(q),
	     (unsigned long long)bad.load(), (unsigned long long)(bad.load() * size), what[why.load()]);
}

// alloc_layout sets s's query lengths to n and lays the five queries out in
// one host allocation, back to back, each 4 KiB aligned (srs::off, host_bytes),
// with h..b_g2 pointing into it; returns its base for the caller to fill.
// Throws CUSEAL_ERR_OUT_OF_MEMORY.
char* alloc_layout(srs& s, const uint64_t n[NQUERY]) {
	uint64_t off = 0;
	for (int q = 0; q < NQUERY; q++) {
		s.n[q] = n[q];
		s.off[q] = off;
		off += (s.query_bytes(q) + 4095) & ~uint64_t(4095);
	}
	s.host_bytes = off;
	s.host = std::aligned_alloc(4096, off ? off : 4096);
	if (!s.host) fail(CUSEAL_ERR_OUT_OF_MEMORY, "srs: cannot allocate %llu host bytes", (unsigned long long)off);
	char* base = static_cast<char*>(s.host);
	s.h = reinterpret_cast<const g1_affine*>(base + s.off[Q_H]);
	s.l = reinterpret_cast<const g1_affine*>(base + s.off[Q_L]);
	s.a = reinterpret_cast<const g1_affine*>(base + s.off[Q_A]);
	s.b_g1 = reinterpret_cast<const g1_affine*>(base + s.off[Q_BG1]);
	s.b_g2 = reinterpret_cast<const g2_affine*>(base + s.off[Q_BG2]);
	return base;
}

} // namespace

srs* create(const cuseal_srs_vectors& v, const cuseal_srs_options& o) {
	auto t0 = std::chrono::steady_clock::now();
	const void* src[NQUERY] = {v.h, v.l, v.a, v.b_g1, v.b_g2};
	const uint64_t cnt[NQUERY] = {v.n_h, v.n_l, v.n_a, v.n_b_g1, v.n_b_g2};
	for (int q = 0; q < NQUERY; q++)
		if (cnt[q] && !src[q]) fail(CUSEAL_ERR_INVALID_ARGUMENT, "srs %s: %llu points but pointer is NULL", query_name(q),
		                            (unsigned long long)cnt[q]);
	const uint64_t m = v.n_h + 1;
	if (v.n_h && (m & (m - 1)))
		fail(CUSEAL_ERR_INVALID_ARGUMENT, "srs h: %llu points; |h| + 1 must be a power of two", (unsigned long long)v.n_h);
	if (v.n_h && m > (uint64_t(1) << ntt::MAX_LG))
		fail(CUSEAL_ERR_INVALID_ARGUMENT, "srs h: domain %llu above 2^%u", (unsigned long long)m, ntt::MAX_LG);
	if (v.n_b_g1 != v.n_b_g2)
		fail(CUSEAL_ERR_INVALID_ARGUMENT, "srs: b_g1 has %llu points, b_g2 %llu", (unsigned long long)v.n_b_g1,
		     (unsigned long long)v.n_b_g2);
	for (int q = 0; q < NQUERY; q++)
		if (cnt[q] >= (uint64_t(1) << 32))
			fail(CUSEAL_ERR_INVALID_ARGUMENT, "srs %s: %llu points exceed 2^32", query_name(q), (unsigned long long)cnt[q]);

	std::unique_ptr<srs> s(new srs);
	char* base = alloc_layout(*s, cnt);
	for (int q = 0; q < NQUERY; q++) {
		const uint64_t bytes = s->query_bytes(q);
		char* dst = base + s->off[q];
		const char* from = static_cast<const char*>(src[q]);
		if (o.format == CUSEAL_SRS_ZCASH) {
			decode_query(reinterpret_cast<const uint8_t*>(from), cnt[q], q, dst);
			continue;
		}
		parallel_for(bytes / 4096 + 1, 0, [&](uint64_t lo, uint64_t hi) {
			uint64_t b0 = lo * 4096, b1 = std::min(bytes, hi * 4096);
			if (b0 < b1) std::memcpy(dst + b0, from + b0, b1 - b0);
		});
	}
	if (o.validate) {
		validate(s->h, s->n[Q_H], Q_H);
		validate(s->l, s->n[Q_L], Q_L);
		validate(s->a, s->n[Q_A], Q_A);
		validate(s->b_g1, s->n[Q_BG1], Q_BG1);
		validate(s->b_g2, s->n[Q_BG2], Q_BG2);
	}
	s->create_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	if (o.pin_host) {
		// Pin once per SRS, never per proof; the cost (or why it was skipped)
		// is reported through cuseal_srs_get_info, for the caller to show.
		auto p0 = std::chrono::steady_clock::now();
		if (g16::cuda_pin(s->host, s->host_bytes, s->pin_skipped, sizeof s->pin_skipped)) {
			s->pinned = true;
			s->pin_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - p0).count();
		}
	}
	return s.release();
}

srs* create_tiled(const uint64_t n[NQUERY], const g1_affine* t1, size_t nt1, const g2_affine* t2, size_t nt2) {
	if (!nt1 || !nt2) fail(CUSEAL_ERR_INVALID_ARGUMENT, "create_tiled: empty tile");
	std::unique_ptr<srs> s(new srs);
	char* base = alloc_layout(*s, n);
	for (int q = 0; q < NQUERY; q++) {
		if (q == Q_BG2) {
			auto* d = reinterpret_cast<g2_affine*>(base + s->off[q]);
			parallel_for(n[q], 0, [&](uint64_t lo, uint64_t hi) {
				for (uint64_t i = lo; i < hi; i++) d[i] = t2[(i * 2654435761u + q) % nt2];
			});
		} else {
			auto* d = reinterpret_cast<g1_affine*>(base + s->off[q]);
			parallel_for(n[q], 0, [&](uint64_t lo, uint64_t hi) {
				for (uint64_t i = lo; i < hi; i++) d[i] = t1[(i * 2654435761u + q) % nt1];
			});
		}
	}
	return s.release();
}

void retain(srs* s) {
	if (s->refs.fetch_add(1) <= 0) fail(CUSEAL_ERR_INVALID_ARGUMENT, "srs: retain after the last release");
}

void release(srs* s) {
	int left = s->refs.fetch_sub(1) - 1;
	if (left < 0) fail(CUSEAL_ERR_INVALID_ARGUMENT, "srs: released more often than retained");
	if (left == 0) delete s;
}

void evict_locked(srs* s, int d) {
	if (d < 0 || d >= MAX_DEVICES || !s->dev[d].base) return;
	g16::cuda_free_image(d, s->dev[d].base);
	s->dev[d] = device_image{};
	s->resident_mask.fetch_and(~(uint64_t(1) << d));
}

} // namespace cuseal::srs
