// SPDX-License-Identifier: Apache-2.0 OR MIT

// exec_cuda.cuh: the CUDA executor. Same interface as host_exec
// (exec_host.hpp): kernel bodies launched over a 1-D grid, two streams
// (compute, copy) and four events for double-buffered uploads. Every CUDA
// call is checked and turned into cuseal::error (code CUSEAL_ERR_CUDA or
// CUSEAL_ERR_OUT_OF_MEMORY); the destructor synchronises and frees what the
// executor created, so an error in one call does not leak into the next.
#pragma once

#include <cuda_runtime.h>

#include "exec_host.hpp"

namespace cuseal {

inline void cuda_check(cudaError_t e, const char* what) {
	if (e == cudaSuccess) return;
	cudaGetLastError(); // clear non-sticky errors so the next call starts clean
	fail(e == cudaErrorMemoryAllocation ? CUSEAL_ERR_OUT_OF_MEMORY : CUSEAL_ERR_CUDA, "%s: %s (%s)", what,
	     cudaGetErrorString(e), cudaGetErrorName(e));
}

template <class Body, class... A>
__global__ void kernel_1d(size_t n, A... a) {
	size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
	if (i < n) Body::run(i, a...);
}

struct cuda_exec {
	static constexpr bool on_device = true;
	static constexpr int NEVENTS = 4;

	int dev;
	cudaStream_t s[2] = {nullptr, nullptr};
	cudaEvent_t ev[NEVENTS] = {};

	explicit cuda_exec(int device) : dev(device) {
		cuda_check(cudaSetDevice(device), "cudaSetDevice");
		for (auto& st : s) cuda_check(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), "cudaStreamCreate");
		for (auto& e : ev) cuda_check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
	}
	~cuda_exec() {
		for (auto st : s)
			if (st) cudaStreamSynchronize(st);
		for (auto e : ev)
			if (e) cudaEventDestroy(e);
		for (auto st : s)
			if (st) cudaStreamDestroy(st);
		cudaGetLastError();
	}
	cuda_exec(const cuda_exec&) = delete;
	cuda_exec& operator=(const cuda_exec&) = delete;

	void* alloc(size_t bytes) {
		void* p = nullptr;
		cuda_check(cudaMalloc(&p, bytes ? bytes : 1), "cudaMalloc");
		return p;
	}
	void free(void* p) {
		if (!p) return;
		// Frees happen after a stream sync (dbuf lifetimes end after sync or
		// during unwinding); cudaFree itself synchronises the device.
		cudaFree(p);
	}
	void h2d(void* dst, const void* src, size_t bytes, int stream) {
		if (bytes) cuda_check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s[stream]), "cudaMemcpyAsync H2D");
	}
	void d2h(void* dst, const void* src, size_t bytes, int stream) {
		if (bytes) cuda_check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s[stream]), "cudaMemcpyAsync D2H");
	}
	void d2d(void* dst, const void* src, size_t bytes, int stream) {
		if (bytes) cuda_check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s[stream]), "cudaMemcpyAsync D2D");
	}
	void zero(void* dst, size_t bytes, int stream) {
		if (bytes) cuda_check(cudaMemsetAsync(dst, 0, bytes, s[stream]), "cudaMemsetAsync");
	}
	void record(int event, int stream) { cuda_check(cudaEventRecord(ev[event], s[stream]), "cudaEventRecord"); }
	void wait(int stream, int event) { cuda_check(cudaStreamWaitEvent(s[stream], ev[event], 0), "cudaStreamWaitEvent"); }
	void sync() {
		for (auto st : s) cuda_check(cudaStreamSynchronize(st), "cudaStreamSynchronize");
	}
	// mem_budget: free device memory minus a 512 MiB margin for the context,
	// twiddle tables and fragmentation.
	size_t mem_budget() const {
		size_t free_b = 0, total_b = 0;
		cuda_check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
		const size_t margin = size_t(512) << 20;
		return free_b > margin ? free_b - margin : 0;
	}

	template <class Body, class... A>
	void launch(size_t n, int stream, A... a) {
		if (n == 0) return;
		const unsigned block = Body::block_size;
		const size_t grid = (n + block - 1) / block;
		kernel_1d<Body, A...><<<unsigned(grid), block, 0, s[stream]>>>(n, a...);
		cuda_check(cudaGetLastError(), Body::name);
	}
};

} // namespace cuseal
