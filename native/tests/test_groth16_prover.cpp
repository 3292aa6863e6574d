// SPDX-License-Identifier: Apache-2.0 OR MIT

// test_groth16_prover.cpp: the whole Groth16 query-sum prover through the C
// ABI in host emulation (device CUSEAL_DEVICE_HOST: the same kernel bodies,
// grids and phase sequence as on a GPU) against an independent reference:
//   H: coefficients by inverse NTT, schoolbook A·B − C and division by X^m − 1
//      (remainder checked to be zero), then the core's plain MSM;
//   L, A, B_G1, B_G2: density compaction written out directly, then the core's
//      plain MSM (msm::run);
// for every split mode, batches of 1 and 3 circuits, skip_b_g2, a streamed
// vs resident SRS (host: always resident), two concurrent calls on the same
// device, SRS validation and refcounting, and batch errors.
// SRS points come from testdata/native/msm_g{1,2}_points.bin (gnark-crypto,
// tools/vectors) — including repeats and infinity, so no validation there.
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>

#include "backend.hpp"
#include "testutil.hpp"

using namespace cuseal;
using ec::g1_affine;
using ec::g1_jacobian;
using ec::g2_affine;
using ec::g2_jacobian;
using ff::fr_t;

namespace {

// Device under test: the host emulation here; test_groth16_gpu.cpp includes
// this file and sets a CUDA device.
int g_dev = CUSEAL_DEVICE_HOST;

testutil::rng R(42);

fr_t rand_fr() { return fr_t::from_u64(R.next()) * fr_t::from_u64(R.next()) + fr_t::from_u64(R.next()); }

// A scalar that is 0, 1 or random with the given odds (percent).
fr_t rand_witness(int p0, int p1) {
	int x = int(R.next() % 100);
	if (x < p0) return fr_t::zero();
	if (x < p0 + p1) return fr_t::one();
	return rand_fr();
}

struct shape {
	uint64_t n_in, n_aux, m; // m = domain size (|h| = m − 1)
	std::vector<uint64_t> a_aux, b_in, b_aux;
	uint64_t pa = 0, pbi = 0, pba = 0;
};

bool bit(const std::vector<uint64_t>& w, uint64_t i) { return (w[i / 64] >> (i % 64)) & 1; }

shape make_shape(uint64_t n_in, uint64_t n_aux, uint64_t m) {
	shape s{n_in, n_aux, m, {}, {}, {}};
	s.a_aux.assign((n_aux + 63) / 64 + 1, 0); // one extra zero word is allowed
	s.b_in.assign((n_in + 63) / 64, 0);
	s.b_aux.assign((n_aux + 63) / 64, 0);
	for (uint64_t j = 0; j < n_aux; j++) {
		if (R.next() % 3) s.a_aux[j / 64] |= 1ULL << (j % 64), s.pa++;
		if (R.next() % 2) s.b_aux[j / 64] |= 1ULL << (j % 64), s.pba++;
	}
	for (uint64_t i = 0; i < n_in; i++)
		if (i == 0 || R.next() % 2) s.b_in[i / 64] |= 1ULL << (i % 64), s.pbi++;
	return s;
}

struct circuit {
	std::vector<fr_t> a, b, c, input, aux;
	cuseal_assignment view(const shape& s) const {
		cuseal_assignment v{};
		v.a = a.data(), v.b = b.data(), v.c = c.data(), v.abc_size = a.size();
		v.input = input.data(), v.n_input = input.size();
		v.aux = aux.data(), v.n_aux = aux.size();
		v.a_aux = {s.a_aux.data(), s.n_aux};
		v.b_input = {s.b_in.data(), s.n_in};
		v.b_aux = {s.b_aux.data(), s.n_aux};
		return v;
	}
};

// make_circuit: c = a·b on the constraint rows, so A·B − C vanishes on the
// domain and H is a polynomial.
circuit make_circuit(const shape& s, uint64_t nc, int p0, int p1) {
	circuit c;
	for (uint64_t i = 0; i < nc; i++) {
		c.a.push_back(rand_witness(20, 20));
		c.b.push_back(rand_witness(20, 20));
		c.c.push_back(c.a.back() * c.b.back());
	}
	c.input.push_back(fr_t::one());
	for (uint64_t i = 1; i < s.n_in; i++) c.input.push_back(rand_witness(p0, p1));
	for (uint64_t j = 0; j < s.n_aux; j++) c.aux.push_back(rand_witness(p0, p1));
	return c;
}

// h_reference: the m−1 coefficients of (A·B − C)/(X^m − 1).
std::vector<fr_t> h_reference(const circuit& c, uint64_t m, unsigned lg) {
	auto coeffs = [&](const std::vector<fr_t>& v) {
		std::vector<fr_t> x(m, fr_t::zero());
		std::copy(v.begin(), v.end(), x.begin());
		ntt::options o;
		o.lg = lg, o.inverse = true;
		host_ntt(x.data(), o);
		return x;
	};
	auto A = coeffs(c.a), B = coeffs(c.b), C = coeffs(c.c);
	std::vector<fr_t> P(2 * m, fr_t::zero());
	for (uint64_t i = 0; i < m; i++)
		for (uint64_t j = 0; j < m; j++) P[i + j] = P[i + j] + A[i] * B[j];
	for (uint64_t i = 0; i < m; i++) P[i] = P[i] - C[i];
	// P = Q·(X^m − 1): Q_k = P_{k+m}; then P_k = −Q_k must hold below m.
	std::vector<fr_t> Q(m - 1);
	for (uint64_t k = 0; k + 1 < m; k++) Q[k] = P[k + m];
	bool divisible = P[2 * m - 1].is_zero() && P[m - 1].is_zero();
	for (uint64_t k = 0; k + 1 < m; k++) divisible = divisible && (P[k] + Q[k]).is_zero();
	CHECK(divisible, "reference: A·B − C not divisible by X^m − 1");
	return Q;
}

struct srs_data {
	std::vector<g1_affine> h, l, a, b1;
	std::vector<g2_affine> b2;
};

template <class T>
std::vector<T> take(const testutil::vectors& v, uint64_t from, uint64_t n) {
	std::vector<T> out(n);
	for (uint64_t i = 0; i < n; i++) std::memcpy(&out[i], v.rec((from + i) % v.count), sizeof(T));
	return out;
}

struct expected {
	g1_affine h, l, a, b1;
	g2_affine b2;
};

expected reference(const srs_data& d, const shape& s, const circuit& c, unsigned lg) {
	msm::options o;
	expected e;
	std::vector<fr_t> hc = h_reference(c, s.m, lg);
	e.h = host_msm_g1(d.h.data(), hc.data(), hc.size(), o).to_affine();
	e.l = host_msm_g1(d.l.data(), c.aux.data(), c.aux.size(), o).to_affine();
	std::vector<fr_t> sa(c.input), sb;
	for (uint64_t j = 0; j < s.n_aux; j++)
		if (bit(s.a_aux, j)) sa.push_back(c.aux[j]);
	for (uint64_t i = 0; i < s.n_in; i++)
		if (bit(s.b_in, i)) sb.push_back(c.input[i]);
	for (uint64_t j = 0; j < s.n_aux; j++)
		if (bit(s.b_aux, j)) sb.push_back(c.aux[j]);
	e.a = host_msm_g1(d.a.data(), sa.data(), sa.size(), o).to_affine();
	e.b1 = host_msm_g1(d.b1.data(), sb.data(), sb.size(), o).to_affine();
	e.b2 = host_msm_g2(d.b2.data(), sb.data(), sb.size(), o).to_affine();
	return e;
}

g1_affine aff1(const uint8_t* p) {
	g1_jacobian j;
	std::memcpy(&j, p, sizeof j);
	return j.to_affine();
}
g2_affine aff2(const uint8_t* p) {
	g2_jacobian j;
	std::memcpy(&j, p, sizeof j);
	return j.to_affine();
}

cuseal_srs* make_srs(const srs_data& d) {
	cuseal_srs_vectors v{d.h.data(), d.h.size(), d.l.data(), d.l.size(), d.a.data(), d.a.size(),
	                     d.b1.data(), d.b1.size(), d.b2.data(), d.b2.size()};
	cuseal_srs* s = nullptr;
	cuseal_error e = cuseal_srs_create(&v, nullptr, &s);
	CHECK(e.code == 0, "srs create: %s", e.message);
	return s;
}

void run_case(const char* name, uint64_t n_in, uint64_t n_aux, unsigned lg, uint64_t nc, size_t ncirc, int p0, int p1) {
	const uint64_t m = uint64_t(1) << lg;
	shape s = make_shape(n_in, n_aux, m);
	auto g1 = testutil::load("msm_g1_points.bin", sizeof(g1_affine));
	auto g2 = testutil::load("msm_g2_points.bin", sizeof(g2_affine));
	srs_data d;
	d.h = take<g1_affine>(g1, 7, m - 1);
	d.l = take<g1_affine>(g1, 1000, n_aux);
	d.a = take<g1_affine>(g1, 2000, n_in + s.pa);
	d.b1 = take<g1_affine>(g1, 3000, s.pbi + s.pba);
	d.b2 = take<g2_affine>(g2, 5, s.pbi + s.pba);
	cuseal_srs* srs = make_srs(d);
	std::vector<circuit> cs;
	std::vector<cuseal_assignment> views;
	std::vector<expected> want;
	for (size_t i = 0; i < ncirc; i++) cs.push_back(make_circuit(s, nc, p0, p1));
	for (size_t i = 0; i < ncirc; i++) {
		views.push_back(cs[i].view(s));
		want.push_back(reference(d, s, cs[i], lg));
	}
	for (int mode : {CUSEAL_SPLIT_AUTO, CUSEAL_SPLIT_NEVER, CUSEAL_SPLIT_ALWAYS}) {
		for (uint32_t flags : {0u, CUSEAL_PROVE_SKIP_B_G2}) {
			if (flags && mode != CUSEAL_SPLIT_AUTO) continue;
			cuseal_prove_options o{flags, uint32_t(mode), 0, 0};
			std::vector<cuseal_query_sums> out(ncirc);
			cuseal_prove_timings t{};
			cuseal_error e = cuseal_groth16_query_sums(g_dev, srs, views.data(), ncirc, &o, out.data(), &t);
			CHECK(e.code == 0, "%s mode %d: %s", name, mode, e.message);
			if (e.code) continue;
			for (size_t i = 0; i < ncirc; i++) {
				CHECK(aff1(out[i].h) == want[i].h, "%s mode %d circuit %zu: h", name, mode, i);
				CHECK(aff1(out[i].l) == want[i].l, "%s mode %d circuit %zu: l", name, mode, i);
				CHECK(aff1(out[i].a) == want[i].a, "%s mode %d circuit %zu: a", name, mode, i);
				CHECK(aff1(out[i].b_g1) == want[i].b1, "%s mode %d circuit %zu: b_g1", name, mode, i);
				if (flags)
					CHECK(aff2(out[i].b_g2).is_infinity(), "%s: skipped b_g2 not infinity", name);
				else
					CHECK(aff2(out[i].b_g2) == want[i].b2, "%s mode %d circuit %zu: b_g2", name, mode, i);
			}
			if (mode == CUSEAL_SPLIT_ALWAYS)
				CHECK(t.split[0] && t.split[1] && t.split[2], "%s: split always not reported", name);
			if (mode == CUSEAL_SPLIT_NEVER)
				CHECK(!t.split[0] && !t.split[1] && !t.split[2] && t.ones[0] == 0, "%s: split never", name);
			CHECK((g_dev != CUSEAL_DEVICE_HOST || t.resident == 1) && t.total > 0, "%s: timings", name);
		}
	}

	// Two concurrent calls on the same device (serialised by its mutex) give
	// the same sums as one call.
	{
		std::vector<cuseal_query_sums> o1(ncirc), o2(ncirc);
		cuseal_error e1{}, e2{};
		std::thread t1([&] { e1 = cuseal_groth16_query_sums(g_dev, srs, views.data(), ncirc, nullptr, o1.data(), nullptr); });
		std::thread t2([&] { e2 = cuseal_groth16_query_sums(g_dev, srs, views.data(), ncirc, nullptr, o2.data(), nullptr); });
		t1.join();
		t2.join();
		CHECK(e1.code == 0 && e2.code == 0, "%s concurrent: %s / %s", name, e1.message, e2.message);
		for (size_t i = 0; i < ncirc && e1.code == 0 && e2.code == 0; i++) {
			CHECK(aff1(o1[i].h) == want[i].h && aff1(o2[i].h) == want[i].h, "%s concurrent h %zu", name, i);
			CHECK(aff2(o1[i].b_g2) == want[i].b2 && aff2(o2[i].b_g2) == want[i].b2, "%s concurrent b_g2 %zu", name, i);
		}
	}

	// Batch errors: a circuit whose density differs (same popcount) fails.
	if (ncirc > 1 && n_aux >= 2) {
		shape s2 = s;
		std::vector<cuseal_assignment> bad = views;
		// Swap two differing B-aux bits to keep the popcount.
		for (uint64_t j = 0; j + 1 < n_aux; j++)
			if (bit(s2.b_aux, j) != bit(s2.b_aux, j + 1)) {
				s2.b_aux[j / 64] ^= 1ULL << (j % 64);
				s2.b_aux[(j + 1) / 64] ^= 1ULL << ((j + 1) % 64);
				break;
			}
		bad[1].b_aux.words = s2.b_aux.data();
		std::vector<cuseal_query_sums> out(ncirc);
		cuseal_error e = cuseal_groth16_query_sums(g_dev, srs, bad.data(), ncirc, nullptr, out.data(), nullptr);
		CHECK(e.code == CUSEAL_ERR_INVALID_ARGUMENT &&
		          std::string(e.message).find("circuit 1: b_aux density differs") != std::string::npos,
		      "%s: density mismatch not rejected: %d %s", name, e.code, e.message);
	}
	cuseal_srs_release(srs);
}

} // namespace

#ifndef CUSEAL_G16_NO_MAIN
int main(int argc, char** argv) {
	testutil::init(argc, argv);
	run_case("tiny", 2, 5, 3, 7, 1, 30, 30);
	run_case("sparse", 4, 150, 8, 200, 3, 30, 50);  // 1-heavy: every query split
	run_case("dense", 3, 120, 7, 128, 2, 5, 5);     // few 0/1: no split in auto mode
	run_case("no-h-tail", 2, 40, 6, 64, 1, 20, 20); // constraints fill the domain
	// Bases kept in host memory (the path for queries too large for the
	// device): msm::run over host-gathered tail and 1-slot bases.
	setenv("CUSEAL_SRS_RESIDENT", "host", 1);
	run_case("host-path", 4, 150, 8, 200, 2, 30, 50);
	unsetenv("CUSEAL_SRS_RESIDENT");

	// SRS handle: validation names the query and index; refcounting.
	{
		auto g1 = testutil::load("msm_g1_points.bin", sizeof(g1_affine));
		std::vector<g1_affine> pts = take<g1_affine>(g1, 0, 64);
		std::vector<g1_affine> good;
		for (auto& p : pts)
			if (!p.is_infinity()) good.push_back(p);
		good.resize(15);
		cuseal_srs_vectors v{good.data(), 15, good.data(), 4, good.data(), 3, good.data(), 0, nullptr, 0};
		cuseal_srs_options o{1, 0, 0};
		cuseal_srs* s = nullptr;
		cuseal_error e = cuseal_srs_create(&v, &o, &s);
		CHECK(e.code == 0, "validated create: %s", e.message);
		cuseal_srs_info info{};
		cuseal_srs_retain(s);
		cuseal_srs_get_info(s, &info);
		CHECK(info.refcount == 2 && info.n_h == 15 && info.n_l == 4 && !info.pinned, "info refcount %d", info.refcount);
		cuseal_srs_release(s);
		cuseal_srs_get_info(s, &info);
		CHECK(info.refcount == 1, "after release %d", info.refcount);
		CHECK(info.pin_skipped[0] == 0, "pin_skipped without pin_host: %s", info.pin_skipped);
		cuseal_srs_release(s);

		// pin_host: either pinned or the reason it was not comes back in the
		// info (the library prints nothing); without a device it is skipped.
		cuseal_srs_options po{0, 1, 0};
		e = cuseal_srs_create(&v, &po, &s);
		CHECK(e.code == 0, "pinned create: %s", e.message);
		cuseal_srs_get_info(s, &info);
		int32_t ndev = 0;
		cuseal_device_count(&ndev);
		CHECK(info.pinned != (info.pin_skipped[0] != 0), "pinned %d, pin_skipped \"%s\"", info.pinned, info.pin_skipped);
		if (ndev == 0)
			CHECK(!info.pinned && info.pin_skipped[0] != 0, "no device: pinned %d, pin_skipped \"%s\"", info.pinned,
			      info.pin_skipped);
		cuseal_srs_release(s);

		std::vector<g1_affine> bad = good;
		bad[2].y = bad[2].y + ff::fp_t::one();
		v.l = bad.data();
		e = cuseal_srs_create(&v, &o, &s);
		CHECK(e.code == CUSEAL_ERR_INVALID_ARGUMENT && std::string(e.message).find("srs l[2]: point not on curve") != std::string::npos,
		      "bad point: %s", e.message);
		v.l = good.data();
		v.n_h = 14;
		e = cuseal_srs_create(&v, &o, &s);
		CHECK(e.code == CUSEAL_ERR_INVALID_ARGUMENT && std::string(e.message).find("power of two") != std::string::npos,
		      "bad h: %s", e.message);
	}
	// Host allocations for a/b/c: pinned only with a CUDA device; freeing an
	// unknown pointer (or twice) is an error, not a crash.
	{
		void* p = nullptr;
		int32_t pinned = -1;
		double secs = -1;
		cuseal_error e = cuseal_host_alloc(1 << 20, 1, &p, &pinned, &secs);
		int32_t ndev = 0;
		cuseal_device_count(&ndev);
		CHECK(e.code == 0 && p && secs >= 0 && pinned == (ndev > 0 ? 1 : 0), "host alloc: %s pinned %d", e.message, pinned);
		std::memset(p, 7, 1 << 20);
		CHECK(cuseal_host_free(p).code == 0, "host free");
		e = cuseal_host_free(p);
		CHECK(e.code == CUSEAL_ERR_INVALID_ARGUMENT && std::string(e.message).find("not allocated") != std::string::npos,
		      "double free: %s", e.message);
		CHECK(cuseal_host_free(nullptr).code == 0, "free NULL");
	}
	return testutil::finish("test_groth16_prover");
}
#endif
