/*
 * cuseal.h — the C ABI of libcuseal_native (native/), used by the Go package
 * bridge through cgo.
 *
 * Conventions (every function):
 *  - Returns cuseal_error by value; code 0 (CUSEAL_OK) means success, any
 *    other code comes with a NUL-terminated message. C++ exceptions and CUDA
 *    errors never cross this boundary (native/capi.cpp catches them), and a
 *    failed CUDA call leaves the device usable for the next call.
 *  - Takes an explicit device index: 0..count-1 for CUDA devices, or
 *    CUSEAL_DEVICE_HOST (-1) for the host emulation, which runs the same
 *    kernel bodies over the same grid on the CPU (for tests; slow).
 *  - Work on one device is serialised by a per-device mutex; calls on
 *    different devices may run concurrently. No device-global mutable state
 *    is shared between calls.
 *  - Caller memory (points, scalars, data) is read/written only during the
 *    call and never retained. Memory the library keeps (device buffers,
 *    later the SRS and prover state) is allocated by the library and owned
 *    through an opaque handle that the caller frees explicitly.
 *  - Field elements and points use gnark-crypto v0.22.0's in-memory layout
 *    (BLS12-381): Montgomery form, little-endian 64-bit limbs.
 *      Fr        32 bytes   fr.Element        (R = 2^256)
 *      Fp        48 bytes   fp.Element        (R = 2^384)
 *      G1 affine 96 bytes   bls12381.G1Affine (X, Y; infinity = (0, 0))
 *      G1 jac   144 bytes   bls12381.G1Jac    (X/Z², Y/Z³; infinity Z = 0)
 *      G2 affine 192 bytes  bls12381.G2Affine (E2 = A0, A1 per coordinate)
 *      G2 jac   288 bytes   bls12381.G2Jac
 *  - Functions added later (SRS handle, Groth16 prover) follow the same
 *    rules and bump CUSEAL_ABI_VERSION; existing functions never change
 *    meaning within one ABI version.
 */
#ifndef CUSEAL_H
#define CUSEAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ABI version: the Go bridge refuses to run against a library whose
 * cuseal_version().abi_version differs from the one it was written for. */
#define CUSEAL_ABI_VERSION 1

#define CUSEAL_DEVICE_HOST (-1)

/* Error codes. */
#define CUSEAL_OK 0
#define CUSEAL_ERR_INVALID_ARGUMENT 1 /* bad pointer, size, option or device index */
#define CUSEAL_ERR_NO_DEVICE 2        /* device index has no CUDA device behind it */
#define CUSEAL_ERR_CUDA 3             /* a CUDA runtime call failed */
#define CUSEAL_ERR_OUT_OF_MEMORY 4    /* host or device allocation failed */
#define CUSEAL_ERR_NO_CUDA 5          /* library built without CUDA (CUSEAL_CUDA=OFF) */
#define CUSEAL_ERR_INTERNAL 6         /* broken invariant or unexpected exception */

#define CUSEAL_ERROR_MESSAGE_SIZE 256

typedef struct {
	int code;
	char message[CUSEAL_ERROR_MESSAGE_SIZE];
} cuseal_error;

/* Sizes in bytes of the element types (see the layout table above). */
#define CUSEAL_FR_BYTES 32
#define CUSEAL_FP_BYTES 48
#define CUSEAL_G1_AFFINE_BYTES 96
#define CUSEAL_G1_JAC_BYTES 144
#define CUSEAL_G2_AFFINE_BYTES 192
#define CUSEAL_G2_JAC_BYTES 288

/* ---- library and devices -------------------------------------------- */

typedef struct {
	uint32_t abi_version;    /* CUSEAL_ABI_VERSION the library was built with */
	int32_t built_with_cuda; /* 1 when compiled with nvcc (CUSEAL_CUDA=ON) */
	int32_t cuda_runtime_version; /* e.g. 11080; 0 without CUDA */
	int32_t reserved;
	char build[128]; /* free text: compiler, CUDA version, architectures */
} cuseal_version_info;

cuseal_error cuseal_version(cuseal_version_info* out);

/* cuseal_device_count: number of usable CUDA devices (0 when none or when
 * built without CUDA; that is not an error). */
cuseal_error cuseal_device_count(int32_t* out);

typedef struct {
	char name[256];
	int32_t major, minor;           /* compute capability */
	int32_t multiprocessors;
	int32_t reserved;
	uint64_t total_memory;          /* bytes */
	uint64_t free_memory;           /* bytes, at the time of the call */
} cuseal_device_info;

cuseal_error cuseal_device_get_info(int32_t device, cuseal_device_info* out);

/* ---- multi-scalar multiplication ------------------------------------- */

typedef struct {
	uint32_t window_bits;  /* Pippenger window c, 1..24; 0 = chosen from n */
	uint32_t reserved;
	uint64_t chunk_points; /* points per device chunk; 0 = from free memory */
} cuseal_msm_options;

/* cuseal_msm_g1: *out = Σ scalars[i]·points[i], i < n.
 *   points:  n G1 affine points (96 bytes each)
 *   scalars: n Fr elements in Montgomery form (32 bytes each)
 *   out:     one G1 Jacobian point (144 bytes)
 *   opts:    may be NULL (all automatic)
 * n = 0 gives infinity. */
cuseal_error cuseal_msm_g1(int32_t device, const void* points, const void* scalars, uint64_t n,
                           const cuseal_msm_options* opts, void* out);

/* cuseal_msm_g2: as cuseal_msm_g1 with G2 affine points (192 bytes) and a
 * G2 Jacobian result (288 bytes). */
cuseal_error cuseal_msm_g2(int32_t device, const void* points, const void* scalars, uint64_t n,
                           const cuseal_msm_options* opts, void* out);

/* ---- number-theoretic transform over Fr ------------------------------- */

#define CUSEAL_NTT_NATURAL 0
#define CUSEAL_NTT_BIT_REVERSED 1
#define CUSEAL_NTT_MAX_LOG 28

typedef struct {
	uint32_t log_n;     /* size 2^log_n, 0..CUSEAL_NTT_MAX_LOG */
	uint32_t inverse;   /* 0 forward (x → Σ x_j ω^ij), 1 inverse (with 1/n) */
	uint32_t in_order;  /* CUSEAL_NTT_NATURAL or CUSEAL_NTT_BIT_REVERSED */
	uint32_t out_order; /* CUSEAL_NTT_NATURAL or CUSEAL_NTT_BIT_REVERSED */
	uint32_t coset;     /* 1: evaluate on / interpolate from the coset 7·⟨ω⟩ */
	uint32_t reserved;
} cuseal_ntt_options;

/* cuseal_ntt transforms data (2^log_n Fr elements, Montgomery, host memory)
 * in place. ω = 7^((r-1)/2^log_n), as gnark-crypto fft.NewDomain and
 * bellperson use. */
cuseal_error cuseal_ntt(int32_t device, void* data, const cuseal_ntt_options* opts);

/* ---- long-lived device buffers ----------------------------------------- */

/* cuseal_buffer: device memory owned by the library (host memory for
 * CUSEAL_DEVICE_HOST). Free with cuseal_buffer_free. */
typedef struct cuseal_buffer cuseal_buffer;

cuseal_error cuseal_buffer_alloc(int32_t device, uint64_t bytes, cuseal_buffer** out);
/* cuseal_buffer_free accepts NULL. */
cuseal_error cuseal_buffer_free(cuseal_buffer* buf);
cuseal_error cuseal_buffer_size(const cuseal_buffer* buf, uint64_t* bytes);
cuseal_error cuseal_buffer_upload(cuseal_buffer* buf, uint64_t offset, const void* src, uint64_t bytes);
cuseal_error cuseal_buffer_download(const cuseal_buffer* buf, uint64_t offset, void* dst, uint64_t bytes);

/* cuseal_ntt_buffer transforms 2^log_n Fr elements at byte offset (a
 * multiple of 32) of buf in place, on buf's device. */
cuseal_error cuseal_ntt_buffer(cuseal_buffer* buf, uint64_t offset, const cuseal_ntt_options* opts);

#ifdef __cplusplus
}
#endif

#endif /* CUSEAL_H */
