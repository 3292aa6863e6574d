// SPDX-License-Identifier: Apache-2.0 OR MIT

/*
 * entry.h — the Go side of libcuseal's calls: the cgo exports of package
 * libcuseal, named libcuseal_go_<call>, which the C entry points
 * cuseal_porep_<call> (entry.go) call once they know the process can run
 * Go. Internal: callers use include/cuseal_porep.h only. These prototypes
 * must be cgo's own: TestGoEntryPrototypes compiles them together with
 * the header cgo writes for the exports (libcuseal.h).
 */
#ifndef LIBCUSEAL_ENTRY_H
#define LIBCUSEAL_ENTRY_H

#include <stddef.h>
#include <stdint.h>

#include "cuseal_porep.h"

int libcuseal_go_info(char** json_out, char** err_msg);
int libcuseal_go_seal_commit_phase2(uint8_t* c1, size_t c1_len, uint64_t sector_number, uint64_t miner_id,
                                    cuseal_porep_options* opts, uint8_t** proof_out, size_t* proof_len, char** err_msg);
int libcuseal_go_verify_seal(int64_t registered_proof, uint8_t* comm_r, uint8_t* comm_d, uint64_t miner_id,
                             uint64_t sector_number, uint8_t* ticket, uint8_t* seed, uint8_t* proof, size_t proof_len,
                             cuseal_porep_options* opts, char** err_msg);
int libcuseal_go_generate_test_params(int64_t registered_proof, char* dir, uint8_t* seed, uint32_t flags,
                                      cuseal_porep_options* opts, char** json_out, char** err_msg);
int libcuseal_go_generate_circuit_test_params(int32_t circuit, int64_t registered_proof, char* dir, uint8_t* seed,
                                              uint32_t flags, cuseal_porep_options* opts, char** json_out,
                                              char** err_msg);
int libcuseal_go_generate_winning_post_sector_challenge(int64_t registered_proof, uint8_t* randomness, size_t randomness_len,
                                                        uint64_t sector_set_len, uint64_t miner_id, uint64_t** indices_out,
                                                        size_t* indices_len, char** err_msg);
int libcuseal_go_generate_fallback_sector_challenges(int64_t registered_proof, uint8_t* randomness, size_t randomness_len,
                                                     uint64_t* sector_ids, size_t sector_ids_len, uint64_t miner_id,
                                                     uint64_t** sector_ids_out, size_t* sector_ids_out_len,
                                                     uint64_t** challenges_out, size_t* challenges_stride, char** err_msg);
int libcuseal_go_generate_winning_post_with_vanilla(int64_t registered_proof, uint8_t* randomness, size_t randomness_len,
                                                    uint64_t miner_id, cuseal_porep_bytes* vanilla_proofs,
                                                    size_t vanilla_proofs_len, cuseal_porep_options* opts,
                                                    uint8_t** proof_out, size_t* proof_len, char** err_msg);
int libcuseal_go_generate_window_post_with_vanilla(int64_t registered_proof, uint8_t* randomness, size_t randomness_len,
                                                   uint64_t miner_id, cuseal_porep_bytes* vanilla_proofs,
                                                   size_t vanilla_proofs_len, cuseal_porep_options* opts,
                                                   uint8_t** proof_out, size_t* proof_len, char** err_msg);
int libcuseal_go_generate_single_window_post_with_vanilla(int64_t registered_proof, uint8_t* randomness,
                                                          size_t randomness_len, uint64_t miner_id,
                                                          cuseal_porep_bytes* vanilla_proofs, size_t vanilla_proofs_len,
                                                          size_t partition_index, cuseal_porep_options* opts,
                                                          uint8_t** proof_out, size_t* proof_len, char** err_msg);
int libcuseal_go_merge_window_post_partition_proofs(int64_t registered_proof, cuseal_porep_bytes* partition_proofs,
                                                    size_t partition_proofs_len, uint8_t** proof_out, size_t* proof_len,
                                                    char** err_msg);
int libcuseal_go_verify_winning_post(int64_t registered_proof, uint8_t* randomness, size_t randomness_len,
                                     cuseal_porep_sector_info* sectors, size_t sectors_len, uint8_t* proof,
                                     size_t proof_len, uint64_t miner_id, cuseal_porep_options* opts, char** err_msg);
int libcuseal_go_verify_window_post(int64_t registered_proof, uint8_t* randomness, size_t randomness_len,
                                    cuseal_porep_sector_info* sectors, size_t sectors_len, uint8_t* proof,
                                    size_t proof_len, uint64_t miner_id, cuseal_porep_options* opts, char** err_msg);
int libcuseal_go_generate_empty_sector_update_proof_with_vanilla(int64_t registered_proof,
                                                                 cuseal_porep_bytes* vanilla_proofs,
                                                                 size_t vanilla_proofs_len, uint8_t* comm_r_old,
                                                                 uint8_t* comm_r_new, uint8_t* comm_d_new,
                                                                 cuseal_porep_options* opts, uint8_t** proof_out,
                                                                 size_t* proof_len, char** err_msg);
int libcuseal_go_verify_empty_sector_update_proof(int64_t registered_proof, uint8_t* proof, size_t proof_len,
                                                  uint8_t* comm_r_old, uint8_t* comm_r_new, uint8_t* comm_d_new,
                                                  cuseal_porep_options* opts, char** err_msg);
int libcuseal_go_aggregate_seal_proofs(int64_t registered_proof, int64_t registered_aggregation, uint64_t miner_id,
                                       cuseal_porep_aggregation_input* inputs, cuseal_porep_bytes* seal_proofs,
                                       size_t sectors_len, cuseal_porep_options* opts, uint8_t** aggregate_out,
                                       size_t* aggregate_len, char** err_msg);
int libcuseal_go_verify_aggregate_seal_proof(int64_t registered_proof, int64_t registered_aggregation, uint64_t miner_id,
                                             uint8_t* aggregate, size_t aggregate_len,
                                             cuseal_porep_aggregation_input* inputs, size_t inputs_len,
                                             cuseal_porep_options* opts, char** err_msg);
cuseal_porep_cancel* libcuseal_go_cancel_new(void);
void libcuseal_go_cancel_trigger(cuseal_porep_cancel* c);
void libcuseal_go_cancel_free(cuseal_porep_cancel* c);

#endif /* LIBCUSEAL_ENTRY_H */
