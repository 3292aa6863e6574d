// SPDX-License-Identifier: Apache-2.0 OR MIT

package main

/*
#cgo CFLAGS: -I${SRCDIR}/../include
#define CUSEAL_POREP_BUILDING_LIBRARY 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include "cuseal_porep.h"
#include "entry.h"

// The C entry points of include/cuseal_porep.h. Each checks, without
// touching the Go runtime, that it runs in the process that loaded the
// library, then calls its Go side (entry.h). Go's runtime does not survive
// fork() without exec(): the child has only the forking thread, and
// entering Go there waits forever whenever the call needs another of the
// runtime's threads or one of them held a lock at the fork (a check made
// in Go instead, as the first statement of each export, still hung 29 of
// 100 children forked while another thread was in a call, and 1 of 200
// forked from a quiet parent). So a call from a
// forked child is refused here, in C: its outputs are set to NULL and 0,
// *err_msg gets the reason, and the status is CUSEAL_POREP_ERR_INTERNAL.
// The functions that need no Go at all (options_init, abi_version, the
// frees) are plain C.

static pid_t cuseal_load_pid;

__attribute__((constructor)) static void cuseal_record_load_pid(void) { cuseal_load_pid = getpid(); }

static int cuseal_forked(void) { return getpid() != cuseal_load_pid; }

static int cuseal_refuse_forked(const char* call, char** err_msg) {
	if (err_msg != NULL) {
		char msg[640];
		snprintf(msg, sizeof msg,
		         "libcuseal: %s: called in process %ld, forked from process %ld after libcuseal was loaded there: the Go "
		         "runtime inside libcuseal does not survive fork() without exec(); load the library in the child process "
		         "(Python multiprocessing: the \"spawn\" or \"forkserver\" start method, loading it in the worker)",
		         call, (long)getpid(), (long)cuseal_load_pid);
		*err_msg = strdup(msg);
	}
	return CUSEAL_POREP_ERR_INTERNAL;
}

#define CUSEAL_NULL(p) \
	do { if ((p) != NULL) *(p) = NULL; } while (0)
#define CUSEAL_ZERO(n) \
	do { if ((n) != NULL) *(n) = 0; } while (0)
// CUSEAL_GUARD refuses a call from a forked child, clearing its outputs.
#define CUSEAL_GUARD(call, err_msg, clear_outputs) \
	do { if (cuseal_forked()) { clear_outputs; return cuseal_refuse_forked(call, err_msg); } } while (0)
#define CUSEAL_BYTES_OUT(p, n) \
	do { CUSEAL_NULL(p); CUSEAL_ZERO(n); } while (0)

void cuseal_porep_options_init(cuseal_porep_options* opts) {
	if (opts == NULL) return;
	memset(opts, 0, sizeof *opts);
	opts->struct_size = (uint32_t)sizeof *opts;
	opts->log_level = CUSEAL_POREP_LOG_OFF;
}

uint32_t cuseal_porep_abi_version(void) { return CUSEAL_POREP_ABI_VERSION; }

void cuseal_porep_proof_free(uint8_t* proof) { free(proof); }
void cuseal_porep_string_free(char* s) { free(s); }
void cuseal_porep_u64_array_free(uint64_t* a) { free(a); }

// A cancel handle cannot be made in a forked child (NULL, as when out of
// memory); triggering or freeing one there does nothing.
cuseal_porep_cancel* cuseal_porep_cancel_new(void) { return cuseal_forked() ? NULL : libcuseal_go_cancel_new(); }
void cuseal_porep_cancel_trigger(cuseal_porep_cancel* c) {
	if (!cuseal_forked()) libcuseal_go_cancel_trigger(c);
}
void cuseal_porep_cancel_free(cuseal_porep_cancel* c) {
	if (!cuseal_forked()) libcuseal_go_cancel_free(c);
}

int cuseal_porep_info(char** json_out, char** err_msg) {
	CUSEAL_GUARD("info", err_msg, CUSEAL_NULL(json_out));
	return libcuseal_go_info(json_out, err_msg);
}

int cuseal_porep_seal_commit_phase2(uint8_t* c1, size_t c1_len, uint64_t sector_number, uint64_t miner_id,
                                    cuseal_porep_options* opts, uint8_t** proof_out, size_t* proof_len, char** err_msg) {
	CUSEAL_GUARD("seal_commit_phase2", err_msg, CUSEAL_BYTES_OUT(proof_out, proof_len));
	return libcuseal_go_seal_commit_phase2(c1, c1_len, sector_number, miner_id, opts, proof_out, proof_len, err_msg);
}

int cuseal_porep_verify_seal(int64_t registered_proof, uint8_t* comm_r, uint8_t* comm_d, uint64_t miner_id,
                             uint64_t sector_number, uint8_t* ticket, uint8_t* seed, uint8_t* proof, size_t proof_len,
                             cuseal_porep_options* opts, char** err_msg) {
	CUSEAL_GUARD("verify_seal", err_msg, (void)0);
	return libcuseal_go_verify_seal(registered_proof, comm_r, comm_d, miner_id, sector_number, ticket, seed, proof,
	                                proof_len, opts, err_msg);
}

int cuseal_porep_generate_test_params(int64_t registered_proof, char* dir, uint8_t* seed, uint32_t flags,
                                      cuseal_porep_options* opts, char** json_out, char** err_msg) {
	CUSEAL_GUARD("generate_test_params", err_msg, CUSEAL_NULL(json_out));
	return libcuseal_go_generate_test_params(registered_proof, dir, seed, flags, opts, json_out, err_msg);
}

int cuseal_porep_generate_circuit_test_params(int32_t circuit, int64_t registered_proof, char* dir, uint8_t* seed,
                                              uint32_t flags, cuseal_porep_options* opts, char** json_out,
                                              char** err_msg) {
	CUSEAL_GUARD("generate_circuit_test_params", err_msg, CUSEAL_NULL(json_out));
	return libcuseal_go_generate_circuit_test_params(circuit, registered_proof, dir, seed, flags, opts, json_out,
	                                                 err_msg);
}

int cuseal_porep_generate_winning_post_sector_challenge(int64_t registered_proof, uint8_t* randomness,
                                                        size_t randomness_len, uint64_t sector_set_len,
                                                        uint64_t miner_id, uint64_t** indices_out,
                                                        size_t* indices_len, char** err_msg) {
	CUSEAL_GUARD("generate_winning_post_sector_challenge", err_msg,
	             do { CUSEAL_NULL(indices_out); CUSEAL_ZERO(indices_len); } while (0));
	return libcuseal_go_generate_winning_post_sector_challenge(registered_proof, randomness, randomness_len,
	                                                           sector_set_len, miner_id, indices_out, indices_len,
	                                                           err_msg);
}

int cuseal_porep_generate_fallback_sector_challenges(int64_t registered_proof, uint8_t* randomness,
                                                     size_t randomness_len, uint64_t* sector_ids,
                                                     size_t sector_ids_len, uint64_t miner_id,
                                                     uint64_t** sector_ids_out, size_t* sector_ids_out_len,
                                                     uint64_t** challenges_out, size_t* challenges_stride,
                                                     char** err_msg) {
	CUSEAL_GUARD("generate_fallback_sector_challenges", err_msg, do {
		CUSEAL_NULL(sector_ids_out);
		CUSEAL_ZERO(sector_ids_out_len);
		CUSEAL_NULL(challenges_out);
		CUSEAL_ZERO(challenges_stride);
	} while (0));
	return libcuseal_go_generate_fallback_sector_challenges(registered_proof, randomness, randomness_len, sector_ids,
	                                                        sector_ids_len, miner_id, sector_ids_out,
	                                                        sector_ids_out_len, challenges_out, challenges_stride,
	                                                        err_msg);
}

// The WinningPoSt and WindowPoSt provers, and below the verifiers, take the same arguments.
#define CUSEAL_POST_PROVER(kind)                                                                                   \
	int cuseal_porep_generate_##kind##_post_with_vanilla(                                                          \
	    int64_t registered_proof, uint8_t* randomness, size_t randomness_len, uint64_t miner_id,                   \
	    cuseal_porep_bytes* vanilla_proofs, size_t vanilla_proofs_len, cuseal_porep_options* opts,                 \
	    uint8_t** proof_out, size_t* proof_len, char** err_msg) {                                                  \
		CUSEAL_GUARD("generate_" #kind "_post_with_vanilla", err_msg, CUSEAL_BYTES_OUT(proof_out, proof_len)); \
		return libcuseal_go_generate_##kind##_post_with_vanilla(registered_proof, randomness, randomness_len,   \
		                                                        miner_id, vanilla_proofs, vanilla_proofs_len,  \
		                                                        opts, proof_out, proof_len, err_msg);          \
	}
CUSEAL_POST_PROVER(winning)
CUSEAL_POST_PROVER(window)

int cuseal_porep_generate_single_window_post_with_vanilla(int64_t registered_proof, uint8_t* randomness,
                                                          size_t randomness_len, uint64_t miner_id,
                                                          cuseal_porep_bytes* vanilla_proofs,
                                                          size_t vanilla_proofs_len, size_t partition_index,
                                                          cuseal_porep_options* opts, uint8_t** proof_out,
                                                          size_t* proof_len, char** err_msg) {
	CUSEAL_GUARD("generate_single_window_post_with_vanilla", err_msg, CUSEAL_BYTES_OUT(proof_out, proof_len));
	return libcuseal_go_generate_single_window_post_with_vanilla(registered_proof, randomness, randomness_len, miner_id,
	                                                             vanilla_proofs, vanilla_proofs_len, partition_index,
	                                                             opts, proof_out, proof_len, err_msg);
}

int cuseal_porep_merge_window_post_partition_proofs(int64_t registered_proof, cuseal_porep_bytes* partition_proofs,
                                                    size_t partition_proofs_len, uint8_t** proof_out,
                                                    size_t* proof_len, char** err_msg) {
	CUSEAL_GUARD("merge_window_post_partition_proofs", err_msg, CUSEAL_BYTES_OUT(proof_out, proof_len));
	return libcuseal_go_merge_window_post_partition_proofs(registered_proof, partition_proofs, partition_proofs_len,
	                                                       proof_out, proof_len, err_msg);
}

#define CUSEAL_POST_VERIFIER(kind)                                                                              \
	int cuseal_porep_verify_##kind##_post(int64_t registered_proof, uint8_t* randomness, size_t randomness_len, \
	                                      cuseal_porep_sector_info* sectors, size_t sectors_len, uint8_t* proof, \
	                                      size_t proof_len, uint64_t miner_id, cuseal_porep_options* opts,       \
	                                      char** err_msg) {                                                      \
		CUSEAL_GUARD("verify_" #kind "_post", err_msg, (void)0);                                            \
		return libcuseal_go_verify_##kind##_post(registered_proof, randomness, randomness_len, sectors,     \
		                                         sectors_len, proof, proof_len, miner_id, opts, err_msg);   \
	}
CUSEAL_POST_VERIFIER(winning)
CUSEAL_POST_VERIFIER(window)

int cuseal_porep_generate_empty_sector_update_proof_with_vanilla(int64_t registered_proof,
                                                                 cuseal_porep_bytes* vanilla_proofs,
                                                                 size_t vanilla_proofs_len, uint8_t* comm_r_old,
                                                                 uint8_t* comm_r_new, uint8_t* comm_d_new,
                                                                 cuseal_porep_options* opts, uint8_t** proof_out,
                                                                 size_t* proof_len, char** err_msg) {
	CUSEAL_GUARD("generate_empty_sector_update_proof_with_vanilla", err_msg, CUSEAL_BYTES_OUT(proof_out, proof_len));
	return libcuseal_go_generate_empty_sector_update_proof_with_vanilla(registered_proof, vanilla_proofs,
	                                                                    vanilla_proofs_len, comm_r_old, comm_r_new,
	                                                                    comm_d_new, opts, proof_out, proof_len, err_msg);
}

int cuseal_porep_verify_empty_sector_update_proof(int64_t registered_proof, uint8_t* proof, size_t proof_len,
                                                  uint8_t* comm_r_old, uint8_t* comm_r_new, uint8_t* comm_d_new,
                                                  cuseal_porep_options* opts, char** err_msg) {
	CUSEAL_GUARD("verify_empty_sector_update_proof", err_msg, (void)0);
	return libcuseal_go_verify_empty_sector_update_proof(registered_proof, proof, proof_len, comm_r_old, comm_r_new,
	                                                     comm_d_new, opts, err_msg);
}

int cuseal_porep_aggregate_seal_proofs(int64_t registered_proof, int64_t registered_aggregation, uint64_t miner_id,
                                       cuseal_porep_aggregation_input* inputs, cuseal_porep_bytes* seal_proofs,
                                       size_t sectors_len, cuseal_porep_options* opts, uint8_t** aggregate_out,
                                       size_t* aggregate_len, char** err_msg) {
	CUSEAL_GUARD("aggregate_seal_proofs", err_msg, CUSEAL_BYTES_OUT(aggregate_out, aggregate_len));
	return libcuseal_go_aggregate_seal_proofs(registered_proof, registered_aggregation, miner_id, inputs, seal_proofs,
	                                          sectors_len, opts, aggregate_out, aggregate_len, err_msg);
}

int cuseal_porep_verify_aggregate_seal_proof(int64_t registered_proof, int64_t registered_aggregation,
                                             uint64_t miner_id, uint8_t* aggregate, size_t aggregate_len,
                                             cuseal_porep_aggregation_input* inputs, size_t inputs_len,
                                             cuseal_porep_options* opts, char** err_msg) {
	CUSEAL_GUARD("verify_aggregate_seal_proof", err_msg, (void)0);
	return libcuseal_go_verify_aggregate_seal_proof(registered_proof, registered_aggregation, miner_id, aggregate,
	                                                aggregate_len, inputs, inputs_len, opts, err_msg);
}
*/
import "C"
