// SPDX-License-Identifier: Apache-2.0 OR MIT

// backend.hpp: internal entry points behind the C ABI (capi.cpp). Device
// index CUSEAL_DEVICE_HOST selects the host emulation (backend_host.cpp);
// indices ≥ 0 select CUDA (backend_cuda*.cu, or backend_nocuda.cpp in builds
// without nvcc, where they fail with CUSEAL_ERR_NO_CUDA). Callers hold
// device_mutex(dev) around every call that touches a device.
#pragma once

#include <mutex>

#include "cuseal_native.h"
#include "ec/point.cuh"
#include "msm/ref_pippenger.cuh"
#include "ntt/ref_ntt.cuh"

namespace cuseal {

constexpr int MAX_DEVICES = 64;

// device_mutex serialises kernel regions per device (index -1: host emulation).
std::mutex& device_mutex(int dev);

// --- CUDA side (backend_cuda*.cu or backend_nocuda.cpp) ----------------------
bool cuda_built();
int cuda_runtime_version();
const char* cuda_build_info();
int cuda_device_count();
void cuda_device_info(int dev, cuseal_device_info* out);

ec::g1_jacobian cuda_msm_g1(int dev, const ec::g1_affine* p, const ff::fr_t* s, uint64_t n, const msm::options& o);
ec::g2_jacobian cuda_msm_g2(int dev, const ec::g2_affine* p, const ff::fr_t* s, uint64_t n, const msm::options& o);
// cuda_ntt_host: data in host memory (uploaded, transformed, downloaded).
void cuda_ntt_host(int dev, ff::fr_t* data, const ntt::options& o);
// cuda_ntt_device: data already in device memory of dev.
void cuda_ntt_device(int dev, ff::fr_t* data, const ntt::options& o);
// sppark_ntt runs o on device data d with sppark's NTT when kernels_for(dev)
// selects sppark (after synchronising stream, a cudaStream_t or null) and
// returns true; false: the caller runs the reference ntt::run.
bool sppark_ntt(int dev, ff::fr_t* d, const ntt::options& o, void* stream);
// cuda_ntt_tables returns the NTT twiddle tables (host_ntt_tables) on dev,
// uploaded on first use and kept until the process exits; fails for an index
// outside 0..MAX_DEVICES-1. The C ABI's NTTs and the Groth16 prover share it.
const ff::fr_t* cuda_ntt_tables(int dev);
// check_device fails unless dev is a CUDA device with compute capability >= 7.5.
void check_device(int dev);
void* cuda_alloc(int dev, size_t bytes);
void cuda_free(int dev, void* p);
void cuda_upload(int dev, void* dst, const void* src, size_t bytes);
void cuda_download(int dev, void* dst, const void* src, size_t bytes);

// --- host emulation (backend_host.cpp) --------------------------------------
ec::g1_jacobian host_msm_g1(const ec::g1_affine* p, const ff::fr_t* s, uint64_t n, const msm::options& o);
ec::g2_jacobian host_msm_g2(const ec::g2_affine* p, const ff::fr_t* s, uint64_t n, const msm::options& o);
void host_ntt(ff::fr_t* data, const ntt::options& o);
// host_ntt_tables: the 8 twiddle tables, built once per process.
const std::vector<ff::fr_t>& host_ntt_tables();

} // namespace cuseal
