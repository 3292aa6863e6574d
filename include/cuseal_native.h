// SPDX-License-Identifier: Apache-2.0 OR MIT

/*
 * cuseal_native.h — the C ABI of libcuseal_native (native/), used by the Go package
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
 *    call and never retained. Memory the library keeps (device buffers, the
 *    SRS) is allocated by the library and owned through an opaque handle
 *    that the caller frees explicitly.
 *  - The library never prints: what a caller may want to show (e.g. why
 *    host pinning was skipped) comes back in an info struct.
 *  - Field elements and points use gnark-crypto v0.22.0's in-memory layout
 *    (BLS12-381): Montgomery form, little-endian 64-bit limbs.
 *      Fr        32 bytes   fr.Element        (R = 2^256)
 *      Fp        48 bytes   fp.Element        (R = 2^384)
 *      G1 affine 96 bytes   bls12381.G1Affine (X, Y; infinity = (0, 0))
 *      G1 jac   144 bytes   bls12381.G1Jac    (X/Z², Y/Z³; infinity Z = 0)
 *      G2 affine 192 bytes  bls12381.G2Affine (E2 = A0, A1 per coordinate)
 *      G2 jac   288 bytes   bls12381.G2Jac
 *  - Any change a caller built against the previous header could notice (a
 *    new or removed function, a struct field added or moved, a constant or
 *    meaning changed) bumps CUSEAL_ABI_VERSION; within one ABI version
 *    nothing changes meaning. The Go bridge checks the version, the type
 *    sizes, the error codes and the constants it mirrors when it loads
 *    (bridge/native_cuda.go checkLibrary); native/README.md has the
 *    checklist for a new function.
 *
 * ABI history:
 *   1  initial: version/devices, MSM, NTT, buffers, SRS handle, Groth16
 *      query sums, host allocations
 *   2  cuseal_srs_info.pin_skipped (the library no longer prints the
 *      pinning result to stderr)
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
#define CUSEAL_ABI_VERSION 2

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

/* ==== GPU Groth16 prover: SRS handle and query sums ====
 * Owned by the Groth16-prover part of native/ (native/srs, native/groth16).
 * A batch of circuits sharing one SRS goes through one call and comes back
 * as five query sums per circuit; the assembly with r and s stays in Go
 * (porep/groth16.Assemble), so GPU and CPU proofs agree byte for byte. */

/* cuseal_srs: a refcounted proving-key image (the h, l, a, b_g1, b_g2
 * queries, density-filtered as in the .params file) owned by the library.
 * It is kept in host memory and made resident on a device the first time a
 * prove call uses that device, when it fits next to the prover's working
 * set; otherwise each query is uploaded (streamed) per call, and a query too
 * large even for that stays in host memory and is streamed through the
 * chunked MSM. Environment (tests): CUSEAL_SRS_RESIDENT=0 forces per-call
 * uploads, CUSEAL_SRS_RESIDENT=host the host-memory path. */
typedef struct cuseal_srs cuseal_srs;

typedef struct {
	const void* h;    uint64_t n_h;    /* G1 affine; n_h + 1 must be a power of two (or n_h = 0) */
	const void* l;    uint64_t n_l;    /* G1 affine, one per aux variable */
	const void* a;    uint64_t n_a;    /* G1 affine, inputs then A-dense aux */
	const void* b_g1; uint64_t n_b_g1; /* G1 affine, B-dense inputs then B-dense aux */
	const void* b_g2; uint64_t n_b_g2; /* G2 affine, same slots as b_g1 */
} cuseal_srs_vectors;

#define CUSEAL_SRS_AFFINE 0 /* vectors hold gnark-crypto affine points (96 / 192 bytes, Montgomery) */
#define CUSEAL_SRS_ZCASH 1  /* vectors hold .params section bytes: uncompressed zcash encoding, big-endian,
                               G1 96 / G2 192 bytes (x.c1 before x.c0); decoded and checked natively:
                               flags, canonical coordinates, not infinity (+ on-curve with validate) */

typedef struct {
	uint32_t validate; /* 1: check every point is on its curve (not the subgroup) and not infinity */
	uint32_t pin_host; /* 1: page-lock the host image with cudaHostRegister (CUDA builds; timed once) */
	uint32_t format;   /* CUSEAL_SRS_AFFINE or CUSEAL_SRS_ZCASH */
	uint32_t reserved;
} cuseal_srs_options;

typedef struct {
	uint64_t n_h, n_l, n_a, n_b_g1, n_b_g2;
	uint64_t host_bytes;       /* size of the host image */
	uint64_t resident_mask;    /* bit d set: resident on CUDA device d */
	int32_t pinned;            /* 1 when cudaHostRegister succeeded */
	int32_t refcount;
	double pin_seconds;        /* time the pin took (0 when not pinned) */
	double create_seconds;     /* copy + validation time */
	char pin_skipped[128];     /* pin_host was asked for but not done: why (e.g. "no CUDA device"); else empty */
} cuseal_srs_info;

/* cuseal_srs_create copies (CUSEAL_SRS_AFFINE) or decodes (CUSEAL_SRS_ZCASH:
 * the n_* counts are point counts, the pointers the raw .params sections
 * after their u32 counts, e.g. straight from an mmap) the vectors into a new
 * handle (refcount 1). The caller's memory is not retained. opts may be NULL
 * (affine, no validation, no pinning). Errors name the query and index of a
 * bad point. */
cuseal_error cuseal_srs_create(const cuseal_srs_vectors* v, const cuseal_srs_options* opts, cuseal_srs** out);
/* cuseal_srs_retain adds a reference; cuseal_srs_release drops one and frees
 * host and device memory at zero (NULL accepted). */
cuseal_error cuseal_srs_retain(cuseal_srs* s);
cuseal_error cuseal_srs_release(cuseal_srs* s);
cuseal_error cuseal_srs_get_info(const cuseal_srs* s, cuseal_srs_info* out);
/* cuseal_srs_evict frees the device-resident copy on device (no-op if none). */
cuseal_error cuseal_srs_evict(cuseal_srs* s, int32_t device);

/* Density bitmap: 64-bit words, LSB-first, bit_len bits (porep/cs.Density). */
typedef struct {
	const uint64_t* words;
	uint64_t bit_len;
} cuseal_density;

/* One synthesized circuit (porep/cs.Assignment). a, b, c: abc_size Fr each
 * (constraints incl. the input rows, ≤ n_h + 1); input: n_input Fr (ONE
 * first); aux: n_aux Fr. All Montgomery, read only during the call. */
typedef struct {
	const void* a;
	const void* b;
	const void* c;
	uint64_t abc_size;
	const void* input;
	uint64_t n_input;
	const void* aux;
	uint64_t n_aux;
	cuseal_density a_aux;   /* bit_len = n_aux */
	cuseal_density b_input; /* bit_len = n_input */
	cuseal_density b_aux;   /* bit_len = n_aux */
} cuseal_assignment;

/* Query sums of one circuit, Jacobian (gnark-crypto G1Jac / G2Jac layout). */
typedef struct {
	uint8_t h[CUSEAL_G1_JAC_BYTES];
	uint8_t l[CUSEAL_G1_JAC_BYTES];
	uint8_t a[CUSEAL_G1_JAC_BYTES];
	uint8_t b_g1[CUSEAL_G1_JAC_BYTES];
	uint8_t b_g2[CUSEAL_G2_JAC_BYTES];
} cuseal_query_sums;

#define CUSEAL_SPLIT_AUTO 0   /* split a query when its significant scalars ≤ half its slots */
#define CUSEAL_SPLIT_NEVER 1  /* plain MSM over the density-compacted scalars */
#define CUSEAL_SPLIT_ALWAYS 2 /* always batch-add the 1s and MSM the rest */

#define CUSEAL_PROVE_SKIP_B_G2 1u /* leave b_g2 at infinity (the caller computes it, e.g. on the CPU) */

typedef struct {
	uint32_t flags;      /* CUSEAL_PROVE_* */
	uint32_t split_mode; /* CUSEAL_SPLIT_* */
	uint32_t msm_window; /* 0: chosen per MSM from its size */
	uint32_t reserved;
} cuseal_prove_options;

/* Seconds per stage, summed over the batch (device stages include waits for
 * the device). split[q] = 1 when query q (0 l, 1 a, 2 b) was split. */
typedef struct {
	double prep;      /* host: density checks, 0/1 classification, compaction */
	double wait_lock; /* waiting for the device mutex */
	double upload;    /* host time issuing a/b/c uploads (they overlap the NTTs), SRS residency or streaming */
	double h_ntt;     /* iNTT, coset NTT, a·b−c, ·Z⁻¹, inverse coset NTT (what the uploads did not hide) */
	double h_msm, l_msm, a_msm, b_g1_msm, b_g2_msm; /* incl. tail gather, scalar uploads, batch additions */
	double total;
	uint32_t split[3];
	uint32_t resident; /* 1 when the SRS was device-resident for this call */
	uint64_t tail[3];  /* significant (tail MSM) slots per query */
	uint64_t ones[3];  /* batch-added slots per query, summed over circuits */
} cuseal_prove_timings;

/* cuseal_groth16_query_sums computes for each of the n circuits
 *   h    = Σ_{i<m−1} h_i·coef_i, coef = coefficients of (A·B − C)/Z
 *          (iNTT, coset NTT with generator 7, a·b − c, ·(7^m − 1)⁻¹,
 *          inverse coset NTT; m = n_h + 1),
 *   l    = Σ_j l_j·aux_j,
 *   a    = Σ_i a_i·input_i + Σ_{j A-dense} a_{n_input+k}·aux_j,
 *   b_g1 = Σ_{i B-dense} b_g1_k·input_i + Σ_{j B-dense} b_g1_{pop+k}·aux_j
 *          (pop = B-input popcount), b_g2 likewise,
 * on device (or CUSEAL_DEVICE_HOST), holding that device's mutex for the
 * kernel region only. Every circuit's three density bitmaps must equal
 * circuit 0's bit for bit, and their popcounts must match the SRS query
 * lengths; otherwise CUSEAL_ERR_INVALID_ARGUMENT naming the circuit.
 * opts and timings may be NULL. */
cuseal_error cuseal_groth16_query_sums(int32_t device, cuseal_srs* srs, const cuseal_assignment* circuits, uint64_t n,
                                       const cuseal_prove_options* opts, cuseal_query_sums* out,
                                       cuseal_prove_timings* timings);

/* cuseal_host_alloc returns bytes of host memory owned by the library, for
 * data the caller fills and later passes in (e.g. a/b/c, so their uploads
 * run at full DMA speed): page-locked (cudaHostAlloc, portable) when pinned
 * is 1 and a CUDA device exists, else ordinary 4 KiB-aligned memory.
 * *is_pinned (may be NULL) says which, *seconds (may be NULL) how long the
 * allocation took. Free with cuseal_host_free (NULL accepted). */
cuseal_error cuseal_host_alloc(uint64_t bytes, uint32_t pinned, void** out, int32_t* is_pinned, double* seconds);
cuseal_error cuseal_host_free(void* p);

#ifdef __cplusplus
}
#endif

#endif /* CUSEAL_H */
