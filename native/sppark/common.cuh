// SPDX-License-Identifier: Apache-2.0 OR MIT

// common.cuh: error mapping shared by the sppark_*.cu translation units
// (included after prefix.hpp and sppark's headers).
#pragma once

#include <cstdlib>
#include <string>

#include "../util/error.hpp"

namespace cuseal::spk::detail {

// raise turns a sppark error code (−cudaError_t) and message into cuseal::error.
[[noreturn]] inline void raise(int code, const char* what, const char* msg) {
	const int err = code < 0 ? -code : code;
	const int kind = err == int(cudaErrorMemoryAllocation) ? CUSEAL_ERR_OUT_OF_MEMORY : CUSEAL_ERR_CUDA;
	fail(kind, "sppark %s: %s (cuda error %d)", what, msg && *msg ? msg : cudaGetErrorString(cudaError_t(err)), err);
}

// check consumes a RustError returned by sppark (its message is strdup'ed).
inline void check(RustError e, const char* what) {
	if (e.code == 0) return;
	std::string m = e.message ? e.message : "";
	std::free(e.message);
	cudaGetLastError(); // do not leave a non-sticky error for the next call
	raise(e.code, what, m.c_str());
}

// gpu returns sppark's gpu_t for CUDA device dev (selecting it), or fails.
inline const gpu_t& gpu(int dev, const char* what) {
	const auto& all = all_gpus();
	for (const gpu_t* g : all)
		if (g->cid() == dev) {
			g->select();
			return *g;
		}
	fail(CUSEAL_ERR_NO_DEVICE,
	     "sppark %s: CUDA device %d is not usable by sppark (needs compute capability >= 7.0 and cooperative "
	     "launch); run with CUSEAL_KERNELS=reference",
	     what, dev);
}

} // namespace cuseal::spk::detail
