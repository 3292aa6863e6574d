// SPDX-License-Identifier: Apache-2.0 OR MIT

// backend_nocuda.cpp: the CUDA entry points of a library built without nvcc
// (CUSEAL_CUDA=OFF). Device counts are 0; anything naming a CUDA device fails
// with CUSEAL_ERR_NO_CUDA. The host emulation still works.
#include "backend.hpp"

namespace cuseal {

namespace {
[[noreturn]] void no_cuda() {
	fail(CUSEAL_ERR_NO_CUDA, "libcuseal_native was built without CUDA (CUSEAL_CUDA=OFF); only device %d (host emulation) is available",
	     CUSEAL_DEVICE_HOST);
}
} // namespace

bool cuda_built() { return false; }
int cuda_runtime_version() { return 0; }
const char* cuda_build_info() { return "host only (CUSEAL_CUDA=OFF)"; }
int cuda_device_count() { return 0; }
void cuda_device_info(int, cuseal_device_info*) { no_cuda(); }
void check_device(int) { no_cuda(); }
bool sppark_ntt(int, ff::fr_t*, const ntt::options&, void*) { no_cuda(); }
ec::g1_jacobian cuda_msm_g1(int, const ec::g1_affine*, const ff::fr_t*, uint64_t, const msm::options&) { no_cuda(); }
ec::g2_jacobian cuda_msm_g2(int, const ec::g2_affine*, const ff::fr_t*, uint64_t, const msm::options&) { no_cuda(); }
void cuda_ntt_host(int, ff::fr_t*, const ntt::options&) { no_cuda(); }
void cuda_ntt_device(int, ff::fr_t*, const ntt::options&) { no_cuda(); }
void* cuda_alloc(int, size_t) { no_cuda(); }
void cuda_free(int, void*) { no_cuda(); }
void cuda_upload(int, void*, const void*, size_t) { no_cuda(); }
void cuda_download(int, void*, const void*, size_t) { no_cuda(); }

} // namespace cuseal
