// SPDX-License-Identifier: Apache-2.0 OR MIT

// test_gpu_scale.cpp: production-size checks on CUDA device 0 (label gpu;
// exits 77 with the reason when the library has no CUDA or no device). Each
// check runs on the kernel set CUSEAL_KERNELS selects (sppark by default) and,
// where both exist, compares it with our reference kernels:
//   msm linearity   MSM(P, s) + MSM(P, s') = MSM(P, s + s') for G1 at 2^24
//                   and 2^$CUSEAL_SCALE_LG (default 27), random scalars
//   window cross-check  2^24: sppark = reference at windows 0 (auto), 13, 16
//   ntt round trip  2^$CUSEAL_SCALE_LG: inverse(forward(x)) = x, natural and
//                   coset, and sppark's forward = the reference's
//   g2 after fill   device memory filled to ~1.5 GiB free, then a 2^18 G2
//                   MSM: sppark = reference, and linear
//   run_cuda        compute capability is checked (device 0 passes it here)
// Points are the gnark-crypto vector points repeated (linearity and the
// cross-checks hold for any points); scalars are random below 2^254.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "backend.hpp"
#include "cuseal_native.h"
#include "kernels.hpp"
#include "sppark/sppark.hpp"
#include "testutil.hpp"

using namespace cuseal;
using ff::fr_t;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// scoped_kernels sets CUSEAL_KERNELS for one block.
struct scoped_kernels {
	std::string old;
	bool had;
	explicit scoped_kernels(const char* v) {
		const char* o = std::getenv("CUSEAL_KERNELS");
		had = o != nullptr;
		if (had) old = o;
		setenv("CUSEAL_KERNELS", v, 1);
	}
	~scoped_kernels() {
		if (had)
			setenv("CUSEAL_KERNELS", old.c_str(), 1);
		else
			unsetenv("CUSEAL_KERNELS");
	}
};

void random_scalars(std::vector<fr_t>& s, uint64_t seed) {
	testutil::rng r(seed);
	for (auto& v : s) {
		for (int k = 0; k < 4; k++) v.set64(k, r.next());
		v.set64(3, v.get64(3) & 0x3fffffffffffffffULL); // < 2^254 < r: a valid element
	}
}

template <class A>
std::vector<A> repeat_points(const char* file, uint64_t n) {
	auto pts = testutil::load(file, sizeof(A));
	const A* P0 = reinterpret_cast<const A*>(pts.data.data());
	std::vector<A> P(n);
	for (uint64_t i = 0; i < n; i++) P[i] = P0[(i * 2654435761u) % pts.count];
	return P;
}

template <class A, class J>
J run_msm(J (*msm)(int, const A*, const fr_t*, uint64_t, const msm::options&), const std::vector<A>& P,
          const fr_t* S, uint64_t n, unsigned window) {
	msm::options o;
	o.window_bits = window;
	std::lock_guard<std::mutex> lk(device_mutex(0));
	return msm(0, P.data(), S, n, o);
}

template <class A, class J>
void linearity(const char* name, J (*msm)(int, const A*, const fr_t*, uint64_t, const msm::options&),
               const std::vector<A>& P, uint64_t n, bool cross) {
	std::vector<fr_t> s(n), t(n), u(n);
	random_scalars(s, n);
	random_scalars(t, n + 1);
	for (uint64_t i = 0; i < n; i++) u[i] = s[i] + t[i];
	double t0 = now();
	J a = run_msm(msm, P, s.data(), n, 0), b = run_msm(msm, P, t.data(), n, 0), c = run_msm(msm, P, u.data(), n, 0);
	std::printf("%s linearity 2^%d: 3 MSMs in %.2f s (kernels %s)\n", name, __builtin_ctzll(n), now() - t0,
	            kernels_for(0) == kernel_set::sppark ? "sppark" : "reference");
	CHECK(a.add(b).to_affine() == c.to_affine(), "%s linearity n=%llu", name, (unsigned long long)n);
	CHECK(!a.is_infinity() && !(a.to_affine() == c.to_affine()), "%s linearity n=%llu: degenerate sums", name,
	      (unsigned long long)n);
	if (!cross) return;
	// Window cross-check: the reference kernels at several windows against the default set.
	for (unsigned w : {13u, 16u}) {
		t0 = now();
		J r = run_msm(msm, P, s.data(), n, w);
		std::printf("%s reference window %u 2^%d: %.2f s\n", name, w, __builtin_ctzll(n), now() - t0);
		CHECK(r.to_affine() == a.to_affine(), "%s window %u vs default n=%llu", name, w, (unsigned long long)n);
	}
	scoped_kernels ref("reference");
	J r = run_msm(msm, P, s.data(), n, 0);
	CHECK(r.to_affine() == a.to_affine(), "%s reference (auto window) vs default n=%llu", name,
	      (unsigned long long)n);
}

void ntt_round_trip(unsigned lg) {
	const size_t n = size_t(1) << lg;
	std::vector<fr_t> x(n);
	random_scalars(x, lg);
	for (bool coset : {false, true}) {
		ntt::options f;
		f.lg = lg;
		f.coset = coset;
		std::vector<fr_t> d = x;
		double t0 = now();
		{
			std::lock_guard<std::mutex> lk(device_mutex(0));
			cuda_ntt_host(0, d.data(), f);
		}
		const double tf = now() - t0;
		if (spk::built() && kernels_for(0) == kernel_set::sppark) {
			scoped_kernels ref("reference");
			std::vector<fr_t> r = x;
			std::lock_guard<std::mutex> lk(device_mutex(0));
			cuda_ntt_host(0, r.data(), f);
			CHECK(r == d, "ntt 2^%u coset=%d: sppark != reference", lg, int(coset));
		}
		ntt::options i = f;
		i.inverse = true;
		{
			std::lock_guard<std::mutex> lk(device_mutex(0));
			cuda_ntt_host(0, d.data(), i);
		}
		std::printf("ntt round trip 2^%u coset=%d: forward %.2f s (with transfers)\n", lg, int(coset), tf);
		CHECK(d == x, "ntt round trip 2^%u coset=%d", lg, int(coset));
	}
}

void g2_after_fill() {
	// Fill through the C ABI (cuseal_buffer_alloc), as another tenant of the device would.
	std::vector<cuseal_buffer*> held;
	const size_t keep = size_t(3) << 29; // ~1.5 GiB left free
	const size_t piece = size_t(1) << 30;
	auto free_now = [] {
		cuseal_device_info d;
		std::lock_guard<std::mutex> lk(device_mutex(0));
		cuda_device_info(0, &d);
		return std::pair<size_t, size_t>(d.free_memory, d.total_memory);
	};
	for (;;) {
		size_t free_b = free_now().first;
		if (free_b < keep + piece / 4) break;
		cuseal_buffer* b = nullptr;
		if (cuseal_buffer_alloc(0, std::min(piece, free_b - keep), &b).code != CUSEAL_OK) break;
		held.push_back(b);
	}
	auto [free_b, total_b] = free_now();
	std::printf("g2 after fill: %.2f GiB of %.1f GiB free\n", free_b / double(1 << 30), total_b / double(1 << 30));
	const uint64_t n = uint64_t(1) << 18;
	auto P = repeat_points<ec::g2_affine>("msm_g2_points.bin", n);
	try {
		linearity<ec::g2_affine, ec::g2_jacobian>("g2 (device nearly full)", cuda_msm_g2, P, n, false);
		std::vector<fr_t> s(n);
		random_scalars(s, n);
		ec::g2_jacobian a = run_msm(cuda_msm_g2, P, s.data(), n, 0);
		scoped_kernels ref("reference");
		ec::g2_jacobian r = run_msm(cuda_msm_g2, P, s.data(), n, 0);
		CHECK(a.to_affine() == r.to_affine(), "g2 after fill: default kernels != reference");
	} catch (const cuseal::error& e) {
		CHECK(false, "g2 after fill: %s", e.what());
	}
	for (cuseal_buffer* b : held) cuseal_buffer_free(b);
}

} // namespace

int main(int argc, char** argv) {
	testutil::init(argc, argv);
	if (!cuda_built()) {
		std::printf("SKIP: libcuseal_native built without CUDA (CUSEAL_CUDA=OFF)\n");
		return 77;
	}
	if (cuda_device_count() == 0) {
		std::printf("SKIP: no CUDA device found (cudaGetDeviceCount = 0)\n");
		return 77;
	}
	const char* lgv = std::getenv("CUSEAL_SCALE_LG");
	const unsigned big = lgv ? unsigned(std::atoi(lgv)) : 27u;
	cuseal_device_info di;
	cuda_device_info(0, &di);
	std::printf("device 0: %s, sm_%d%d, %d SMs, %.1f GiB; %s\n", di.name, di.major, di.minor, di.multiprocessors,
	            di.total_memory / double(1 << 30), kernels_info().c_str());
	check_device(0); // run_cuda's compute-capability gate accepts this device
	auto P = repeat_points<ec::g1_affine>("msm_g1_points.bin", uint64_t(1) << big);
	linearity<ec::g1_affine, ec::g1_jacobian>("g1", cuda_msm_g1, P, uint64_t(1) << 24, true);
	if (big > 24) linearity<ec::g1_affine, ec::g1_jacobian>("g1", cuda_msm_g1, P, uint64_t(1) << big, false);
	P.clear();
	P.shrink_to_fit();
	ntt_round_trip(big);
	g2_after_fill();
	return testutil::finish("test_gpu_scale");
}
