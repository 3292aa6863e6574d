// SPDX-License-Identifier: Apache-2.0 OR MIT

// test_msm.cpp: the Pippenger driver in host emulation (the same kernel
// bodies and phase sequence as on the GPU) against gnark-crypto sums
// (testdata/native/msm_*: up to 2^12 G1 and 2^10 G2 points; scalars include
// 0, 1, -1, -2 and small values; points include repeats, negations and
// infinity), over several window sizes and forced chunking.
#include "backend.hpp"
#include "testutil.hpp"

using namespace cuseal;
using ff::fr_t;

template <class A, class J>
void check_msm(const char* pts_file, const char* exp_file, const char* name,
               J (*msm)(const A*, const fr_t*, uint64_t, const msm::options&), bool quick) {
	auto pts = testutil::load(pts_file, sizeof(A));
	auto sc = testutil::load("msm_scalars.bin", sizeof(fr_t));
	auto exp = testutil::load(exp_file, 8 + sizeof(A));
	const A* P = reinterpret_cast<const A*>(pts.data.data());
	const fr_t* S = reinterpret_cast<const fr_t*>(sc.data.data());
	CHECK(sc.count >= pts.count, "%s: scalars %llu < points %llu", name, (unsigned long long)sc.count,
	      (unsigned long long)pts.count);
	struct variant {
		unsigned window;
		uint64_t chunk;
	};
	const variant variants[] = {{0, 0}, {1, 0}, {4, 0}, {7, 100}, {13, 0}, {16, 1000}};
	for (uint64_t r = 0; r < exp.count; r++) {
		uint64_t n = exp.get<uint64_t>(r, 0);
		A want = exp.get<A>(r, 8);
		for (const variant& v : variants) {
			// Large windows and window 1 are slow in emulation; run them on small n.
			if ((v.window == 1 || v.window >= 13) && n > 300) continue;
			if (quick && n > 1024 && v.window != 0) continue;
			msm::options o;
			o.window_bits = v.window;
			o.chunk_points = v.chunk;
			A got = msm(P, S, n, o).to_affine();
			CHECK(got == want, "%s n=%llu window=%u chunk=%llu: got x=%s", name, (unsigned long long)n, v.window,
			      (unsigned long long)v.chunk, testutil::hex(got.x).c_str());
		}
	}
}

// All scalars equal (one bucket per window gets every point) and all-zero.
void check_degenerate() {
	auto pts = testutil::load("msm_g1_points.bin", sizeof(ec::g1_affine));
	const ec::g1_affine* P = reinterpret_cast<const ec::g1_affine*>(pts.data.data());
	const uint64_t n = 200;
	std::vector<fr_t> ones(n, fr_t::one()), zeros(n, fr_t::zero());
	ec::g1_jacobian sum = ec::g1_jacobian::infinity();
	for (uint64_t i = 0; i < n; i++) sum = sum.add_affine(P[i]);
	msm::options o;
	CHECK(host_msm_g1(P, ones.data(), n, o).to_affine() == sum.to_affine(), "all-ones msm");
	// Heavy buckets cut into pieces, with a smaller last chunk (77 = 200 - 123).
	o.chunk_points = 123;
	CHECK(host_msm_g1(P, ones.data(), n, o).to_affine() == sum.to_affine(), "all-ones msm, chunked");
	o.chunk_points = 0;
	// Mostly -1 (one hot bucket in every window) plus a few random scalars.
	std::vector<fr_t> mixed(n, -fr_t::one());
	ec::g1_jacobian want = sum.neg();
	testutil::rng r(5);
	for (uint64_t i = 0; i < n; i += 17) {
		fr_t k;
		for (int j = 0; j < 4; j++) k.set64(j, r.next());
		k = k * fr_t::one();
		mixed[i] = k;
		// replace -P_i by k·P_i: add P_i, then k·P_i by double-and-add
		fr_t kc = k.from_mont();
		ec::g1_jacobian kp = ec::g1_jacobian::infinity();
		for (int bit = 255; bit >= 0; bit--) {
			kp = kp.dbl();
			if ((kc.get64(bit / 64) >> (bit % 64)) & 1) kp = kp.add_affine(P[i]);
		}
		want = want.add_affine(P[i]).add(kp);
	}
	CHECK(host_msm_g1(P, mixed.data(), n, o).to_affine() == want.to_affine(), "mostly -1 msm");
	CHECK(host_msm_g1(P, zeros.data(), n, o).is_infinity(), "all-zero msm");
	o.window_bits = 25;
	bool threw = false;
	try {
		host_msm_g1(P, ones.data(), n, o);
	} catch (const cuseal::error& e) {
		threw = e.code() == CUSEAL_ERR_INVALID_ARGUMENT;
	}
	CHECK(threw, "window 25 rejected");
}

// Booth digits reconstruct the scalar: Σ d_w·2^(c·w) = s, |d_w| ≤ 2^(c-1).
void check_digits() {
	testutil::rng r(7);
	for (unsigned c : {1u, 2u, 5u, 10u, 16u, 18u, 24u}) {
		msm::layout L = msm::make_layout(c);
		const uint32_t m = 64;
		std::vector<fr_t> s(m);
		for (uint32_t i = 0; i < m; i++) {
			for (int k = 0; k < 4; k++) s[i].set64(k, r.next());
			s[i] = s[i] * fr_t::one(); // reduce
		}
		s[0] = -fr_t::one();
		s[1] = fr_t::zero();
		std::vector<uint32_t> digits(size_t(L.nwin) * m), counts(size_t(L.nwin) * (L.nb + 1));
		for (uint32_t i = 0; i < m; i++) msm::k_digits::run(i, s.data(), m, L, digits.data(), counts.data());
		for (uint32_t i = 0; i < m; i++) {
			// Recompute Σ d_w 2^(cw) mod r in the field.
			fr_t acc = fr_t::zero(), pw = fr_t::one(), two_c = fr_t::from_u64(2).pow_u64(c);
			for (unsigned w = 0; w < L.nwin; w++) {
				uint32_t d = digits[size_t(w) * m + i];
				uint32_t mag = d & ~msm::SIGN_BIT;
				CHECK(mag <= L.nb, "digit magnitude %u > %u (c=%u)", mag, L.nb, c);
				fr_t t = fr_t::from_u64(mag) * pw;
				acc = (d & msm::SIGN_BIT) ? acc - t : acc + t;
				pw = pw * two_c;
			}
			CHECK(acc == s[i], "digits reconstruct scalar %u (c=%u)", i, c);
		}
	}
}

// The three-phase block scan equals the serial per-window scan.
void check_scan() {
	testutil::rng r(11);
	for (unsigned c : {1u, 2u, 9u, 10u, 12u, 17u}) {
		msm::layout L = msm::make_layout(c);
		const size_t len = size_t(L.nwin) * (L.nb + 1);
		std::vector<uint32_t> counts(len), off1(len), cur1(len), off2(len, 7), cur2(len, 7);
		for (auto& x : counts) x = uint32_t(r.next() % 5);
		for (size_t w = 0; w < L.nwin; w++) counts[w * (L.nb + 1) + L.nb] = 0; // slot nb is never counted
		for (size_t w = 0; w < L.nwin; w++) msm::k_scan::run(w, L, counts.data(), off1.data(), cur1.data());
		const size_t nscan = size_t(L.nwin) * msm::scan_blocks(L);
		std::vector<uint32_t> partials(nscan);
		for (size_t t = 0; t < nscan; t++) msm::k_scan_block_sums::run(t, L, counts.data(), partials.data());
		for (size_t w = 0; w < L.nwin; w++) msm::k_scan_partials::run(w, L, partials.data());
		for (size_t t = 0; t < nscan; t++)
			msm::k_scan_apply::run(t, L, counts.data(), partials.data(), off2.data(), cur2.data());
		CHECK(off1 == off2 && cur1 == cur2, "block scan differs from serial scan (c=%u)", c);
	}
}

int main(int argc, char** argv) {
	testutil::init(argc, argv);
	check_scan();
	check_digits();
	check_degenerate();
	check_msm<ec::g1_affine, ec::g1_jacobian>("msm_g1_points.bin", "msm_g1_expected.bin", "g1", host_msm_g1, false);
	check_msm<ec::g2_affine, ec::g2_jacobian>("msm_g2_points.bin", "msm_g2_expected.bin", "g2", host_msm_g2, true);
	return testutil::finish("test_msm");
}
