// SPDX-License-Identifier: Apache-2.0 OR MIT

// plan.cpp: batch planning for the Groth16 query sums (see plan.hpp).
#include "plan.hpp"

#include <algorithm>
#include <cstring>

#include "../util/parallel.hpp"

namespace cuseal::g16 {

const char* plan_query_name(int q) {
	switch (q) {
	case PQ_L: return "l";
	case PQ_A: return "a";
	case PQ_B: return "b";
	}
	return "?";
}

uint64_t popcount_density(const cuseal_density& d, const char* name, size_t circuit) {
	const uint64_t words = (d.bit_len + 63) / 64;
	if (words && !d.words) fail(CUSEAL_ERR_INVALID_ARGUMENT, "circuit %zu: %s density words is NULL", circuit, name);
	uint64_t pop = 0;
	for (uint64_t i = 0; i < words; i++) pop += uint64_t(__builtin_popcountll(d.words[i]));
	if (d.bit_len % 64 && (d.words[words - 1] >> (d.bit_len % 64)) != 0)
		fail(CUSEAL_ERR_INVALID_ARGUMENT, "circuit %zu: %s density has bits set past bit %llu", circuit, name,
		     (unsigned long long)d.bit_len);
	return pop;
}

namespace {

bool same_density(const cuseal_density& x, const cuseal_density& y) {
	if (x.bit_len != y.bit_len) return false;
	const uint64_t words = (x.bit_len + 63) / 64;
	return words == 0 || std::memcmp(x.words, y.words, words * 8) == 0;
}

inline bool bit(const cuseal_density& d, uint64_t i) { return (d.words[i / 64] >> (i % 64)) & 1; }

} // namespace

void check_batch(const srs::srs& s, const cuseal_assignment* cs, size_t n) {
	if (n == 0) return;
	if (!cs) fail(CUSEAL_ERR_INVALID_ARGUMENT, "circuits is NULL");
	const uint64_t m = s.n[srs::Q_H] + 1;
	const cuseal_assignment& c0 = cs[0];
	for (size_t i = 0; i < n; i++) {
		const cuseal_assignment& c = cs[i];
		if (c.abc_size > m)
			fail(CUSEAL_ERR_INVALID_ARGUMENT, "circuit %zu: %llu constraints exceed the domain size %llu (|h| = %llu)", i,
			     (unsigned long long)c.abc_size, (unsigned long long)m, (unsigned long long)s.n[srs::Q_H]);
		if (c.abc_size && (!c.a || !c.b || !c.c)) fail(CUSEAL_ERR_INVALID_ARGUMENT, "circuit %zu: a, b or c is NULL", i);
		if (c.n_input == 0 || !c.input)
			fail(CUSEAL_ERR_INVALID_ARGUMENT, "circuit %zu: no input assignment (ONE comes first)", i);
		if (c.n_aux && !c.aux) fail(CUSEAL_ERR_INVALID_ARGUMENT, "circuit %zu: aux is NULL", i);
		if (c.n_input != c0.n_input || c.n_aux != c0.n_aux)
			fail(CUSEAL_ERR_INVALID_ARGUMENT, "circuit %zu: %llu inputs and %llu aux, circuit 0 has %llu and %llu", i,
			     (unsigned long long)c.n_input, (unsigned long long)c.n_aux, (unsigned long long)c0.n_input,
			     (unsigned long long)c0.n_aux);
		if (c.n_input + c.n_aux >= (uint64_t(1) << 32))
			fail(CUSEAL_ERR_INVALID_ARGUMENT, "circuit %zu: %llu variables exceed 2^32", i,
			     (unsigned long long)(c.n_input + c.n_aux));
		if (c.a_aux.bit_len != c.n_aux || c.b_aux.bit_len != c.n_aux || c.b_input.bit_len != c.n_input)
			fail(CUSEAL_ERR_INVALID_ARGUMENT,
			     "circuit %zu: density bit lengths a_aux=%llu b_input=%llu b_aux=%llu, want %llu, %llu, %llu", i,
			     (unsigned long long)c.a_aux.bit_len, (unsigned long long)c.b_input.bit_len,
			     (unsigned long long)c.b_aux.bit_len, (unsigned long long)c.n_aux, (unsigned long long)c.n_input,
			     (unsigned long long)c.n_aux);
		const uint64_t pa = popcount_density(c.a_aux, "a_aux", i);
		const uint64_t pbi = popcount_density(c.b_input, "b_input", i);
		const uint64_t pba = popcount_density(c.b_aux, "b_aux", i);
		if (i > 0) {
			if (!same_density(c.a_aux, c0.a_aux))
				fail(CUSEAL_ERR_INVALID_ARGUMENT, "circuit %zu: a_aux density differs from circuit 0's", i);
			if (!same_density(c.b_input, c0.b_input))
				fail(CUSEAL_ERR_INVALID_ARGUMENT, "circuit %zu: b_input density differs from circuit 0's", i);
			if (!same_density(c.b_aux, c0.b_aux))
				fail(CUSEAL_ERR_INVALID_ARGUMENT, "circuit %zu: b_aux density differs from circuit 0's", i);
			continue;
		}
		if (c.n_aux != s.n[srs::Q_L])
			fail(CUSEAL_ERR_INVALID_ARGUMENT, "circuit %zu: %llu aux variables, srs l has %llu", i,
			     (unsigned long long)c.n_aux, (unsigned long long)s.n[srs::Q_L]);
		if (c.n_input + pa != s.n[srs::Q_A])
			fail(CUSEAL_ERR_INVALID_ARGUMENT, "circuit %zu: %llu inputs + %llu A-dense aux, srs a has %llu", i,
			     (unsigned long long)c.n_input, (unsigned long long)pa, (unsigned long long)s.n[srs::Q_A]);
		if (pbi + pba != s.n[srs::Q_BG1] || pbi + pba != s.n[srs::Q_BG2])
			fail(CUSEAL_ERR_INVALID_ARGUMENT,
			     "circuit %zu: %llu B-dense inputs + %llu B-dense aux, srs b_g1 has %llu, b_g2 %llu", i,
			     (unsigned long long)pbi, (unsigned long long)pba, (unsigned long long)s.n[srs::Q_BG1],
			     (unsigned long long)s.n[srs::Q_BG2]);
	}
}

std::vector<uint32_t> slot_map(const cuseal_assignment& c, int q) {
	std::vector<uint32_t> m;
	if (q == PQ_A) {
		m.reserve(c.n_input + c.n_aux);
		for (uint64_t i = 0; i < c.n_input; i++) m.push_back(uint32_t(i));
		for (uint64_t j = 0; j < c.n_aux; j++)
			if (bit(c.a_aux, j)) m.push_back(uint32_t(c.n_input + j));
	} else if (q == PQ_B) {
		for (uint64_t i = 0; i < c.n_input; i++)
			if (bit(c.b_input, i)) m.push_back(uint32_t(i));
		for (uint64_t j = 0; j < c.n_aux; j++)
			if (bit(c.b_aux, j)) m.push_back(uint32_t(c.n_input + j));
	} else {
		fail(CUSEAL_ERR_INTERNAL, "slot_map: query %d has no map", q);
	}
	return m;
}

namespace {

// value reads slot k's scalar of circuit c: through map (A, B) or aux[k] (L).
struct valuer {
	const fr_t* in;
	const fr_t* aux;
	uint64_t n_in;
	const uint32_t* map; // null: identity over aux
	const fr_t& operator()(uint64_t k) const {
		if (!map) return aux[k];
		uint32_t v = map[k];
		return v < n_in ? in[v] : aux[v - n_in];
	}
};

enum cls : uint8_t { C_ZERO = 0, C_ONE = 1, C_SIG = 2 };

inline cls classify(const fr_t& x, const fr_t& one) {
	if (x.is_zero()) return C_ZERO;
	if (x == one) return C_ONE;
	return C_SIG;
}

void plan_query(const cuseal_assignment* cs, size_t n, int q, uint64_t slots, int split_mode, query_plan& qp) {
	qp.slots = slots;
	qp.sc.assign(n, scalars{});
	qp.ones.assign(n, {});
	qp.tail_slots.clear();
	qp.ones_total = 0;
	std::vector<uint32_t> map;
	if (q != PQ_L) map = slot_map(cs[0], q);
	if (q != PQ_L && map.size() != slots)
		fail(CUSEAL_ERR_INTERNAL, "plan: %s slot map has %zu entries, query %llu", plan_query_name(q), map.size(),
		     (unsigned long long)slots);
	std::vector<valuer> val(n);
	for (size_t i = 0; i < n; i++)
		val[i] = valuer{static_cast<const fr_t*>(cs[i].input), static_cast<const fr_t*>(cs[i].aux), cs[i].n_input,
		                q == PQ_L ? nullptr : map.data()};
	const fr_t one = fr_t::one();

	// Union of significant slots over the batch, one bit per slot.
	bool split = split_mode == CUSEAL_SPLIT_ALWAYS;
	std::vector<uint64_t> sig;
	if (split_mode != CUSEAL_SPLIT_NEVER && slots) {
		sig.assign((slots + 63) / 64, 0);
		parallel_for((slots + 63) / 64, 0, [&](uint64_t wlo, uint64_t whi) {
			for (uint64_t w = wlo; w < whi; w++) {
				uint64_t bits = 0;
				const uint64_t k0 = w * 64, k1 = std::min(slots, k0 + 64);
				for (size_t i = 0; i < n && bits != ~uint64_t(0); i++)
					for (uint64_t k = k0; k < k1; k++)
						if (classify(val[i](k), one) == C_SIG) bits |= uint64_t(1) << (k - k0);
				sig[w] = bits;
			}
		});
		uint64_t pop = 0;
		for (uint64_t w : sig) pop += uint64_t(__builtin_popcountll(w));
		split = split_mode == CUSEAL_SPLIT_ALWAYS || pop <= slots / 2;
		if (split) {
			qp.tail_slots.reserve(pop);
			for (uint64_t w = 0; w < sig.size(); w++)
				for (uint64_t bits = sig[w]; bits; bits &= bits - 1)
					qp.tail_slots.push_back(uint32_t(w * 64 + uint64_t(__builtin_ctzll(bits))));
		}
	}
	qp.split = split;

	for (size_t i = 0; i < n; i++) {
		scalars& s = qp.sc[i];
		if (!split) {
			if (q == PQ_L) { // the aux vector itself
				s.p = static_cast<const fr_t*>(cs[i].aux);
				s.n = slots;
				continue;
			}
			s.own.resize(slots);
			fr_t* dst = s.own.data();
			const valuer& v = val[i];
			parallel_for(slots, 0, [&](uint64_t lo, uint64_t hi) {
				for (uint64_t k = lo; k < hi; k++) dst[k] = v(k);
			});
			s.p = dst;
			s.n = slots;
			continue;
		}
		const uint64_t t = qp.tail_slots.size();
		s.own.resize(t);
		fr_t* dst = s.own.data();
		const valuer& v = val[i];
		const uint32_t* ts = qp.tail_slots.data();
		parallel_for(t, 0, [&](uint64_t lo, uint64_t hi) {
			for (uint64_t k = lo; k < hi; k++) dst[k] = v(ts[k]);
		});
		s.p = dst;
		s.n = t;
		// 1-slots outside the union, collected per 64-slot word range in
		// parallel and concatenated in slot order.
		std::vector<uint32_t>& ones = qp.ones[i];
		const uint64_t nw = (slots + 63) / 64, parts = std::max<uint64_t>(1, std::min<uint64_t>(64, nw / 256));
		std::vector<std::vector<uint32_t>> part(parts);
		parallel_for(parts, 0, [&](uint64_t plo, uint64_t phi) {
			for (uint64_t pi = plo; pi < phi; pi++) {
				const uint64_t w0 = nw * pi / parts, w1 = nw * (pi + 1) / parts;
				for (uint64_t w = w0; w < w1; w++) {
					const uint64_t k1 = std::min(slots, w * 64 + 64);
					for (uint64_t k = w * 64; k < k1; k++)
						if (!((sig[w] >> (k % 64)) & 1) && classify(v(k), one) == C_ONE) part[pi].push_back(uint32_t(k));
				}
			}
		}, 1);
		size_t total = 0;
		for (auto& pv : part) total += pv.size();
		ones.reserve(total);
		for (auto& pv : part) ones.insert(ones.end(), pv.begin(), pv.end());
		qp.ones_total += ones.size();
	}
}

} // namespace

void plan_batch(const srs::srs& s, const cuseal_assignment* cs, size_t n, int split_mode, batch_plan& out) {
	if (split_mode < CUSEAL_SPLIT_AUTO || split_mode > CUSEAL_SPLIT_ALWAYS)
		fail(CUSEAL_ERR_INVALID_ARGUMENT, "split_mode %d: want 0 (auto), 1 (never) or 2 (always)", split_mode);
	out.n = n;
	out.lg = s.domain_log();
	out.n_input = n ? cs[0].n_input : 0;
	out.n_aux = n ? cs[0].n_aux : 0;
	if (n == 0) return;
	plan_query(cs, n, PQ_L, s.n[srs::Q_L], split_mode, out.q[PQ_L]);
	plan_query(cs, n, PQ_A, s.n[srs::Q_A], split_mode, out.q[PQ_A]);
	plan_query(cs, n, PQ_B, s.n[srs::Q_BG1], split_mode, out.q[PQ_B]);
}

} // namespace cuseal::g16
