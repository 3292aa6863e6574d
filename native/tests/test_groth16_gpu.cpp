// SPDX-License-Identifier: Apache-2.0 OR MIT

// test_groth16_gpu.cpp (CTest label gpu): the Groth16 query-sum prover on CUDA
// device 0 against the same independent reference as the host test
// (test_groth16_prover.cpp, included), plus larger shapes, a streamed
// (non-resident) SRS and two concurrent calls on one device. Exits 77 (skip)
// without a device. Device: CUSEAL_TEST_DEVICE (default 0).
#define CUSEAL_G16_NO_MAIN
#include "test_groth16_prover.cpp"

#include <chrono>
#include <cstdlib>

int main(int argc, char** argv) {
	testutil::init(argc, argv);
	int32_t n = 0;
	cuseal_device_count(&n);
	if (n == 0) {
		std::printf("test_groth16_gpu: SKIP: no CUDA device (or library built without CUDA)\n");
		return 77;
	}
	g_dev = std::getenv("CUSEAL_TEST_DEVICE") ? std::atoi(std::getenv("CUSEAL_TEST_DEVICE")) : 0;
	auto t0 = std::chrono::steady_clock::now();
	run_case("tiny", 2, 5, 3, 7, 1, 30, 30);
	run_case("sparse", 4, 150, 8, 200, 3, 30, 50);
	run_case("dense", 3, 120, 7, 128, 2, 5, 5);
	run_case("no-h-tail", 2, 40, 6, 64, 1, 20, 20);
	run_case("medium", 5, 3000, 12, 4000, 2, 30, 40);
	// Streamed SRS: residency disabled, so every query is uploaded per stage.
	setenv("CUSEAL_SRS_RESIDENT", "0", 1);
	run_case("streamed", 4, 900, 10, 1000, 2, 30, 40);
	// Bases in host memory (fallback for queries larger than the device).
	setenv("CUSEAL_SRS_RESIDENT", "host", 1);
	run_case("host-path", 4, 900, 10, 1000, 2, 30, 40);
	unsetenv("CUSEAL_SRS_RESIDENT");
	std::printf("test_groth16_gpu: %.2f s\n",
	            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
	return testutil::finish("test_groth16_gpu");
}
