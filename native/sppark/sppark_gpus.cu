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
	for (const gpu_t* g : all_gpus())
		if (g->cid() == dev) return g->id();
	return -1;
}

} // namespace cuseal::spk
