// compat.hpp: lets the same sources compile with nvcc (device + host) and with a
// plain C++17 compiler (host only, CUSEAL_CUDA=OFF builds and host emulation).
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define CUSEAL_HD __host__ __device__ __forceinline__
#define CUSEAL_HD_NOINLINE __host__ __device__
#else
#define CUSEAL_HD inline
#define CUSEAL_HD_NOINLINE
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
