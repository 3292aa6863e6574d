// SPDX-License-Identifier: Apache-2.0 OR MIT

// kernels.cpp: CUSEAL_KERNELS and the kernel set per device (kernels.hpp).
#include "kernels.hpp"

#include <cstdlib>
#include <cstring>

#include "sppark/sppark.hpp"
#include "util/error.hpp"

namespace cuseal {

namespace {
enum class request { automatic, sppark, reference };

request requested() {
	const char* v = std::getenv("CUSEAL_KERNELS");
	if (!v || !*v || std::strcmp(v, "auto") == 0) return request::automatic;
	if (std::strcmp(v, "sppark") == 0) return request::sppark;
	if (std::strcmp(v, "reference") == 0) return request::reference;
	fail(CUSEAL_ERR_INVALID_ARGUMENT, "CUSEAL_KERNELS=%s: want auto, sppark or reference", v);
}
} // namespace

kernel_set kernels_for(int dev) {
	switch (requested()) {
	case request::reference:
		return kernel_set::reference;
	case request::sppark:
		if (!spk::built())
			fail(CUSEAL_ERR_INVALID_ARGUMENT,
			     "CUSEAL_KERNELS=sppark: this library was built without sppark (CUSEAL_SPPARK=OFF)");
		if (spk::gpu_index(dev) < 0)
			fail(CUSEAL_ERR_INVALID_ARGUMENT,
			     "CUSEAL_KERNELS=sppark: sppark cannot use CUDA device %d (needs compute capability >= 7.0 and "
			     "cooperative launch)",
			     dev);
		return kernel_set::sppark;
	case request::automatic:
		break;
	}
	return spk::built() && spk::gpu_index(dev) >= 0 ? kernel_set::sppark : kernel_set::reference;
}

std::string kernels_info() {
	std::string built = spk::built() ? std::string("sppark-") + spk::version() : std::string();
	const char* v = std::getenv("CUSEAL_KERNELS");
	if (!spk::built()) return "kernels reference";
	if (v && std::strcmp(v, "reference") == 0) return "kernels reference (CUSEAL_KERNELS=reference; " + built + " built in)";
	return "kernels " + built;
}

} // namespace cuseal
