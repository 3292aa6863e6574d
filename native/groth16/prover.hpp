// SPDX-License-Identifier: Apache-2.0 OR MIT

// prover.hpp: internal interface of the Groth16 query-sum prover behind
// cuseal_groth16_query_sums (include/cuseal_native.h). The driver (prover_impl.cuh)
// is a template over the executor; prover_host.cpp instantiates it for the
// host emulation, prover_cuda.cu for CUDA devices (prover_nocuda.cpp stubs
// the CUDA side in builds without nvcc).
#pragma once

#include <vector>

#include "../srs/srs.hpp"
#include "plan.hpp"

namespace cuseal::g16 {

// sums: the five query sums of one circuit.
struct sums {
	ec::g1_jacobian h, l, a, b_g1;
	ec::g2_jacobian b_g2;
};

struct prove_options {
	bool skip_b_g2 = false;
	int split_mode = CUSEAL_SPLIT_AUTO;
	unsigned msm_window = 0;
};

// query_sums validates the batch, plans it on the host and runs it on dev
// (CUSEAL_DEVICE_HOST or a CUDA device), taking device_mutex(dev) for the
// device part only. out has n entries; t may be null.
void query_sums(int dev, srs::srs& s, const cuseal_assignment* cs, size_t n, const prove_options& o, sums* out,
                cuseal_prove_timings* t);

// Per-executor device parts; they run with device_mutex(dev) held.
void run_host(srs::srs& s, const batch_plan& p, const cuseal_assignment* cs, const prove_options& o, sums* out,
              cuseal_prove_timings& t);
void run_cuda(int dev, srs::srs& s, const batch_plan& p, const cuseal_assignment* cs, const prove_options& o,
              sums* out, cuseal_prove_timings& t);

// srs_host_path_forced: CUSEAL_SRS_RESIDENT=host keeps every query's bases
// in host memory (the fallback when a query does not fit on the device),
// for tests of that path.
bool srs_host_path_forced();

// CUDA helpers for the SRS (no-ops / failures without CUDA).
// cuda_pin page-locks [p, p+bytes); returns false with a reason on failure.
bool cuda_pin(void* p, size_t bytes, char* why, size_t why_len);
void cuda_unpin(void* p);
void cuda_free_image(int dev, void* p);
// cuda_host_alloc: page-locked host memory (nullptr, with a reason, when it
// cannot be had); cuda_host_free releases it.
void* cuda_host_alloc(size_t bytes, char* why, size_t why_len);
void cuda_host_free(void* p);

} // namespace cuseal::g16
