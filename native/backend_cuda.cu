// SPDX-License-Identifier: Apache-2.0 OR MIT

// backend_cuda.cu: CUDA devices, buffers and the NTT on a device (sppark's
// kernels unless kernels.hpp selects the reference set). Callers (capi.cpp)
// hold device_mutex(dev).
#include <cstdio>
#include <string>

#include "backend.hpp"
#include "exec/exec_cuda.cuh"
#include "kernels.hpp"
#include "sppark/sppark.hpp"

#ifndef CUSEAL_CUDA_ARCHS
#define CUSEAL_CUDA_ARCHS "unknown"
#endif

namespace cuseal {

using ff::fr_t;

bool cuda_built() { return true; }

int cuda_runtime_version() {
	int v = 0;
	// Without a driver the static runtime may fail the query; report the
	// version it was built as instead.
	if (cudaRuntimeGetVersion(&v) != cudaSuccess || v == 0) {
		cudaGetLastError();
		v = CUDART_VERSION;
	}
	return v;
}

// cuda_build_info: "nvcc 11.8; archs 75-real ... 90; kernels sppark-0.1.16"
// (the kernel set follows CUSEAL_KERNELS at the time of the call).
const char* cuda_build_info() {
	thread_local std::string buf;
	char head[96];
	std::snprintf(head, sizeof head, "nvcc %d.%d; archs %s; ", __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__,
	              CUSEAL_CUDA_ARCHS);
	buf = head + kernels_info();
	return buf.c_str();
}

int cuda_device_count() {
	int n = 0;
	cudaError_t e = cudaGetDeviceCount(&n);
	if (e != cudaSuccess) { // no driver, no device, ...: not an error, just none
		cudaGetLastError();
		return 0;
	}
	return n;
}

// check_device fails unless dev names a CUDA device this build can run on.
void check_device(int dev) {
	int n = cuda_device_count();
	if (dev < 0 || dev >= n) fail(CUSEAL_ERR_NO_DEVICE, "CUDA device %d does not exist (%d found)", dev, n);
	cudaDeviceProp p;
	cuda_check(cudaGetDeviceProperties(&p, dev), "cudaGetDeviceProperties");
	if (p.major * 10 + p.minor < 75)
		fail(CUSEAL_ERR_NO_DEVICE, "CUDA device %d (%s) has compute capability %d.%d; cuseal needs 7.5 or newer", dev,
		     p.name, p.major, p.minor);
}

void cuda_device_info(int dev, cuseal_device_info* out) {
	int n = cuda_device_count();
	if (dev < 0 || dev >= n) fail(CUSEAL_ERR_NO_DEVICE, "CUDA device %d does not exist (%d found)", dev, n);
	cudaDeviceProp p;
	cuda_check(cudaGetDeviceProperties(&p, dev), "cudaGetDeviceProperties");
	std::snprintf(out->name, sizeof out->name, "%s", p.name);
	out->major = p.major;
	out->minor = p.minor;
	out->multiprocessors = p.multiProcessorCount;
	out->total_memory = p.totalGlobalMem;
	size_t free_b = 0, total_b = 0;
	cuda_check(cudaSetDevice(dev), "cudaSetDevice");
	cuda_check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
	out->free_memory = free_b;
}

void* cuda_alloc(int dev, size_t bytes) {
	check_device(dev);
	cuda_check(cudaSetDevice(dev), "cudaSetDevice");
	void* p = nullptr;
	cuda_check(cudaMalloc(&p, bytes ? bytes : 1), "cudaMalloc");
	return p;
}

void cuda_free(int dev, void* p) {
	cuda_check(cudaSetDevice(dev), "cudaSetDevice");
	cuda_check(cudaFree(p), "cudaFree");
}

void cuda_upload(int dev, void* dst, const void* src, size_t bytes) {
	cuda_check(cudaSetDevice(dev), "cudaSetDevice");
	cuda_check(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy H2D");
}

void cuda_download(int dev, void* dst, const void* src, size_t bytes) {
	cuda_check(cudaSetDevice(dev), "cudaSetDevice");
	cuda_check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy D2H");
}

// cuda_ntt_tables: the one per-device cache of the NTT twiddle tables (the C
// ABI's NTTs and the Groth16 prover's H chain both use it).
const fr_t* cuda_ntt_tables(int dev) {
	static fr_t* tables[MAX_DEVICES] = {};
	if (dev < 0 || dev >= MAX_DEVICES) fail(CUSEAL_ERR_INVALID_ARGUMENT, "device index %d out of range", dev);
	if (!tables[dev]) {
		const std::vector<fr_t>& h = host_ntt_tables();
		void* p = nullptr;
		cuda_check(cudaMalloc(&p, h.size() * sizeof(fr_t)), "cudaMalloc ntt tables");
		cudaError_t e = cudaMemcpy(p, h.data(), h.size() * sizeof(fr_t), cudaMemcpyHostToDevice);
		if (e != cudaSuccess) {
			cudaFree(p);
			cuda_check(e, "cudaMemcpy ntt tables");
		}
		tables[dev] = static_cast<fr_t*>(p);
	}
	return tables[dev];
}

bool sppark_ntt(int dev, fr_t* d, const ntt::options& o, void* stream) {
	if (kernels_for(dev) != kernel_set::sppark) return false;
	if (o.lg > 0) // 2^0: every variant is the identity
		spk::ntt(dev, d, o.lg, o.in == ntt::BIT_REVERSED, o.out == ntt::BIT_REVERSED, o.inverse, o.coset, stream);
	return true;
}

void cuda_ntt_device(int dev, fr_t* data, const ntt::options& o) {
	check_device(dev);
	if (sppark_ntt(dev, data, o, nullptr)) return;
	cuda_exec ex(dev);
	ntt::run(ex, data, o, ntt::tables{cuda_ntt_tables(dev)});
	ex.sync();
}

void cuda_ntt_host(int dev, fr_t* data, const ntt::options& o) {
	check_device(dev);
	cuda_exec ex(dev);
	const size_t bytes = (size_t(1) << o.lg) * sizeof(fr_t);
	dbuf<cuda_exec, fr_t> d(ex, size_t(1) << o.lg);
	ex.h2d(d.get(), data, bytes, STREAM_COMPUTE);
	if (!sppark_ntt(dev, d.get(), o, ex.s[STREAM_COMPUTE])) ntt::run(ex, d.get(), o, ntt::tables{cuda_ntt_tables(dev)});
	ex.d2h(data, d.get(), bytes, STREAM_COMPUTE);
	ex.sync();
}

} // namespace cuseal
