// SPDX-License-Identifier: Apache-2.0 OR MIT

// prover_nocuda.cpp: the CUDA side of the Groth16 prover in builds without
// nvcc (CUSEAL_CUDA=OFF): device indices ≥ 0 fail with CUSEAL_ERR_NO_CUDA,
// pinning is reported as unavailable.
#include <cstdio>

#include "prover.hpp"

namespace cuseal::g16 {

void run_cuda(int, srs::srs&, const batch_plan&, const cuseal_assignment*, const prove_options&, sums*,
              cuseal_prove_timings&) {
	fail(CUSEAL_ERR_NO_CUDA, "libcuseal_native was built without CUDA (CUSEAL_CUDA=OFF); only device %d (host emulation) is available",
	     CUSEAL_DEVICE_HOST);
}

bool cuda_pin(void*, size_t, char* why, size_t why_len) {
	std::snprintf(why, why_len, "built without CUDA");
	return false;
}
void cuda_unpin(void*) {}
void cuda_free_image(int, void*) {}
void* cuda_host_alloc(size_t, char* why, size_t why_len) {
	std::snprintf(why, why_len, "built without CUDA");
	return nullptr;
}
void cuda_host_free(void*) {}

} // namespace cuseal::g16
