// SPDX-License-Identifier: Apache-2.0 OR MIT

// test_capi.cpp: the C ABI (include/cuseal_native.h) with the host emulation device:
// version, device queries, argument validation and error messages, MSM and
// NTT through the ABI, and buffer handles.
#include <cstring>

#include "cuseal_native.h"
#include "ec/point.cuh"
#include "testutil.hpp"

using namespace cuseal;
using ff::fr_t;

int main(int argc, char** argv) {
	testutil::init(argc, argv);

	cuseal_version_info vi;
	cuseal_error e = cuseal_version(&vi);
	CHECK(e.code == CUSEAL_OK, "version: %s", e.message);
	CHECK(vi.abi_version == CUSEAL_ABI_VERSION, "abi %u", vi.abi_version);
	std::printf("build: %s (cuda=%d runtime=%d)\n", vi.build, vi.built_with_cuda, vi.cuda_runtime_version);
	e = cuseal_version(nullptr);
	CHECK(e.code == CUSEAL_ERR_INVALID_ARGUMENT && std::strstr(e.message, "out is NULL"), "NULL out: %s", e.message);

	int32_t count = -1;
	e = cuseal_device_count(&count);
	CHECK(e.code == CUSEAL_OK && count >= 0, "device count: %s", e.message);
	if (!vi.built_with_cuda) CHECK(count == 0, "no CUDA build has %d devices", count);

	cuseal_device_info di;
	e = cuseal_device_get_info(CUSEAL_DEVICE_HOST, &di);
	CHECK(e.code == CUSEAL_OK && std::strcmp(di.name, "host emulation") == 0, "host info: %s", e.message);
	e = cuseal_device_get_info(count, &di); // one past the last device
	CHECK(e.code == (vi.built_with_cuda ? CUSEAL_ERR_NO_DEVICE : CUSEAL_ERR_NO_CUDA), "missing device: %d %s", e.code,
	      e.message);
	e = cuseal_device_get_info(-7, &di);
	CHECK(e.code == CUSEAL_ERR_INVALID_ARGUMENT, "device -7: %s", e.message);

	// MSM through the ABI, host emulation.
	auto pts = testutil::load("msm_g1_points.bin", sizeof(ec::g1_affine));
	auto sc = testutil::load("msm_scalars.bin", sizeof(fr_t));
	auto exp = testutil::load("msm_g1_expected.bin", 8 + sizeof(ec::g1_affine));
	for (uint64_t r = 0; r < exp.count; r++) {
		uint64_t n = exp.get<uint64_t>(r, 0);
		if (n > 1024) continue;
		ec::g1_jacobian out;
		e = cuseal_msm_g1(CUSEAL_DEVICE_HOST, pts.data.data(), sc.data.data(), n, nullptr, &out);
		CHECK(e.code == CUSEAL_OK, "msm_g1 n=%llu: %s", (unsigned long long)n, e.message);
		CHECK(out.to_affine() == exp.get<ec::g1_affine>(r, 8), "msm_g1 n=%llu value", (unsigned long long)n);
	}
	ec::g1_jacobian out;
	cuseal_msm_options mo = {30, 0, 0};
	e = cuseal_msm_g1(CUSEAL_DEVICE_HOST, pts.data.data(), sc.data.data(), 4, &mo, &out);
	CHECK(e.code == CUSEAL_ERR_INVALID_ARGUMENT && std::strstr(e.message, "window_bits"), "window 30: %s", e.message);
	e = cuseal_msm_g1(CUSEAL_DEVICE_HOST, nullptr, sc.data.data(), 4, nullptr, &out);
	CHECK(e.code == CUSEAL_ERR_INVALID_ARGUMENT, "NULL points: %s", e.message);
	e = cuseal_msm_g1(CUSEAL_DEVICE_HOST, nullptr, nullptr, 0, nullptr, &out);
	CHECK(e.code == CUSEAL_OK && out.is_infinity(), "n=0: %s", e.message);
	if (!vi.built_with_cuda) {
		e = cuseal_msm_g1(0, pts.data.data(), sc.data.data(), 4, nullptr, &out);
		CHECK(e.code == CUSEAL_ERR_NO_CUDA && std::strstr(e.message, "without CUDA"), "device 0: %s", e.message);
	} else if (count == 0) {
		e = cuseal_msm_g1(0, pts.data.data(), sc.data.data(), 4, nullptr, &out);
		CHECK(e.code == CUSEAL_ERR_NO_DEVICE, "device 0 without GPU: %d %s", e.code, e.message);
	}

	// NTT through the ABI and through a buffer handle: forward then inverse.
	auto in = testutil::load("ntt_input.bin", sizeof(fr_t));
	auto e8 = testutil::load("ntt_expected_08.bin", 8 + 256 * sizeof(fr_t));
	std::vector<fr_t> x(256);
	std::memcpy(x.data(), in.data.data(), 256 * sizeof(fr_t));
	std::vector<fr_t> d = x;
	cuseal_ntt_options no = {8, 0, CUSEAL_NTT_NATURAL, CUSEAL_NTT_NATURAL, 0, 0};
	e = cuseal_ntt(CUSEAL_DEVICE_HOST, d.data(), &no);
	CHECK(e.code == CUSEAL_OK, "ntt: %s", e.message);
	CHECK(std::memcmp(d.data(), e8.rec(0) + 8, 256 * sizeof(fr_t)) == 0, "ntt 2^8 value");
	cuseal_ntt_options bad = no;
	bad.in_order = 2;
	e = cuseal_ntt(CUSEAL_DEVICE_HOST, d.data(), &bad);
	CHECK(e.code == CUSEAL_ERR_INVALID_ARGUMENT, "bad order: %s", e.message);
	bad = no;
	bad.log_n = 29;
	e = cuseal_ntt(CUSEAL_DEVICE_HOST, d.data(), &bad);
	CHECK(e.code == CUSEAL_ERR_INVALID_ARGUMENT, "log 29: %s", e.message);

	cuseal_buffer* buf = nullptr;
	e = cuseal_buffer_alloc(CUSEAL_DEVICE_HOST, 32 + 256 * sizeof(fr_t), &buf);
	CHECK(e.code == CUSEAL_OK && buf, "alloc: %s", e.message);
	uint64_t size = 0;
	cuseal_buffer_size(buf, &size);
	CHECK(size == 32 + 256 * sizeof(fr_t), "size %llu", (unsigned long long)size);
	e = cuseal_buffer_upload(buf, 32, x.data(), 256 * sizeof(fr_t));
	CHECK(e.code == CUSEAL_OK, "upload: %s", e.message);
	no.coset = 1;
	e = cuseal_ntt_buffer(buf, 32, &no);
	CHECK(e.code == CUSEAL_OK, "ntt_buffer: %s", e.message);
	std::vector<fr_t> back(256);
	e = cuseal_buffer_download(buf, 32, back.data(), 256 * sizeof(fr_t));
	CHECK(e.code == CUSEAL_OK, "download: %s", e.message);
	CHECK(std::memcmp(back.data(), e8.rec(1) + 8, 256 * sizeof(fr_t)) == 0, "coset ntt 2^8 via buffer");
	no.inverse = 1;
	cuseal_ntt_buffer(buf, 32, &no);
	cuseal_buffer_download(buf, 32, back.data(), 256 * sizeof(fr_t));
	CHECK(back == x, "coset round trip via buffer");
	e = cuseal_ntt_buffer(buf, 64, &no); // 2^8 elements from offset 64 overrun
	CHECK(e.code == CUSEAL_ERR_INVALID_ARGUMENT && std::strstr(e.message, "outside buffer"), "overrun: %s", e.message);
	e = cuseal_ntt_buffer(buf, 16, &no);
	CHECK(e.code == CUSEAL_ERR_INVALID_ARGUMENT, "misaligned: %s", e.message);
	e = cuseal_buffer_download(buf, size, back.data(), 1);
	CHECK(e.code == CUSEAL_ERR_INVALID_ARGUMENT, "download past end: %s", e.message);
	e = cuseal_buffer_free(buf);
	CHECK(e.code == CUSEAL_OK, "free: %s", e.message);
	e = cuseal_buffer_free(nullptr);
	CHECK(e.code == CUSEAL_OK, "free NULL: %s", e.message);

	return testutil::finish("test_capi");
}
