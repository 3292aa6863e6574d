// SPDX-License-Identifier: Apache-2.0 OR MIT

// bench_groth16.cpp: per-stage times of the Groth16 query-sum prover
// (cuseal_groth16_query_sums) on a synthetic circuit of a chosen shape.
//
// Usage: bench_groth16 [testdata-dir] [--log K] [--circuits N] [--device D]
//                      [--split auto|never|always] [--bg2-skip] [--runs R]
// Shape for domain 2^K: constraints = 0.97·2^K, aux = 0.97·2^K, 16 inputs;
// A-aux density 60 %, B-aux 40 %, B-input all; witness 35 % zeros, 35 % ones
// (a SHA-heavy circuit is mostly bits), a and b 25 % / 25 %, c = a·b.
// SRS points are tiles of testdata/native/msm_g{1,2}_points.bin (MSM cost
// does not depend on the points being distinct). The first call makes the
// SRS resident (reported as "first"); later runs are the steady state.
// --device -1 runs the host emulation (slow; small K only, for dry runs).
// Exits 77 when a CUDA device is asked for and none exists.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

#include "backend.hpp"
#include "groth16/prover.hpp"
#include "testutil.hpp"
#include "util/parallel.hpp"

using namespace cuseal;
using ff::fr_t;

namespace {

fr_t fr_from(testutil::rng& r) {
	fr_t x;
	for (int k = 0; k < 4; k++) x.set64(k, r.next());
	x.set64(3, x.get64(3) & 0x0fffffffffffffffULL); // < r
	return x;
}

// fill writes n values: p0 % zeros, p1 % ones, else random; in parallel.
void fill(fr_t* x, uint64_t n, int p0, int p1, uint64_t seed) {
	parallel_for(n, 0, [&](uint64_t lo, uint64_t hi) {
		testutil::rng r(seed * 0x9e3779b97f4a7c15ULL + lo);
		for (uint64_t i = lo; i < hi; i++) {
			int c = int(r.next() % 100);
			x[i] = c < p0 ? fr_t::zero() : c < p0 + p1 ? fr_t::one() : fr_from(r);
		}
	});
}

void print_t(const char* what, const cuseal_prove_timings& t) {
	std::printf("%s: total %.3f s | prep %.3f wait %.3f upload %.3f | h_ntt %.3f h_msm %.3f | l %.3f a %.3f "
	            "b_g1 %.3f b_g2 %.3f | split l/a/b %u/%u/%u resident %u | tail l/a/b %llu/%llu/%llu ones %llu/%llu/%llu\n",
	            what, t.total, t.prep, t.wait_lock, t.upload, t.h_ntt, t.h_msm, t.l_msm, t.a_msm, t.b_g1_msm, t.b_g2_msm,
	            t.split[0], t.split[1], t.split[2], t.resident, (unsigned long long)t.tail[0],
	            (unsigned long long)t.tail[1], (unsigned long long)t.tail[2], (unsigned long long)t.ones[0],
	            (unsigned long long)t.ones[1], (unsigned long long)t.ones[2]);
}

} // namespace

int main(int argc, char** argv) {
	unsigned lg = 16;
	int ncirc = 1, dev = 0, runs = 2;
	uint32_t split = CUSEAL_SPLIT_AUTO, flags = 0;
	for (int i = 1; i < argc; i++) {
		std::string a = argv[i];
		auto next = [&]() -> const char* {
			if (i + 1 >= argc) {
				std::fprintf(stderr, "bench_groth16: %s needs a value\n", a.c_str());
				std::exit(2);
			}
			return argv[++i];
		};
		if (a == "--log") lg = unsigned(std::atoi(next()));
		else if (a == "--circuits") ncirc = std::atoi(next());
		else if (a == "--device") dev = std::atoi(next());
		else if (a == "--runs") runs = std::atoi(next());
		else if (a == "--bg2-skip") flags |= CUSEAL_PROVE_SKIP_B_G2;
		else if (a == "--split") {
			std::string v = next();
			split = v == "never" ? CUSEAL_SPLIT_NEVER : v == "always" ? CUSEAL_SPLIT_ALWAYS : CUSEAL_SPLIT_AUTO;
		} else if (a.rfind("--", 0) == 0) {
			std::fprintf(stderr, "bench_groth16: unknown flag %s\n", a.c_str());
			return 2;
		} else testutil::dir = a;
	}
	if (lg < 2 || lg > 27 || ncirc < 1 || runs < 1) {
		std::fprintf(stderr, "bench_groth16: want 2 <= --log <= 27, --circuits >= 1, --runs >= 1\n");
		return 2;
	}
	if (dev >= 0 && (!cuda_built() || cuda_device_count() <= dev)) {
		std::printf("bench_groth16: SKIP: no CUDA device %d\n", dev);
		return 77;
	}
	using clk = std::chrono::steady_clock;
	auto t0 = clk::now();
	const uint64_t m = uint64_t(1) << lg;
	const uint64_t n_in = 16, n_aux = m - m / 32, nc = m - m / 32 - n_in;
	// Densities.
	std::vector<uint64_t> a_aux((n_aux + 63) / 64), b_in((n_in + 63) / 64), b_aux((n_aux + 63) / 64);
	uint64_t pa = 0, pb = n_in;
	testutil::rng r(5);
	for (uint64_t j = 0; j < n_aux; j++) {
		uint64_t x = r.next() % 100;
		if (x < 60) a_aux[j / 64] |= 1ULL << (j % 64), pa++;
		if (x % 5 < 2) b_aux[j / 64] |= 1ULL << (j % 64), pb++;
	}
	for (uint64_t i = 0; i < n_in; i++) b_in[i / 64] |= 1ULL << (i % 64);
	// SRS from tiles.
	auto g1 = testutil::load("msm_g1_points.bin", sizeof(ec::g1_affine));
	auto g2 = testutil::load("msm_g2_points.bin", sizeof(ec::g2_affine));
	std::vector<ec::g1_affine> t1;
	std::vector<ec::g2_affine> t2;
	for (uint64_t i = 0; i < g1.count; i++) {
		ec::g1_affine p;
		std::memcpy(&p, g1.rec(i), sizeof p);
		if (!p.is_infinity()) t1.push_back(p);
	}
	for (uint64_t i = 0; i < g2.count; i++) {
		ec::g2_affine p;
		std::memcpy(&p, g2.rec(i), sizeof p);
		if (!p.is_infinity()) t2.push_back(p);
	}
	const uint64_t counts[srs::NQUERY] = {m - 1, n_aux, n_in + pa, pb, pb};
	srs::srs* s = srs::create_tiled(counts, t1.data(), t1.size(), t2.data(), t2.size());
	auto* handle = reinterpret_cast<cuseal_srs*>(s);
	// Circuits.
	struct circ {
		std::vector<fr_t> a, b, c, in, aux;
	};
	std::vector<circ> cs(ncirc);
	std::vector<cuseal_assignment> views(ncirc);
	for (int k = 0; k < ncirc; k++) {
		circ& c = cs[k];
		c.a.resize(nc), c.b.resize(nc), c.c.resize(nc), c.in.resize(n_in), c.aux.resize(n_aux);
		fill(c.a.data(), nc, 25, 25, 10 + k);
		fill(c.b.data(), nc, 25, 25, 20 + k);
		parallel_for(nc, 0, [&](uint64_t lo, uint64_t hi) {
			for (uint64_t i = lo; i < hi; i++) c.c[i] = c.a[i] * c.b[i];
		});
		fill(c.in.data(), n_in, 0, 10, 30 + k);
		c.in[0] = fr_t::one();
		fill(c.aux.data(), n_aux, 35, 35, 40 + k);
		cuseal_assignment& v = views[k];
		v = cuseal_assignment{};
		v.a = c.a.data(), v.b = c.b.data(), v.c = c.c.data(), v.abc_size = nc;
		v.input = c.in.data(), v.n_input = n_in, v.aux = c.aux.data(), v.n_aux = n_aux;
		v.a_aux = {a_aux.data(), n_aux};
		v.b_input = {b_in.data(), n_in};
		v.b_aux = {b_aux.data(), n_aux};
	}
	double setup = std::chrono::duration<double>(clk::now() - t0).count();
	std::string where = dev < 0 ? std::string("host emulation") : "device " + std::to_string(dev);
	if (dev >= 0) {
		cuseal_device_info di;
		cuda_device_info(dev, &di);
		where += std::string(" (") + di.name + ")";
	}
	std::printf("groth16 shape 2^%u on %s: %d circuit(s), %llu constraints, %llu inputs, %llu aux, |a| %llu, |b| %llu, "
	            "srs %.2f GiB; data setup %.1f s\n",
	            lg, where.c_str(), ncirc, (unsigned long long)nc, (unsigned long long)n_in, (unsigned long long)n_aux,
	            (unsigned long long)counts[srs::Q_A], (unsigned long long)pb, double(s->host_bytes) / (1 << 30), setup);
	std::vector<cuseal_query_sums> out(ncirc);
	cuseal_prove_options o{flags, split, 0, 0};
	int rc = 0;
	for (int run = 0; run <= runs && rc == 0; run++) {
		cuseal_prove_timings t{};
		cuseal_error e = cuseal_groth16_query_sums(dev, handle, views.data(), ncirc, &o, out.data(), &t);
		if (e.code) {
			std::fprintf(stderr, "bench_groth16: %s\n", e.message);
			rc = 1;
			break;
		}
		char what[96];
		std::snprintf(what, sizeof what, "groth16 2^%u %s", lg, run == 0 ? "first (residency)" : "steady");
		print_t(what, t);
		if (dev < 0) break; // one run is enough in emulation
	}
	cuseal_srs_release(handle);
	return rc;
}
