// SPDX-License-Identifier: Apache-2.0 OR MIT

// test_sppark_layout.cpp (host; CUDA builds with sppark): our Fr is sppark's
// Fr byte for byte, and sppark's NTT uses our domain. Reads sppark's own
// constants from ntt/parameters/bls12_381.h (in cargo's registry copy, via
// SPPARK_ROOT; limbs are 64-bit little-endian Montgomery values) and checks:
//   group_gen = 7 in our Montgomery form  (same R = 2^256 mod r, same layout;
//               sppark's coset shift is g = 7, as in ntt/ref_ntt.cuh)
//   group_gen_inverse = 7⁻¹
//   forward_roots_of_unity[28] = our ω for 2^28 (ntt/twiddles.cpp: 7^((r−1)/2^28)),
//               and each root is the square of the next (so every 2^k matches),
//               roots[1] = −1
//   inverse_roots_of_unity[k]·forward[k] = 1; domain_size_inverse[k]·2^k = 1
// Fp needs no check here: sppark's BLS12_381_P / _one / _RR limbs are the ones
// in ff/bls12_381.hpp (fp_params), and affine/Jacobian points are (X, Y) /
// (X, Y, Z) of those with infinity (0, 0) / Z = 0 on both sides; the static
// asserts in native/sppark/msm_impl.cuh check the sizes.
#include <cstdint>
#include <cstring>

#include "backend.hpp"
#include "testutil.hpp"

namespace spk_params {
typedef uint64_t vec256[4];
struct fr_t {
	uint64_t l[4];
	fr_t(const uint64_t* v) { std::memcpy(l, v, sizeof l); }
};
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#endif
#include <ntt/parameters/bls12_381.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
} // namespace spk_params

using namespace cuseal;
using ff::fr_t;

namespace {
fr_t ours(const spk_params::fr_t& x) {
	static_assert(sizeof(fr_t) == sizeof x, "Fr size");
	fr_t r;
	std::memcpy(&r, x.l, sizeof r);
	return r;
}
} // namespace

int main(int argc, char** argv) {
	testutil::init(argc, argv);
	using namespace spk_params;
	const ::fr_t seven = ::fr_t::from_u64(7);
	CHECK(ours(group_gen) == seven, "sppark group_gen %s != 7 in our Montgomery form %s",
	      testutil::hex(ours(group_gen)).c_str(), testutil::hex(seven).c_str());
	CHECK(ours(group_gen_inverse) == seven.inv(), "sppark group_gen_inverse != 1/7");
	CHECK(S == 32, "sppark S = %d", S);
	// Our 2^28-th root: entry 1 of the ω "lo" table (ntt/ref_ntt.cuh: tables[0][k] = ω^k, k < 2^14).
	const ::fr_t omega28 = host_ntt_tables()[1];
	CHECK(ours(forward_roots_of_unity[28]) == omega28, "sppark ω(2^28) != ours");
	for (int k = 1; k <= S; k++) {
		const ::fr_t w = ours(forward_roots_of_unity[k]);
		CHECK(w * w == ours(forward_roots_of_unity[k - 1]), "sppark root 2^%d squared != root 2^%d", k, k - 1);
		CHECK(w * ours(inverse_roots_of_unity[k]) == ::fr_t::one(), "sppark inverse root 2^%d", k);
		CHECK(ours(domain_size_inverse[k]) * ::fr_t::from_u64(uint64_t(1) << (k < 63 ? k : 0)) == ::fr_t::one() ||
		          k >= 63,
		      "sppark domain_size_inverse[%d]", k);
	}
	CHECK(ours(forward_roots_of_unity[1]) == -::fr_t::one(), "sppark root 2^1 != -1");
	CHECK(ours(forward_roots_of_unity[0]) == ::fr_t::one(), "sppark root 2^0 != 1");
	return testutil::finish("test_sppark_layout");
}
