// SPDX-License-Identifier: Apache-2.0 OR MIT

// sppark_none.cpp: cuseal::spk for builds without sppark (host-only builds
// and CUDA builds with CUSEAL_SPPARK=OFF): nothing is available, so
// kernels_for() always picks the reference kernels.
#include "sppark.hpp"

#include "../util/error.hpp"

namespace cuseal::spk {

namespace {
[[noreturn]] void none() {
	fail(CUSEAL_ERR_INVALID_ARGUMENT, "libcuseal_native was built without sppark (CUSEAL_SPPARK=OFF)");
}
} // namespace

bool built() { return false; }
const char* version() { return ""; }
int gpu_index(int) { return -1; }
void msm_g1(int, const void*, bool, const void*, bool, size_t, void*) { none(); }
void msm_g2(int, const void*, bool, const void*, bool, size_t, void*) { none(); }
void ntt(int, void*, unsigned, bool, bool, bool, bool, void*) { none(); }

} // namespace cuseal::spk
