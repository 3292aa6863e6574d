// SPDX-License-Identifier: Apache-2.0 OR MIT

// test_groth16_plan.cpp: host-side planning of the Groth16 prover
// (native/groth16/plan.hpp): density popcounts and stray bits, batch checks
// (bitwise density equality across circuits, shapes against the SRS), slot
// maps (A inputs dense, B-input offset = B-input popcount), 0/1/significant
// classification, the split decision per query and compaction.
#include <functional>
#include <string>

#include "groth16/plan.hpp"
#include "testutil.hpp"

using namespace cuseal;
using ff::fr_t;

namespace {

std::string error_of(const std::function<void()>& f) {
	try {
		f();
	} catch (const cuseal::error& e) {
		return e.what();
	}
	return "";
}

struct circuit {
	std::vector<fr_t> input, aux, abc;
	std::vector<uint64_t> a_aux, b_in, b_aux;
	cuseal_assignment view() const {
		cuseal_assignment c{};
		c.a = c.b = c.c = abc.data();
		c.abc_size = abc.size();
		c.input = input.data();
		c.n_input = input.size();
		c.aux = aux.data();
		c.n_aux = aux.size();
		c.a_aux = {a_aux.data(), aux.size()};
		c.b_input = {b_in.data(), input.size()};
		c.b_aux = {b_aux.data(), aux.size()};
		return c;
	}
};

void set(std::vector<uint64_t>& w, size_t i) { w[i / 64] |= uint64_t(1) << (i % 64); }

// fake_srs: an srs with the given query lengths and no points (planning only
// reads the lengths).
void fake(srs::srs& s, uint64_t nh, uint64_t nl, uint64_t na, uint64_t nb) {
	s.n[srs::Q_H] = nh;
	s.n[srs::Q_L] = nl;
	s.n[srs::Q_A] = na;
	s.n[srs::Q_BG1] = s.n[srs::Q_BG2] = nb;
}

} // namespace

int main() {
	const fr_t one = fr_t::one(), zero = fr_t::zero();
	const fr_t big = fr_t::from_u64(12345), minus1 = -one;

	// ---- popcount and stray bits ------------------------------------------------
	{
		uint64_t w[2] = {0xffULL, 0x1ULL};
		cuseal_density d{w, 65};
		CHECK(g16::popcount_density(d, "x", 0) == 9, "popcount");
		d.bit_len = 64;
		uint64_t w2[1] = {1ULL << 62};
		std::string e = error_of([&] { g16::popcount_density(cuseal_density{w2, 60}, "b_aux", 3); });
		CHECK(e.find("circuit 3: b_aux density has bits set past bit 60") != std::string::npos, "stray bits: %s",
		      e.c_str());
	}

	// A circuit: 3 inputs (ONE, 0, v), 10 aux. A-aux dense at {0,2,3,5,9};
	// B-input dense at {0,2}; B-aux dense at {1,2,3,4,7}.
	circuit c;
	c.input = {one, zero, big};
	c.aux = {one, big, zero, one, minus1, one, big, one, zero, one};
	c.abc.assign(5, one);
	c.a_aux.assign(1, 0);
	c.b_in.assign(1, 0);
	c.b_aux.assign(1, 0);
	for (int j : {0, 2, 3, 5, 9}) set(c.a_aux, j);
	for (int i : {0, 2}) set(c.b_in, i);
	for (int j : {1, 2, 3, 4, 7}) set(c.b_aux, j);
	srs::srs s;
	fake(s, 7, 10, 3 + 5, 2 + 5);
	cuseal_assignment v = c.view();

	// ---- slot maps ------------------------------------------------------------
	{
		auto a = g16::slot_map(v, g16::PQ_A);
		std::vector<uint32_t> wa = {0, 1, 2, 3 + 0, 3 + 2, 3 + 3, 3 + 5, 3 + 9};
		CHECK(a == wa, "A slot map");
		auto b = g16::slot_map(v, g16::PQ_B);
		// B-dense inputs first (popcount 2), then aux at offset 2.
		std::vector<uint32_t> wb = {0, 2, 3 + 1, 3 + 2, 3 + 3, 3 + 4, 3 + 7};
		CHECK(b == wb, "B slot map");
	}

	// ---- batch checks -----------------------------------------------------------
	g16::check_batch(s, &v, 1);
	{
		circuit c2 = c;
		c2.b_aux[0] ^= (1ULL << 7) | (1ULL << 8); // same popcount, different bits
		cuseal_assignment two[2] = {v, c2.view()};
		std::string e = error_of([&] { g16::check_batch(s, two, 2); });
		CHECK(e.find("circuit 1: b_aux density differs from circuit 0's") != std::string::npos, "bitwise compare: %s",
		      e.c_str());
		srs::srs bad;
		fake(bad, 7, 10, 9, 7);
		e = error_of([&] { g16::check_batch(bad, &v, 1); });
		CHECK(e.find("3 inputs + 5 A-dense aux, srs a has 9") != std::string::npos, "a count: %s", e.c_str());
		srs::srs small;
		fake(small, 3, 10, 8, 7);
		e = error_of([&] { g16::check_batch(small, &v, 1); });
		CHECK(e.find("5 constraints exceed the domain size 4") != std::string::npos, "domain: %s", e.c_str());
		circuit c3 = c;
		c3.aux.pop_back();
		cuseal_assignment v3 = c3.view();
		v3.a_aux.bit_len = v3.b_aux.bit_len = 10;
		e = error_of([&] { g16::check_batch(s, &v3, 1); });
		CHECK(e.find("density bit lengths") != std::string::npos, "bit lengths: %s", e.c_str());
	}

	// ---- classification, split decision, compaction --------------------------
	{
		g16::batch_plan p;
		g16::plan_batch(s, &v, 1, CUSEAL_SPLIT_ALWAYS, p);
		// L slots = aux: significant at {1, 4, 6}, ones at {0, 3, 5, 7, 9}.
		const auto& L = p.q[g16::PQ_L];
		CHECK(L.split, "L split (always)");
		CHECK((L.tail_slots == std::vector<uint32_t>{1, 4, 6}), "L tail slots");
		CHECK((L.ones[0] == std::vector<uint32_t>{0, 3, 5, 7, 9}), "L ones");
		CHECK(L.sc[0].n == 3 && L.sc[0].p[0] == big && L.sc[0].p[1] == minus1 && L.sc[0].p[2] == big, "L tail scalars");
		// A slots: [ONE, 0, big, aux0=1, aux2=0, aux3=1, aux5=1, aux9=1].
		const auto& A = p.q[g16::PQ_A];
		CHECK((A.tail_slots == std::vector<uint32_t>{2}), "A tail");
		CHECK((A.ones[0] == std::vector<uint32_t>{0, 3, 5, 6, 7}), "A ones (input ONE included)");
		// B slots: [in0=ONE, in2=big, aux1=big, aux2=0, aux3=1, aux4=-1, aux7=1].
		const auto& B = p.q[g16::PQ_B];
		CHECK((B.tail_slots == std::vector<uint32_t>{1, 2, 5}), "B tail");
		CHECK((B.ones[0] == std::vector<uint32_t>{0, 4, 6}), "B ones");
		CHECK(B.ones_total == 3, "ones total");

		g16::plan_batch(s, &v, 1, CUSEAL_SPLIT_AUTO, p);
		CHECK(p.q[g16::PQ_L].split, "L: 3 significant of 10 ≤ 5 → split");
		CHECK(p.q[g16::PQ_A].split, "A: 1 of 8 → split");
		CHECK(p.q[g16::PQ_B].split, "B: 3 of 7 ≤ 3 → split");

		g16::plan_batch(s, &v, 1, CUSEAL_SPLIT_NEVER, p);
		CHECK(!p.q[g16::PQ_L].split && p.q[g16::PQ_L].sc[0].p == c.aux.data(), "L unsplit uses aux in place");
		const auto& An = p.q[g16::PQ_A].sc[0];
		fr_t wa[8] = {one, zero, big, one, zero, one, one, one};
		bool ok = An.n == 8;
		for (int k = 0; ok && k < 8; k++) ok = An.p[k] == wa[k];
		CHECK(ok, "A compaction");
		const auto& Bn = p.q[g16::PQ_B].sc[0];
		fr_t wb[7] = {one, big, big, zero, one, minus1, one};
		ok = Bn.n == 7;
		for (int k = 0; ok && k < 7; k++) ok = Bn.p[k] == wb[k];
		CHECK(ok, "B compaction (input offset = B-input popcount)");

		// Batch: the union of significant slots decides; a slot significant in
		// circuit 1 only is a tail slot for circuit 0 too (with its 1 or 0).
		circuit d = c;
		d.aux[0] = big; // L slot 0, A slot 3 significant in circuit 1
		d.aux[1] = one; // L slot 1 / B slot 2: significant in circuit 0 only
		cuseal_assignment two[2] = {v, d.view()};
		g16::plan_batch(s, two, 2, CUSEAL_SPLIT_AUTO, p);
		const auto& L2 = p.q[g16::PQ_L];
		CHECK((L2.tail_slots == std::vector<uint32_t>{0, 1, 4, 6}), "L union tail");
		CHECK(L2.sc[0].p[0] == one && L2.sc[1].p[0] == big && L2.sc[1].p[1] == one, "per-circuit tail scalars");
		CHECK((L2.ones[0] == std::vector<uint32_t>{3, 5, 7, 9}) && (L2.ones[1] == std::vector<uint32_t>{3, 5, 7, 9}),
		      "ones outside the union");
		// A: significant union {2, 3} of 8 → split; B: {1, 2, 5} → split.
		CHECK(p.q[g16::PQ_A].split && p.q[g16::PQ_A].tail_slots.size() == 2, "A union");

		// More than half significant → no split in auto mode.
		circuit e = c;
		for (auto& x : e.aux) x = big;
		cuseal_assignment ve = e.view();
		g16::plan_batch(s, &ve, 1, CUSEAL_SPLIT_AUTO, p);
		CHECK(!p.q[g16::PQ_L].split && !p.q[g16::PQ_B].split, "dense significant → no split");
		std::string err = error_of([&] { g16::plan_batch(s, &ve, 1, 7, p); });
		CHECK(err.find("split_mode 7") != std::string::npos, "bad split mode: %s", err.c_str());
	}
	// ---- large batch: parallel classification and ones collection ----------
	{
		const uint64_t n_aux = (1u << 17) + 37;
		circuit big_c;
		big_c.input = {one};
		big_c.abc.assign(3, one);
		big_c.a_aux.assign((n_aux + 63) / 64, 0);
		big_c.b_in.assign(1, 1);
		big_c.b_aux.assign((n_aux + 63) / 64, 0);
		testutil::rng r(3);
		uint64_t pa = 0, pb = 0;
		for (uint64_t j = 0; j < n_aux; j++) {
			uint64_t x = r.next();
			big_c.aux.push_back(x % 10 < 4 ? one : x % 10 < 8 ? zero : fr_t::from_u64(x | 2));
			if (x & 0x100) set(big_c.a_aux, j), pa++;
			if (x & 0x200) set(big_c.b_aux, j), pb++;
		}
		circuit big_d = big_c;
		for (uint64_t j = 5; j < n_aux; j += 97) big_d.aux[j] = fr_t::from_u64(j + 3); // extra significant slots
		srs::srs bs;
		fake(bs, 3, n_aux, 1 + pa, 1 + pb);
		cuseal_assignment two[2] = {big_c.view(), big_d.view()};
		g16::batch_plan p;
		g16::plan_batch(bs, two, 2, CUSEAL_SPLIT_AUTO, p);
		const auto& L = p.q[g16::PQ_L];
		CHECK(L.split, "large L split");
		// Naive: union of significant slots, then per circuit the 1-slots outside it.
		std::vector<uint32_t> tail;
		for (uint64_t k = 0; k < n_aux; k++) {
			bool s0 = !big_c.aux[k].is_zero() && big_c.aux[k] != one;
			bool s1 = !big_d.aux[k].is_zero() && big_d.aux[k] != one;
			if (s0 || s1) tail.push_back(uint32_t(k));
		}
		CHECK(L.tail_slots == tail, "large L tail: %zu vs %zu", L.tail_slots.size(), tail.size());
		for (int i = 0; i < 2; i++) {
			const circuit& cc = i ? big_d : big_c;
			std::vector<uint32_t> ones;
			size_t t = 0;
			for (uint64_t k = 0; k < n_aux; k++) {
				while (t < tail.size() && tail[t] < k) t++;
				if (t < tail.size() && tail[t] == k) continue;
				if (cc.aux[k] == one) ones.push_back(uint32_t(k));
			}
			CHECK(L.ones[i] == ones, "large L ones circuit %d: %zu vs %zu", i, L.ones[i].size(), ones.size());
			bool ok = L.sc[i].n == tail.size();
			for (size_t k = 0; ok && k < tail.size(); k++) ok = L.sc[i].p[k] == cc.aux[tail[k]];
			CHECK(ok, "large L tail scalars circuit %d", i);
		}
	}
	return testutil::finish("test_groth16_plan");
}
