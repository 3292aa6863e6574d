// SPDX-License-Identifier: Apache-2.0 OR MIT

// bench_native.cpp: wall-clock MSM (G1, G2) and NTT timings on CUDA device 0.
// Usage: bench_native [testdata-dir] [max_log_msm=24] [max_log_ntt=27]
// Exits 77 without a device. Host-emulation timings are not GPU figures and
// are not printed.
#include <chrono>
#include <cstdlib>

#include "backend.hpp"
#include "testutil.hpp"

using namespace cuseal;
using ff::fr_t;
using clk = std::chrono::steady_clock;

template <class A, class J>
void bench_msm(const char* name, const char* pts_file, unsigned max_lg,
               J (*msm)(int, const A*, const fr_t*, uint64_t, const msm::options&)) {
	auto pts = testutil::load(pts_file, sizeof(A));
	const A* P0 = reinterpret_cast<const A*>(pts.data.data());
	testutil::rng r(1);
	const size_t N = size_t(1) << max_lg;
	std::vector<A> P(N);
	std::vector<fr_t> S(N);
	for (size_t i = 0; i < N; i++) {
		P[i] = P0[(i * 2654435761u) % pts.count];
		for (int k = 0; k < 4; k++) S[i].set64(k, r.next());
		S[i] = S[i] * fr_t::one();
	}
	for (unsigned lg = 16; lg <= max_lg; lg += 2) {
		msm::options o;
		std::lock_guard<std::mutex> lk(device_mutex(0));
		msm(0, P.data(), S.data(), size_t(1) << lg, o); // warm-up
		auto t0 = clk::now();
		msm(0, P.data(), S.data(), size_t(1) << lg, o);
		double ms = std::chrono::duration<double, std::milli>(clk::now() - t0).count();
		std::printf("msm %s 2^%u: %.1f ms (window %u, incl. H2D of pageable memory)\n", name, lg, ms,
		            msm::default_window(size_t(1) << lg));
	}
}

int main(int argc, char** argv) {
	testutil::init(argc, argv);
	unsigned max_msm = argc > 2 ? unsigned(std::atoi(argv[2])) : 24;
	unsigned max_ntt = argc > 3 ? unsigned(std::atoi(argv[3])) : 27;
	if (!cuda_built() || cuda_device_count() == 0) {
		std::printf("SKIP: no CUDA device (bench_native measures the GPU only)\n");
		return 77;
	}
	cuseal_device_info di;
	cuda_device_info(0, &di);
	std::printf("device 0: %s sm_%d%d\n", di.name, di.major, di.minor);
	bench_msm<ec::g1_affine, ec::g1_jacobian>("g1", "msm_g1_points.bin", max_msm, cuda_msm_g1);
	bench_msm<ec::g2_affine, ec::g2_jacobian>("g2", "msm_g2_points.bin", max_msm > 22 ? 22 : max_msm, cuda_msm_g2);
	std::vector<fr_t> x(size_t(1) << max_ntt);
	testutil::rng r(2);
	for (auto& v : x) {
		for (int k = 0; k < 4; k++) v.set64(k, r.next());
		v = v * fr_t::one();
	}
	for (unsigned lg = 16; lg <= max_ntt; lg++) {
		ntt::options o;
		o.lg = lg;
		std::lock_guard<std::mutex> lk(device_mutex(0));
		cuda_ntt_host(0, x.data(), o);
		auto t0 = clk::now();
		cuda_ntt_host(0, x.data(), o);
		double ms = std::chrono::duration<double, std::milli>(clk::now() - t0).count();
		std::printf("ntt 2^%u: %.1f ms (incl. H2D/D2H)\n", lg, ms);
	}
	return 0;
}
