// SPDX-License-Identifier: Apache-2.0 OR MIT

// sppark_ntt.cu: sppark's NTT (ntt/ntt.cuh: multi-step shared-memory
// Gentleman-Sande / Cooley-Tukey kernels, coset via LDE powers of
// group_gen = 7) for BLS12-381 Fr on device-resident data.
#include "prefix.hpp"

#include <ff/bls12-381.hpp>
#include <ntt/ntt.cuh>

#include "common.cuh"
#include "sppark.hpp"

namespace cuseal::spk {

void ntt(int dev, void* d_data, unsigned lg, bool in_bitrev, bool out_bitrev, bool inverse, bool coset,
         void* stream) {
#ifndef __CUDA_ARCH__
	static_assert(sizeof(fr_t) == 32, "sppark fr_t layout differs from ours");
#endif
	if (lg > MAX_LG_DOMAIN_SIZE) fail(CUSEAL_ERR_INVALID_ARGUMENT, "sppark ntt: 2^%u exceeds 2^%d", lg, MAX_LG_DOMAIN_SIZE);
	const gpu_t& g = detail::gpu(dev, "ntt");
	if (stream) {
		cudaError_t e = cudaStreamSynchronize(static_cast<cudaStream_t>(stream));
		if (e != cudaSuccess) detail::raise(-int(e), "ntt (waiting for the caller's stream)", nullptr);
	}
	using IO = NTT::InputOutputOrder;
	const IO order = in_bitrev ? (out_bitrev ? IO::RR : IO::RN) : (out_bitrev ? IO::NR : IO::NN);
	try {
		NTT::Base_dev_ptr(g[0], static_cast<fr_t*>(d_data), lg, order,
		                  inverse ? NTT::Direction::inverse : NTT::Direction::forward,
		                  coset ? NTT::Type::coset : NTT::Type::standard);
		g[0].sync();
	} catch (const cuda_error& e) {
		cudaGetLastError();
		detail::raise(e.code(), "ntt", e.what());
	}
}

} // namespace cuseal::spk
