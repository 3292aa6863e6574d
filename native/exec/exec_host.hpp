// SPDX-License-Identifier: Apache-2.0 OR MIT

// exec_host.hpp: host emulation executor. It runs every kernel body over the
// same 1-D grid indices the device would, one index after another, with
// "device" memory in ordinary host allocations. Drivers (msm/, ntt/) are
// templates over the executor, so the host emulation exercises the same
// phase sequence, index math and buffers as the CUDA path.
#pragma once

#include <cstdlib>
#include <cstring>
#include <new>

#include "../util/compat.hpp"
#include "../util/error.hpp"

namespace cuseal {

// Stream and event names shared by both executors.
enum : int { STREAM_COMPUTE = 0, STREAM_COPY = 1 };

struct host_exec {
	static constexpr bool on_device = false;

	void* alloc(size_t bytes) {
		void* p = std::malloc(bytes ? bytes : 1);
		if (!p) fail(CUSEAL_ERR_OUT_OF_MEMORY, "host emulation: cannot allocate %zu bytes", bytes);
		return p;
	}
	void free(void* p) { std::free(p); }
	void h2d(void* dst, const void* src, size_t bytes, int) { if (bytes) std::memcpy(dst, src, bytes); }
	void d2h(void* dst, const void* src, size_t bytes, int) { if (bytes) std::memcpy(dst, src, bytes); }
	void d2d(void* dst, const void* src, size_t bytes, int) { if (bytes) std::memmove(dst, src, bytes); }
	void zero(void* dst, size_t bytes, int) { if (bytes) std::memset(dst, 0, bytes); }
	void record(int /*event*/, int /*stream*/) {}
	void wait(int /*stream*/, int /*event*/) {}
	void sync() {}
	// mem_budget: bytes a driver may plan to use at once; the host emulation
	// imposes no limit (callers may still force chunking through options).
	size_t mem_budget() const { return SIZE_MAX; }

	template <class Body, class... A>
	void launch(size_t n, int /*stream*/, A... a) {
		for (size_t i = 0; i < n; i++) Body::run(i, a...);
	}
};

// dbuf: RAII for an executor allocation of n elements of T.
template <class Exec, class T>
class dbuf {
public:
	dbuf(Exec& ex, size_t n) : ex_(ex), n_(n), p_(static_cast<T*>(ex.alloc(n * sizeof(T)))) {}
	~dbuf() { ex_.free(p_); }
	dbuf(const dbuf&) = delete;
	dbuf& operator=(const dbuf&) = delete;
	T* get() const { return p_; }
	size_t size() const { return n_; }
	size_t bytes() const { return n_ * sizeof(T); }

private:
	Exec& ex_;
	size_t n_;
	T* p_;
};

// atomic_add_u32: atomicAdd on the device; a relaxed atomic on the host.
CUSEAL_HD uint32_t atomic_add_u32(uint32_t* p, uint32_t v) {
#ifdef CUSEAL_DEVICE_CODE
	return atomicAdd(p, v);
#else
	return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#endif
}

} // namespace cuseal
