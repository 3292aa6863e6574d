// SPDX-License-Identifier: Apache-2.0 OR MIT

// sppark_gpus.cu: sppark's device list (util/all_gpus.cpp, compiled here with
// its functions renamed by prefix.hpp) and the kernel-set queries.
#include "prefix.hpp"

#include <util/all_gpus.cpp>

#include "sppark.hpp"

#ifndef CUSEAL_SPPARK_VERSION
#define CUSEAL_SPPARK_VERSION "unknown"
#endif

namespace cuseal::spk {

bool built() { return true; }

const char* version() { return CUSEAL_SPPARK_VERSION; }

int gpu_index(int dev) {
	int n = 0;
	if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
		cudaGetLastError();
		return -1;
	}
	// sppark builds its device list on first use and leaves device 0 current:
	// keep the caller's current device (its streams belong to it).
	int cur = 0;
	cudaGetDevice(&cur);
	int id = -1;
	for (const gpu_t* g : all_gpus())
		if (g->cid() == dev) id = g->id();
	cudaSetDevice(cur);
	cudaGetLastError();
	return id;
}

} // namespace cuseal::spk
