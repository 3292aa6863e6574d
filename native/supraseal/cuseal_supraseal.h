// SPDX-License-Identifier: Apache-2.0 OR MIT

/*
 * cuseal_supraseal.h — the C ABI of libcuseal_supraseal.a (native/supraseal/, Rust), a thin
 * shim over the supraseal-c2 crate (=0.1.2, Apache-2.0) that the Go package bridge/supraseal
 * (build tag supraseal) calls through cgo.
 *
 * Conventions:
 *  - Every fallible function returns cuseal_ss_error by value; code 0 means success, any other
 *    code comes with a NUL-terminated message. Rust panics and supraseal's C++ exceptions do
 *    not cross this boundary.
 *  - Caller memory is read (or, for proofs, written) only during the call.
 *  - Field elements use gnark-crypto's in-memory layout, which is also blst's and sppark's:
 *    Montgomery form, little-endian 64-bit limbs (Fr 32 bytes, R = 2^256; Fp 48 bytes,
 *    R = 2^384). supraseal-c2 takes a, b, c, the assignments and r, s in exactly this form
 *    (bellperson hands it blstrs Scalars, whose repr is blst_fr, Montgomery), so nothing is
 *    converted.
 *  - A proof comes back as 384 bytes: A (G1 affine: X, Y, 96 B), B (G2 affine: X.c0, X.c1,
 *    Y.c0, Y.c1, 192 B), C (G1 affine, 96 B), Montgomery limbs, infinity = all zero — the
 *    in-memory layout of gnark-crypto's bls12381.G1Affine/G2Affine (sppark's Affine_t<fp_t>
 *    and Affine_t<fp2_t>, supraseal's struct groth16_proof).
 */
#ifndef CUSEAL_SUPRASEAL_H
#define CUSEAL_SUPRASEAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CUSEAL_SS_ABI_VERSION 1
#define CUSEAL_SS_PROOF_BYTES 384 /* in-memory (Montgomery, affine) proof, see above */

/* Error codes (message says more). */
#define CUSEAL_SS_OK 0
#define CUSEAL_SS_EINVAL 1   /* bad argument: null pointer, inconsistent lengths/popcounts */
#define CUSEAL_SS_ESUPRA 2   /* supraseal-c2 / CUDA reported an error (its code is in the message) */
#define CUSEAL_SS_EPANIC 3   /* a Rust panic was caught */

typedef struct {
	int code;
	char message[256];
} cuseal_ss_error;

/* One synthesized circuit, field for field supraseal-c2 0.1.2's Assignment<fr_t>
 * (src/lib.rs, cuda/groth16_cuda.cu). Densities: 64-bit words, LSB first; *_bit_len bits;
 * *_popcount their set bits. a, b, c: abc_size evaluations (constraints including the
 * input_i * 0 = 0 rows); inputs start with ONE. Scalars are 4 uint64 limbs each. */
typedef struct {
	const uint64_t *a_aux_density;
	size_t a_aux_bit_len;
	size_t a_aux_popcount;

	const uint64_t *b_inp_density;
	size_t b_inp_bit_len;
	size_t b_inp_popcount;

	const uint64_t *b_aux_density;
	size_t b_aux_bit_len;
	size_t b_aux_popcount;

	const uint64_t *a;
	const uint64_t *b;
	const uint64_t *c;
	size_t abc_size;

	const uint64_t *inp_assignment_data;
	size_t inp_assignment_size;

	const uint64_t *aux_assignment_data;
	size_t aux_assignment_size;
} cuseal_ss_assignment;

/* An SRS loaded by supraseal from a bellperson .params file (opaque). */
typedef struct cuseal_ss_srs cuseal_ss_srs;

uint32_t cuseal_ss_abi_version(void);

/* Number of GPUs supraseal would use (sppark: compute capability >= 7.0 with cooperative
 * launch); 0 without a driver or a device. */
size_t cuseal_ss_device_count(void);

/* Load path (a bellperson .params file). With cache, supraseal's process-wide LRU keyed by
 * path is used (at most 4 entries). Fails without a GPU (supraseal allocates pinned memory).
 * On success *out owns a handle freed by cuseal_ss_srs_free. */
cuseal_ss_error cuseal_ss_srs_load(const char *path, bool cache, cuseal_ss_srs **out);

/* Frees a handle from cuseal_ss_srs_load (NULL: no-op). */
void cuseal_ss_srs_free(cuseal_ss_srs *srs);

/* Drops the SRS from supraseal's cache (its memory goes when the last handle is freed). */
void cuseal_ss_srs_evict(const cuseal_ss_srs *srs);

/* Runs the checks cuseal_ss_prove makes before proving (see there); needs no device. */
cuseal_ss_error cuseal_ss_check(const cuseal_ss_assignment *assignments, size_t n);

/* Proves n circuits with blinding r[i], s[i] (4 limbs each) into proofs (n * 384 bytes,
 * layout above). The shim checks each assignment's internal consistency (non-null vectors,
 * bit lengths equal to the assignment sizes, popcounts equal to the density words' set
 * bits) and that all circuits share the same densities (supraseal compacts the bases once,
 * from circuit 0); that each fits the SRS is the caller's job (cuseal checks it against the
 * same .params file). The whole call is serialised by supraseal's process-wide mutex. */
cuseal_ss_error cuseal_ss_prove(const cuseal_ss_assignment *assignments, size_t n,
                                const uint64_t *r, const uint64_t *s, uint8_t *proofs,
                                const cuseal_ss_srs *srs);

#ifdef __cplusplus
}
#endif

#endif /* CUSEAL_SUPRASEAL_H */
