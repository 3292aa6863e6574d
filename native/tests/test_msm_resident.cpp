// SPDX-License-Identifier: Apache-2.0 OR MIT

// test_msm_resident.cpp (host): g16::msm_resident — the prover's MSM over
// executor-resident points and scalars — with its chunk forced small, so the
// multi-chunk path (bucket accumulation carried across chunks, pointer
// offsets) runs in the host emulation. On a device that path is only taken
// when the sort scratch does not fit, which no CI machine reaches. The result
// is compared with the gnark-crypto MSM vectors and with the unchunked run.
#include "backend.hpp"
#include "groth16/kernels.cuh"
#include "testutil.hpp"

using namespace cuseal;
using ff::fr_t;

namespace {

template <class Aff, class Xyzz, class Jac>
void chunked(const char* pts_file, const char* exp_file, const char* name) {
	auto pts = testutil::load(pts_file, sizeof(Aff));
	auto sc = testutil::load("msm_scalars.bin", sizeof(fr_t));
	auto exp = testutil::load(exp_file, 8 + sizeof(Aff));
	const Aff* P = reinterpret_cast<const Aff*>(pts.data.data());
	const fr_t* S = reinterpret_cast<const fr_t*>(sc.data.data());
	host_exec ex;
	int multi = 0;
	for (uint64_t r = 0; r < exp.count; r++) {
		const uint64_t n = exp.get<uint64_t>(r, 0);
		const Aff want = exp.get<Aff>(r, 8);
		if (n > 1024) continue; // emulation time; test_msm covers the large sizes unchunked
		for (uint64_t max_chunk : {uint64_t(0), uint64_t(1), uint64_t(7), n / 3 + 1, n - 1}) {
			if (max_chunk >= n && max_chunk != 0) continue;
			if (max_chunk == 1 && n > 64) continue;
			for (unsigned w : {0u, 4u}) {
				if (w == 4 && n > 256) continue;
				Jac got = g16::msm_resident<host_exec, Aff, Xyzz, Jac>(ex, P, S, n, w, max_chunk);
				CHECK(got.to_affine() == want, "%s n=%llu max_chunk=%llu window=%u", name, (unsigned long long)n,
				      (unsigned long long)max_chunk, w);
				if (max_chunk && max_chunk < n) multi++;
			}
		}
	}
	CHECK(multi > 0, "%s: no multi-chunk case ran", name);
}

} // namespace

int main(int argc, char** argv) {
	testutil::init(argc, argv);
	chunked<ec::g1_affine, ec::g1_xyzz, ec::g1_jacobian>("msm_g1_points.bin", "msm_g1_expected.bin", "g1");
	chunked<ec::g2_affine, ec::g2_xyzz, ec::g2_jacobian>("msm_g2_points.bin", "msm_g2_expected.bin", "g2");
	return testutil::finish("test_msm_resident");
}
