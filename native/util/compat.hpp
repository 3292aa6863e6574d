// SPDX-License-Identifier: Apache-2.0 OR MIT

// compat.hpp: lets the same sources compile with nvcc (device + host) and with a
// plain C++17 compiler (host only, CUSEAL_CUDA=OFF builds and host emulation).
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define CUSEAL_HD __host__ __device__ __forceinline__
// CUSEAL_HD_NOINLINE: compiled once and called on the device. Used for the
// big bodies (point additions, Fp2 products): inlining them at every call
// site made one G2 kernel file take over 15 minutes of cicc per architecture
// for little speed gain.
#define CUSEAL_HD_NOINLINE __host__ __device__ __noinline__
#else
#define CUSEAL_HD inline
#define CUSEAL_HD_NOINLINE inline
#endif

// CUSEAL_DEVICE_CODE is defined while nvcc compiles the device side of a
// translation unit; host code (including host emulation) sees it undefined.
#if defined(__CUDA_ARCH__)
#define CUSEAL_DEVICE_CODE 1
#endif

#if defined(__CUDACC__)
#define CUSEAL_UNROLL _Pragma("unroll")
#else
#define CUSEAL_UNROLL
#endif
