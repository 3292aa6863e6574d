// SPDX-License-Identifier: Apache-2.0 OR MIT

// test_gpu.cpp: MSM and NTT on CUDA device 0 against the gnark-crypto vectors
// and against the host emulation. Exits 77 (CTest SKIP_RETURN_CODE) with a
// message when the library has no CUDA or no device is present.
#include <cstring>
#include <thread>

#include "backend.hpp"
#include "cuseal_native.h"
#include "testutil.hpp"

using namespace cuseal;
using ff::fr_t;

namespace {

template <class A, class J>
void vs_vectors(const char* pts_file, const char* exp_file, const char* name,
                J (*msm)(int, const A*, const fr_t*, uint64_t, const msm::options&)) {
	auto pts = testutil::load(pts_file, sizeof(A));
	auto sc = testutil::load("msm_scalars.bin", sizeof(fr_t));
	auto exp = testutil::load(exp_file, 8 + sizeof(A));
	const A* P = reinterpret_cast<const A*>(pts.data.data());
	const fr_t* S = reinterpret_cast<const fr_t*>(sc.data.data());
	for (uint64_t r = 0; r < exp.count; r++) {
		uint64_t n = exp.get<uint64_t>(r, 0);
		for (unsigned w : {0u, 5u, 12u}) {
			msm::options o;
			o.window_bits = w;
			std::lock_guard<std::mutex> lk(device_mutex(0));
			CHECK(msm(0, P, S, n, o).to_affine() == exp.get<A>(r, 8), "%s gpu n=%llu w=%u", name,
			      (unsigned long long)n, w);
		}
	}
}

// Random inputs of size n: device result against host emulation, plus
// forced chunking on the device.
void g1_random(uint64_t n) {
	testutil::rng r(n);
	auto pts = testutil::load("msm_g1_points.bin", sizeof(ec::g1_affine));
	const ec::g1_affine* P0 = reinterpret_cast<const ec::g1_affine*>(pts.data.data());
	std::vector<ec::g1_affine> P(n);
	std::vector<fr_t> S(n);
	for (uint64_t i = 0; i < n; i++) {
		P[i] = P0[(i * 2654435761u) % pts.count];
		for (int k = 0; k < 4; k++) S[i].set64(k, r.next());
		S[i] = S[i] * fr_t::one();
	}
	msm::options o;
	ec::g1_affine host = host_msm_g1(P.data(), S.data(), n, o).to_affine();
	std::lock_guard<std::mutex> lk(device_mutex(0));
	CHECK(cuda_msm_g1(0, P.data(), S.data(), n, o).to_affine() == host, "g1 gpu vs host n=%llu", (unsigned long long)n);
	o.chunk_points = n / 3 + 1;
	CHECK(cuda_msm_g1(0, P.data(), S.data(), n, o).to_affine() == host, "g1 gpu chunked n=%llu", (unsigned long long)n);
}

void ntt_checks() {
	auto in = testutil::load("ntt_input.bin", sizeof(fr_t));
	const fr_t* X = reinterpret_cast<const fr_t*>(in.data.data());
	for (unsigned lg : {0u, 3u, 8u, 12u}) {
		const size_t n = size_t(1) << lg;
		char name[32];
		std::snprintf(name, sizeof name, "ntt_expected_%02u.bin", lg);
		auto exp = testutil::load(name, 8 + n * sizeof(fr_t));
		for (uint64_t r = 0; r < exp.count; r++) {
			std::vector<fr_t> d(X, X + n);
			ntt::options o;
			o.lg = lg;
			o.coset = exp.get<uint64_t>(r, 0) != 0;
			std::lock_guard<std::mutex> lk(device_mutex(0));
			cuda_ntt_host(0, d.data(), o);
			CHECK(std::memcmp(d.data(), exp.rec(r) + 8, n * sizeof(fr_t)) == 0, "gpu ntt lg=%u coset=%d", lg,
			      int(o.coset));
		}
	}
	// 2^20 against host emulation, all orders; 2^24 round trip.
	for (unsigned lg : {20u, 24u}) {
		const size_t n = size_t(1) << lg;
		std::vector<fr_t> x(n);
		testutil::rng r(lg);
		for (auto& v : x) {
			for (int k = 0; k < 4; k++) v.set64(k, r.next());
			v = v * fr_t::one();
		}
		ntt::options o;
		o.lg = lg;
		o.out = ntt::BIT_REVERSED;
		o.coset = true;
		std::vector<fr_t> d = x;
		{
			std::lock_guard<std::mutex> lk(device_mutex(0));
			cuda_ntt_host(0, d.data(), o);
		}
		if (lg == 20) {
			std::vector<fr_t> h = x;
			host_ntt(h.data(), o);
			CHECK(d == h, "gpu vs host ntt 2^20");
		}
		o.inverse = true;
		o.in = ntt::BIT_REVERSED;
		o.out = ntt::NATURAL;
		std::lock_guard<std::mutex> lk(device_mutex(0));
		cuda_ntt_host(0, d.data(), o);
		CHECK(d == x, "gpu ntt round trip lg=%u", lg);
	}
}

// Two threads on one device through the C ABI: the per-device mutex must
// keep results correct.
void concurrent() {
	auto pts = testutil::load("msm_g1_points.bin", sizeof(ec::g1_affine));
	auto sc = testutil::load("msm_scalars.bin", sizeof(fr_t));
	auto exp = testutil::load("msm_g1_expected.bin", 8 + sizeof(ec::g1_affine));
	const uint64_t r = exp.count - 1;
	const uint64_t n = exp.get<uint64_t>(r, 0);
	const ec::g1_affine want = exp.get<ec::g1_affine>(r, 8);
	int bad[2] = {0, 0};
	auto work = [&](int t) {
		for (int k = 0; k < 8; k++) {
			ec::g1_jacobian out;
			cuseal_error e = cuseal_msm_g1(0, pts.data.data(), sc.data.data(), n, nullptr, &out);
			if (e.code != CUSEAL_OK || !(out.to_affine() == want)) bad[t]++;
		}
	};
	std::thread a(work, 0), b(work, 1);
	a.join();
	b.join();
	CHECK(bad[0] == 0 && bad[1] == 0, "concurrent msm: %d + %d wrong", bad[0], bad[1]);
}

} // namespace

int main(int argc, char** argv) {
	testutil::init(argc, argv);
	if (!cuda_built()) {
		std::printf("SKIP: libcuseal_native built without CUDA (CUSEAL_CUDA=OFF)\n");
		return 77;
	}
	int count = cuda_device_count();
	if (count == 0) {
		std::printf("SKIP: no CUDA device found (cudaGetDeviceCount = 0)\n");
		return 77;
	}
	cuseal_device_info di;
	cuda_device_info(0, &di);
	std::printf("device 0: %s, sm_%d%d, %d SMs, %.1f GiB\n", di.name, di.major, di.minor, di.multiprocessors,
	            di.total_memory / double(1 << 30));
	vs_vectors<ec::g1_affine, ec::g1_jacobian>("msm_g1_points.bin", "msm_g1_expected.bin", "g1", cuda_msm_g1);
	vs_vectors<ec::g2_affine, ec::g2_jacobian>("msm_g2_points.bin", "msm_g2_expected.bin", "g2", cuda_msm_g2);
	g1_random(1 << 14);
	ntt_checks();
	concurrent();
	return testutil::finish("test_gpu");
}
