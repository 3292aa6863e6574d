// SPDX-License-Identifier: Apache-2.0 OR MIT

// prover_cuda.cu: the Groth16 driver on a CUDA device, SRS residency and host
// pinning. Callers hold device_mutex(dev) (prover.cpp).
//
// Residency: the first call on a device uploads the whole SRS image in one
// copy when it fits next to the working set (3·m Fr for the H chain plus
// 1 GiB of MSM scratch); it then stays until cuseal_srs_evict or the last
// release. Otherwise each query is uploaded for the stage that uses it and
// freed after ("streamed"); a query too large for that stays in host memory
// and goes through the core's chunked msm::run. CUSEAL_SRS_RESIDENT=0 forces
// streaming, CUSEAL_SRS_RESIDENT=host the host path (tests).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <type_traits>

#include "../exec/exec_cuda.cuh"
#include "../kernels.hpp"
#include "../sppark/sppark.hpp"
#include "prover_impl.cuh"

namespace cuseal::g16 {

namespace {

// sppark_kernels: run_batch's hooks (prover_impl.cuh) on sppark's MSM and NTT
// (kernels.hpp). Each hook first waits for the executor's streams, since
// sppark runs on its own streams and returns when its work is done. An
// explicit MSM window (prove option) keeps that MSM on the reference kernels.
struct sppark_kernels {
	int dev;
	bool ntt(cuda_exec& ex, fr_t* d, const ntt::options& o) {
		ex.sync();
		return sppark_ntt(dev, d, o, nullptr);
	}
	template <class Aff, class Jac>
	bool msm(cuda_exec& ex, const Aff* p, bool p_dev, const fr_t* sc, bool sc_dev, uint64_t n, unsigned window,
	         Jac& out) {
		if (window != 0) return false;
		ex.sync();
		if constexpr (std::is_same_v<Aff, ec::g1_affine>)
			spk::msm_g1(dev, p, p_dev, sc, sc_dev, n, &out);
		else
			spk::msm_g2(dev, p, p_dev, sc, sc_dev, n, &out);
		return true;
	}
};

bool residency_allowed() {
	const char* v = std::getenv("CUSEAL_SRS_RESIDENT");
	return !(v && (std::strcmp(v, "0") == 0 || std::strcmp(v, "host") == 0));
}

struct cuda_bases {
	cuda_exec& ex;
	srs::srs& s;
	int dev;
	void* temp = nullptr;

	// get returns query q on the device: resident, else uploaded for this
	// stage when it fits next to a working margin, else nullptr (the driver
	// then keeps the bases on the host and streams them through msm::run).
	template <class Aff>
	const Aff* get(int q) {
		const srs::device_image& im = s.dev[dev];
		if (im.base) return static_cast<const Aff*>(im.q[q]);
		if (srs_host_path_forced()) return nullptr;
		const size_t bytes = s.query_bytes(q);
		const size_t margin = size_t(2) << 30; // MSM scratch, gathered tail bases
		if (bytes + margin > ex.mem_budget()) return nullptr;
		try {
			temp = ex.alloc(bytes);
		} catch (const cuseal::error& e) {
			if (e.code() != CUSEAL_ERR_OUT_OF_MEMORY) throw;
			return nullptr;
		}
		ex.h2d(temp, s.query_ptr(q), bytes, STREAM_COMPUTE);
		ex.sync();
		return static_cast<const Aff*>(temp);
	}
	void done(int) {
		if (temp) {
			ex.sync();
			ex.free(temp);
			temp = nullptr;
		}
	}
	~cuda_bases() { done(0); }
};

// make_resident uploads s to dev when it fits; returns whether it is resident.
bool make_resident(cuda_exec& ex, srs::srs& s, int dev, const batch_plan& p) {
	srs::device_image& im = s.dev[dev];
	if (im.base) return true;
	if (!residency_allowed()) return false;
	const size_t working = 3 * (size_t(1) << p.lg) * sizeof(fr_t) + (size_t(1) << 30);
	const size_t budget = ex.mem_budget();
	if (s.host_bytes + working > budget) return false;
	void* base = nullptr;
	if (cudaMalloc(&base, s.host_bytes) != cudaSuccess) {
		cudaGetLastError();
		return false;
	}
	cudaError_t e = cudaMemcpy(base, s.host, s.host_bytes, cudaMemcpyHostToDevice);
	if (e != cudaSuccess) {
		cudaFree(base);
		cuda_check(e, "cudaMemcpy srs image");
	}
	im.base = base;
	im.bytes = s.host_bytes;
	for (int q = 0; q < srs::NQUERY; q++) im.q[q] = static_cast<const char*>(base) + s.off[q];
	s.resident_mask.fetch_or(uint64_t(1) << dev);
	return true;
}

} // namespace

void run_cuda(int dev, srs::srs& s, const batch_plan& p, const cuseal_assignment* cs, const prove_options& o,
              sums* out, cuseal_prove_timings& t) {
	check_device(dev); // exists, compute capability >= 7.5
	cuda_exec ex(dev);
	stopwatch sw;
	const ntt::tables tw{cuda_ntt_tables(dev)};
	t.resident = make_resident(ex, s, dev, p) ? 1 : 0;
	t.upload += sw.lap();
	cuda_bases b{ex, s, dev};
	if (kernels_for(dev) == kernel_set::sppark)
		run_batch(ex, b, tw, s, p, cs, o, out, t, sppark_kernels{dev});
	else
		run_batch(ex, b, tw, s, p, cs, o, out, t);
}

bool cuda_pin(void* p, size_t bytes, char* why, size_t why_len) {
	if (cuda_device_count() == 0) {
		std::snprintf(why, why_len, "no CUDA device");
		return false;
	}
	cudaError_t e = cudaHostRegister(p, bytes, cudaHostRegisterPortable);
	if (e != cudaSuccess) {
		cudaGetLastError(); // a failed optional pin must not poison the next call
		std::snprintf(why, why_len, "cudaHostRegister: %s", cudaGetErrorString(e));
		return false;
	}
	return true;
}

void cuda_unpin(void* p) {
	cudaHostUnregister(p);
	cudaGetLastError();
}

void* cuda_host_alloc(size_t bytes, char* why, size_t why_len) {
	if (cuda_device_count() == 0) {
		std::snprintf(why, why_len, "no CUDA device");
		return nullptr;
	}
	void* p = nullptr;
	cudaError_t e = cudaHostAlloc(&p, bytes ? bytes : 1, cudaHostAllocPortable);
	if (e != cudaSuccess) {
		cudaGetLastError();
		std::snprintf(why, why_len, "cudaHostAlloc: %s", cudaGetErrorString(e));
		return nullptr;
	}
	return p;
}

void cuda_host_free(void* p) {
	cudaFreeHost(p);
	cudaGetLastError();
}

void cuda_free_image(int dev, void* p) {
	int cur = 0;
	cudaGetDevice(&cur);
	cudaSetDevice(dev);
	cudaFree(p);
	cudaSetDevice(cur);
	cudaGetLastError();
}

} // namespace cuseal::g16
